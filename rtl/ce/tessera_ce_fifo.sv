// The FIFOs of FIFO descriptors (docs/isa.md 2.3): for FIFO k, the slot the next pop reads
// (Head), the slot the next push writes (Tail), the elements written and not popped (Count) and
// those plus the pushes whose result is still in flight (Used). A source pops when its step reads
// it (a split step's src1 in its second cycle), the destination pushes when the step that writes
// it finishes, and the push counts when its result is written, DsdLatency cycles later. The
// buffer and the capacity are the descriptors': each pop or push says whether its slot was the
// last (the view's wrap bits). Everything changes at the end of the cycle, so every step of a cycle sees the
// FIFOs as they were at its start. The functional model's twin: FifoState (model/ce/ce_state.h)
// and its uses in model/ce/dsd.cpp.
module tessera_ce_fifo (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                step_i,   // a step of an operation on FIFOs ...
  input  logic                                split_i,  // ... a split step's second half
  input  tessera_pkg::dsd_ut_view_t           view_i,   // ... the stepper's view
  input  logic                                done_i,   // the result due wrote a push ...
  input  logic [2:0]                          done_k_i, // ... into this FIFO
  // FIFO k at [15*k +: 15] and bit k
  output logic [tessera_pkg::NumFifos*15-1:0] head_o,
  output logic [tessera_pkg::NumFifos*15-1:0] tail_o,
  output logic [tessera_pkg::NumFifos*15-1:0] count_o,
  output logic [tessera_pkg::NumFifos*15-1:0] used_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned W = 15 * NumFifos;

  logic [W-1:0]        head_q, head_d, tail_q, tail_d, count_q, count_d, used_q, used_d;
  logic                we;  // some FIFO may change
  assign we = step_i || done_i;

  // The step's pops and push: a split step pops src0 in its first cycle, src1 and pushes in its
  // second; a combine step of a reduction moves nothing.
  logic       pop0, pop1, push;
  logic [2:0] k0, k1, kd;

  // Only a cycle that moves a FIFO computes (a simulator skips the rest; the registers load only
  // then). Synthesis computes every cycle, so that it infers no latch.
  always_comb begin
`ifdef SYNTHESIS
    begin
`else
    if (we) begin
`endif
      pop0    = step_i && !view_i.comb && !split_i && view_i.has[1] && view_i.src0.fifo;
      pop1    = step_i && !view_i.comb && !view_i.split && view_i.has[2] && view_i.src1.fifo;
      push    = step_i && !view_i.comb && !view_i.split && view_i.has[0] && view_i.dst.fifo;
      k0      = view_i.src0.color[2:0];
      k1      = view_i.src1.color[2:0];
      kd      = view_i.dst.color[2:0];
      head_d  = head_q;
      tail_d  = tail_q;
      count_d = count_q;
      used_d  = used_q;
      for (int k = 0; k < NumFifos; k++) begin
        logic p0, p1, pu, dn;
        p0 = pop0 && k0 == 3'(k);
        p1 = pop1 && k1 == 3'(k);
        pu = push && kd == 3'(k);
        dn = done_i && done_k_i == 3'(k);
        if (p0) head_d[15*k +: 15] = view_i.src0.wrap ? '0 : head_q[15*k +: 15] + 15'd1;
        if (p1) head_d[15*k +: 15] = view_i.src1.wrap ? '0 : head_q[15*k +: 15] + 15'd1;
        if (pu) tail_d[15*k +: 15] = view_i.dst.wrap ? '0 : tail_q[15*k +: 15] + 15'd1;
        count_d[15*k +: 15] = count_q[15*k +: 15] + 15'(dn) - 15'(p0) - 15'(p1);
        used_d[15*k +: 15]  = used_q[15*k +: 15] + 15'(pu) - 15'(p0) - 15'(p1);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q  <= '0;
      tail_q  <= '0;
      count_q <= '0;
      used_q  <= '0;
    end else if (we) begin
      head_q  <= head_d;
      tail_q  <= tail_d;
      count_q <= count_d;
      used_q  <= used_d;
    end
  end

  assign head_o  = head_q;
  assign tail_o  = tail_q;
  assign count_o = count_q;
  assign used_o  = used_q;

  // Assertions: a FIFO pops only what was written, and src0 and src1 never share one.
  `include "tessera_assert.svh"
`ifndef SYNTHESIS
  `ASSERT_IF(FifoPopsWrittenOfTwoFifos, we,
             (!pop0 || count_q[15*k0 +: 15] != '0) && (!pop1 || count_q[15*k1 +: 15] != '0) &&
             !(pop0 && pop1 && k0 == k1))
`endif
endmodule
