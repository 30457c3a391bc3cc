// The FMAC datapath of the Tessera PE: IEEE 754 binary32 and 2-lane binary16 SIMD, bit-exact with
// Berkeley SoftFloat 3e (RISC-V specialisation), round to nearest even, subnormals in and out,
// tininess after rounding, canonical NaNs. One operation issued per cycle, every operation with
// the same latency tessera_pkg::FmacLatency (valid_o is valid_i delayed by exactly that many
// cycles); no stalls, no hazards. See docs/fmac.md, "RTL datapath".
//
// Operands (docs/fmac.md, "The word-level interface (FpCase)"; model/fp/fp_backend.h):
//   f32: the word. f16 Add, Sub, Mul, MulAdd, Min, Max, Neg, Abs, Div, Sqrt: two independent lanes, lane 0
//   in bits 15:0 and lane 1 in bits 31:16, flags of lane l in flags_o[5*l +: 5]. f16 compares
//   and conversions use lane 0 only; their result is zero-extended and lane 1 flags are zero.
//   Add = a * 1.0 + b, Sub = a * 1.0 + (-b), Mul = a * b + (-0), MulAdd = a * b + c, all through
//   the fused multiply-add cores (one rounding, bit-exact with SoftFloat's add/sub/mul).
//   CvtF2F and CvtF2I: fmt_i is the source format; CvtI2F: fmt_i is the destination format.
//   Div = a / b and Sqrt = sqrt(a): tessera_fmac_divsqrt, one per format and lane.
//
// Stages (FmacLatency = 4): input register | S1 unpack, S2 multiply and align | S3 add and
// normalise | S4 round and select, output register. Compares, min/max, sign operations,
// conversions, division and square root are computed after the input register and delayed
// alongside. No logic hangs on the
// input ports, so a verilated model evaluates the datapath once per clock edge. Other latencies:
// 1 to 3 drop registers (1: the output register only), 5 adds one after S1, more add output stages.
`include "../prim/tessera_assert.svh"

module tessera_fmac (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 en_i,     // 0 holds every stage (the PE is frozen)
  input  logic                 valid_i,
  input  tessera_pkg::fp_op_e  op_i,
  input  tessera_pkg::fp_fmt_e fmt_i,
  input  logic [31:0]          a_i,
  input  logic [31:0]          b_i,
  input  logic [31:0]          c_i,
  output logic                 valid_o,
  output logic [31:0]          result_o,
  output logic [2*5-1:0]       flags_o    // lane l at [5*l +: 5], tessera_pkg::fp_flag_e bits
);
  localparam int unsigned Latency  = tessera_pkg::FmacLatency;
  // register placement: input register, FMA stage registers (bit k: after stage k+1), output
  localparam int unsigned InRegs   = (Latency >= 2) ? 1 : 0;
  localparam logic [2:0]  FmaRegs  = (Latency >= 5) ? 3'b111 :
                                     (Latency == 4) ? 3'b110 :
                                     (Latency == 3) ? 3'b010 : 3'b000;
  localparam int unsigned CoreRegs = (Latency >= 5) ? 3 : (Latency == 4) ? 2 :
                                     (Latency == 3) ? 1 : 0;
  localparam int unsigned OutDepth = (Latency > InRegs + CoreRegs) ?
                                     Latency - InRegs - CoreRegs : 1;

  localparam logic [31:0] One32     = 32'h3F80_0000;
  localparam logic [31:0] NegZero32 = 32'h8000_0000;
  localparam logic [15:0] One16     = 16'h3C00;
  localparam logic [15:0] NegZero16 = 16'h8000;

`ifndef SYNTHESIS
  if (Latency < 1) begin : g_bad_latency
    $error("tessera_fmac: tessera_pkg::FmacLatency must be at least 1");
  end
