// The DSD engine's step datapath (docs/isa.md 6.5, 6.6, 6.8 item 4): from the stepping
// microthread's view, the operands (SRAM words on the ports the plan chose, CE queue heads,
// the scalar), then what the step does: an FMAC operation for the next cycle's slot and a
// result in flight, or a value computed here (integer operations and moves). A split step reads
// src0 in its first cycle and keeps it here; its second half, in the next cycle, reads src1 and
// finishes. Fields of the slot and the result that a step does not use are zero.
// The functional model's twin: Ce::Step, Ce::Finish, Ce::Combine and ComputeStep (model/ce).
module tessera_ce_dsd_step (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  input  logic                                 live_i,
  input  logic                                 step_i,      // the step is taken ...
  input  logic [2:0]                           stepper_i,   // ... by this microthread
  input  tessera_pkg::dsd_ut_view_t         view_i,      // ... which looks like this
  input  logic [1:0]                           sc_ports_i,  // read ports the scalar stage took
  input  tessera_pkg::sram_rsp_t            sram_i,      // the words the plan's reads return
  input  logic [tessera_pkg::NumColors*32-1:0] in_data_i,   // CE queue heads
  output logic [tessera_pkg::NumColors-1:0]    pop_o,       // fabin operands taken
  output logic                                 cred_take_o, // a fabout step takes a credit
  output logic [4:0]                           cred_color_o,
  output logic                                 split_o,     // a split step's second half is due
  output logic [2:0]                           split_ut_o,
  output logic                                 spair_o,
  output tessera_pkg::dsd_slot_t            slot_o,      // the FMAC slot of the next cycle
  output tessera_pkg::dsd_result_t          result_o,    // the result put in flight
  output logic [1:0]                           elems_o      // elements the step finishes
);
  `include "tessera_pkg_use.svh"


  function automatic logic [2:0] stages(input logic [2:0] f);  // fdot combine steps (dsd_fmt_e)
    stages = f == DsdFmtF16 ? 3'd4 : 3'd3;
  endfunction

  function automatic logic [15:0] int16(input logic [4:0] op, input logic [15:0] x,
                                        input logic [15:0] y);
    logic [15:0] v;
    unique case (op)
      DsdOpIAdd: v = x + y;
      DsdOpISub: v = x - y;
      DsdOpIAnd: v = x & y;
      DsdOpIOr:  v = x | y;
      DsdOpIXor: v = x ^ y;
      DsdOpIShl: v = x << y[3:0];
      DsdOpIShr: v = x >> y[3:0];
      default:   v = x;
    endcase
    int16 = v;
  endfunction

  // fh2i: f16 -> i16 toward zero, saturating; {invalid, value} (model/fp/convert.h's
  // F16ToI16TowardZero). NaN gives 0x7FFF; -32768 is exact.
  function automatic logic [16:0] f16_to_i16(input logic [15:0] h);
    logic [4:0]  e;
    logic [10:0] m;
    logic [15:0] mag, v;
    logic        inv;
    e   = h[14:10];
    m   = {1'b1, h[9:0]};
    inv = 1'b0;
    mag = '0;
    v   = '0;
    if (e == 5'h1F) begin
      inv = 1'b1;
      v   = (h[9:0] != '0 || !h[15]) ? 16'h7FFF : 16'h8000;
    end else if (e >= 5'd30) begin
      inv = !(h[15] && e == 5'd30 && h[9:0] == '0);
      v   = h[15] ? 16'h8000 : 16'h7FFF;
    end else if (e >= 5'd15) begin
      mag = (e >= 5'd25) ? 16'(m) << (e - 5'd25) : 16'(m) >> (5'd25 - e);
      v   = h[15] ? 16'(0) - mag : mag;
    end
    f16_to_i16 = {inv, v};
  endfunction

  // A step's value without the FMAC (docs/isa.md 4.11): integer operations and bit moves.
  function automatic logic [31:0] int_step(input logic [4:0] op, input logic [2:0] fmt,
                                           input logic fill, input logic [31:0] x0,
                                           input logic [31:0] x1, input logic [31:0] s);
    logic [31:0] v;
    v = '0;
    if (op == DsdOpIMov) begin
      v = fill ? s : x0;
    end else if (op == DsdOpSel) begin  // per 16-bit lane for sel16
      if (fmt == DsdFmtW32) begin
        v = x0 != '0 ? x1 : s;
      end else begin
        v[31:16] = x0[31:16] != '0 ? x1[31:16] : s[31:16];
        v[15:0]  = x0[15:0] != '0 ? x1[15:0] : s[15:0];
      end
    end else if (fmt == DsdFmtW32) begin
      unique case (op)
        DsdOpIAdd: v = x0 + x1;
        DsdOpISub: v = x0 - x1;
        DsdOpIAnd: v = x0 & x1;
        DsdOpIOr:  v = x0 | x1;
        DsdOpIXor: v = x0 ^ x1;
        DsdOpIShl: v = x0 << x1[4:0];
        DsdOpIShr: v = x0 >> x1[4:0];
        default:   v = '0;
      endcase
    end else begin
      v = {int16(op, x0[31:16], x1[31:16]), int16(op, x0[15:0], x1[15:0])};
    end
    int_step = v;
  endfunction

  // The view's fields as plain signals (Yosys 0.23 cannot size a struct member in a case):
  // dsd_op_e, dsd_fmt_e and dsd_form_e values.
  logic [4:0] op;
  logic [2:0] fmt, form;
  assign op   = view_i.op;
  assign fmt  = view_i.fmt;
  assign form = view_i.form;
  // The FMAC operations of the operation's element steps and of a reduction's combine steps
  // (model/arch/isa.def: DsdOp FmacOp and CombineOp, fp_op_e values); a reduction into its
  // partial by MulAdd (dot products, sums) reads the partial as c, by Max or Min as b.
  logic [3:0] fmac_op, comb_op;
  logic       red_mac;
  assign fmac_op = DsdOpFmacOp[{op, 2'b00} +: 4];
  assign comb_op = DsdOpCombineOp[{op, 2'b00} +: 4];
  assign red_mac = fmac_op == 4'(FpOpMulAdd);

  logic [31:0] in_data [NumColors];
  for (genvar c = 0; c < NumColors; c++) begin : g_col
    assign in_data[c] = in_data_i[c*32 +: 32];
  end

  // ---------------------------------------------------------------------------------------------
  // Operands
  logic        split_q, split_d, spair_q, spair_d;
  logic [2:0]  sut_q, sut_d;
  logic [31:0] sx0_q, sx0_d;   // a split step's src0
  logic        pair;           // the step covers two 16-bit elements
  logic        take_x1;        // the step finishes in this cycle (not a split's first half)
  logic [31:0] x0, x1, s;
  always_comb begin
    logic        half_s;
    logic [31:0] sv, word;
    pop_o        = '0;
    cred_take_o  = 1'b0;
    cred_color_o = '0;
    split_d      = live_i ? 1'b0 : split_q;
    sut_d        = sut_q;
    spair_d      = spair_q;
    sx0_d        = sx0_q;
    pair         = split_q ? spair_q : view_i.pair;
    take_x1      = 1'b1;
    x0           = '0;
    x1           = '0;
    word         = '0;
    half_s = fmt == DsdFmtF16 || fmt == DsdFmtW16 || fmt == DsdFmtMix;
    sv     = half_s ? {2{view_i.scalar[15:0]}} : view_i.scalar;
    s      = sv;
    if (step_i) begin
      if (split_q) begin
        x0 = sx0_q;
      end else if (!view_i.comb && view_i.has[1]) begin
        if (view_i.src0.kind == 2'(DsdKindFabIn)) begin
          pop_o[view_i.src0.color] = 1'b1;
          x0 = view_i.src0.half ? {16'h0, in_data[view_i.src0.color][15:0]}
                                : in_data[view_i.src0.color];
        end else begin
          word = (sc_ports_i != 2'd0) ? sram_i.rd1_data : sram_i.rd0_data;
          x0 = (pair || !view_i.src0.half) ? word
             : {16'h0, view_i.src0.addr[1] ? word[31:16] : word[15:0]};
        end
      end
      if (!split_q && !view_i.comb && view_i.has[0] && view_i.dst.kind == 2'(DsdKindFabOut)) begin
        cred_take_o  = 1'b1;
        cred_color_o = view_i.dst.color;
      end
      if (!split_q && view_i.split) begin
        take_x1 = 1'b0;  // src1 is read in the next cycle
        split_d = 1'b1;
        sut_d   = stepper_i;
        spair_d = pair;
        sx0_d   = x0;
      end else if (!view_i.comb && view_i.has[2]) begin
        if (view_i.src1.kind == 2'(DsdKindFabIn)) begin
          pop_o[view_i.src1.color] = 1'b1;
          x1 = view_i.src1.half ? {16'h0, in_data[view_i.src1.color][15:0]}
                                : in_data[view_i.src1.color];
        end else begin
          x1 = (pair || !view_i.src1.half) ? sram_i.rd1_data
             : {16'h0, view_i.src1.addr[1] ? sram_i.rd1_data[31:16] : sram_i.rd1_data[15:0]};
        end
      end
      if (form == DsdFormVS) x1 = sv;
      // A sum is a dot product with ones (docs/isa.md 6.5).
      if (form == DsdFormRed) x1 = (fmt == DsdFmtF16) ? 32'h3C00_3C00 : 32'h3F80_0000;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      split_q <= 1'b0;
      spair_q <= 1'b0;
      sut_q   <= '0;
      sx0_q   <= '0;
    end else begin
      split_q <= split_d;
      spair_q <= spair_d;
      sut_q   <= sut_d;
      sx0_q   <= sx0_d;
    end
  end
  assign split_o    = split_q;
  assign split_ut_o = sut_q;
  assign spair_o    = spair_q;

  // fmachs (docs/isa.md 6.6): src0 + f32(src1) * f32(s), one rounding
  logic [31:0] x0_f32, x1_f32, s_f32;
  logic [4:0]  x0_flags, x1_flags, s_flags;
  tessera_f16_to_f32 u_x0_to_f32 (.h_i(x0[15:0]), .s_o(x0_f32), .flags_o(x0_flags));
  tessera_f16_to_f32 u_x1_to_f32 (.h_i(x1[15:0]), .s_o(x1_f32), .flags_o(x1_flags));
  tessera_f16_to_f32 u_s_to_f32  (.h_i(s[15:0]),  .s_o(s_f32),  .flags_o(s_flags));

  // ---------------------------------------------------------------------------------------------
  // What the step does: the FMAC slot and the result in flight
  always_comb begin
    logic [2:0] st;
    logic [2:0] i3;
    slot_o   = '0;
    result_o = '0;
    elems_o  = '0;
    st       = view_i.stage;
    i3       = view_i.i[2:0];
    if (step_i) begin
      slot_o.ut  = stepper_i;
      slot_o.fmt = (fmt == DsdFmtF16) ? 1'(FpFmtF16) : 1'(FpFmtF32);
      if (view_i.comb && !split_q) begin
        // a reduction's combine step (6.5): Add (Max, Min) of two partials or combine results
        logic f16;
        f16 = fmt == DsdFmtF16;
        slot_o.valid = 1'b1;
        slot_o.op    = comb_op;
        slot_o.a_ref = 1'b1;
        slot_o.b_ref = 1'b1;
        unique case (st)
          3'd0: begin slot_o.a_w = 3'd0; slot_o.b_w = 3'd1; end
          3'd1: begin slot_o.a_w = 3'd2; slot_o.b_w = 3'd3; end
          3'd2: begin slot_o.a_w = 3'd4; slot_o.b_w = 3'd5; end
          default: begin slot_o.a_w = 3'd6; slot_o.b_w = 3'd6; slot_o.b_hi = 1'b1; end
        endcase
        result_o.valid = 1'b1;
        result_o.ut    = stepper_i;
        result_o.fmac  = 1'b1;
        result_o.lanes = (f16 && st != 3'd3) ? 2'b11 : 2'b01;
        result_o.half  = f16 && st == 3'd3;
        if (st == stages(fmt) - 3'd1) begin
          result_o.kind = tessera_pkg::DsdResGpr;  // the last one: R[S]
          result_o.gpr  = view_i.sreg;
        end else begin
          result_o.dot  = 1'b1;                        // combine word 4 + st
          result_o.dw   = 3'd4 + st;
          result_o.dm   = 2'b11;
        end
      end else if (take_x1) begin
        // an element step finishes: its result goes into flight (6.8 item 1)
        elems_o        = pair ? 2'd2 : 2'd1;
        result_o.valid = 1'b1;
        result_o.ut    = stepper_i;
        if (view_i.dot) begin
          // a reduction step (6.5): x0 * x1 + p into partial p (fdot, and the sum with x1 = 1);
          // max or min: Max/Min(x0, p), the partial as b
          slot_o.valid   = 1'b1;
          slot_o.op      = fmac_op;
          slot_o.c_ref   = red_mac;
          slot_o.b_ref   = !red_mac;
          result_o.fmac  = 1'b1;
          result_o.dot   = 1'b1;
          if (fmt == DsdFmtF32 || fmt == DsdFmtMix) begin
            // fdothms (Mix): f16 elements widened to f32, exactly (flags: a signaling NaN)
            slot_o.a       = (fmt == DsdFmtMix) ? x0_f32 : x0;
            slot_o.b       = (fmt == DsdFmtMix) ? x1_f32 : x1;
            if (fmt == DsdFmtMix) result_o.flags = x0_flags | x1_flags;
            slot_o.c_w     = {1'b0, i3[1:0]};
            result_o.lanes = 2'b01;
            result_o.dw    = {1'b0, i3[1:0]};
            result_o.dm    = 2'b11;
          end else if (pair) begin
            slot_o.a       = x0;
            slot_o.b       = x1;
            slot_o.c_w     = {1'b0, i3[2:1]};
            result_o.lanes = 2'b11;
            result_o.dw    = {1'b0, i3[2:1]};
            result_o.dm    = 2'b11;
          end else begin
            slot_o.a       = i3[0] ? {x0[15:0], 16'h0} : {16'h0, x0[15:0]};
            slot_o.b       = i3[0] ? {x1[15:0], 16'h0} : {16'h0, x1[15:0]};
            slot_o.c_w     = {1'b0, i3[2:1]};
            result_o.lanes = i3[0] ? 2'b10 : 2'b01;
            result_o.dw    = {1'b0, i3[2:1]};
            result_o.dm    = i3[0] ? 2'b10 : 2'b01;
          end
          slot_o.b_w = slot_o.c_w;  // max and min read the partial as b
        end else begin
          if (view_i.fmac) begin
            slot_o.valid   = 1'b1;
            result_o.fmac  = 1'b1;
            result_o.lanes = pair ? 2'b11 : 2'b01;
            slot_o.a       = x0;
            slot_o.b       = x1;
            slot_o.c       = '0;
            slot_o.op      = fmac_op;
            // compares: gt and ge are lt and le of the swapped operands, ne inverts eq
            if (DsdOpIsCompare[op]) begin
              result_o.cmp     = 1'b1;
              result_o.cmp_inv = DsdOpIsCmpInverted[op];
              if (DsdOpIsCmpSwapped[op]) begin
                slot_o.a = x1;
                slot_o.b = x0;
              end
            end
            if (FpOpIsUnary[fmac_op]) slot_o.b = '0;
            // an i16 source of a conversion to f16 is sign-extended
            if (op == DsdOpCvtI2F && fmt == DsdFmtF16) slot_o.a = {{16{x0[15]}}, x0[15:0]};
            if (op == DsdOpMulAdd) begin
              if (fmt == DsdFmtMix) begin
                slot_o.a       = x1_f32;
                slot_o.b       = s_f32;
                result_o.flags = x1_flags | s_flags;
              end else begin
                slot_o.a = x1;
                slot_o.b = s;
              end
              slot_o.c = x0;
            end
          end else begin
            result_o.value = int_step(op, fmt, form == DsdFormFill, x0, x1, s);
            if (op == DsdOpCvtF2I) begin  // fh2i: f16 -> i16, no FMAC
              logic [16:0] cv;
              cv             = f16_to_i16(x0[15:0]);
              result_o.value = {16'h0, cv[15:0]};
              result_o.flags = {cv[16], 4'b0000};
            end
          end
          if (view_i.dst.kind == 2'(DsdKindMem1d)) begin
            result_o.kind  = tessera_pkg::DsdResSram;
            result_o.addr  = view_i.dst.addr[15:2];
            if (view_i.dst.fifo) begin  // a push: counted when it is written
              result_o.fifo  = 1'b1;
              result_o.color = view_i.dst.color;
            end
            result_o.half = !pair && view_i.dst.half;
            result_o.be   = (pair || !view_i.dst.half) ? 4'b1111
                          : view_i.dst.addr[1] ? 4'b1100 : 4'b0011;
          end else begin
            result_o.kind  = tessera_pkg::DsdResWave;
            result_o.ctrl  = view_i.ctrl;
            result_o.color = view_i.dst.color;
            result_o.half  = view_i.dst.half;
            result_o.hi    = view_i.idx ? view_i.base + view_i.i : 16'h0;
          end
        end
      end
    end
  end

  logic unused;
  assign unused = ^{sram_i.fetch_data, view_i.i[15:3], view_i.fifos};  // (the FIFOs' gate)
endmodule
