// Fault recording and the order of the cycle's actors (docs/isa.md 6.8, 7). The CE is live when
// it is enabled and no fault is recorded: a recorded fault freezes it (the router keeps running)
// until the host clears FaultStatus. Within a cycle the actors act in the order scalar stage,
// DSD engine (microthreads in order), control dispatcher, picker, credit return; a fault stops
// every actor after it, and the first fault of the cycle is the one recorded:
//   1. the scalar stage's                     (its instruction's pc)
//   2. the DSD engine's                       (the microthread's operation's pc)
//   3. the dispatcher's, TaskKind             (pc, FaultInfo.Write set)
//   4. the picker's, TaskEntry                (pc)
module tessera_ce_fault (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      en_i,
  input  logic                      clear_i,      // the host writes FaultStatus (frozen)
  // the faults of the cycle, in order
  input  logic                      sc_fault_i,
  input  tessera_pkg::ce_fault_t sc_fault_rec_i,
  input  logic                      dsd_fault_i,
  input  tessera_pkg::ce_fault_t dsd_fault_rec_i,
  input  logic                      disp_fault_i,
  input  tessera_pkg::ce_fault_t disp_fault_rec_i,
  input  logic                      pick_fault_i,
  input  tessera_pkg::ce_fault_t pick_fault_rec_i,
  // who acts
  input  logic                      disp_want_i,  // the dispatcher has a wavelet to take
  input  logic                      pick_want_i,  // the picker has a task to start
  output logic                      live_o,       // the CE acts in this cycle
  output logic                      dsd_go_o,     // the DSD engine acts
  output logic                      disp_go_o,    // the dispatcher takes its wavelet
  output logic                      pick_go_o,    // the picker starts its task
  output logic                      ret_go_o,     // a credit may return
  // FaultStatus.Cause, FaultPc, FaultAddr, FaultInfo
  output tessera_pkg::ce_fault_t fault_o
);
  `include "tessera_pkg_use.svh"

  tessera_pkg::ce_fault_t rec_q, rec_d;
  logic                      any;

  // Each on its own: the scalar stage reads live_o, the engine dsd_go_o, and their faults come
  // back here.
  assign live_o    = en_i && rec_q.cause == CeFaultNone;
  assign dsd_go_o  = live_o && !sc_fault_i;
  assign disp_go_o = dsd_go_o && !dsd_fault_i && disp_want_i && !disp_fault_i;
  assign pick_go_o = dsd_go_o && !dsd_fault_i && !disp_fault_i && pick_want_i && !pick_fault_i;
  assign any       = sc_fault_i || dsd_fault_i || disp_fault_i || pick_fault_i;
  assign ret_go_o  = live_o && !any;

  // The record loads only when a fault is taken or the host clears it.
  logic rec_we;
  always_comb begin
    rec_we = (live_o && any) || clear_i;
    rec_d  = '0;
    if (live_o) begin
      if (sc_fault_i)        rec_d = sc_fault_rec_i;
      else if (dsd_fault_i)  rec_d = dsd_fault_rec_i;
      else if (disp_fault_i) rec_d = disp_fault_rec_i;
      else if (pick_fault_i) rec_d = pick_fault_rec_i;
    end
    if (clear_i) rec_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)     rec_q <= '0;
    else if (rec_we) rec_q <= rec_d;
  end
  assign fault_o = rec_q;

  `include "tessera_assert.svh"
  // a recorded fault stays until the host clears it
  `ASSERT_IF(FaultHolds, !live_o && !clear_i, !rec_we)
  `ASSERT_IF(RecordedFaultHasCause, live_o && any, rec_d.cause != CeFaultNone)
endmodule
