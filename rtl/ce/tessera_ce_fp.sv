// The scalar stage's use of the FMAC (docs/isa.md 4.7, 6.8 items 1, 3, 4). A scalar FP
// instruction that issues in cycle c has its operands registered for the FMAC slot of c+1 and
// its result written FmacLatency cycles after that; until then the CE issues nothing
// (fp_pend_o). The FMAC slot of a cycle is the scalar stage's or the DSD engine's, never both
// (the engine holds the slot after a split step's first half; the scalar stage's issue makes the
// engine wait). A tag travels beside the FMAC pipeline to say which results are the scalar's.
module tessera_ce_fp (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      live_i,
  input  tessera_pkg::fp_issue_t issue_i,   // the scalar FP instruction that issues
  input  tessera_pkg::fmac_req_t dsd_i,     // the DSD engine's slot
  output tessera_pkg::fmac_req_t fmac_o,    // the FMAC slot of this cycle
  input  tessera_pkg::fmac_rsp_t fmac_i,
  output logic                      fp_pend_o, // a scalar FP result is in flight
  output tessera_pkg::gpr_wr_t   gpr_o,     // the scalar FP result
  output logic [4:0]                flags_o    // ... and its flags
);
  `include "tessera_pkg_use.svh"

  tessera_pkg::fp_issue_t op_q, op_d;   // the operation for the slot (valid: this cycle)
  logic                      pend_q, pend_d;
  logic                      tag;          // the FMAC output is the scalar stage's
  logic                      result;       // the scalar result is due

  tessera_pipe #(.Width(1), .Stages(FmacLatency), .ValidBit(0)) u_tag (
    .clk_i, .rst_ni, .en_i,
    .d_i(op_q.valid),
    .q_o(tag)
  );

  always_comb begin
    result = fmac_i.valid && tag && live_i;
    // the operands of an instruction that issues; the slot is taken in the next cycle only
    op_d       = issue_i.valid ? issue_i : op_q;
    op_d.valid = issue_i.valid;
    pend_d     = (pend_q || issue_i.valid) && !(pend_q && result);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q   <= '0;
      pend_q <= 1'b0;
    end else begin
      op_q   <= op_d;
      pend_q <= pend_d;
    end
  end

  always_comb begin
    fmac_o = dsd_i;
    if (op_q.valid) begin
      fmac_o.valid = live_i || dsd_i.valid;
      fmac_o.op    = op_q.op;
      fmac_o.fmt   = op_q.fmt;
      fmac_o.a     = op_q.a;
      fmac_o.b     = op_q.b;
      fmac_o.c     = op_q.c;
    end
    gpr_o      = '0;
    gpr_o.we   = result;
    gpr_o.addr = op_q.rd;
    gpr_o.data = op_q.half ? {16'h0, fmac_i.result[15:0]} : fmac_i.result;
    flags_o    = result ? fmac_i.flags[4:0] : 5'h0;
  end
  assign fp_pend_o = pend_q;

  `include "tessera_assert.svh"
  `ASSERT(OneFmacIssuePerCycle, !(op_q.valid && live_i && dsd_i.valid))
  `ASSERT_IF(ScalarResultWhenPending, result, pend_q)
endmodule
