// Depth back-to-back registers (reset to zero) on a Width-bit bundle; Depth 0 is a wire. The FMAC
// places its stage boundaries with it, so the pipeline depth follows tessera_pkg::FmacLatency.
// (Same behaviour as rtl/prim/tessera_pipe, kept here so rtl/fmac synthesises on its own and
// without unpacked arrays.)
module tessera_fmac_pipe_reg #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  if (Depth == 0) begin : g_wire
    assign q_o = d_i;

    logic unused_clk;
    assign unused_clk = clk_i ^ rst_ni;
  end else begin : g_regs
    logic [Depth*Width-1:0] chain;  // stage s at [s*Width +: Width]

    for (genvar s = 0; s < Depth; s++) begin : g_stage
      logic [Width-1:0] stage_d, stage_q;

      if (s == 0) begin : g_first
        assign stage_d = d_i;
      end else begin : g_next
        assign stage_d = chain[(s-1)*Width +: Width];
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) stage_q <= '0;
        else         stage_q <= stage_d;
      end

      assign chain[s*Width +: Width] = stage_q;
    end

    assign q_o = chain[(Depth-1)*Width +: Width];
  end
endmodule
