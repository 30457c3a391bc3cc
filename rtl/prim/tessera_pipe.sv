// A fixed-latency pipeline of Stages registers, reset to zero. Use it for pure delays (the ramp
// between router and CE); use a FIFO where back pressure must be absorbed.
//
// ValidBit, when set (0 or more), names the bit of d_i that says the word is valid. Then an
// invalid word enters as zeros, and the stages load only while the input or some stage holds a
// valid word: an empty pipeline holds its zeros (in hardware, a clock gate on the whole
// pipeline). Outputs are those of a pipeline that always loads, as long as d_i is zero whenever
// its valid bit is clear; where it is not, the invalid words come out as zeros instead.
//
// Each stage is a register of its own generate block rather than an element of an unpacked
// array: a simulator then copies a stage as one variable (Verilator keeps a delayed-write flag
// per element of an array written in several always_ff blocks).
module tessera_pipe #(
  parameter int unsigned Width    = 8,
  parameter int unsigned Stages   = 1,
  parameter int          ValidBit = -1
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
    logic             load;   // the stages take their next values
    logic [Width-1:0] first;  // what enters the first stage

    for (genvar s = 0; s < Stages; s++) begin : g_stage
      logic [Width-1:0] d, q;
      if (s == 0) begin : g_first
        assign d = first;
      end else begin : g_next
        assign d = g_stage[s-1].q;
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni)   q <= '0;
        else if (load) q <= d;
      end
    end

    if (ValidBit >= 0) begin : g_gated
      logic [Stages-1:0] valid;  // per stage: holds a valid word
      for (genvar s = 0; s < Stages; s++) begin : g_valid
        assign valid[s] = g_stage[s].q[ValidBit];
      end
      assign first = d_i[ValidBit] ? d_i : '0;
      assign load  = en_i && (d_i[ValidBit] || (|valid));
    end else begin : g_always
      assign first = d_i;
      assign load  = en_i;
    end
    assign q_o = g_stage[Stages-1].q;
  end
endmodule
