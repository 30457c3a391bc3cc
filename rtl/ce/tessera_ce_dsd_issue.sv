// What a DSD instruction that issues loads into its microthread (docs/isa.md 4.11): the operation
// (op, format, form, length, completion, R[S]) and, per operand role (0 dst, 1 src0, 2 src1), its
// kind, element size, color, DSR, byte strides and mem4d lengths, and where its first element
// lies. Decoded once for the engine in the cycle an instruction issues (active_i): each
// microthread's registers take these values when it is the one that issues, so the eight of
// them decode nothing themselves. In every other cycle nothing reads them: a simulator computes
// nothing then and keeps the last values; synthesis gives zeros (so it infers no latch).
module tessera_ce_dsd_issue (
  input  logic                       active_i,  // an instruction issues in this cycle
  input  logic [31:0]                insn_i,
  input  tessera_pkg::dsd_op_e       op_i,
  input  tessera_pkg::dsd_fmt_e      fmt_i,
  input  tessera_pkg::dsd_form_e     form_i,
  input  logic [2:0]                 has_i,     // bit r: an operand in role r
  input  logic [14:0]                len_i,
  input  logic [63:0]                dsr_dst_i,
  input  logic [63:0]                dsr_src0_i,
  input  logic [63:0]                dsr_src1_i,
  input  logic [63:0]                ext_dst_i,   // the odd DSR of each role's pair
  input  logic [63:0]                ext_src0_i,  // (a mem4d operand's extension)
  input  logic [63:0]                ext_src1_i,
  input  logic [31:0]                scalar_i,
  input  logic [15:0]                pc_i,
  output tessera_pkg::dsd_issue_t iss_o
);
  `include "tessera_pkg_use.svh"

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
`ifdef SYNTHESIS
    begin
`else
    if (active_i) begin
`endif
      raw[0] = dsr_dst_i;
      raw[1] = dsr_src0_i;
      raw[2] = dsr_src1_i;
      ext[0] = ext_dst_i;
      ext[1] = ext_src0_i;
      ext[2] = ext_src1_i;
      half   = 1'b0;
      iss_o  = '0;
      if (active_i) begin
        iss_o.sync   = d.u && d.tid == 5'(NoTask);
        iss_o.unbl   = d.u && d.tid != 5'(NoTask);
        iss_o.tid    = d.tid;
        iss_o.pc     = pc_i;
        iss_o.opc    = d.op;
        iss_o.op     = op_i;
        iss_o.fmt    = fmt_i;
        iss_o.form   = form_i;
        iss_o.has    = has_i;
        iss_o.n      = len_i;
        iss_o.n0     = len_i == 15'd0;
        iss_o.unb    = len_i == 15'(UnboundedLength);
        iss_o.dot    = DsdOpIsReduction[op_i];
        iss_o.minmax = iss_o.dot && DsdOpCombineOp[{op_i, 2'b00} +: 4] != 4'(FpOpAdd);
        iss_o.fmac   = fmt_i == DsdFmtF32 || fmt_i == DsdFmtF16 || fmt_i == DsdFmtMix;
        // conversions and compares step one element at a time: the FMAC takes lane 0 only
        iss_o.pairs  = (fmt_i == DsdFmtF16 || fmt_i == DsdFmtW16) && !DsdOpIsConversion[op_i] &&
                       !DsdOpIsCompare[op_i];
        iss_o.scal   = scalar_i;
        iss_o.sreg   = d.s;
        iss_o.dctrl  = dsr_dst_i[DsdCtrlLsb];
        iss_o.didx   = dsr_dst_i[DsdIdxLsb];
        iss_o.dbase  = dsr_dst_i[DsdBaseLsb +: 16];
        iss_o.odsr   = {d.src1, d.src0, d.dst};
        for (int r = 0; r < 3; r++) begin
          half                     = raw[r][DsdElemLsb];
          iss_o.o4[r]              = raw[r][DsdKindLsb +: 3] == 3'(DsdKindMem4d);
          iss_o.ofifo[r]           = has_i[r] && raw[r][DsdKindLsb +: 3] == 3'(DsdKindFifo);
          iss_o.okind[2*r +: 2]    = (iss_o.o4[r] || iss_o.ofifo[r]) ? 2'(DsdKindMem1d)
                                                                     : raw[r][DsdKindLsb +: 2];
          iss_o.ohalf[r]           = half;
          iss_o.ocol[5*r +: 5]     = raw[r][DsdColorLsb +: 5];
          iss_o.oinc[19*r +: 19]   = iss_o.ofifo[r] ? '0 : stride_bytes(raw[r][DsdStrideLsb +: 16], half);
          iss_o.l0[15*r +: 15]     = raw[r][DsdLengthLsb +: 15];
          iss_o.l1[11*r +: 11]     = ext[r][Dsd4xLen1Lsb +: 11];
          iss_o.l2[5*r +: 5]       = ext[r][Dsd4xLen2Lsb +: 5];
          iss_o.inc1[19*r +: 19]   = stride_bytes(ext[r][Dsd4xStride1Lsb +: 16], half);
          iss_o.inc2[19*r +: 19]   = stride_bytes(ext[r][Dsd4xStride2Lsb +: 16], half);
          iss_o.inc3[19*r +: 19]   = stride_bytes(ext[r][Dsd4xStride3Lsb +: 16], half);
          iss_o.base[21*r +: 21]   = 21'(raw[r][DsdBaseLsb +: 16]);
          if (has_i[r] && (raw[r][DsdKindLsb +: 3] != 3'(DsdKindMem1d) ||
                           raw[r][DsdStrideLsb +: 16] != 16'd1))
            iss_o.pairs = 1'b0;
          if (r != 0 && has_i[r] && raw[r][DsdKindLsb +: 3] == 3'(DsdKindFabIn))
            iss_o.fabin[raw[r][DsdColorLsb +: 5]] = 1'b1;
        end
      end
    end
  end

  logic unused;
  assign unused = ^{d.ut, raw[0], raw[1], raw[2], ext[0], ext[1], ext[2]};
endmodule
