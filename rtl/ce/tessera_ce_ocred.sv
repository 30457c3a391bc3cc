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
  output logic [tessera_pkg::NumColors-1:0]   has_o,        // per color: a credit is left
  output logic [tessera_pkg::NumColors-1:0]   has_after_o   // ... after the scalar stage's send
);
  `include "tessera_pkg_use.svh"

  // A credit returned, a send and a fabout take each touch one color; a cycle without them
  // changes nothing (the registers load only when one happens).
  // Beside the counts, whether each is above zero (has_q), in the same cycles.
  logic [NumColors*4-1:0] ocred_q, ocred_d;
  logic [NumColors-1:0]   has_q, has_d;
  logic                   ret, send, take;
  logic                   bad;  // a credit beyond RampInDepth, or below zero
  // (apart: the engine's take depends on the credits the scalar stage's send leaves)
  always_comb begin
    send        = send_i.valid && 32'(send_i.color) < NumColors;
    has_after_o = has_q;
    if (send && ocred_q[4*send_i.color +: 4] == 4'd1) has_after_o[send_i.color] = 1'b0;
  end
  always_comb begin
    logic [4:0] col [3];  // the colors of the return, the send and the take
    logic       hit [3];
    logic [5:0] next;     // signed
    ret     = en_i && credit_i.valid && 32'(credit_i.color) < NumColors;
    take    = dsd_take_i && 32'(dsd_color_i) < NumColors;
    col[0]  = credit_i.color;
    col[1]  = send_i.color;
    col[2]  = dsd_color_i;
    hit[0]  = ret;
    hit[1]  = send;
    hit[2]  = take;
    ocred_d = '0;
    has_d   = '0;
    bad     = 1'b0;
    next    = '0;
    if (ret || send || take) begin
      ocred_d = ocred_q;
      has_d   = has_q;
      for (int k = 0; k < 3; k++) begin
        if (hit[k]) begin
          next = 6'(ocred_q[4*col[k] +: 4]) + 6'(ret && credit_i.color == col[k]) -
                 6'(send && send_i.color == col[k]) - 6'(take && dsd_color_i == col[k]);
          ocred_d[4*col[k] +: 4] = next[3:0];
          has_d[col[k]]          = next != '0;
          if (next[5] || next > 6'(RampInDepth)) bad = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ocred_q <= {NumColors{4'(RampInDepth)}};
      has_q   <= '1;
    end else if (ret || send || take) begin
      ocred_q <= ocred_d;
      has_q   <= has_d;
    end
  end
  assign ocred_o = ocred_q;
  assign has_o   = has_q;

  `include "tessera_assert.svh"
  `ASSERT(CreditsWithinRampInDepthAndNotNegative, !bad)

  logic unused;
  assign unused = ^{send_i.ctrl, send_i.data};
endmodule
