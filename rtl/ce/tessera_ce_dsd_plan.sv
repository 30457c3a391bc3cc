// The DSD engine's decisions of a cycle across its microthreads (docs/isa.md 6.8 item 4): which
// step is taken (the second half of a split step, else the first ready microthread in round
// robin from the pointer), which fault stops the engine (in microthread order: a completion into
// a task of the wrong kind, or the step's element outside SRAM), what each microthread may still
// do before that fault, and the SRAM reads of the step: src0 on port 0 unless the scalar stage
// reads, src1 on port 1. The readiness of each microthread is its own (tessera_ce_dsd_ut).
module tessera_ce_dsd_plan (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  input  logic                                       go_i,        // live, no scalar fault
  input  logic [tessera_pkg::NumMicrothreads-1:0]    busy_i,
  input  logic [tessera_pkg::NumMicrothreads-1:0]    ready_i,
  input  logic [tessera_pkg::NumMicrothreads-1:0]    comp_i,
  input  logic [tessera_pkg::NumMicrothreads-1:0]    cfault_i,    // completion faults
  input  logic [tessera_pkg::NumMicrothreads-1:0]    range_i,     // next element outside SRAM
  input  logic                                       split_i,     // a split's second half is due
  input  logic [2:0]                                 split_ut_i,
  input  logic [1:0]                                 sc_ports_i,  // read ports the scalar took
  input  tessera_pkg::dsd_ut_view_t               view_i,      // the stepper's (stepper_o)
  output logic                                       run_o,       // the engine acts
  output logic                                       step_o,      // a step is taken ...
  output logic [2:0]                                 stepper_o,   // ... by this microthread
  output logic                                       fault_o,     // the engine faults ...
  output logic [2:0]                                 fault_ut_o,  // ... in this microthread
  output logic [tessera_pkg::NumMicrothreads-1:0]    may_end_o,   // not after the fault
  output logic [tessera_pkg::NumMicrothreads-1:0]    may_complete_o,
  output logic [tessera_pkg::NumMicrothreads-1:0]    turn_o,      // ready, not stepping
  output tessera_pkg::sram_rd_t                   rd_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumUts = NumMicrothreads;
  localparam int unsigned PickWidth = NumUts;  // pickers over microthreads
  `include "tessera_pick.svh"

  logic [2:0] rr_q, rr_d;  // the round robin starts here
  logic       step_v;      // some microthread may step (before faults)
  logic [NumUts-1:0] sel;  // the one that steps (not a split step's second half), one-hot

  always_comb begin
    logic [3:0] rr_pick;  // {valid, microthread}
    run_o     = go_i && (busy_i != '0 || comp_i != '0);
    rr_pick   = pick_round_robin(ready_i, rr_q);
    step_v    = split_i || rr_pick[3];
    stepper_o = split_i ? split_ut_i : rr_pick[2:0];
    // (vector operations; the per-microthread loops run only where a microthread faults)
    sel        = (step_v && !split_i) ? NumUts'(1) << stepper_o : '0;
    turn_o     = ready_i & ~sel;
    // faults in microthread order
    fault_o    = 1'b0;
    fault_ut_o = '0;
    if ((cfault_i | (sel & range_i)) != '0) begin
      for (int u = NumUts - 1; u >= 0; u--) begin
        if (cfault_i[u] || (sel[u] && range_i[u])) begin
          fault_o    = 1'b1;
          fault_ut_o = 3'(u);
        end
      end
    end
    fault_o        = fault_o && run_o;
    step_o         = run_o && step_v && (!fault_o || stepper_o < fault_ut_o);
    may_end_o      = {NumUts{run_o}};
    may_complete_o = {NumUts{run_o}};
    if (fault_o) begin
      for (int u = 0; u < NumUts; u++) begin
        may_end_o[u]      = run_o && 3'(u) <= fault_ut_o;
        may_complete_o[u] = run_o && 3'(u) < fault_ut_o;
      end
    end
    rr_d = (step_o && !split_i) ? stepper_o + 3'd1 : rr_q;
  end

  // The step's reads (the view is the stepper's): a split step's second half reads src1; any
  // other element step src0 (port 1 if the scalar stage took port 0) and, unless split, src1.
  always_comb begin
    rd_o = '0;
    if (step_o) begin
      if (split_i) begin
        if (view_i.src1.kind == 2'(DsdKindMem1d)) begin
          rd_o.rd1_en   = 1'b1;
          rd_o.rd1_addr = view_i.src1.addr[15:2];
        end
      end else if (!view_i.comb) begin
        if (view_i.has[1] && view_i.src0.kind == 2'(DsdKindMem1d)) begin
          if (sc_ports_i != 2'd0) begin
            rd_o.rd1_en   = 1'b1;
            rd_o.rd1_addr = view_i.src0.addr[15:2];
          end else begin
            rd_o.rd0_en   = 1'b1;
            rd_o.rd0_addr = view_i.src0.addr[15:2];
          end
        end
        if (!view_i.split && view_i.has[2] && view_i.src1.kind == 2'(DsdKindMem1d)) begin
          rd_o.rd1_en   = 1'b1;
          rd_o.rd1_addr = view_i.src1.addr[15:2];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rr_q <= '0;
    else         rr_q <= rr_d;
  end

  `include "tessera_assert.svh"
  `ASSERT_IF(StepperIsReadyOrSplit, step_o, split_i || ready_i[stepper_o])
  `ASSERT_IF(StepperIsBusy, step_o, busy_i[stepper_o])
  `ASSERT_IF(FaultUtFaults, fault_o, cfault_i[fault_ut_o] || range_i[fault_ut_o])

  logic unused;
  assign unused = ^{view_i};  // the fields above are the reads'
endmodule
