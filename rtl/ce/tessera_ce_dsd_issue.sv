// What a DSD instruction that issues loads into its microthread (docs/isa.md 4.11): the operation
// (op, format, form, length, completion, R[S]) and, per operand role (0 dst, 1 src0, 2 src1), its
// kind, element size, color, DSR, byte strides and mem4d lengths, and where its first element
// lies. Decoded once for the engine in the cycle an instruction issues (active_i), and zero in
// every other cycle: each microthread's registers take these values when it is the one that
// issues, so the eight of them decode nothing themselves.
module tessera_ce_dsd_issue #(
  parameter int unsigned AW = 21  // element addresses (signed; tessera_ce_dsd_ut)
) (
  input  logic                              active_i,  // an instruction issues in this cycle
  input  logic [31:0]                       insn_i,
  input  tessera_pkg::dsd_op_e              op_i,
  input  tessera_pkg::dsd_fmt_e             fmt_i,
  input  tessera_pkg::dsd_form_e            form_i,
  input  logic [2:0]                        has_i,     // bit r: an operand in role r
  input  logic [14:0]                       len_i,
  input  logic [63:0]                       dsr_dst_i,
  input  logic [63:0]                       dsr_src0_i,
  input  logic [63:0]                       dsr_src1_i,
  input  logic [63:0]                       ext_dst_i,   // the odd DSR of each role's pair
  input  logic [63:0]                       ext_src0_i,  // (a mem4d operand's extension)
  input  logic [63:0]                       ext_src1_i,
  input  logic [31:0]                       scalar_i,
  input  logic [15:0]                       pc_i,
  // the operation
  output logic                              sync_o,    // the CE waits for it (UtStatus.Sync)
  output logic                              unbl_o,    // its completion unblocks
  output logic [4:0]                        tid_o,
  output logic [15:0]                       pc_o,
  output logic [6:0]                        opc_o,
  output tessera_pkg::dsd_op_e              op_o,
  output tessera_pkg::dsd_fmt_e             fmt_o,
  output tessera_pkg::dsd_form_e            form_o,
  output logic [2:0]                        has_o,
  output logic [14:0]                       n_o,
  output logic                              n0_o,      // length zero
  output logic                              unb_o,     // unbounded length
  output logic                              dot_o,     // a reduction: fdot, a sum, max, min
  output logic                              minmax_o,  // ... a max or a min
  output logic                              fmac_o,    // every element step uses the FMAC
  output logic                              pairs_o,   // steps may take two 16-bit elements
  output logic [31:0]                       scal_o,
  output logic [3:0]                        sreg_o,
  output logic                              dctrl_o,   // dst's Ctrl, Idx and Base
  output logic                              didx_o,
  output logic [15:0]                       dbase_o,
  output logic [tessera_pkg::NumColors-1:0] fabin_o,   // its fabin colors
  // per role
  output logic [2:0]                        o4_o,      // mem4d
  output logic [6-1:0]                   okind_o,   // dsd_kind_e bits 1:0 (mem4d as mem1d)
  output logic [2:0]                        ohalf_o,   // 16-bit elements
  output logic [15-1:0]                   ocol_o,
  output logic [12-1:0]                   odsr_o,
  output logic [57-1:0]                  oinc_o,    // signed: Stride * element size
  output logic [45-1:0]                  l0_o,      // mem4d lengths of dimensions 0..2
  output logic [33-1:0]                  l1_o,
  output logic [15-1:0]                   l2_o,
  output logic [57-1:0]                  inc1_o,    // mem4d byte steps of dimensions 1..3
  output logic [57-1:0]                  inc2_o,
  output logic [57-1:0]                  inc3_o,
  output logic [3*AW-1:0]                base_o     // the first element's address
);
  `include "tessera_pkg_use.svh"

  localparam logic [1:0] KMem = 2'd1;  // dsd_kind_e, bits 1:0

  // A stride in elements as a signed step in bytes (elements of 2 or 4 bytes).
  function automatic logic [18:0] stride_bytes(input logic [15:0] stride, input logic half);
    stride_bytes = half ? {{2{stride[15]}}, stride, 1'b0} : {stride[15], stride, 2'b00};
  endfunction

  tessera_pkg::insn_d_t d;
  logic [63:0]          raw [3];
  logic [63:0]          ext [3];
  assign d = insn_i;

  always_comb begin
    logic half;
    raw[0]   = dsr_dst_i;
    raw[1]   = dsr_src0_i;
    raw[2]   = dsr_src1_i;
    ext[0]   = ext_dst_i;
    ext[1]   = ext_src0_i;
    ext[2]   = ext_src1_i;
    half     = 1'b0;
    sync_o   = 1'b0;
    unbl_o   = 1'b0;
    tid_o    = '0;
    pc_o     = '0;
    opc_o    = '0;
    op_o     = DsdOpAdd;
    fmt_o    = DsdFmtF32;
    form_o   = DsdFormV3;
    has_o    = '0;
    n_o      = '0;
    n0_o     = 1'b0;
    unb_o    = 1'b0;
    dot_o    = 1'b0;
    minmax_o = 1'b0;
    fmac_o   = 1'b0;
    pairs_o  = 1'b0;
    scal_o   = '0;
    sreg_o   = '0;
    dctrl_o  = 1'b0;
    didx_o   = 1'b0;
    dbase_o  = '0;
    fabin_o  = '0;
    o4_o     = '0;
    okind_o  = '0;
    ohalf_o  = '0;
    ocol_o   = '0;
    odsr_o   = '0;
    oinc_o   = '0;
    l0_o     = '0;
    l1_o     = '0;
    l2_o     = '0;
    inc1_o   = '0;
    inc2_o   = '0;
    inc3_o   = '0;
    base_o   = '0;
    if (active_i) begin
      sync_o   = d.u && d.tid == 5'(NoTask);
      unbl_o   = d.u && d.tid != 5'(NoTask);
      tid_o    = d.tid;
      pc_o     = pc_i;
      opc_o    = d.op;
      op_o     = op_i;
      fmt_o    = fmt_i;
      form_o   = form_i;
      has_o    = has_i;
      n_o      = len_i;
      n0_o     = len_i == 15'd0;
      unb_o    = len_i == 15'(UnboundedLength);
      minmax_o = op_i == DsdOpMaxR || op_i == DsdOpMinR;
      dot_o    = op_i == DsdOpDot || op_i == DsdOpSum || minmax_o;
      fmac_o   = fmt_i == DsdFmtF32 || fmt_i == DsdFmtF16 || fmt_i == DsdFmtMix;
      // conversions and compares step one element at a time: the FMAC takes lane 0 only
      pairs_o  = (fmt_i == DsdFmtF16 || fmt_i == DsdFmtW16) && op_i != DsdOpCvt &&
                 op_i != DsdOpCvtF2I && op_i != DsdOpCvtI2F &&
                 !(op_i >= DsdOpCmpEq && op_i <= DsdOpCmpGe);
      scal_o   = scalar_i;
      sreg_o   = d.s;
      dctrl_o  = dsr_dst_i[DsdCtrlLsb];
      didx_o   = dsr_dst_i[DsdIdxLsb];
      dbase_o  = dsr_dst_i[DsdBaseLsb +: 16];
      odsr_o   = {d.src1, d.src0, d.dst};
      for (int r = 0; r < 3; r++) begin
        half       = raw[r][DsdElemLsb];
        o4_o[r]    = raw[r][DsdKindLsb +: 3] == 3'(DsdKindMem4d);
        okind_o[2*r +: 2] = o4_o[r] ? KMem : raw[r][DsdKindLsb +: 2];
        ohalf_o[r] = half;
        ocol_o[5*r +: 5]  = raw[r][DsdColorLsb +: 5];
        oinc_o[19*r +: 19]  = stride_bytes(raw[r][DsdStrideLsb +: 16], half);
        l0_o[15*r +: 15]    = raw[r][DsdLengthLsb +: 15];
        l1_o[11*r +: 11]    = ext[r][Dsd4xLen1Lsb +: 11];
        l2_o[5*r +: 5]    = ext[r][Dsd4xLen2Lsb +: 5];
        inc1_o[19*r +: 19]  = stride_bytes(ext[r][Dsd4xStride1Lsb +: 16], half);
        inc2_o[19*r +: 19]  = stride_bytes(ext[r][Dsd4xStride2Lsb +: 16], half);
        inc3_o[19*r +: 19]  = stride_bytes(ext[r][Dsd4xStride3Lsb +: 16], half);
        base_o[AW*r +: AW]  = AW'(raw[r][DsdBaseLsb +: 16]);
        if (has_i[r] && (raw[r][DsdKindLsb +: 3] != 3'(DsdKindMem1d) ||
                         raw[r][DsdStrideLsb +: 16] != 16'd1))
          pairs_o = 1'b0;
        if (r != 0 && has_i[r] && raw[r][DsdKindLsb +: 3] == 3'(DsdKindFabIn))
          fabin_o[raw[r][DsdColorLsb +: 5]] = 1'b1;
      end
    end
  end

  logic unused;
  assign unused = ^{d.ut, raw[0], raw[1], raw[2], ext[0], ext[1], ext[2]};
endmodule