`endif

  // -----------------------------------------------------------------------------------------------
  // Input register
  // -----------------------------------------------------------------------------------------------
  logic                 in_valid;
  tessera_pkg::fp_op_e  in_op;
  tessera_pkg::fp_fmt_e in_fmt;
  logic [31:0]          in_a, in_b, in_c;

  if (InRegs != 0) begin : g_in_reg
    // Loads while an operation enters or leaves it; an idle FMAC holds zeros (no valid_i, so
    // the other fields enter as zeros), and every unit after it stays idle.
    logic                 load;
    logic                 valid_q;
    tessera_pkg::fp_op_e  op_d, op_q;
    tessera_pkg::fp_fmt_e fmt_d, fmt_q;
    logic [31:0]          a_d, b_d, c_d, a_q, b_q, c_q;

    always_comb begin
      load  = en_i && (valid_i || valid_q);
      op_d  = tessera_pkg::FpOpAdd;
      fmt_d = tessera_pkg::FpFmtF32;
      a_d   = '0;
      b_d   = '0;
      c_d   = '0;
      if (valid_i) begin
        op_d  = op_i;
        fmt_d = fmt_i;
        a_d   = a_i;
        b_d   = b_i;
        c_d   = c_i;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        op_q    <= tessera_pkg::FpOpAdd;
        fmt_q   <= tessera_pkg::FpFmtF32;
        a_q     <= '0;
        b_q     <= '0;
        c_q     <= '0;
      end else if (load) begin
        valid_q <= valid_i;
        op_q    <= op_d;
        fmt_q   <= fmt_d;
        a_q     <= a_d;
        b_q     <= b_d;
        c_q     <= c_d;
      end
    end

    assign in_valid = valid_q;
    assign in_op    = op_q;
    assign in_fmt   = fmt_q;
    assign in_a     = a_q;
    assign in_b     = b_q;
    assign in_c     = c_q;
  end else begin : g_in_wire
    assign in_valid = valid_i;
    assign in_op    = op_i;
    assign in_fmt   = fmt_i;
    assign in_a     = a_i;
    assign in_b     = b_i;
    assign in_c     = c_i;
  end

  // -----------------------------------------------------------------------------------------------
  // Decode, operand substitution for add/sub/mul
  // -----------------------------------------------------------------------------------------------
  logic        is_fma, is_two_lane;
  logic [31:0] fma_b, fma_c;  // f32 operands; the f16 lanes use the same word layout

  always_comb begin
    is_fma      = 1'b0;
    is_two_lane = tessera_pkg::FpOpIsTwoLaneF16[in_op];  // model/arch/tessera.def
    fma_b       = in_b;
    fma_c       = in_c;
    unique case (in_op)
      tessera_pkg::FpOpAdd: begin
        is_fma = 1'b1;
        fma_c = in_b;
        if (in_fmt == tessera_pkg::FpFmtF16) fma_b = {One16, One16};
        else                                fma_b = One32;
      end
      tessera_pkg::FpOpSub: begin
        is_fma = 1'b1;
        if (in_fmt == tessera_pkg::FpFmtF16) begin
          fma_b = {One16, One16};
          fma_c = in_b ^ {NegZero16, NegZero16};
        end else begin
          fma_b = One32;
          fma_c = in_b ^ NegZero32;
        end
      end
      tessera_pkg::FpOpMul: begin
        is_fma = 1'b1;
        if (in_fmt == tessera_pkg::FpFmtF16) fma_c = {NegZero16, NegZero16};
        else                                fma_c = NegZero32;
      end
      tessera_pkg::FpOpMulAdd: begin
        is_fma = 1'b1;
      end
      default: ;
    endcase
  end

  // Which unit an issued operation uses: each unit computes only for its operations (the others
  // give zeros), so a verilated model skips the logic of idle units and stages.
  logic fma32_go, fma16_go, nc_op, nc32_go, nc16_go, cvt_go;
  always_comb begin
    fma32_go = in_valid && is_fma && in_fmt == tessera_pkg::FpFmtF32;
    fma16_go = in_valid && is_fma && in_fmt == tessera_pkg::FpFmtF16;
    nc_op    = in_op == tessera_pkg::FpOpMin || in_op == tessera_pkg::FpOpMax ||
               in_op == tessera_pkg::FpOpNeg || in_op == tessera_pkg::FpOpAbs ||
               in_op == tessera_pkg::FpOpLt || in_op == tessera_pkg::FpOpLe ||
               in_op == tessera_pkg::FpOpEq;
    nc32_go  = in_valid && nc_op && in_fmt == tessera_pkg::FpFmtF32;
    nc16_go  = in_valid && nc_op && in_fmt == tessera_pkg::FpFmtF16;
    cvt_go   = in_valid && (in_op == tessera_pkg::FpOpCvtF2F || in_op == tessera_pkg::FpOpCvtF2I ||
                            in_op == tessera_pkg::FpOpCvtI2F);
  end

  // -----------------------------------------------------------------------------------------------
  // Fused multiply-add cores: one binary32, one binary16 per lane. S4 (round) is combinational on
  // their last stage register.
  // -----------------------------------------------------------------------------------------------
  logic [31:0] fma32_res;
  logic [4:0]  fma32_flags;

  tessera_fmac_fma #(.ExpBits(8), .ManBits(23), .Regs(FmaRegs)) u_fma32 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en_i),
    .valid_i (fma32_go),
    .a_i     (in_a),
    .b_i     (fma_b),
    .c_i     (fma_c),
    .result_o(fma32_res),
    .flags_o (fma32_flags)
  );

  logic [31:0]  fma16_res;     // lane l at [16*l +: 16]
  logic [9:0]   fma16_flags;   // lane l at [5*l +: 5]
  logic [31:0]  nc16_res;
  logic [9:0]   nc16_flags;
  logic [31:0]  ds16_res;      // division and square root, lane l at [16*l +: 16]
  logic [9:0]   ds16_flags;
  logic         is_div_sqrt, div_sqrt_op;  // a valid division or root issued; the op alone

  assign div_sqrt_op = (in_op == tessera_pkg::FpOpDiv) | (in_op == tessera_pkg::FpOpSqrt);
  assign is_div_sqrt = in_valid & div_sqrt_op;

  for (genvar l = 0; l < 2; l++) begin : g_lane
    tessera_fmac_fma #(.ExpBits(5), .ManBits(10), .Regs(FmaRegs)) u_fma16 (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .en_i    (en_i),
      .valid_i (fma16_go),
      .a_i     (in_a[16*l +: 16]),
      .b_i     (fma_b[16*l +: 16]),
      .c_i     (fma_c[16*l +: 16]),
      .result_o(fma16_res[16*l +: 16]),
      .flags_o (fma16_flags[5*l +: 5])
    );

    tessera_fmac_noncomp #(.ExpBits(5), .ManBits(10)) u_noncomp16 (
      .active_i (nc16_go),
      .op_i     (in_op),
      .a_i     (in_a[16*l +: 16]),
      .b_i     (in_b[16*l +: 16]),
      .result_o(nc16_res[16*l +: 16]),
      .flags_o (nc16_flags[5*l +: 5])
    );

    tessera_fmac_divsqrt #(.ExpBits(5), .ManBits(10)) u_divsqrt16 (
      .active_i(is_div_sqrt && in_fmt == tessera_pkg::FpFmtF16),
      .sqrt_i  (in_op == tessera_pkg::FpOpSqrt),
      .a_i     (in_a[16*l +: 16]),
      .b_i     (in_b[16*l +: 16]),
      .result_o(ds16_res[16*l +: 16]),
      .flags_o (ds16_flags[5*l +: 5])
    );
  end

  // -----------------------------------------------------------------------------------------------
  // Single-stage operations, computed after the input register and delayed with the control
  // -----------------------------------------------------------------------------------------------
  logic [31:0] nc32_res, cvt_res, misc_res, ds32_res;
  logic [4:0]  nc32_flags, cvt_flags, ds32_flags;
  logic [9:0]  misc_flags;

  tessera_fmac_noncomp #(.ExpBits(8), .ManBits(23)) u_noncomp32 (
    .active_i (nc32_go),
    .op_i     (in_op),
    .a_i     (in_a),
    .b_i     (in_b),
    .result_o(nc32_res),
    .flags_o (nc32_flags)
  );

  tessera_fmac_divsqrt #(.ExpBits(8), .ManBits(23)) u_divsqrt32 (
    .active_i(is_div_sqrt && in_fmt == tessera_pkg::FpFmtF32),
    .sqrt_i  (in_op == tessera_pkg::FpOpSqrt),
    .a_i     (in_a),
    .b_i     (in_b),
    .result_o(ds32_res),
    .flags_o (ds32_flags)
  );

  tessera_fmac_cvt u_cvt (
    .active_i (cvt_go),
    .op_i     (in_op),
    .fmt_i   (in_fmt),
    .a_i     (in_a),
    .result_o(cvt_res),
    .flags_o (cvt_flags)
  );

  always_comb begin
    misc_res   = '0;
    misc_flags = '0;
    unique case (in_op)
      // two-lane in f16: the non-computational ops, division and square root
      tessera_pkg::FpOpMin, tessera_pkg::FpOpMax, tessera_pkg::FpOpNeg, tessera_pkg::FpOpAbs,
      tessera_pkg::FpOpDiv, tessera_pkg::FpOpSqrt: begin
        if (in_fmt == tessera_pkg::FpFmtF16) begin
          misc_res   = div_sqrt_op ? ds16_res : nc16_res;
          misc_flags = div_sqrt_op ? ds16_flags : nc16_flags;
        end else begin
          misc_res   = div_sqrt_op ? ds32_res : nc32_res;
          misc_flags = {5'b00000, div_sqrt_op ? ds32_flags : nc32_flags};
        end
      end
      tessera_pkg::FpOpLt, tessera_pkg::FpOpLe, tessera_pkg::FpOpEq: begin
        if (in_fmt == tessera_pkg::FpFmtF16) begin
          misc_res   = {16'd0, nc16_res[15:0]};
          misc_flags = {5'b00000, nc16_flags[4:0]};
        end else begin
          misc_res   = nc32_res;
          misc_flags = {5'b00000, nc32_flags};
        end
      end
      tessera_pkg::FpOpCvtF2F, tessera_pkg::FpOpCvtF2I, tessera_pkg::FpOpCvtI2F: begin
        misc_res   = cvt_res;
        misc_flags = {5'b00000, cvt_flags};
      end
      default: ;
    endcase
  end

  // -----------------------------------------------------------------------------------------------
  // Control and single-stage results through the FMA stages, then select and the output register
  // -----------------------------------------------------------------------------------------------
  localparam int unsigned CtlW = 1 + 4 + 1 + 1 + 1 + 32 + 10;

  logic        s4_valid, s4_is_fma, s4_is_two_lane, s4_fmt;
  logic [3:0]  s4_op;
  logic [31:0] s4_misc_res, s4_res;
  logic [9:0]  s4_misc_flags, s4_flags;

  tessera_pipe #(.Width(CtlW), .Stages(CoreRegs), .ValidBit(CtlW - 1)) u_ctl_pipe (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .d_i   ({in_valid, in_op, in_fmt, is_fma, is_two_lane, misc_res, misc_flags}),
    .q_o   ({s4_valid, s4_op, s4_fmt, s4_is_fma, s4_is_two_lane, s4_misc_res, s4_misc_flags})
  );

  always_comb begin
    if (!s4_is_fma) begin
      s4_res   = s4_misc_res;
      s4_flags = s4_misc_flags;
    end else if (s4_fmt == tessera_pkg::FpFmtF16) begin
      s4_res   = fma16_res;
      s4_flags = fma16_flags;
    end else begin
      s4_res   = fma32_res;
      s4_flags = {5'b00000, fma32_flags};
    end
  end

  localparam int unsigned OutW = 1 + 4 + 1 + 1 + 32 + 10;
  logic       out_is_two_lane, out_fmt;
  logic [3:0] out_op;

  tessera_pipe #(.Width(OutW), .Stages(OutDepth), .ValidBit(OutW - 1)) u_out_pipe (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (en_i),
    .d_i   ({s4_valid, s4_op, s4_fmt, s4_is_two_lane, s4_res, s4_flags}),
    .q_o   ({valid_o, out_op, out_fmt, out_is_two_lane, result_o, flags_o})
  );

  // -----------------------------------------------------------------------------------------------
  // Assertions on the output (on under Verilator --assert, gone for synthesis)
  // -----------------------------------------------------------------------------------------------
`ifndef SYNTHESIS
  logic out_f16, out_cmp, out_float32, out_float16x2, nan32, nan16_lo, nan16_hi;

  // computed only for a valid output: an idle FMAC checks nothing
  always_comb begin
    out_f16       = 1'b0;
    out_cmp       = 1'b0;
    out_float32   = 1'b0;
    out_float16x2 = 1'b0;
    nan32         = 1'b0;
    nan16_lo      = 1'b0;
    nan16_hi      = 1'b0;
    if (valid_o) begin
      out_f16 = (out_fmt == tessera_pkg::FpFmtF16);
      out_cmp = (out_op == tessera_pkg::FpOpLt) | (out_op == tessera_pkg::FpOpLe) |
                (out_op == tessera_pkg::FpOpEq);
      // results that are IEEE values other than neg/abs: any NaN among them must be canonical
      out_float32   = ~out_f16 & out_is_two_lane & (out_op != tessera_pkg::FpOpNeg) &
                      (out_op != tessera_pkg::FpOpAbs)
                    | (out_f16 & (out_op == tessera_pkg::FpOpCvtF2F))
                    | (~out_f16 & (out_op == tessera_pkg::FpOpCvtI2F));
      out_float16x2 = out_f16 & out_is_two_lane & (out_op != tessera_pkg::FpOpNeg) &
                      (out_op != tessera_pkg::FpOpAbs);
      nan32    = (result_o[30:23] == 8'hFF) & (result_o[22:0] != '0);
      nan16_lo = (result_o[14:10] == 5'h1F) & (result_o[9:0] != '0);
      nan16_hi = (result_o[30:26] == 5'h1F) & (result_o[25:16] != '0);
    end
  end

  `ASSERT_IF(Lane1FlagsOnlyInTwoLaneF16, valid_o, (out_f16 && out_is_two_lane) ||
                                                  flags_o[9:5] == '0)
  `ASSERT_IF(InfiniteFlagOnlyFromDivision, valid_o, out_op == tessera_pkg::FpOpDiv ||
                                                    (flags_o[3] == 1'b0 && flags_o[8] == 1'b0))
  `ASSERT_IF(CompareIsBoolean, valid_o && out_cmp, result_o[31:1] == '0)
  `ASSERT_IF(NanIsCanonical32, valid_o && out_float32 && nan32,
             result_o == tessera_pkg::CanonicalNan32)
  `ASSERT_IF(NanIsCanonical16, valid_o && out_float16x2,
             (!nan16_lo || result_o[15:0] == 16'h7E00) && (!nan16_hi || result_o[31:16] == 16'h7E00))
`else
  logic unused_out;
  assign unused_out = ^{out_op, out_fmt, out_is_two_lane};
`endif
endmodule
