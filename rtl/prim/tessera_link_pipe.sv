// A fixed-latency pipeline of Stages link words (link_t), reset to zero, that also says whether
// any stage holds a wavelet (its Valid bit set). Use it for the ramp between router and CE, where
// the fabric must know that a wavelet is still in flight (quiescence); use tessera_pipe for
// other pure delays. Words without their Valid bit come out as zeros.
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
    // Each stage in a generate block of its own (see tessera_pipe); a word without its Valid bit
    // enters as zeros, and the stages load only while a wavelet enters or is inside: an empty
    // ramp holds its zeros.
    logic              load;
    logic [Stages-1:0] valid;
    for (genvar s = 0; s < Stages; s++) begin : g_stage
      logic [LinkBits-1:0] d, q;
      if (s == 0) begin : g_first
        assign d = d_i[LinkValidLsb] ? d_i : '0;
      end else begin : g_next
        assign d = g_stage[s-1].q;
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)   q <= '0;
        else if (load) q <= d;
      end
      assign valid[s] = q[LinkValidLsb];
    end
    assign load   = en_i && (d_i[LinkValidLsb] || (|valid));
    assign q_o    = g_stage[Stages-1].q;
    assign busy_o = |valid;
  end
endmodule
