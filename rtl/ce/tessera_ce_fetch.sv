// The compute engine's instruction fetch and running task (docs/isa.md 2.6, 6.8): pc, the
// instruction register and whether it holds the word at pc, and the task that runs. The next
// instruction is fetched in the cycle its predecessor issues; after a taken branch or jump the
// target is fetched in the next cycle (the instruction register is empty in between); the picker
// fetches a task's entry as it starts it. A fetch past the end of SRAM loads nothing and marks
// the instruction register (ir_past_o): that word faults PcRange when it would issue. The fetch
// address leaves apart from the register it loads, the SRAM read sitting between them.
module tessera_ce_fetch (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      live_i,
  input  logic                      issue_i,        // the instruction at pc issues ...
  input  tessera_pkg::flow_t     flow_i,         // ... and goes on here
  input  logic                      pick_i,         // the picker starts a task ...
  input  logic [4:0]                pick_task_i,
  input  logic [15:0]               pick_entry_i,   // ... at its entry
  input  logic                      host_we_i,      // the host writes CePc (frozen)
  input  logic [15:0]               host_pc_i,
  output logic [13:0]               fetch_addr_o,   // SRAM word address
  input  logic [31:0]               fetch_data_i,
  output logic [15:0]               pc_o,
  output logic [31:0]               ir_o,
  output logic                      ir_valid_o,
  output logic                      ir_past_o,
  output logic                      running_o,
  output logic [4:0]                task_o
);
  `include "tessera_pkg_use.svh"

  logic [15:0] pc_q, pc_d;
  logic [31:0] ir_q, ir_d;
  logic        ir_valid_q, ir_valid_d;
  logic        ir_past_q, ir_past_d;
  logic        running_q, running_d;
  logic [4:0]  task_q, task_d;

  logic [15:0] fetch_pc;
  logic        fetch;
  always_comb begin
    fetch    = 1'b0;
    fetch_pc = pc_q;
    if (issue_i && !flow_i.tend && !flow_i.taken) begin
      fetch    = 1'b1;  // the next instruction, in the cycle its predecessor issues
      fetch_pc = pc_q + 16'd4;
    end else if (!issue_i && live_i && running_q && !ir_valid_q) begin
      fetch    = 1'b1;  // after a taken branch or jump
    end
    if (pick_i) begin
      fetch    = 1'b1;
      fetch_pc = pick_entry_i;
    end
  end
  assign fetch_addr_o = fetch_pc[15:2];

  always_comb begin
    pc_d       = pc_q;
    ir_d       = ir_q;
    ir_valid_d = ir_valid_q;
    ir_past_d  = ir_past_q;
    running_d  = running_q;
    task_d     = task_q;
    if (issue_i) begin
      if (flow_i.tend) begin
        running_d  = 1'b0;
        ir_valid_d = 1'b0;
        pc_d       = pc_q + 16'd4;
      end else if (flow_i.taken) begin
        pc_d       = flow_i.target;
        ir_valid_d = 1'b0;
      end else begin
        pc_d = pc_q + 16'd4;
      end
    end
    if (pick_i) begin
      running_d = 1'b1;
      task_d    = pick_task_i;
      pc_d      = pick_entry_i;
    end
    if (fetch) begin
      // running past the end of SRAM faults (PcRange at pc 0xC000) when that word would issue
      ir_past_d  = fetch_pc >= SramBytes[15:0];
      ir_d       = ir_past_d ? 32'h0 : fetch_data_i;
      ir_valid_d = 1'b1;
    end
    if (host_we_i) pc_d = host_pc_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q       <= '0;
      ir_q       <= '0;
      ir_valid_q <= 1'b0;
      ir_past_q  <= 1'b0;
      running_q  <= 1'b0;
      task_q     <= 5'(NoTask);
    end else begin
      pc_q       <= pc_d;
      ir_q       <= ir_d;
      ir_valid_q <= ir_valid_d;
      ir_past_q  <= ir_past_d;
      running_q  <= running_d;
      task_q     <= task_d;
    end
  end

  assign pc_o       = pc_q;
  assign ir_o       = ir_q;
  assign ir_valid_o = ir_valid_q;
  assign ir_past_o  = ir_past_q;
  assign running_o  = running_q;
  assign task_o     = task_q;

  `include "tessera_assert.svh"
  `ASSERT_IF(PickOnlyWhenIdle, pick_i, !running_q)
  `ASSERT_IF(IssueOnlyWhenRunning, issue_i, running_q && ir_valid_q)
endmodule
