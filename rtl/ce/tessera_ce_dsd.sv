// The DSD engine of the compute engine (docs/isa.md 2.4, 4.11, 5.3, 6): eight microthreads, each
// running one DSD operation over mem1d and fabric operands, and at most one element step per
// cycle through the PE's SRAM read ports and FMAC. The cycle follows docs/isa.md 6.8: results due
// (item 1), the issue checks of the scalar pipeline's DSD instruction (item 3), then the engine
// (item 4): operations ended by control wavelets, the readiness of every microthread's next step,
// the round robin, split steps, fdot partials and combine steps, and completions in microthread
// order. The functional model's twin is model/ce/dsd.cpp; both implement the same rules.
//
// A step taken in cycle c presents its FMAC operands in c+1 (the FMAC slot) and its result is due
// in c+DsdLatency, when the FMAC output appears. fdot partial sums live here, updated when their
// results are due; a step that needs a partial in the very cycle it is due takes it from the FMAC
// output (forwarding), which is what "ready = taken + FmacLatency" of 6.5 means in hardware.
module tessera_ce_dsd (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,
  input  logic                                  live_i,   // enabled, no fault recorded
  input  logic                                  go_i,     // live, and the scalar stage did not fault
  // the DSD instruction at issue (docs/isa.md 4.11): checks, and its effects when it issues
  input  logic [31:0]                           iss_insn_i,
  input  tessera_pkg::isa_dec_t                 iss_dec_i,
  input  logic                                  iss_go_i,
  input  logic [15:0]                           iss_pc_i,
  input  logic [63:0]                           iss_dsr_dst_i,
  input  logic [63:0]                           iss_dsr_src0_i,
  input  logic [63:0]                           iss_dsr_src1_i,
  input  logic [31:0]                           iss_scalar_i,
  input  logic [tessera_pkg::NumColors-1:0]     can_send_i,
  input  logic [tessera_pkg::NumColors-1:0]     can_recv_i,
  output logic                                  iss_busy_o,   // its microthread is busy
  output logic                                  iss_fault_o,
  output logic [4:0]                            iss_cause_o,
  output logic [31:0]                           iss_addr_o,
  output logic [31:0]                           iss_info_o,
  // what the scalar pipeline took in this cycle
  input  logic [1:0]                            sc_ports_i,
  input  logic [7:0]                            sc_banks_i,
  input  logic [11:0]                           sc_row_i,
  input  logic                                  sc_fmac_i,
  input  logic [tessera_pkg::NumColors*4-1:0]   ocred_i,      // after the scalar stage's send
  // CE input queue heads (start of cycle)
  input  logic [tessera_pkg::NumColors-1:0]     in_valid_i,
  input  logic [tessera_pkg::NumColors-1:0]     in_ctrl_i,
  input  logic [tessera_pkg::NumColors*32-1:0]  in_data_i,
  output logic [tessera_pkg::NumColors-1:0]     pop_o,
  output logic                                  cred_take_o,  // a fabout step takes a credit
  output logic [4:0]                            cred_color_o,
  // SRAM reads: port 0 only when the scalar stage reads nothing
  output logic                                  rd0_en_o,
  output logic [13:0]                           rd0_addr_o,
  input  logic [31:0]                           rd0_data_i,
  output logic                                  rd1_en_o,
  output logic [13:0]                           rd1_addr_o,
  input  logic [31:0]                           rd1_data_i,
  // results due in this cycle (item 1)
  output logic                                  wr_en_o,
  output logic [13:0]                           wr_addr_o,
  output logic [3:0]                            wr_be_o,
  output logic [31:0]                           wr_data_o,
  output tessera_pkg::link_t                    wave_o,
  output logic                                  gpr_we_o,
  output logic [3:0]                            gpr_waddr_o,
  output logic [31:0]                           gpr_wdata_o,
  output logic [4:0]                            flags_o,
  // the second cycle of a split step: read ports and the next FMAC slot are the engine's
  output logic                                  split_o,
  // the FMAC slot of this cycle
  output logic                                  fp_valid_o,
  output tessera_pkg::fp_op_e                   fp_op_o,
  output tessera_pkg::fp_fmt_e                  fp_fmt_o,
  output logic [31:0]                           fp_a_o,
  output logic [31:0]                           fp_b_o,
  output logic [31:0]                           fp_c_o,
  input  logic [31:0]                           fp_result_i,
  input  logic [9:0]                            fp_flags_i,
  // completions (docs/isa.md 5.3)
  input  logic [tessera_pkg::NumTasks*2-1:0]    tkind_i,
  output logic [31:0]                           activate_o,
  output logic [31:0]                           unblock_o,
  // a fault of a microthread's step or completion (ranked after the scalar stage)
  output logic                                  fault_o,
  output logic [4:0]                            fault_cause_o,
  output logic [15:0]                           fault_pc_o,
  output logic [31:0]                           fault_addr_o,
  output logic [31:0]                           fault_info_o,
  // state for CeStatus, CeColor, UtStatus and UtInfo
  output logic [tessera_pkg::NumMicrothreads-1:0]      busy_o,
  output logic [tessera_pkg::NumColors-1:0]            reads_o,
  output logic [tessera_pkg::NumMicrothreads*32-1:0]   status_o,
  output logic [tessera_pkg::NumMicrothreads*32-1:0]   info_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumUts = NumMicrothreads;
  localparam int unsigned Lat    = DsdLatency;
  localparam int unsigned AW     = 21;  // running element addresses (signed; see docs/isa.md 4.11)
  localparam int unsigned NumDw  = 7;   // fdot words per microthread: partials 0..3, combines 4..6
  // operand roles: 0 dst, 1 src0, 2 src1
  localparam logic [1:0] KMem = 2'd1, KIn = 2'd2, KOut = 2'd3;
  localparam logic [1:0] RSram = 2'd1, RWave = 2'd2, RGpr = 2'd3;  // result kinds; 0: none

  // ---------------------------------------------------------------------------------------------
  // Helpers
  function automatic logic type_fits(input elem_class_e c, input logic [2:0] e);
    logic ok;
    unique case (c)
      ElemClassF32: ok = e == 3'(ElemTypeF32);
      ElemClassF16: ok = e == 3'(ElemTypeF16);
      ElemClassI32: ok = e == 3'(ElemTypeI32) || e == 3'(ElemTypeU32);
      ElemClassI16: ok = e == 3'(ElemTypeI16) || e == 3'(ElemTypeU16);
      ElemClassX32: ok = !e[0];
      ElemClassX16: ok = e[0];
      default:      ok = 1'b1;
    endcase
    type_fits = ok;
  endfunction

  function automatic logic [31:0] mk_info(input logic [2:0] role, input logic [3:0] ut,
                                          input logic [3:0] dsr, input logic [14:0] index);
    logic [31:0] v;
    v = '0;
    v[FaultInfoRoleLsb +: 3]   = role;
    v[FaultInfoUtLsb +: 4]     = ut;
    v[FaultInfoDsrLsb +: 4]    = dsr;
    v[FaultInfoIndexLsb +: 15] = index;
    mk_info = v;
  endfunction

  // f16 -> f32, exact; a NaN becomes the canonical NaN, invalid if signaling. {flags, value}.
  function automatic logic [36:0] h2s(input logic [15:0] h);
    logic [31:0] r;
    logic [4:0]  fl, p;
    logic [22:0] frac;
    r  = '0;
    fl = '0;
    p  = '0;
    frac = '0;
    if (h[14:10] == 5'h1F) begin
      if (h[9:0] == 10'h0) begin
        r = {h[15], 8'hFF, 23'h0};
      end else begin
        r  = 32'h7FC0_0000;
        fl = h[9] ? 5'h0 : 5'(FpFlagInvalid);
      end
    end else if (h[14:10] == 5'h0) begin
      if (h[9:0] == 10'h0) begin
        r = {h[15], 31'h0};
      end else begin
        for (int k = 0; k < 10; k++) if (h[k]) p = 5'(k);
        frac = 23'({h[9:0], 13'h0} << (5'd10 - p));
        r    = {h[15], 8'(p) + 8'd103, frac};
      end
    end else begin
      r = {h[15], 8'(h[14:10]) + 8'd112, h[9:0], 13'h0};
    end
    h2s = {fl, r};
  endfunction

  function automatic logic [15:0] int16(input dsd_op_e op, input logic [15:0] x,
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

  // A non-FMAC step's value (docs/isa.md 4.11): integer ops and bit moves.
  function automatic logic [31:0] int_step(input dsd_op_e op, input dsd_fmt_e fmt,
                                           input logic fill, input logic [31:0] x0,
                                           input logic [31:0] x1, input logic [31:0] s);
    logic [31:0] v;
    v = '0;
    if (op == DsdOpIMov) begin
      v = fill ? s : x0;
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

  // ---------------------------------------------------------------------------------------------
  // State
  logic [NumUts-1:0] busy_q, busy_d, sync_q, sync_d, ended_q, ended_d;
  logic [NumUts-1:0] dot_q, dot_d, fmac_q, fmac_d, pairs_q, pairs_d, unbl_q, unbl_d;
  logic [NumUts-1:0] unb_q, unb_d;  // unbounded length
  logic [15:0]       upc_q [NumUts];
  logic [15:0]       upc_d [NumUts];
  logic [6:0]        opc_q [NumUts];
  logic [6:0]        opc_d [NumUts];
  dsd_op_e           op_q [NumUts];
  dsd_op_e           op_d [NumUts];
  dsd_fmt_e          fmt_q [NumUts];
  dsd_fmt_e          fmt_d [NumUts];
  dsd_form_e         form_q [NumUts];
  dsd_form_e         form_d [NumUts];
  logic [2:0]        has_q [NumUts];
  logic [2:0]        has_d [NumUts];
  logic [1:0]        okind_q [NumUts*3];
  logic [1:0]        okind_d [NumUts*3];
  logic              ohalf_q [NumUts*3];
  logic              ohalf_d [NumUts*3];
  logic [4:0]        ocol_q [NumUts*3];
  logic [4:0]        ocol_d [NumUts*3];
  logic [3:0]        odsr_q [NumUts*3];
  logic [3:0]        odsr_d [NumUts*3];
  logic [AW-1:0]     oaddr_q [NumUts*3];  // signed: the address of element i
  logic [AW-1:0]     oaddr_d [NumUts*3];
  logic [18:0]       oinc_q [NumUts*3];   // signed: Stride * element size
  logic [18:0]       oinc_d [NumUts*3];
  logic              dctrl_q [NumUts];
  logic              dctrl_d [NumUts];
  logic              didx_q [NumUts];
  logic              didx_d [NumUts];
  logic [15:0]       dbase_q [NumUts];
  logic [15:0]       dbase_d [NumUts];
  logic [31:0]       scal_q [NumUts];
  logic [31:0]       scal_d [NumUts];
  logic [3:0]        sreg_q [NumUts];
  logic [3:0]        sreg_d [NumUts];
  logic [14:0]       n_q [NumUts];
  logic [14:0]       n_d [NumUts];
  logic [15:0]       i_q [NumUts];
  logic [15:0]       i_d [NumUts];
  logic [4:0]        tid_q [NumUts];
  logic [4:0]        tid_d [NumUts];
  logic [2:0]        infl_q [NumUts];
  logic [2:0]        infl_d [NumUts];
  logic [2:0]        wait_q [NumUts];
  logic [2:0]        wait_d [NumUts];
  logic [4:0]        wcol_q [NumUts];
  logic [4:0]        wcol_d [NumUts];
  logic [NumColors-1:0] fabin_q [NumUts];
  logic [NumColors-1:0] fabin_d [NumUts];
  logic [2:0]        stage_q [NumUts];
  logic [2:0]        stage_d [NumUts];
  logic [31:0]       dw_q [NumUts*NumDw];
  logic [31:0]       dw_d [NumUts*NumDw];
  logic [1:0]        lrdy_q [NumUts*8];   // cycles until partial lane j may be used
  logic [1:0]        lrdy_d [NumUts*8];
  logic [1:0]        crdy_q [NumUts*3];   // cycles until combine result k may be used
  logic [1:0]        crdy_d [NumUts*3];
  logic [2:0]        rr_q, rr_d;
  // a split step: src0 read in the previous cycle, src1 read in this one
  logic              split_q, split_d, spair_q, spair_d;
  logic [2:0]        sut_q, sut_d;
  logic [31:0]       sx0_q, sx0_d;

  // the FMAC slot (operands of the step taken in the previous cycle); *_ref: an fdot word
  logic              fs_v_q, fs_v_d;
  fp_op_e            fs_op_q, fs_op_d;
  fp_fmt_e           fs_fmt_q, fs_fmt_d;
  logic [31:0]       fs_a_q, fs_a_d, fs_b_q, fs_b_d, fs_c_q, fs_c_d;
  logic [2:0]        fs_ut_q, fs_ut_d;
  logic              fs_aref_q, fs_aref_d, fs_bref_q, fs_bref_d, fs_cref_q, fs_cref_d;
  logic              fs_bsh_q, fs_bsh_d;
  logic [2:0]        fs_aw_q, fs_aw_d, fs_bw_q, fs_bw_d, fs_cw_q, fs_cw_d;

  // results in flight: index 0 was taken in the previous cycle, Lat-1 is due now
  logic              r_v_q [Lat];
  logic              r_v_d [Lat];
  logic [2:0]        r_ut_q [Lat];
  logic [2:0]        r_ut_d [Lat];
  logic [1:0]        r_kind_q [Lat];
  logic [1:0]        r_kind_d [Lat];
  logic              r_fm_q [Lat];      // the value is the FMAC's output
  logic              r_fm_d [Lat];
  logic [1:0]        r_fl_q [Lat];      // FMAC lanes whose flags count
  logic [1:0]        r_fl_d [Lat];
  logic [4:0]        r_cf_q [Lat];      // flags found at the step (fmachs conversions)
  logic [4:0]        r_cf_d [Lat];
  logic              r_16_q [Lat];      // a 16-bit value (low half)
  logic              r_16_d [Lat];
  logic [13:0]       r_addr_q [Lat];
  logic [13:0]       r_addr_d [Lat];
  logic [3:0]        r_be_q [Lat];
  logic [3:0]        r_be_d [Lat];
  logic              r_ctl_q [Lat];
  logic              r_ctl_d [Lat];
  logic [4:0]        r_col_q [Lat];
  logic [4:0]        r_col_d [Lat];
  logic [15:0]       r_hi_q [Lat];
  logic [15:0]       r_hi_d [Lat];
  logic [3:0]        r_reg_q [Lat];
  logic [3:0]        r_reg_d [Lat];
  logic [31:0]       r_val_q [Lat];
  logic [31:0]       r_val_d [Lat];
  logic              r_dv_q [Lat];      // updates fdot word r_dw with lanes r_dm
  logic              r_dv_d [Lat];
  logic [2:0]        r_dw_q [Lat];
  logic [2:0]        r_dw_d [Lat];
  logic [1:0]        r_dm_q [Lat];
  logic [1:0]        r_dm_d [Lat];

  // ---------------------------------------------------------------------------------------------
  // Start-of-cycle views
  logic [NumColors-1:0] head_data, head_ctrl;
  logic [31:0]          in_data [NumColors];
  logic [3:0]           ocred [NumColors];
  for (genvar c = 0; c < NumColors; c++) begin : g_col
    assign in_data[c] = in_data_i[c*32 +: 32];
    assign ocred[c]   = ocred_i[c*4 +: 4];
  end
  assign head_data = in_valid_i & ~in_ctrl_i;
  assign head_ctrl = in_valid_i & in_ctrl_i;

  always_comb begin
    reads_o = '0;
    for (int u = 0; u < NumUts; u++) if (busy_q[u]) reads_o = reads_o | fabin_q[u];
  end
  assign busy_o  = busy_q;
  assign split_o = split_q && live_i;

  for (genvar u = 0; u < NumUts; u++) begin : g_status
    always_comb begin
      status_o[u*32 +: 32] = '0;
      info_o[u*32 +: 32]   = '0;
      if (busy_q[u]) begin
        status_o[u*32 + UtStatusBusyLsb]        = 1'b1;
        status_o[u*32 + UtStatusSyncLsb]        = sync_q[u];
        status_o[u*32 + UtStatusWaitLsb +: 3]   = wait_q[u];
        status_o[u*32 + UtStatusOpcodeLsb +: 7] = opc_q[u];
        status_o[u*32 + UtStatusDoneLsb +: 15]  = i_q[u][14:0];
        info_o[u*32 + UtInfoPcLsb +: 16]        = upc_q[u];
        info_o[u*32 + UtInfoColorLsb +: 5]      = wcol_q[u];
        info_o[u*32 + UtInfoTidLsb +: 5]        = tid_q[u];
        info_o[u*32 + UtInfoUnblockLsb]         = unbl_q[u];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Results due (item 1)
  localparam int unsigned Due = Lat - 1;
  logic        due;
  logic [31:0] due_val;
  assign due     = r_v_q[Due] && live_i;
  assign due_val = r_fm_q[Due] ? fp_result_i : r_val_q[Due];

  always_comb begin
    logic [31:0] v;
    v           = r_16_q[Due] ? {2{due_val[15:0]}} : due_val;
    wr_en_o     = due && r_kind_q[Due] == RSram;
    wr_addr_o   = r_addr_q[Due];
    wr_be_o     = r_be_q[Due];
    wr_data_o   = v;
    wave_o       = '0;
    wave_o.valid = due && r_kind_q[Due] == RWave;
    wave_o.ctrl  = r_ctl_q[Due];
    wave_o.color = r_col_q[Due];
    wave_o.data  = r_16_q[Due] ? {r_hi_q[Due], due_val[15:0]} : due_val;
    gpr_we_o    = due && r_kind_q[Due] == RGpr;
    gpr_waddr_o = r_reg_q[Due];
    gpr_wdata_o = r_16_q[Due] ? {16'h0, due_val[15:0]} : due_val;
    flags_o     = '0;
    if (due) begin
      flags_o = r_cf_q[Due];
      if (r_fm_q[Due] && r_fl_q[Due][0]) flags_o = flags_o | fp_flags_i[4:0];
      if (r_fm_q[Due] && r_fl_q[Due][1]) flags_o = flags_o | fp_flags_i[9:5];
    end
  end

  // The FMAC slot, with fdot words forwarded from the FMAC output due in this cycle.
  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] nv,
                                        input logic [1:0] m);
    merge = {m[1] ? nv[31:16] : old[31:16], m[0] ? nv[15:0] : old[15:0]};
  endfunction

  logic [31:0] fwd [NumDw];
  always_comb begin
    for (int w = 0; w < NumDw; w++) begin
      fwd[w] = dw_q[32'(fs_ut_q) * NumDw + w];
      if (due && r_fm_q[Due] && r_dv_q[Due] && r_ut_q[Due] == fs_ut_q && 32'(r_dw_q[Due]) == w)
        fwd[w] = merge(fwd[w], fp_result_i, r_dm_q[Due]);
    end
  end
  always_comb begin
    logic [31:0] b;
    b          = fs_bref_q ? fwd[fs_bw_q] : fs_b_q;
    fp_valid_o = fs_v_q && live_i;
    fp_op_o    = fs_op_q;
    fp_fmt_o   = fs_fmt_q;
    fp_a_o     = fs_aref_q ? fwd[fs_aw_q] : fs_a_q;
    fp_b_o     = fs_bsh_q ? {16'h0, b[31:16]} : b;
    fp_c_o     = fs_cref_q ? fwd[fs_cw_q] : fs_c_q;
  end

  // ---------------------------------------------------------------------------------------------
  // Issue checks (docs/isa.md 4.11): valid descriptors, roles, colors of two fabin operands,
  // element types, colors, mem1d alignment; each over dst, src0, src1.
  // The decoded fields as plain signals (Yosys 0.23 cannot size a struct member in a case).
  dsd_fmt_e    iss_dsd_fmt;
  dsd_form_e   iss_dsd_form;
  dsd_op_e     iss_dsd_op;
  elem_class_e iss_ty_dst;
  elem_class_e iss_ty_src0;
  elem_class_e iss_ty_src1;
  always_comb begin
    iss_dsd_fmt = iss_dec_i.dsd_fmt;
    iss_dsd_form = iss_dec_i.dsd_form;
    iss_dsd_op = iss_dec_i.dsd_op;
    iss_ty_dst = iss_dec_i.ty_dst;
    iss_ty_src0 = iss_dec_i.ty_src0;
    iss_ty_src1 = iss_dec_i.ty_src1;
  end
  insn_d_t     iss_d;  // the issuing instruction's fields (model/arch/isa.def, format D)
  assign iss_d = iss_insn_i;
  logic [2:0]  iss_ut;
  logic [2:0]  iss_has;
  logic [63:0] iss_raw [3];
  always_comb begin
    iss_ut     = iss_d.ut;
    iss_raw[0] = iss_dsr_dst_i;
    iss_raw[1] = iss_dsr_src0_i;
    iss_raw[2] = iss_dsr_src1_i;
    iss_has[0] = DsdFormHasDst[iss_dsd_form];
    iss_has[1] = DsdFormHasSrc0[iss_dsd_form];
    iss_has[2] = DsdFormHasSrc1[iss_dsd_form];
  end

  always_comb begin
    logic [3:0]  regs [3];
    elem_class_e cls [3];
    logic        found;
    regs[0] = iss_d.dst;
    regs[1] = iss_d.src0;
    regs[2] = iss_d.src1;
    cls[0]  = iss_ty_dst;
    cls[1]  = iss_ty_src0;
    cls[2]  = iss_ty_src1;
    iss_busy_o  = busy_q[iss_ut];
    iss_fault_o = 1'b0;
    iss_cause_o = '0;
    iss_addr_o  = '0;
    iss_info_o  = '0;
    found       = 1'b0;
    for (int r = 0; r < 3; r++) begin  // valid descriptors
      logic [2:0] kind, elem;
      kind = iss_raw[r][DsdKindLsb +: 3];
      elem = iss_raw[r][DsdElemLsb +: 3];
      if (!found && iss_has[r]) begin
        if (kind == 3'(DsdKindNone) || kind > 3'(DsdKindFabOut)) begin
          found = 1'b1;
          iss_info_o = mk_info(3'(r + 1), 4'hF, regs[r], 15'd0);
        end else if (elem > 3'(ElemTypeU16)) begin
          found = 1'b1;
          iss_info_o = mk_info(3'(r + 1), 4'hF, regs[r], 15'd1);
        end else if (iss_raw[r][31] || iss_raw[r][63:61] != 3'b000) begin
          found = 1'b1;
          iss_info_o = mk_info(3'(r + 1), 4'hF, regs[r], 15'd2);
        end
        if (found) begin
          iss_fault_o = 1'b1;
          iss_cause_o = 5'(CeFaultDsdInvalid);
          iss_addr_o  = iss_raw[r][63:32];
        end
      end
    end
    for (int r = 0; r < 3; r++) begin  // roles
      logic [2:0] kind;
      kind = iss_raw[r][DsdKindLsb +: 3];
      if (!found && iss_has[r] && kind != 3'(DsdKindMem1d) &&
          kind != (r == 0 ? 3'(DsdKindFabOut) : 3'(DsdKindFabIn))) begin
        found       = 1'b1;
        iss_fault_o = 1'b1;
        iss_cause_o = 5'(CeFaultDsdInvalid);
        iss_addr_o  = iss_raw[r][63:32];
        iss_info_o  = mk_info(3'(r + 1), 4'hF, regs[r], 15'd3);
      end
    end
    if (!found && iss_has[1] && iss_has[2] &&
        iss_raw[1][DsdKindLsb +: 3] == 3'(DsdKindFabIn) &&
        iss_raw[2][DsdKindLsb +: 3] == 3'(DsdKindFabIn) &&
        iss_raw[1][DsdColorLsb +: 5] == iss_raw[2][DsdColorLsb +: 5]) begin
      found       = 1'b1;
      iss_fault_o = 1'b1;
      iss_cause_o = 5'(CeFaultDsdInvalid);
      iss_addr_o  = iss_raw[2][63:32];
      iss_info_o  = mk_info(3'd3, 4'hF, regs[2], 15'd4);
    end
    for (int r = 0; r < 3; r++) begin  // element types
      if (!found && iss_has[r] && !type_fits(cls[r], iss_raw[r][DsdElemLsb +: 3])) begin
        found       = 1'b1;
        iss_fault_o = 1'b1;
        iss_cause_o = 5'(CeFaultDsdType);
        iss_addr_o  = iss_raw[r][63:32];
        iss_info_o  = mk_info(3'(r + 1), 4'hF, regs[r], 15'd0);
      end
    end
    for (int r = 0; r < 3; r++) begin  // colors
      logic [4:0] col;
      logic       out;
      col = iss_raw[r][DsdColorLsb +: 5];
      out = iss_raw[r][DsdKindLsb +: 3] == 3'(DsdKindFabOut);
      if (!found && iss_has[r] && iss_raw[r][DsdKindLsb +: 3] != 3'(DsdKindMem1d) &&
          (32'(col) >= NumColors || !(out ? can_send_i[col] : can_recv_i[col]))) begin
        found       = 1'b1;
        iss_fault_o = 1'b1;
        iss_cause_o = 5'(CeFaultBadColor);
        iss_addr_o  = 32'(col);
        iss_info_o  = mk_info(3'(r + 1), 4'hF, regs[r], 15'd0);
      end
    end
    for (int r = 0; r < 3; r++) begin  // mem1d bases aligned to their elements
      logic [15:0] base;
      logic        half;
      base = iss_raw[r][DsdBaseLsb +: 16];
      half = iss_raw[r][DsdElemLsb];
      if (!found && iss_has[r] && iss_raw[r][DsdKindLsb +: 3] == 3'(DsdKindMem1d) &&
          (half ? base[0] : base[1:0] != 2'b00)) begin
        found       = 1'b1;
        iss_fault_o = 1'b1;
        iss_cause_o = 5'(CeFaultDsdMisaligned);
        iss_addr_o  = {16'h0, base};
        iss_info_o  = mk_info(3'(r + 1), 4'hF, regs[r], 15'd0);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The engine (item 4)
  logic [NumUts-1:0] comp, ending, ready, cfault;
  logic [NumUts-1:0] pl_pair, pl_split, pl_comb, pl_range;
  logic [1:0]        pl_rrole [NumUts];
  logic [AW-1:0]     pl_raddr [NumUts];
  logic [2:0]        infl_after [NumUts];
  logic [4:0]        c_tid [NumUts];
  logic              c_unbl [NumUts];
  logic [15:0]       c_pc [NumUts];
  logic [2:0]        stepper, fault_ut;
  logic              step_v, step_ok, e_fault, run;

  function automatic logic [2:0] stages(input dsd_fmt_e f);
    stages = f == DsdFmtF16 ? 3'd4 : 3'd3;
  endfunction

  logic [14:0]       iss_len;
  logic              iss_n0;
  logic              x0_port1;
  logic [2:0]        why_u [NumUts];
  logic [4:0]        wc_u [NumUts];

  // The plan of the cycle: completions, the readiness of each microthread's next step, the
  // stepper, faults and the read ports. It reads no SRAM data, so the addresses the engine reads
  // never depend on what it reads.
  always_comb begin
    rd0_en_o      = 1'b0;
    rd0_addr_o    = '0;
    rd1_en_o      = 1'b0;
    rd1_addr_o    = '0;
    fault_o       = 1'b0;
    fault_cause_o = '0;
    fault_pc_o    = '0;
    fault_addr_o  = '0;
    fault_info_o  = '0;
    // 1. a result due: one fewer in flight; the last one completes its operation
    comp = '0;
    for (int u = 0; u < NumUts; u++) begin
      infl_after[u] = infl_q[u];
      c_tid[u]      = tid_q[u];
      c_unbl[u]     = unbl_q[u];
      c_pc[u]       = upc_q[u];
    end
    if (due) begin
      infl_after[r_ut_q[Due]] = infl_q[r_ut_q[Due]] - 3'd1;
      if (ended_q[r_ut_q[Due]] && infl_q[r_ut_q[Due]] == 3'd1 &&
          (!dot_q[r_ut_q[Due]] || stage_q[r_ut_q[Due]] == stages(fmt_q[r_ut_q[Due]])))
        comp[r_ut_q[Due]] = 1'b1;
    end
    // 3. a DSD instruction that issues with N = 0 (and is not fdot) completes at once
    iss_len = iss_has[1] ? iss_dsr_src0_i[DsdLengthLsb +: 15] :
              iss_has[2] ? iss_dsr_src1_i[DsdLengthLsb +: 15] : iss_dsr_dst_i[DsdLengthLsb +: 15];
    iss_n0  = iss_len == 15'd0;
    if (iss_go_i && iss_n0 && iss_dsd_op != DsdOpDot) begin
      comp[iss_ut]   = 1'b1;
      c_tid[iss_ut]  = iss_d.tid;
      c_unbl[iss_ut] = iss_d.u && iss_d.tid != 5'(NoTask);
      c_pc[iss_ut]   = iss_pc_i;
    end
    // 4. the engine
    run = go_i && (busy_q != '0 || comp != '0);
    // operations whose next step would find a control wavelet at a fabin head end
    ending = '0;
    for (int u = 0; u < NumUts; u++)
      if (busy_q[u] && !ended_q[u] && (fabin_q[u] & head_ctrl) != '0) ending[u] = 1'b1;

    // the readiness of every other busy microthread's next step
    ready    = '0;
    pl_pair  = '0;
    pl_split = '0;
    pl_comb  = '0;
    pl_range = '0;
    for (int u = 0; u < NumUts; u++) begin
      logic [2:0]    why;
      logic [4:0]    wc;
      logic          pair, r0, r1, in_ok, dot_ok;
      logic [AW-1:0] a [3];
      logic          mem [3];
      logic [7:0]    banks [3];
      logic [11:0]   rows [3];
      logic [2:0]    st;
      logic [2:0]    j;
      pl_rrole[u] = '0;
      pl_raddr[u] = '0;
      why  = 3'(UtWaitReady);
      wc   = 5'(NoColor);
      pair = 1'b0;
      r0   = 1'b0;
      r1   = 1'b0;
      in_ok  = 1'b0;
      dot_ok = 1'b1;
      st   = stage_q[u];
      j    = i_q[u][2:0];
      for (int r = 0; r < 3; r++) begin
        a[r]     = oaddr_q[u*3 + r];
        mem[r]   = 1'b0;
        banks[r] = '0;
        rows[r]  = '0;
      end
      if (busy_q[u] && !ending[u]) begin
        if (split_q && sut_q == 3'(u)) begin
          why = 3'(UtWaitReady);
        end else if (ended_q[u]) begin
          if (!dot_q[u] || st == stages(fmt_q[u])) begin
            why = 3'(UtWaitDrain);
          end else begin
            // an fdot combine step (6.5)
            pl_comb[u] = 1'b1;
            if (fmt_q[u] == DsdFmtF16) begin
              unique case (st)
                3'd0: in_ok = lrdy_q[u*8+0] == '0 && lrdy_q[u*8+1] == '0 &&
                              lrdy_q[u*8+2] == '0 && lrdy_q[u*8+3] == '0;
                3'd1: in_ok = lrdy_q[u*8+4] == '0 && lrdy_q[u*8+5] == '0 &&
                              lrdy_q[u*8+6] == '0 && lrdy_q[u*8+7] == '0;
                3'd2: in_ok = crdy_q[u*3+0] == '0 && crdy_q[u*3+1] == '0;
                default: in_ok = crdy_q[u*3+2] == '0;
              endcase
            end else begin
              unique case (st)
                3'd0: in_ok = lrdy_q[u*8+0] == '0 && lrdy_q[u*8+1] == '0;
                3'd1: in_ok = lrdy_q[u*8+2] == '0 && lrdy_q[u*8+3] == '0;
                default: in_ok = crdy_q[u*3+0] == '0 && crdy_q[u*3+1] == '0;
              endcase
            end
            if (sc_fmac_i || !in_ok) why = 3'(UtWaitFmac);
            else                      ready[u] = 1'b1;
          end
        end else begin
          // an element step
          pair = pairs_q[u] && (unb_q[u] || 17'(i_q[u]) + 17'd1 < 17'(n_q[u])) &&
                 (!dot_q[u] || !i_q[u][0]);
          for (int r = 0; r < 3; r++)
            if (has_q[u][r] && a[r][1:0] != 2'b00) pair = 1'b0;
          pl_pair[u] = pair;
          for (int r = 0; r < 3; r++) begin
            logic [AW-1:0] lim;
            lim = (pair || !ohalf_q[u*3 + r]) ? AW'(SramBytes - 4) : AW'(SramBytes - 2);
            if (has_q[u][r] && okind_q[u*3 + r] == KMem) begin
              if ($signed(a[r]) < 0 || $signed(a[r]) > $signed(lim)) begin
                if (!pl_range[u]) begin
                  pl_range[u] = 1'b1;
                  pl_rrole[u] = 2'(r);
                  pl_raddr[u] = a[r];
                end
              end else begin
                mem[r]   = 1'b1;
                banks[r] = (pair || !ohalf_q[u*3 + r]) ? 8'(2'b11) << a[r][3:1]
                                                        : 8'(1) << a[r][3:1];
                rows[r]  = a[r][15:4];
              end
            end
          end
          for (int r = 1; r < 3; r++) begin
            if (why == 3'(UtWaitReady) && has_q[u][r] && okind_q[u*3 + r] == KIn &&
                !head_data[ocol_q[u*3 + r]]) begin
              why = 3'(UtWaitFabIn);
              wc  = ocol_q[u*3 + r];
            end
          end
          if (why == 3'(UtWaitReady) && has_q[u][0] && okind_q[u*3] == KOut &&
              ocred[ocol_q[u*3]] == 4'd0) begin
            why = 3'(UtWaitFabOut);
            wc  = ocol_q[u*3];
          end
          if (why == 3'(UtWaitReady)) begin
            // reads: src0 and src1 through the ports and banks the scalar stage left
            logic f0, f1;
            r0 = mem[1];
            r1 = mem[2];
            f0 = !(sc_ports_i != 2'd0 && (banks[1] & sc_banks_i) != '0 && rows[1] != sc_row_i);
            f1 = !(sc_ports_i != 2'd0 && (banks[2] & sc_banks_i) != '0 && rows[2] != sc_row_i);
            if (r0 && r1 && (banks[1] & banks[2]) != '0 && rows[1] != rows[2]) begin
              pl_split[u] = 1'b1;  // src0 now, src1 in the next cycle
              if (sc_ports_i == 2'd2 || !f0) why = 3'(UtWaitPort);
            end else if (3'(sc_ports_i) + 3'(r0) + 3'(r1) > 3'd2 || (r0 && !f0) || (r1 && !f1)) begin
              why = 3'(UtWaitPort);
            end
          end
          if (why == 3'(UtWaitReady) && fmac_q[u] && !pl_split[u] && sc_fmac_i)
            why = 3'(UtWaitFmac);
          if (why == 3'(UtWaitReady) && dot_q[u]) begin
            // the partial this step updates (6.5), ready by the cycle the step counts as taken
            logic [1:0] lim;
            lim = pl_split[u] ? 2'd1 : 2'd0;
            if (fmt_q[u] == DsdFmtF32)
              dot_ok = lrdy_q[u*8 + 32'(j[1:0])] <= lim;
            else if (pair)
              dot_ok = lrdy_q[u*8 + 32'({j[2:1], 1'b0})] <= lim &&
                       lrdy_q[u*8 + 32'({j[2:1], 1'b1})] <= lim;
            else
              dot_ok = lrdy_q[u*8 + 32'(j)] <= lim;
            if (!dot_ok) why = 3'(UtWaitFmac);
          end
          if (why == 3'(UtWaitReady)) ready[u] = 1'b1;
        end
      end
      why_u[u] = ending[u] ? 3'(UtWaitDrain) : why;
      wc_u[u]  = ending[u] ? 5'(NoColor) : wc;
    end

    // the step: the split step's second half, or the first ready microthread in round robin
    step_v  = 1'b0;
    stepper = '0;
    if (split_q) begin
      step_v  = 1'b1;
      stepper = sut_q;
    end else begin
      for (int k = NumUts - 1; k >= 0; k--) begin
        logic [2:0] u;
        u = rr_q + 3'(k);
        if (ready[u]) begin
          step_v  = 1'b1;
          stepper = u;
        end
      end
    end
    for (int u = 0; u < NumUts; u++)
      if (ready[u] && !(step_v && !split_q && stepper == 3'(u))) why_u[u] = 3'(UtWaitTurn);

    // completions of operations ended by a control wavelet with nothing in flight
    for (int u = 0; u < NumUts; u++)
      if (ending[u] && !dot_q[u] && infl_after[u] == '0) comp[u] = 1'b1;

    // faults, in microthread order: a completion's task kind, the step's element address
    cfault = '0;
    for (int u = 0; u < NumUts; u++) begin
      logic [1:0] kd;
      kd = tkind_i[32'(c_tid[u])*2 +: 2];
      if (comp[u] && c_tid[u] != 5'(NoTask) && !c_unbl[u] && kd != 2'(TaskKindLocal) &&
          kd != 2'(TaskKindControl))
        cfault[u] = 1'b1;
    end
    e_fault  = 1'b0;
    fault_ut = '0;
    for (int u = NumUts - 1; u >= 0; u--) begin
      if (cfault[u] || (step_v && !split_q && stepper == 3'(u) && pl_range[u])) begin
        e_fault  = 1'b1;
        fault_ut = 3'(u);
      end
    end
    e_fault = e_fault && run;
    if (e_fault) begin
      logic [31:0] f;
      f = 32'(fault_ut);
      fault_o = 1'b1;
      if (cfault[f]) begin
        fault_cause_o = 5'(CeFaultTaskKind);
        fault_pc_o    = c_pc[f];
        fault_addr_o  = 32'(c_tid[f]);
        fault_info_o  = mk_info(3'd0, 4'(fault_ut), 4'd0, 15'd0);
      end else begin
        fault_cause_o = 5'(CeFaultDsdRange);
        fault_pc_o    = upc_q[f];
        fault_addr_o  = 32'($signed(pl_raddr[f]));
        fault_info_o  = mk_info(3'(pl_rrole[f]) + 3'd1, 4'(fault_ut),
                                odsr_q[f*3 + 32'(pl_rrole[f])], i_q[f][14:0]);
      end
    end

    // the step's reads: src0 on port 0 unless the scalar stage reads, src1 on port 1
    step_ok  = run && step_v && (!e_fault || stepper < fault_ut);
    x0_port1 = sc_ports_i != 2'd0;
    if (step_ok) begin
      logic [31:0] us;
      us = 32'(stepper);
      if (split_q) begin
        if (okind_q[us*3 + 2] == KMem) begin
          rd1_en_o   = 1'b1;
          rd1_addr_o = oaddr_q[us*3 + 2][15:2];
        end
      end else if (!pl_comb[us]) begin
        if (has_q[us][1] && okind_q[us*3 + 1] == KMem) begin
          if (x0_port1) begin
            rd1_en_o   = 1'b1;
            rd1_addr_o = oaddr_q[us*3 + 1][15:2];
          end else begin
            rd0_en_o   = 1'b1;
            rd0_addr_o = oaddr_q[us*3 + 1][15:2];
          end
        end
        if (!pl_split[us] && has_q[us][2] && okind_q[us*3 + 2] == KMem) begin
          rd1_en_o   = 1'b1;
          rd1_addr_o = oaddr_q[us*3 + 2][15:2];
        end
      end
    end
  end

  // The effects of the cycle: state updates from the plan and the data read.
  always_comb begin
    // defaults: hold
    busy_d  = busy_q;
    sync_d  = sync_q;
    ended_d = ended_q;
    dot_d   = dot_q;
    fmac_d  = fmac_q;
    pairs_d = pairs_q;
    unbl_d  = unbl_q;
    unb_d   = unb_q;
    for (int k = 0; k < NumUts; k++) upc_d[k] = upc_q[k];
    for (int k = 0; k < NumUts; k++) opc_d[k] = opc_q[k];
    for (int k = 0; k < NumUts; k++) op_d[k] = op_q[k];
    for (int k = 0; k < NumUts; k++) fmt_d[k] = fmt_q[k];
    for (int k = 0; k < NumUts; k++) form_d[k] = form_q[k];
    for (int k = 0; k < NumUts; k++) has_d[k] = has_q[k];
    for (int k = 0; k < NumUts*3; k++) okind_d[k] = okind_q[k];
    for (int k = 0; k < NumUts*3; k++) ohalf_d[k] = ohalf_q[k];
    for (int k = 0; k < NumUts*3; k++) ocol_d[k] = ocol_q[k];
    for (int k = 0; k < NumUts*3; k++) odsr_d[k] = odsr_q[k];
    for (int k = 0; k < NumUts*3; k++) oaddr_d[k] = oaddr_q[k];
    for (int k = 0; k < NumUts*3; k++) oinc_d[k] = oinc_q[k];
    for (int k = 0; k < NumUts; k++) dctrl_d[k] = dctrl_q[k];
    for (int k = 0; k < NumUts; k++) didx_d[k] = didx_q[k];
    for (int k = 0; k < NumUts; k++) dbase_d[k] = dbase_q[k];
    for (int k = 0; k < NumUts; k++) scal_d[k] = scal_q[k];
    for (int k = 0; k < NumUts; k++) sreg_d[k] = sreg_q[k];
    for (int k = 0; k < NumUts; k++) n_d[k] = n_q[k];
    for (int k = 0; k < NumUts; k++) i_d[k] = i_q[k];
    for (int k = 0; k < NumUts; k++) tid_d[k] = tid_q[k];
    for (int k = 0; k < NumUts; k++) infl_d[k] = infl_q[k];
    for (int k = 0; k < NumUts; k++) wait_d[k] = wait_q[k];
    for (int k = 0; k < NumUts; k++) wcol_d[k] = wcol_q[k];
    for (int k = 0; k < NumUts; k++) fabin_d[k] = fabin_q[k];
    for (int k = 0; k < NumUts; k++) stage_d[k] = stage_q[k];
    for (int k = 0; k < NumUts*NumDw; k++) dw_d[k] = dw_q[k];
    for (int k = 0; k < NumUts*8; k++) lrdy_d[k] = lrdy_q[k];
    for (int k = 0; k < NumUts*3; k++) crdy_d[k] = crdy_q[k];
    rr_d    = rr_q;
    split_d = split_q;
    spair_d = spair_q;
    sut_d   = sut_q;
    sx0_d   = sx0_q;
    fs_v_d    = fs_v_q;
    fs_op_d   = fs_op_q;
    fs_fmt_d  = fs_fmt_q;
    fs_a_d    = fs_a_q;
    fs_b_d    = fs_b_q;
    fs_c_d    = fs_c_q;
    fs_ut_d   = fs_ut_q;
    fs_aref_d = fs_aref_q;
    fs_bref_d = fs_bref_q;
    fs_cref_d = fs_cref_q;
    fs_bsh_d  = fs_bsh_q;
    fs_aw_d   = fs_aw_q;
    fs_bw_d   = fs_bw_q;
    fs_cw_d   = fs_cw_q;
    for (int k = 0; k < Lat; k++) begin
      r_v_d[k] = r_v_q[k];
      r_ut_d[k] = r_ut_q[k];
      r_kind_d[k] = r_kind_q[k];
      r_fm_d[k] = r_fm_q[k];
      r_fl_d[k] = r_fl_q[k];
      r_cf_d[k] = r_cf_q[k];
      r_16_d[k] = r_16_q[k];
      r_addr_d[k] = r_addr_q[k];
      r_be_d[k] = r_be_q[k];
      r_ctl_d[k] = r_ctl_q[k];
      r_col_d[k] = r_col_q[k];
      r_hi_d[k] = r_hi_q[k];
      r_reg_d[k] = r_reg_q[k];
      r_val_d[k] = r_val_q[k];
      r_dv_d[k] = r_dv_q[k];
      r_dw_d[k] = r_dw_q[k];
      r_dm_d[k] = r_dm_q[k];
    end
    pop_o        = '0;
    cred_take_o  = 1'b0;
    cred_color_o = '0;
    activate_o   = '0;
    unblock_o    = '0;









    // Everything holds unless the CE is live (a fault or the host's freeze stops it): then the
    // result pipeline and the FMAC slot advance, a split step's second half is over, and the fdot
    // readiness counters count down.
    if (live_i) begin
      split_d   = 1'b0;
      fs_v_d    = 1'b0;
      fs_aref_d = 1'b0;
      fs_bref_d = 1'b0;
      fs_cref_d = 1'b0;
      fs_bsh_d  = 1'b0;
      fs_aw_d   = '0;
      fs_bw_d   = '0;
      fs_cw_d   = '0;
      for (int k = Lat - 1; k > 0; k--) begin
        r_v_d[k] = r_v_q[k-1];
        r_ut_d[k] = r_ut_q[k-1];
        r_kind_d[k] = r_kind_q[k-1];
        r_fm_d[k] = r_fm_q[k-1];
        r_fl_d[k] = r_fl_q[k-1];
        r_cf_d[k] = r_cf_q[k-1];
        r_16_d[k] = r_16_q[k-1];
        r_addr_d[k] = r_addr_q[k-1];
        r_be_d[k] = r_be_q[k-1];
        r_ctl_d[k] = r_ctl_q[k-1];
        r_col_d[k] = r_col_q[k-1];
        r_hi_d[k] = r_hi_q[k-1];
        r_reg_d[k] = r_reg_q[k-1];
        r_val_d[k] = r_val_q[k-1];
        r_dv_d[k] = r_dv_q[k-1];
        r_dw_d[k] = r_dw_q[k-1];
        r_dm_d[k] = r_dm_q[k-1];
      end
      // a new slot starts empty: a step fills in only the fields its result uses
      r_v_d[0] = '0;
      r_ut_d[0] = '0;
      r_kind_d[0] = '0;
      r_fm_d[0] = '0;
      r_fl_d[0] = '0;
      r_cf_d[0] = '0;
      r_16_d[0] = '0;
      r_addr_d[0] = '0;
      r_be_d[0] = '0;
      r_ctl_d[0] = '0;
      r_col_d[0] = '0;
      r_hi_d[0] = '0;
      r_reg_d[0] = '0;
      r_val_d[0] = '0;
      r_dv_d[0] = '0;
      r_dw_d[0] = '0;
      r_dm_d[0] = '0;
      for (int k = 0; k < NumUts * 8; k++) if (lrdy_q[k] != 2'd0) lrdy_d[k] = lrdy_q[k] - 2'd1;
      for (int k = 0; k < NumUts * 3; k++) if (crdy_q[k] != 2'd0) crdy_d[k] = crdy_q[k] - 2'd1;
    end

    // 1. a result due: fdot words and the count in flight
    if (due && r_dv_q[Due] && r_fm_q[Due])
      dw_d[32'(r_ut_q[Due]) * NumDw + 32'(r_dw_q[Due])] =
          merge(dw_q[32'(r_ut_q[Due]) * NumDw + 32'(r_dw_q[Due])], fp_result_i, r_dm_q[Due]);
    if (live_i) for (int k = 0; k < NumUts; k++) infl_d[k] = infl_after[k];
    // 3. the DSD instruction that issues: its microthread's operation (docs/isa.md 4.11)
    if (iss_go_i) begin
      logic [31:0] u;
      u = 32'(iss_ut);
      busy_d[u]  = !(iss_n0 && iss_dsd_op != DsdOpDot);
      sync_d[u]  = iss_d.u && iss_d.tid == 5'(NoTask);
      unbl_d[u]  = iss_d.u && iss_d.tid != 5'(NoTask);
      tid_d[u]   = iss_d.tid;
      upc_d[u]   = iss_pc_i;
      opc_d[u]   = iss_d.op;
      op_d[u]    = iss_dsd_op;
      fmt_d[u]   = iss_dsd_fmt;
      form_d[u]  = iss_dsd_form;
      has_d[u]   = iss_has;
      n_d[u]     = iss_len;
      unb_d[u]   = iss_len == 15'(UnboundedLength);
      i_d[u]     = '0;
      ended_d[u] = iss_n0;
      infl_d[u]  = '0;
      wait_d[u]  = 3'(UtWaitReady);
      wcol_d[u]  = 5'(NoColor);
      dot_d[u]   = iss_dsd_op == DsdOpDot;
      fmac_d[u]  = iss_dsd_fmt == DsdFmtF32 || iss_dsd_fmt == DsdFmtF16 ||
                   iss_dsd_fmt == DsdFmtMix;
      pairs_d[u] = (iss_dsd_fmt == DsdFmtF16 || iss_dsd_fmt == DsdFmtW16) &&
                   iss_dsd_op != DsdOpCvt;
      scal_d[u]  = iss_scalar_i;
      sreg_d[u]  = iss_d.s;
      stage_d[u] = '0;
      fabin_d[u] = '0;
      dctrl_d[u] = iss_dsr_dst_i[DsdCtrlLsb];
      didx_d[u]  = iss_dsr_dst_i[DsdIdxLsb];
      dbase_d[u] = iss_dsr_dst_i[DsdBaseLsb +: 16];
      for (int r = 0; r < 3; r++) begin
        logic [17:0] inc;
        logic        half;
        half = iss_raw[r][DsdElemLsb];
        inc  = half ? {iss_raw[r][DsdStrideLsb + 15], iss_raw[r][DsdStrideLsb +: 16], 1'b0}
                    : {iss_raw[r][DsdStrideLsb +: 16], 2'b00};
        okind_d[u*3 + r] = iss_raw[r][DsdKindLsb +: 2];
        ohalf_d[u*3 + r] = half;
        ocol_d[u*3 + r]  = iss_raw[r][DsdColorLsb +: 5];
        odsr_d[u*3 + r]  = r == 0 ? iss_d.dst : r == 1 ? iss_d.src0 : iss_d.src1;
        oaddr_d[u*3 + r] = AW'(iss_raw[r][DsdBaseLsb +: 16]);
        oinc_d[u*3 + r]  = {inc[17], inc};
        if (iss_has[r] && (iss_raw[r][DsdKindLsb +: 3] != 3'(DsdKindMem1d) ||
                           iss_raw[r][DsdStrideLsb +: 16] != 16'd1))
          pairs_d[u] = 1'b0;
        if (r != 0 && iss_has[r] && iss_raw[r][DsdKindLsb +: 3] == 3'(DsdKindFabIn))
          fabin_d[u][iss_raw[r][DsdColorLsb +: 5]] = 1'b1;
      end
      // fdot partials: p0 = the accumulator, the others -0.0 (docs/isa.md 6.5)
      for (int k = 0; k < 8; k++) lrdy_d[u*8 + k] = '0;
      for (int k = 0; k < 3; k++) crdy_d[u*3 + k] = '0;
      if (iss_dsd_fmt == DsdFmtF16) begin
        dw_d[u*NumDw + 0] = {16'h8000, iss_scalar_i[15:0]};
        for (int k = 1; k < 4; k++) dw_d[u*NumDw + k] = 32'h8000_8000;
      end else begin
        dw_d[u*NumDw + 0] = iss_scalar_i;
        for (int k = 1; k < 4; k++) dw_d[u*NumDw + k] = 32'h8000_0000;
      end
    end

    // waits found by the plan (UtStatus.Wait, UtInfo.Color)
    if (run) begin
      for (int u = 0; u < NumUts; u++) begin
        if (busy_q[u]) begin
          wait_d[u] = why_u[u];
          wcol_d[u] = wc_u[u];
        end
      end
    end
    // effects in microthread order; a fault stops everything after it
    for (int u = 0; u < NumUts; u++) begin
      if (run && (!e_fault || 3'(u) <= fault_ut) && ending[u]) ended_d[u] = 1'b1;
      if (run && (!e_fault || 3'(u) < fault_ut) && comp[u]) begin
        if (c_tid[u] != 5'(NoTask)) begin
          if (c_unbl[u]) unblock_o[c_tid[u]]  = 1'b1;
          else           activate_o[c_tid[u]] = 1'b1;
        end
        busy_d[u] = 1'b0;
        wait_d[u] = 3'(UtWaitReady);
        wcol_d[u] = 5'(NoColor);
      end
    end

    if (step_ok) begin
      logic [31:0]   s, x0, x1, sv;
      logic [15:0]   hi;
      logic          pair, half_s, fill, vs, take_x1;
      logic [31:0]   us;
      logic [4:0]    col;
      us   = 32'(stepper);
      pair = split_q ? spair_q : pl_pair[us];
      x0   = '0;
      x1   = '0;
      hi   = '0;
      col  = '0;
      take_x1 = 1'b1;
      // operands (the plan chose the ports)
      if (split_q) begin
        x0 = sx0_q;
      end else if (!pl_comb[us] && has_q[us][1]) begin
        if (okind_q[us*3 + 1] == KIn) begin
          col = ocol_q[us*3 + 1];
          pop_o[col] = 1'b1;
          x0 = ohalf_q[us*3 + 1] ? {16'h0, in_data[col][15:0]} : in_data[col];
        end else begin
          logic [31:0] word;
          word = x0_port1 ? rd1_data_i : rd0_data_i;
          x0 = (pair || !ohalf_q[us*3 + 1]) ? word
             : {16'h0, oaddr_q[us*3 + 1][1] ? word[31:16] : word[15:0]};
        end
      end
      if (!split_q && !pl_comb[us] && has_q[us][0] && okind_q[us*3] == KOut) begin
        cred_take_o  = 1'b1;
        cred_color_o = ocol_q[us*3];
      end
      if (!split_q && pl_split[us]) begin
        take_x1 = 1'b0;  // src1 is read in the next cycle
        split_d = 1'b1;
        sut_d   = stepper;
        spair_d = pair;
        sx0_d   = x0;
      end else if (!pl_comb[us] && has_q[us][2]) begin
        if (okind_q[us*3 + 2] == KIn) begin
          col = ocol_q[us*3 + 2];
          pop_o[col] = 1'b1;
          x1 = ohalf_q[us*3 + 2] ? {16'h0, in_data[col][15:0]} : in_data[col];
        end else begin
          x1 = (pair || !ohalf_q[us*3 + 2]) ? rd1_data_i
             : {16'h0, oaddr_q[us*3 + 2][1] ? rd1_data_i[31:16] : rd1_data_i[15:0]};
        end
      end
      if (!split_q) rr_d = stepper + 3'd1;

      half_s = fmt_q[us] == DsdFmtF16 || fmt_q[us] == DsdFmtW16 || fmt_q[us] == DsdFmtMix;
      sv     = half_s ? {2{scal_q[us][15:0]}} : scal_q[us];
      fill   = form_q[us] == DsdFormFill;
      vs     = form_q[us] == DsdFormVS;
      s      = sv;
      if (vs) x1 = sv;
      fs_ut_d  = stepper;
      fs_fmt_d = fmt_q[us] == DsdFmtF16 ? FpFmtF16 : FpFmtF32;

      if (pl_comb[us] && !split_q) begin
        // an fdot combine step (6.5): Add of two partials or combine results
        logic       f16, last;
        logic [2:0] st;
        f16  = fmt_q[us] == DsdFmtF16;
        st   = stage_q[us];
        last = st == stages(fmt_q[us]) - 3'd1;
        fs_v_d    = 1'b1;
        fs_op_d   = FpOpAdd;
        fs_aref_d = 1'b1;
        fs_bref_d = 1'b1;
        unique case (st)
          3'd0: begin fs_aw_d = 3'd0; fs_bw_d = 3'd1; end
          3'd1: begin fs_aw_d = 3'd2; fs_bw_d = 3'd3; end
          3'd2: begin fs_aw_d = 3'd4; fs_bw_d = 3'd5; end
          default: begin fs_aw_d = 3'd6; fs_bw_d = 3'd6; fs_bsh_d = 1'b1; end
        endcase
        r_v_d[0]  = 1'b1;
        r_ut_d[0] = stepper;
        r_fm_d[0] = 1'b1;
        r_fl_d[0] = (f16 && st != 3'd3) ? 2'b11 : 2'b01;
        r_16_d[0] = f16 && st == 3'd3;
        if (last) begin
          r_kind_d[0] = RGpr;
          r_reg_d[0]  = sreg_q[us];
        end else begin
          r_dv_d[0] = 1'b1;
          r_dw_d[0] = 3'd4 + st;
          r_dm_d[0] = 2'b11;
          crdy_d[us*3 + 32'(st)] = 2'(FmacLatency - 1);
        end
        stage_d[us] = st + 3'd1;
        infl_d[us]  = infl_after[us] + 3'd1;
      end else if (take_x1) begin
        // an element step finishes: its result goes into flight (docs/isa.md 6.8 item 1)
        r_v_d[0]  = 1'b1;
        r_ut_d[0] = stepper;
        if (dot_q[us]) begin
          fs_v_d    = 1'b1;
          fs_op_d   = FpOpMulAdd;
          fs_cref_d = 1'b1;
          r_fm_d[0] = 1'b1;
          r_dv_d[0] = 1'b1;
          if (fmt_q[us] == DsdFmtF32) begin
            fs_a_d    = x0;
            fs_b_d    = x1;
            fs_cw_d   = {1'b0, i_q[us][1:0]};
            r_fl_d[0] = 2'b01;
            r_dw_d[0] = {1'b0, i_q[us][1:0]};
            r_dm_d[0] = 2'b11;
            lrdy_d[us*8 + 32'(i_q[us][1:0])] = 2'(FmacLatency - 1);
          end else if (pair) begin
            fs_a_d    = x0;
            fs_b_d    = x1;
            fs_cw_d   = {1'b0, i_q[us][2:1]};
            r_fl_d[0] = 2'b11;
            r_dw_d[0] = {1'b0, i_q[us][2:1]};
            r_dm_d[0] = 2'b11;
            lrdy_d[us*8 + 32'({i_q[us][2:1], 1'b0})] = 2'(FmacLatency - 1);
            lrdy_d[us*8 + 32'({i_q[us][2:1], 1'b1})] = 2'(FmacLatency - 1);
          end else begin
            fs_a_d    = i_q[us][0] ? {x0[15:0], 16'h0} : {16'h0, x0[15:0]};
            fs_b_d    = i_q[us][0] ? {x1[15:0], 16'h0} : {16'h0, x1[15:0]};
            fs_cw_d   = {1'b0, i_q[us][2:1]};
            r_fl_d[0] = i_q[us][0] ? 2'b10 : 2'b01;
            r_dw_d[0] = {1'b0, i_q[us][2:1]};
            r_dm_d[0] = i_q[us][0] ? 2'b10 : 2'b01;
            lrdy_d[us*8 + 32'(i_q[us][2:0])] = 2'(FmacLatency - 1);
          end
        end else begin
          if (fmac_q[us]) begin
            fs_v_d    = 1'b1;
            r_fm_d[0] = 1'b1;
            r_fl_d[0] = pair ? 2'b11 : 2'b01;
            fs_a_d    = x0;
            fs_b_d    = x1;
            fs_c_d    = '0;
            unique case (op_q[us])
              DsdOpAdd: fs_op_d = FpOpAdd;
              DsdOpSub: fs_op_d = FpOpSub;
              DsdOpMul: fs_op_d = FpOpMul;
              DsdOpMax: fs_op_d = FpOpMax;
              DsdOpMin: fs_op_d = FpOpMin;
              DsdOpNeg: fs_op_d = FpOpNeg;
              DsdOpAbs: fs_op_d = FpOpAbs;
              DsdOpCvt: fs_op_d = FpOpCvtF2F;
              default:  fs_op_d = FpOpMulAdd;
            endcase
            if (op_q[us] == DsdOpNeg || op_q[us] == DsdOpAbs || op_q[us] == DsdOpCvt)
              fs_b_d = '0;
            if (op_q[us] == DsdOpMulAdd) begin
              if (fmt_q[us] == DsdFmtMix) begin
                // fmachs: src0 + f32(src1) * f32(s), one rounding (docs/isa.md 6.6)
                logic [36:0] cb, cc;
                cb = h2s(x1[15:0]);
                cc = h2s(s[15:0]);
                fs_a_d    = cb[31:0];
                fs_b_d    = cc[31:0];
                r_cf_d[0] = cb[36:32] | cc[36:32];
              end else begin
                fs_a_d = x1;
                fs_b_d = s;
              end
              fs_c_d = x0;
            end
          end else begin
            r_val_d[0] = int_step(op_q[us], fmt_q[us], fill, x0, x1, s);
          end
          if (okind_q[us*3] == KMem) begin
            r_kind_d[0] = RSram;
            r_addr_d[0] = oaddr_q[us*3][15:2];
            r_16_d[0]   = !pair && ohalf_q[us*3];
            r_be_d[0]   = (pair || !ohalf_q[us*3]) ? 4'b1111
                        : oaddr_q[us*3][1] ? 4'b1100 : 4'b0011;
          end else begin
            if (didx_q[us]) hi = dbase_q[us] + i_q[us];
            r_kind_d[0] = RWave;
            r_ctl_d[0]  = dctrl_q[us];
            r_col_d[0]  = ocol_q[us*3];
            r_16_d[0]   = ohalf_q[us*3];
            r_hi_d[0]   = hi;
          end
        end
        infl_d[us] = infl_after[us] + 3'd1;
        // the next element
        i_d[us] = i_q[us] + (pair ? 16'd2 : 16'd1);
        for (int r = 0; r < 3; r++) begin
          logic [AW-1:0] inc;
          inc = AW'($signed(oinc_q[us*3 + r]));
          if (pair) inc = {inc[AW-2:0], 1'b0};
          oaddr_d[us*3 + r] = oaddr_q[us*3 + r] + inc;
        end
        if (!unb_q[us] && 17'(i_q[us]) + (pair ? 17'd2 : 17'd1) >= 17'(n_q[us]))
          ended_d[us] = 1'b1;
      end
    end

  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= '0;
      sync_q  <= '0;
      ended_q <= '0;
      dot_q   <= '0;
      fmac_q  <= '0;
      pairs_q <= '0;
      unbl_q  <= '0;
      unb_q   <= '0;
      rr_q    <= '0;
      split_q <= 1'b0;
      spair_q <= 1'b0;
      sut_q   <= '0;
      sx0_q   <= '0;
      fs_v_q    <= 1'b0;
      fs_op_q   <= FpOpAdd;
      fs_fmt_q  <= FpFmtF32;
      fs_a_q    <= '0;
      fs_b_q    <= '0;
      fs_c_q    <= '0;
      fs_ut_q   <= '0;
      fs_aref_q <= 1'b0;
      fs_bref_q <= 1'b0;
      fs_cref_q <= 1'b0;
      fs_bsh_q  <= 1'b0;
      fs_aw_q   <= '0;
      fs_bw_q   <= '0;
      fs_cw_q   <= '0;
      for (int u = 0; u < NumUts; u++) begin
        upc_q[u]   <= '0;
        opc_q[u]   <= '0;
        op_q[u]    <= DsdOpAdd;
        fmt_q[u]   <= DsdFmtF32;
        form_q[u]  <= DsdFormV3;
        has_q[u]   <= '0;
        dctrl_q[u] <= 1'b0;
        didx_q[u]  <= 1'b0;
        dbase_q[u] <= '0;
        scal_q[u]  <= '0;
        sreg_q[u]  <= '0;
        n_q[u]     <= '0;
        i_q[u]     <= '0;
        tid_q[u]   <= '0;
        infl_q[u]  <= '0;
        wait_q[u]  <= '0;
        wcol_q[u]  <= '0;
        fabin_q[u] <= '0;
        stage_q[u] <= '0;
      end
      for (int k = 0; k < NumUts * 3; k++) begin
        okind_q[k] <= '0;
        ohalf_q[k] <= 1'b0;
        ocol_q[k]  <= '0;
        odsr_q[k]  <= '0;
        oaddr_q[k] <= '0;
        oinc_q[k]  <= '0;
        crdy_q[k]  <= '0;
      end
      for (int k = 0; k < NumUts * NumDw; k++) dw_q[k] <= '0;
      for (int k = 0; k < NumUts * 8; k++) lrdy_q[k] <= '0;
      for (int k = 0; k < Lat; k++) begin
        r_v_q[k]    <= 1'b0;
        r_ut_q[k]   <= '0;
        r_kind_q[k] <= '0;
        r_fm_q[k]   <= 1'b0;
        r_fl_q[k]   <= '0;
        r_cf_q[k]   <= '0;
        r_16_q[k]   <= 1'b0;
        r_addr_q[k] <= '0;
        r_be_q[k]   <= '0;
        r_ctl_q[k]  <= 1'b0;
        r_col_q[k]  <= '0;
        r_hi_q[k]   <= '0;
        r_reg_q[k]  <= '0;
        r_val_q[k]  <= '0;
        r_dv_q[k]   <= 1'b0;
        r_dw_q[k]   <= '0;
        r_dm_q[k]   <= '0;
      end
    end else begin
      busy_q  <= busy_d;
      sync_q  <= sync_d;
      ended_q <= ended_d;
      dot_q   <= dot_d;
      fmac_q  <= fmac_d;
      pairs_q <= pairs_d;
      unbl_q  <= unbl_d;
      unb_q   <= unb_d;
      rr_q    <= rr_d;
      split_q <= split_d;
      spair_q <= spair_d;
      sut_q   <= sut_d;
      sx0_q   <= sx0_d;
      fs_v_q    <= fs_v_d;
      fs_op_q   <= fs_op_d;
      fs_fmt_q  <= fs_fmt_d;
      fs_a_q    <= fs_a_d;
      fs_b_q    <= fs_b_d;
      fs_c_q    <= fs_c_d;
      fs_ut_q   <= fs_ut_d;
      fs_aref_q <= fs_aref_d;
      fs_bref_q <= fs_bref_d;
      fs_cref_q <= fs_cref_d;
      fs_bsh_q  <= fs_bsh_d;
      fs_aw_q   <= fs_aw_d;
      fs_bw_q   <= fs_bw_d;
      fs_cw_q   <= fs_cw_d;
      for (int u = 0; u < NumUts; u++) begin
        upc_q[u]   <= upc_d[u];
        opc_q[u]   <= opc_d[u];
        op_q[u]    <= op_d[u];
        fmt_q[u]   <= fmt_d[u];
        form_q[u]  <= form_d[u];
        has_q[u]   <= has_d[u];
        dctrl_q[u] <= dctrl_d[u];
        didx_q[u]  <= didx_d[u];
        dbase_q[u] <= dbase_d[u];
        scal_q[u]  <= scal_d[u];
        sreg_q[u]  <= sreg_d[u];
        n_q[u]     <= n_d[u];
        i_q[u]     <= i_d[u];
        tid_q[u]   <= tid_d[u];
        infl_q[u]  <= infl_d[u];
        wait_q[u]  <= wait_d[u];
        wcol_q[u]  <= wcol_d[u];
        fabin_q[u] <= fabin_d[u];
        stage_q[u] <= stage_d[u];
      end
      for (int k = 0; k < NumUts * 3; k++) begin
        okind_q[k] <= okind_d[k];
        ohalf_q[k] <= ohalf_d[k];
        ocol_q[k]  <= ocol_d[k];
        odsr_q[k]  <= odsr_d[k];
        oaddr_q[k] <= oaddr_d[k];
        oinc_q[k]  <= oinc_d[k];
        crdy_q[k]  <= crdy_d[k];
      end
      for (int k = 0; k < NumUts * NumDw; k++) dw_q[k] <= dw_d[k];
      for (int k = 0; k < NumUts * 8; k++) lrdy_q[k] <= lrdy_d[k];
      for (int k = 0; k < Lat; k++) begin
        r_v_q[k]    <= r_v_d[k];
        r_ut_q[k]   <= r_ut_d[k];
        r_kind_q[k] <= r_kind_d[k];
        r_fm_q[k]   <= r_fm_d[k];
        r_fl_q[k]   <= r_fl_d[k];
        r_cf_q[k]   <= r_cf_d[k];
        r_16_q[k]   <= r_16_d[k];
        r_addr_q[k] <= r_addr_d[k];
        r_be_q[k]   <= r_be_d[k];
        r_ctl_q[k]  <= r_ctl_d[k];
        r_col_q[k]  <= r_col_d[k];
        r_hi_q[k]   <= r_hi_d[k];
        r_reg_q[k]  <= r_reg_d[k];
        r_val_q[k]  <= r_val_d[k];
        r_dv_q[k]   <= r_dv_d[k];
        r_dw_q[k]   <= r_dw_d[k];
        r_dm_q[k]   <= r_dm_d[k];
      end
    end
  end

  // The decoder's other fields (scalar classes) are not the engine's.
  logic unused_dec;
  assign unused_dec = ^iss_dec_i;

  `include "tessera_assert.svh"
  `ASSERT(DsdLatencyIsFmacPlusOne, Lat == FmacLatency + 1)
endmodule
