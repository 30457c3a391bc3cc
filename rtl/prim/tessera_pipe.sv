// A fixed-latency pipeline of Stages registers, reset to zero. Use it for pure delays (the ramp
// between router and CE); use a FIFO where back pressure must be absorbed.
module tessera_pipe #(
  parameter int unsigned Width  = 8,
  parameter int unsigned Stages = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,   // 0 holds every stage (the fabric is frozen)
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  if (Stages == 0) begin : g_wire
    assign q_o = d_i;

    logic unused_ctrl;
    assign unused_ctrl = clk_i ^ rst_ni ^ en_i;
  end else begin : g_regs
    logic [Width-1:0] stage_d [Stages];
    logic [Width-1:0] stage_q [Stages];
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
    end
    assign q_o = stage_q[Stages-1];
  end
endmodule
