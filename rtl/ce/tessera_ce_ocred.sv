// The CE's output credits toward the router's RAMP input queues (docs/isa.md 6.7): per color,
// the free slots the CE may still send into, RampInDepth at reset. A send (the scalar stage's, or
// a fabout step's) takes one; the router returns one per slot it frees. The DSD engine sees the
// credits the scalar stage's send leaves (6.8 items 3, 4).
module tessera_ce_ocred (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                en_i,
  input  tessera_pkg::credit_t                credit_i,     // the router freed a slot
  input  tessera_pkg::link_t                  send_i,       // the scalar stage sends
  input  logic                                dsd_take_i,   // a fabout step takes a credit
  input  logic [4:0]                          dsd_color_i,
  output logic [tessera_pkg::NumColors*4-1:0] ocred_o,      // color c at [4*c +: 4]
  output logic [tessera_pkg::NumColors*4-1:0] ocred_after_o // ... after the scalar stage's send
);
  `include "tessera_pkg_use.svh"

  logic [NumColors-1:0] over, under;  // a credit beyond RampInDepth, or below zero

  for (genvar c = 0; c < NumColors; c++) begin : g_color
    logic [3:0] ocred_q, ocred_d;
    logic       ret, send, take;
    logic [5:0] next;  // signed, for the assertions
    // (apart: the engine's take depends on the credits the scalar stage's send leaves)
    assign ret  = en_i && credit_i.valid && credit_i.color == 5'(c);
    assign send = send_i.valid && send_i.color == 5'(c);
    assign take = dsd_take_i && dsd_color_i == 5'(c);
    always_comb begin
      ocred_d = ocred_q + 4'(ret) - 4'(send) - 4'(take);
      next    = 6'(ocred_q) + 6'(ret) - 6'(send) - 6'(take);
      over[c]  = !next[5] && next > 6'(RampInDepth);
      under[c] = next[5];
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ocred_q <= 4'(RampInDepth);
      else         ocred_q <= ocred_d;
    end
    assign ocred_o[4*c +: 4]       = ocred_q;
    assign ocred_after_o[4*c +: 4] = ocred_q - 4'(send);
  end

  `include "tessera_assert.svh"
  `ASSERT(CreditsWithinRampInDepth, over == '0)
  `ASSERT(CreditsNeverNegative, under == '0)

  logic unused;
  assign unused = ^{send_i.ctrl, send_i.data};
endmodule
