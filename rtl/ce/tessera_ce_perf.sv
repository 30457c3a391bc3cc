// The compute engine's performance counters (PerfCount, docs/profiling.md "Counters"): one 32-bit
// counter per PerfEvent, counted in every live cycle (enabled, no fault recorded):
//   Insns                 an instruction issues
//   TaskCycles, UtBusy    a task runs, a microthread is busy (the state at the start of the cycle)
//   StallUt .. StallFmac  the scalar stage has an instruction to issue and stalls, by CeStall
//   UtReady .. UtDrain    each busy microthread, by its UtStatus.Wait at the start of the cycle
//   SplitSteps            the DSD engine reads a split step's second source (a bank conflict)
//   FmacBusy              an operation takes the FMAC's next slot (the scalar stage's FP issue or
//                         a DSD step): counted when the CE decides it, one cycle before the FMAC
//   DsdElems              the elements DSD steps finish (two for a paired 16-bit step)
// The host sets a counter through the back door (frozen). The counters wrap at 2^32. The
// functional model's twin is Ce::Count and Ce::StallOn (model/ce/ce.h).
module tessera_ce_perf (
  input  logic                                        clk_i,
  input  logic                                        rst_ni,
  input  logic                                        live_i,
  input  logic                                        running_i,   // a task runs
  input  logic [tessera_pkg::NumMicrothreads-1:0]     ut_busy_i,
  input  logic [tessera_pkg::NumMicrothreads*32-1:0]  ut_status_i, // UtStatus words
  input  logic                                        issue_i,     // an instruction issues
  input  logic                                        stall_i,     // the scalar stage stalls ...
  input  tessera_pkg::ce_stall_e                      stall_why_i, // ... for this reason
  input  logic                                        split_i,     // a split step's second half
  input  logic                                        fmac_i,      // the FMAC's next slot taken
  input  logic [1:0]                                  elems_i,     // DSD elements finished
  input  logic                                        host_we_i,   // the host sets counter ...
  input  logic [4:0]                                  host_idx_i,  // ... this one
  input  logic [31:0]                                 host_wdata_i,
  output logic [tessera_pkg::PerfCountCount*32-1:0]   count_o
);
  `include "tessera_pkg_use.svh"

  localparam int unsigned NumPerf = PerfCountCount;  // one per PerfEvent
  localparam int unsigned NumUts  = NumMicrothreads;
  localparam int unsigned NumWait = 7;   // UtWait Ready .. Drain
  localparam int unsigned FirstWait = 32'(PerfEventUtReady);  // UtReady .. UtDrain follow

  logic [31:0] cnt_q [NumPerf];
  logic [31:0] cnt_d [NumPerf];
  logic [3:0]  waiting [NumWait];  // busy microthreads in each UtWait state

  // (counted, and added below, only while a microthread is busy: otherwise all zero)
  always_comb begin
    for (int k = 0; k < NumWait; k++) waiting[k] = '0;
    if (ut_busy_i != '0) begin
      for (int u = 0; u < NumUts; u++) begin
        if (ut_busy_i[u]) begin
          for (int k = 0; k < NumWait; k++) begin
            if (ut_status_i[32*u + UtStatusWaitLsb +: 3] == 3'(k)) waiting[k] = waiting[k] + 4'd1;
          end
        end
      end
    end
  end

  always_comb begin
    for (int e = 0; e < NumPerf; e++) cnt_d[e] = cnt_q[e];
    if (live_i) begin
      if (issue_i)    cnt_d[PerfEventInsns]      = cnt_q[PerfEventInsns] + 32'd1;
      if (running_i)  cnt_d[PerfEventTaskCycles] = cnt_q[PerfEventTaskCycles] + 32'd1;
      if (|ut_busy_i) cnt_d[PerfEventUtBusy]     = cnt_q[PerfEventUtBusy] + 32'd1;
      if (split_i)    cnt_d[PerfEventSplitSteps] = cnt_q[PerfEventSplitSteps] + 32'd1;
      if (fmac_i)     cnt_d[PerfEventFmacBusy]   = cnt_q[PerfEventFmacBusy] + 32'd1;
      if (elems_i != '0) cnt_d[PerfEventDsdElems] = cnt_q[PerfEventDsdElems] + 32'(elems_i);
      if (stall_i) begin
        unique case (stall_why_i)
          CeStallUt:     cnt_d[PerfEventStallUt]     = cnt_q[PerfEventStallUt] + 32'd1;
          CeStallSync:   cnt_d[PerfEventStallSync]   = cnt_q[PerfEventStallSync] + 32'd1;
          CeStallSend:   cnt_d[PerfEventStallSend]   = cnt_q[PerfEventStallSend] + 32'd1;
          CeStallUtWait: cnt_d[PerfEventStallUtWait] = cnt_q[PerfEventStallUtWait] + 32'd1;
          CeStallPort:   cnt_d[PerfEventStallPort]   = cnt_q[PerfEventStallPort] + 32'd1;
          CeStallFmac:   cnt_d[PerfEventStallFmac]   = cnt_q[PerfEventStallFmac] + 32'd1;
          default: ;
        endcase
      end
      if (ut_busy_i != '0) begin
        for (int k = 0; k < NumWait; k++) begin
          cnt_d[FirstWait + k] = cnt_q[FirstWait + k] + 32'(waiting[k]);
        end
      end
    end
    if (host_we_i) cnt_d[host_idx_i] = host_wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int e = 0; e < NumPerf; e++) cnt_q[e] <= '0;
    end else begin
      for (int e = 0; e < NumPerf; e++) cnt_q[e] <= cnt_d[e];
    end
  end

  for (genvar e = 0; e < NumPerf; e++) begin : g_out
    assign count_o[32*e +: 32] = cnt_q[e];
  end

  `include "tessera_assert.svh"
  `ASSERT_IF(StallHasReason, stall_i, stall_why_i != CeStallNone)
  `ASSERT(HostWritesFrozen, !(host_we_i && live_i))
endmodule
