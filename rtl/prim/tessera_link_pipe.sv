// A fixed-latency pipeline of Stages link words (link_t), reset to zero, that also says whether
// any stage holds a wavelet (its Valid bit set). Use it for the ramp between router and CE, where
// the fabric must know that a wavelet is still in flight (quiescence); use tessera_pipe for
// other pure delays.
module tessera_link_pipe #(
  parameter int unsigned Stages = 1
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 en_i,    // 0 holds every stage (the fabric is frozen)
  input  tessera_pkg::link_t   d_i,
  output tessera_pkg::link_t   q_o,
  output logic                 busy_o   // some stage holds a valid wavelet
);
  `include "tessera_pkg_use.svh"

  if (Stages == 0) begin : g_wire
    assign q_o    = d_i;
    assign busy_o = 1'b0;

    logic unused_ctrl;
    assign unused_ctrl = clk_i ^ rst_ni ^ en_i;
  end else begin : g_regs
    // Plain vectors rather than link_t: Yosys 0.23 cannot index arrays of structs.
    logic [LinkBits-1:0] stage_d [Stages];
    logic [LinkBits-1:0] stage_q [Stages];
    logic [Stages-1:0]   valid;
    for (genvar s = 0; s < Stages; s++) begin : g_stage
      if (s == 0) begin : g_first
        assign stage_d[s] = d_i;
      end else begin : g_next
        assign stage_d[s] = stage_q[s-1];
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)   stage_q[s] <= '0;
        else if (en_i) stage_q[s] <= stage_d[s];
      end
      assign valid[s] = stage_q[s][LinkValidLsb];
    end
    assign q_o    = stage_q[Stages-1];
    assign busy_o = |valid;
  end
endmodule
