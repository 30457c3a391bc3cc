// The compute engine's performance counters (PerfCount, docs/profiling.md "Counters"): one 32-bit
// counter per PerfEvent, counted in every live cycle (enabled, no fault recorded):
//   Insns                 an instruction issues
//   TaskCycles, UtBusy    a task runs, a microthread is busy (the state at the start of the cycle)
//   StallUt .. StallFmac  the scalar stage has an instruction to issue and stalls, by CeStall
//   UtReady .. UtFifo     each busy microthread, by its UtStatus.Wait at the start of the cycle
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
  localparam int unsigned NumWait = 8;   // UtWait Ready .. Fifo
  localparam int unsigned FirstWait = 32'(PerfEventUtReady);  // UtReady .. UtFifo follow

  // The counters as one packed register, counter e at [32*e +: 32] (a simulator copies it whole;
  // an unpacked array costs it bookkeeping per element and cycle: docs/performance.md).
  logic [NumPerf*32-1:0] cnt_q, cnt_d;
  // Where each counter lies in the packed register.
  localparam int unsigned OIns = 32 * PerfEventInsns;
  localparam int unsigned OTask = 32 * PerfEventTaskCycles;
  localparam int unsigned OBusy = 32 * PerfEventUtBusy;
  localparam int unsigned OSplit = 32 * PerfEventSplitSteps;
  localparam int unsigned OFmac = 32 * PerfEventFmacBusy;
  localparam int unsigned OElems = 32 * PerfEventDsdElems;
  localparam int unsigned OStUt = 32 * PerfEventStallUt;
  localparam int unsigned OStSync = 32 * PerfEventStallSync;
  localparam int unsigned OStSend = 32 * PerfEventStallSend;
  localparam int unsigned OStWait = 32 * PerfEventStallUtWait;
  localparam int unsigned OStPort = 32 * PerfEventStallPort;
  localparam int unsigned OStFmac = 32 * PerfEventStallFmac;
  logic [3:0]            waiting [NumWait];  // busy microthreads in each UtWait state

  // (counted, and added below, only while a microthread is busy: otherwise all zero)
  always_comb begin
    for (int k = 0; k < NumWait; k++) waiting[k] = '0;
    if (ut_busy_i != '0) begin
      for (int u = 0; u < NumUts; u++) begin
        if (ut_busy_i[u]) begin
          waiting[ut_status_i[32*u + UtStatusWaitLsb +: 3]] =
              waiting[ut_status_i[32*u + UtStatusWaitLsb +: 3]] + 4'd1;
        end
      end
    end
  end

  always_comb begin
    cnt_d = cnt_q;
    if (live_i) begin
      if (issue_i) cnt_d[OIns +: 32] = cnt_q[OIns +: 32] + 32'd1;
      if (running_i) cnt_d[OTask +: 32] = cnt_q[OTask +: 32] + 32'd1;
      if (|ut_busy_i) cnt_d[OBusy +: 32] = cnt_q[OBusy +: 32] + 32'd1;
      if (split_i) cnt_d[OSplit +: 32] = cnt_q[OSplit +: 32] + 32'd1;
      if (fmac_i) cnt_d[OFmac +: 32] = cnt_q[OFmac +: 32] + 32'd1;
      if (elems_i != '0)
        cnt_d[OElems +: 32] = cnt_q[OElems +: 32] + 32'(elems_i);
      if (stall_i) begin
        unique case (stall_why_i)
          CeStallUt:     cnt_d[OStUt +: 32] = cnt_q[OStUt +: 32] + 32'd1;
          CeStallSync:   cnt_d[OStSync +: 32] = cnt_q[OStSync +: 32] + 32'd1;
          CeStallSend:   cnt_d[OStSend +: 32] = cnt_q[OStSend +: 32] + 32'd1;
          CeStallUtWait: cnt_d[OStWait +: 32] = cnt_q[OStWait +: 32] + 32'd1;
          CeStallPort:   cnt_d[OStPort +: 32] = cnt_q[OStPort +: 32] + 32'd1;
          CeStallFmac:   cnt_d[OStFmac +: 32] = cnt_q[OStFmac +: 32] + 32'd1;
          default: ;
        endcase
      end
      if (ut_busy_i != '0) begin
        for (int k = 0; k < NumWait; k++) begin
          cnt_d[32*(FirstWait + k) +: 32] = cnt_q[32*(FirstWait + k) +: 32] + 32'(waiting[k]);
        end
      end
    end
    if (host_we_i) cnt_d[32*host_idx_i +: 32] = host_wdata_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else         cnt_q <= cnt_d;
  end

  assign count_o = cnt_q;

  `include "tessera_assert.svh"
  `ASSERT_IF(StallHasReason, stall_i, stall_why_i != CeStallNone)
  `ASSERT(HostWritesFrozen, !(host_we_i && live_i))
endmodule
