// The compute engine's functional model: an interpreter that steps CeState one cycle at a time,
// granting resources in the order of docs/isa.md 6.8, so that it agrees cycle for cycle with the
// RTL (rtl/ce). Each instruction class has one body (insn_bodies.h), which every path through a
// cycle runs (path.h): the whole cycle model, traced or not, and the drivers that take cycles in
// bulk when little happens in them; Tick (tick.cpp) chooses.
//
// The engine is split by concept: ce.cpp (loading, diagnosis, the CE queues), path_cycle.cpp (the
// whole cycle: results, the scalar stage, dispatcher, picker, commit), dsd.cpp (DSD issue and the
// DSD engine), path_plain.cpp, path_bulk.cpp and path_ahead.cpp (the drivers), mmio.cpp (register
// access by the CE and the host).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "ce/ce_state.h"
#include "ce/path.h"
#include "ce/trace.h"
#include "fabric/ramp_port.h"
#include "fabric/router_regs.h"
#include "isa/decode.h"

namespace tessera::ce {

struct TaskBinding {
  uint8_t id = 0;
  arch::TaskKind kind = arch::TaskKind::kNone;
  uint16_t entry = 0;
};

class Ce {
 public:
  // `router` (not owned) gives the PE's routing registers; nullptr: they read 0 and no color can
  // reach or leave the CE.
  // `sram`: kSram zeroed bytes that outlive the engine (util::LazyArena); nullptr: the
  // engine allocates its own.
  Ce(uint16_t x, uint16_t y, fabric::RouterRegs* router, uint8_t* sram = nullptr);

  // ---- Loading and the host's back door (zero simulated time) ----
  // Copies `image` into SRAM at `base` and binds the tasks (TaskCfg).
  void Load(const std::vector<uint8_t>& image, const std::vector<TaskBinding>& tasks,
            uint16_t base = 0);
  // Launch: sets Active[task] as a host write to TaskActiveSet.
  void Activate(int task);
  // 32-bit access to SRAM (word aligned) and registers, Gpr/CePc/Dsr windows included. Reads 0 at
  // unlisted addresses and ignores writes there (docs/isa.md 3.2).
  uint32_t HostRead(uint16_t addr);
  void HostWrite(uint16_t addr, uint32_t value);
  void HostWriteSram(uint16_t addr, const uint8_t* bytes, size_t n);
  void HostReadSram(uint16_t addr, uint8_t* bytes, size_t n) const;

  // ---- Stepping (the RampEndpoint contract, ramp_port.h) ----
  // Chooses the path of the cycle (tick.cpp); may also run ahead through port.horizon - 1 while
  // the running task only computes (path_ahead.cpp).
  void Tick(uint64_t cycle, fabric::RampPort& port);
  uint64_t NextWake() const;
  // Asks the host to bring what a tick of this engine reads first into its caches (a fabric
  // backend calls it for the next engine due while it ticks this one).
  void Prefetch() const {
    const auto line = [](const void* a) { __builtin_prefetch(a); };
    line(&ahead_);  // open
    line(&decoded_);
    line(&st_.gpr);
    line(&st_.pc);
    line(&st_.active);
    line(&st_.head_data);
    line(&st_.busy);
    line(&st_.pipe);
    line(&st_.perf);
    line(&retired_);
    line(&cyc_);
    line(st_.sram + st_.pc);  // the instruction at pc
  }
  // The first cycle from `cycle` on at which the engine could send or return a credit: later than
  // `cycle` only while its task waits for microthreads it runs in bulk (path_bulk.cpp).
  uint64_t QuietUntil(uint64_t cycle) const;
  // Back to the state at the end of `cycle` if the engine ran ahead of it (the run stopped early).
  void Rewind(uint64_t cycle);
  // The drivers that may take a cycle instead of the whole cycle model (path.h); each can be
  // turned off alone, and every combination gives the same results and cycles (the fuzzer
  // checks it). A trace sink sends every cycle through the traced cycle model.
  struct FastPaths {
    bool plain = true;  // a running task alone in its engine (path_plain.cpp)
    bool bulk = true;   // DSD element steps on memory while the task waits (path_bulk.cpp)
    bool ahead = true;  // running ahead of the fabric (path_ahead.cpp)
    bool Any() const { return plain || bulk || ahead; }
    bool operator==(const FastPaths& o) const {
      return plain == o.plain && bulk == o.bulk && ahead == o.ahead;
    }
  };
  void SetFastPaths(FastPaths f) {
    fast_ = f;
    any_fast_ = f.Any();
  }
  FastPaths GetFastPaths() const { return fast_; }
  // Off: every cycle through the whole cycle model, no running ahead (all of FastPaths).
  void SetRunAhead(bool on) { SetFastPaths(on ? FastPaths{} : FastPaths{false, false, false}); }

  // ---- Observers ----
  void SetTraceSink(TraceSink* sink) { sink_ = sink; }
  // Every task start is appended to `log` (not owned; nullptr: none kept), on the fast path too,
  // so co-simulation can compare task sequences without tracing.
  struct TaskStart {
    uint64_t cycle = 0;
    uint8_t task = 0;
  };
  void SetTaskLog(std::vector<TaskStart>* log) { task_log_ = log; }
  // Scalar instructions issued since construction (the RTL's retire events; a DSD instruction
  // counts once, when it issues).
  uint64_t Retired() const { return retired_; }
  const std::vector<DebugRecord>& DebugRecords() const { return debug_; }
  std::vector<DebugRecord> TakeDebugRecords();

  // ---- Diagnosis ----
  bool Faulted() const { return st_.fault_status != 0; }
  // "PE(3,2) fault: misaligned 32-bit load at pc 0x0124 (address 0x0103)"; empty if none.
  std::string FaultMessage() const;
  bool TaskRunning() const { return st_.running; }
  int RunningTask() const { return st_.running ? st_.task : kNoTask; }
  uint32_t RunnableTasks() const;  // bit t: task t could start now
  uint8_t BusyMicrothreads() const { return st_.busy; }
  int QueueCount(int color) const { return st_.inq[color].count; }
  int OutCredits(int color) const { return st_.out_credits[color]; }
  int OwedCredits() const;
  bool Quiet() const;              // CeStatus.Quiet
  bool Settled() const;            // CeStatus.Settled (docs/isa.md 3.2)
  bool DispatcherCanTake() const;  // a control wavelet heads a queue the dispatcher may take
  bool Starved(int ut) const;      // ut[ut] waits for data on a fabin color (UtWait FabIn), only
  uint32_t StatusWord() const;     // CeStatus
  uint64_t LastCycle() const { return last_cycle_; }
  const CeState& State() const { return st_; }
  CeState& MutableState() { return st_; }

 private:
  // Scratch of one cycle: resources granted so far, start-of-cycle snapshots, and the effects
  // that take place at its end (docs/isa.md 6.8: "written at the end of c").
  struct Cyc {
    uint64_t c = 0;
    // Resources.
    uint8_t ports = 0;  // SRAM read ports taken by the scalar pipeline
    uint8_t banks = 0;  // their banks (one row: a scalar read is at most 8 bytes)
    uint16_t row = 0;
    bool write_port = false;
    bool ramp = false;
    bool fmac = false;  // the FMAC slot of c+1 is the scalar pipeline's
    bool split_second = false;
    // Start-of-cycle snapshots.
    bool running = false;
    uint16_t pc = 0;  // the dispatcher's and the picker's FaultPc
    uint8_t busy = 0;
    uint32_t readers = 0;  // colors a busy microthread reads (has a fabin operand on)
    uint32_t head_data = 0, head_ctrl = 0;
    // Completions of this cycle (bit u), applied in microthread order.
    uint8_t complete = 0;
    // End-of-cycle effects.
    bool fault = false;
    bool sram_w = false;
    uint8_t sram_size = 0;
    uint16_t sram_addr = 0;
    uint32_t sram_value = 0;
    bool mmio_w = false;
    uint16_t mmio_addr = 0;
    uint32_t mmio_value = 0;
    uint32_t s_active_set = 0, s_blocked_set = 0, s_blocked_clr = 0;  // task instructions
    int s_arg_task = -1;
    uint16_t s_arg = 0;
    uint32_t p_active_clr = 0;                     // the picker
    uint32_t h_active_set = 0, h_blocked_clr = 0;  // dispatcher and completions
    int d_arg_task = -1;
    uint16_t d_arg = 0;
    uint64_t send_link = 0;  // a send's wavelet
    bool dot_w = false;
    uint8_t dot_reg = 0;
    uint32_t dot_value = 0;
    uint8_t flags = 0;
    int credit_color = -1;
    int8_t fifo_w = -1;  // the result due wrote into this FIFO: one more to pop
  };

  // path_cycle.cpp: the whole cycle model.
  template <bool kT>
  void Cycle(uint64_t c, fabric::RampPort& port);
  template <bool kT>
  void ResultsDue(fabric::RampPort& port);
  template <bool kT>
  void Dispatcher();
  template <bool kT>
  void Picker();
  template <bool kT>
  void Complete(int u);
  void Commit();
  // Commit's SRAM, microthread-result and flag writes.
  void CommitData() {
    const Cyc& x = cyc_;
    if (x.sram_w) WriteSram(x.sram_addr, x.sram_size, x.sram_value);
    if (x.dot_w) st_.gpr[x.dot_reg] = x.dot_value;  // the microthread's value wins
    if (x.fifo_w >= 0) ++st_.fifo[x.fifo_w].count;
    if (x.flags) st_.fp_flags = static_cast<uint8_t>((st_.fp_flags | x.flags) & 0x1F);
  }
  // A copy of 1, 2 or 4 bytes (each a fixed-size copy).
  static void Bytes(void* to, const void* from, uint8_t size) {
    if (size == 4) {
      std::memcpy(to, from, 4);
    } else if (size == 2) {
      std::memcpy(to, from, 2);
    } else {
      std::memcpy(to, from, 1);
    }
  }
  // An SRAM write at the end of a cycle (little endian); running ahead, the bytes it covers are
  // kept to go back (path_ahead.cpp).
  void WriteSram(uint16_t addr, uint8_t size, uint32_t value) {
    uint8_t* p = &st_.sram[addr];
    if (ahead_.open) {
      // Filled in place: a record built on the stack and copied as one word would wait for its
      // three narrow stores (a store-forwarding stall on every store run ahead).
      AheadLog::Bytes& b = ahead_.sram.emplace_back();
      b.addr = addr;
      b.size = size;
      b.old = 0;
      Bytes(&b.old, p, size);
    }
    Bytes(p, &value, size);
  }
  // Logs the bytes [lo, hi) of SRAM for Rewind while running ahead, before writes that skip
  // WriteSram's log (path_bulk.cpp).
  void LogSram(uint32_t lo, uint32_t hi) {
    if (!ahead_.open || lo >= hi) return;
    AheadLog& a = ahead_;
    const auto size = static_cast<uint16_t>(hi - lo);
    uint32_t old = static_cast<uint32_t>(a.bytes.size());
    if (size <= 4) {
      old = 0;
      std::memcpy(&old, st_.sram + lo, size);
    } else {
      a.bytes.insert(a.bytes.end(), st_.sram + lo, st_.sram + hi);
    }
    a.sram.push_back({static_cast<uint16_t>(lo), size, old});
  }
  // The performance counters of the state at the start of the cycle cyc_ describes
  // (docs/profiling.md): fn(event, n) for each, as Cycle counts them, and as a CE load of
  // PerfCount in that cycle must not see them (LoadReg).
  template <class Fn>
  void StartCounts(Fn&& fn) const {
    const Cyc& x = cyc_;
    if (x.running) fn(arch::PerfEvent::kTaskCycles, 1);
    if (x.split_second) fn(arch::PerfEvent::kSplitSteps, 1);
    if (x.busy) {
      fn(arch::PerfEvent::kUtBusy, 1);
      for (uint32_t m = x.busy; m; m &= m - 1)
        fn(static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kUtReady) +
                                        st_.ut[__builtin_ctz(m)].wait),
           1);
    }
  }
  // A CE load of a register in cycle c (the state at the start of the cycle): a read of CycleLo
  // latches CycleHi; a performance counter reads without the counts of this cycle's start.
  uint32_t LoadReg(uint16_t addr, uint64_t c) {
    uint32_t v = ReadReg(addr);
    if (addr == arch::CycleLo::kAddr) st_.cycle_hi = static_cast<uint16_t>(c >> 32);
    if (addr >= arch::PerfCount::kAddr && addr < arch::PerfCount::Addr(arch::PerfCount::kCount)) {
      const auto event = static_cast<arch::PerfEvent>((addr - arch::PerfCount::kAddr) / 4);
      StartCounts([&](arch::PerfEvent e, uint32_t n) { v -= e == event ? n : 0; });
    }
    return v;
  }
  // A scalar FP result due in cycle c (ResultsDue's first part).
  void ScalarFpDue(uint64_t c) {
    ScalarPipe& p = st_.pipe;
    if (p.fp_pending && p.fp_due == c) {
      st_.gpr[p.fp_reg] = p.fp_value;
      cyc_.flags |= p.fp_flags;
      p.fp_pending = false;
    }
  }
  void Arrivals(const fabric::RampPort& port);
  uint32_t Pop(int color);  // the head's payload; its credit becomes owed
  // Colors a busy microthread has a fabin operand on, until it completes (docs/isa.md 5.1, 5.2).
  uint32_t Readers() const {
    uint32_t r = 0;
    for (uint8_t b = st_.busy; b; b &= b - 1) r |= st_.ut[__builtin_ctz(b)].fabin;
    return r;
  }
  // Records a fault (if none is recorded) and ends the cycle's activities.
  template <bool kT>
  void RaiseFault(arch::CeFault cause, uint16_t pc, uint32_t addr, uint32_t info);

  // insn_bodies.h: one body per instruction class, run by every path (path.h). Each returns
  // what the instruction did in cycle c; the helpers are the bodies' vocabulary for deciding
  // (Fault, Stall, Take*) and acting (SetGpr, SetDsr, StoreSram).
  template <class P>
  Issue Body(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue AluBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue FpBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue LoadBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue StoreBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue BranchBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue JumpBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue SysBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue TaskBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue SendBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue DsrBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue DsdBody(P& path, const arch::InsnInfo& n, const isa::Fields& f, uint64_t c);
  template <class P>
  Issue Fault(arch::CeFault cause, uint16_t pc, uint32_t addr, uint32_t info);
  template <class P>
  Issue Stall(P& path, arch::CeStall s, uint8_t waits = 0);
  template <class P>
  bool TakeReadPorts(uint32_t ea, unsigned bytes, uint8_t ports);
  template <class P>
  bool TakeWritePort();
  template <class P>
  bool TakeFmac();
  template <class P>
  void SetGpr(P& path, unsigned r, uint32_t v);
  template <class P>
  void SetDsr(P& path, unsigned r, uint64_t v);
  template <class P>
  void StoreSram(P& path, uint32_t ea, unsigned bytes, uint32_t v, bool untraced = false);
  template <class P>
  bool ScalarIssues(P& path, uint64_t c);
  // The bookkeeping of an instruction that issued (the plain path counts its instructions in
  // bulk).
  template <class P>
  void Retire(P& path) {
    st_.pipe.stall = 0;
    st_.pipe.stall_color = 0;
    ++retired_;
    Count(arch::PerfEvent::kInsns);
    if constexpr (P::kTrace) sink_->Record(path.rec);
  }

  // path_cycle.cpp: the scalar stage of the whole cycle model, and its issue.
  template <bool kT>
  void ScalarStage();
  template <bool kT>
  void IssueStage(CyclePath<kT>& path);

  // dsd.cpp
  template <bool kT>
  bool IssueDsd(const arch::InsnInfo& n, const isa::Fields& f);
  template <bool kT>
  void EngineStage();
  template <bool kT>
  bool Step(int u, bool combine, bool pair, bool split, int range_role, int64_t range_addr);
  template <bool kT>
  void FinishSplit();
  void Finish(int u, bool pair, uint32_t x0, uint32_t x1, uint64_t taken);
  PendingResult DotStep(Microthread& m, bool pair, uint32_t x0, uint32_t x1, uint64_t taken);
  // An element step's result put in flight, its counters, and the microthread's next element.
  void Advance(int u, bool pair, uint64_t taken, const PendingResult& r) {
    Microthread& m = st_.ut[u];
    Schedule(u, taken, r);
    if (m.dot || m.fmac) Count(arch::PerfEvent::kFmacBusy);  // the FMAC slot of the next cycle
    Count(arch::PerfEvent::kDsdElems, pair ? 2 : 1);
    m.i += pair ? 2 : 1;
    if (m.i >= m.n) m.ended = true;
  }
  void Combine(int u, uint64_t taken);
  // Puts a step's result in flight, due DsdLatency cycles after the cycle it counts as taken.
  void Schedule(int u, uint64_t taken, PendingResult r) {
    r.due = taken + arch::kDsdLatency;
    r.ut = static_cast<uint8_t>(u);
    st_.results[r.due % kResultRing] = r;
    ++st_.ut[u].in_flight;
  }
  uint32_t ReadOperand(int u, int role, bool pair);
  bool FifoBlocked(const Microthread& m) const;
  bool ColorUsable(uint32_t color, bool out);

  // mmio.cpp
  uint32_t ReadReg(uint16_t addr);  // a CE load (state at the start of the cycle)
  void WriteReg(uint16_t addr, uint32_t value, bool host);  // CE (at commit) or host store
  uint32_t UtStatusWord(int u) const;
  uint32_t UtInfoWord(int u) const;
  uint32_t CeColorWord(int c) const;
  void SetTaskCfg(int t, uint32_t value);

  // Performance counters (docs/profiling.md): one event, and a scalar stall of reason `s`, which
  // also becomes CeStatus.Stall.
  void Count(arch::PerfEvent e, uint32_t n = 1) { st_.perf[static_cast<int>(e)] += n; }
  static arch::PerfEvent StallEvent(arch::CeStall s) {
    return static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kStallUt) +
                                        static_cast<int>(s) - static_cast<int>(arch::CeStall::kUt));
  }
  void StallOn(arch::CeStall s) {
    st_.pipe.stall = static_cast<uint8_t>(s);
    Count(StallEvent(s));
  }

  // path_plain.cpp. PlainState: a running task alone in its engine (path.h, PlainPath): no
  // microthread, owed credit, control wavelet or fault.
  bool PlainState() const {
    return !st_.fault_status && st_.running && !st_.busy && !st_.owed_mask && !st_.head_ctrl &&
           !st_.split.active;
  }
  // Cycles c..stop-1 while PlainState holds, on the plain path, many in one loop; returns the
  // first cycle it did not run: stop, or a cycle whose issue would leave the engine (nothing of
  // that cycle done).
  uint64_t PlainRun(uint64_t c, uint64_t stop);
  // Cycles c..stop-1 in which nothing issues (stop <= issue_at): the task's cycles, a scalar FP
  // result due, the fetch of a taken jump's target. Returns stop.
  uint64_t PlainWait(uint64_t c, uint64_t stop);
  // Whether cycle c's issue, if any, stays inside the engine (ProbePath): Issue::kDone (it issues,
  // or nothing does), kStall (path says why) or kLeave. Changes nothing.
  Issue ProbeIssue(uint64_t c, ProbePath& path) const;
  // The instruction at pc, fetched as the word w: its decoded_ entry (nullptr if none).
  struct Decoded {
    const arch::InsnInfo* n = nullptr;
    isa::Fields f;
  };

  // path_ahead.cpp: cycles run before the fabric reaches them.
  bool CreditsHome() const;  // no credit can come back from the router
  // The engine can run ahead: PlainState, except that busy microthreads may remain if every one
  // works on memory only, starts no task when done and has no element left outside SRAM.
  bool CanRunAhead() const;
  // One cycle of the whole model run ahead (or again, by Rewind), with nothing arriving: its
  // issue must stay inside the engine (ProbeIssue).
  void AheadCycle(uint64_t c);
  void OpenAhead();  // starts the log of what running ahead changes
  void RunAhead(uint64_t horizon);

  // path_bulk.cpp: cycles in which the task only waits for its microthreads, which work on
  // memory, run in one loop. BulkEngine: the engine's part (every busy microthread on memory,
  // writing memory, no reduction; the task running; no credit owed, control wavelet or split
  // step). BulkWaits: the task's part, from the probe of cycle c's issue: the busy microthreads
  // it waits for (its synchronous one, those of the utwait it stalls in, or the one of the DSD
  // operation it cannot issue yet), and how it stalls; 0 if it does not wait. BulkState: both
  // for cycle c, 0 if the loop would stop at once. BulkSteps: runs cycles c..end-1 while they
  // are (stall: as BulkState found it); returns the first it did not run.
  bool BulkEngine() const;
  uint8_t BulkWaits(Issue issue, const ProbePath& probe, arch::CeStall& stall) const;
  uint8_t BulkState(uint64_t c, arch::CeStall& stall) const;
  uint64_t BulkSteps(uint64_t c, uint64_t end, arch::CeStall stall);
  void CopyAheadState(bool save);  // the state AheadLog keeps, into ahead_ (save) or back
  // What a run ahead changed, to go back (Rewind): the state it can touch, as it was at the end
  // of cycle `from`, and the SRAM bytes it overwrote. The microthreads and their results only
  // when some were busy (none starts while running ahead).
  struct AheadLog {
    bool open = false;
    uint64_t from = 0;
    std::array<uint32_t, arch::kNumGprs> gpr{};
    uint16_t pc = 0;
    ScalarPipe pipe;
    std::array<uint32_t, kPerfEvents> perf{};
    uint8_t fp_flags = 0;
    uint64_t retired = 0;
    bool engine = false;  // busy microthreads: the fields below hold their state
    // The busy microthreads' copies: allocated the first time an engine runs ahead with any
    // (most never do; each engine's state stays 2.8 KB smaller, touched or not).
    std::unique_ptr<std::array<Microthread, kUts>> ut;
    uint8_t busy = 0, rr_ptr = 0;
    std::array<PendingResult, kResultRing> results{};
    SplitStep split;
    // SRAM bytes as they were before a write, in the order written: up to 4 in `old`, more
    // (LogSram) in `bytes` from offset `old`.
    struct Bytes {
      uint16_t addr;
      uint16_t size;
      uint32_t old;
    };
    std::vector<Bytes> sram;
    std::vector<uint8_t> bytes;
  };
  AheadLog ahead_;
  FastPaths fast_;
  bool any_fast_ = true;
  // The last instructions the plain path and the probe decoded, by pc; an entry serves only its
  // own word.
  mutable std::array<Decoded, 8> decoded_{};
  // Word w, fetched at pc, decoded: its decoded_ entry, decoded again if it holds another word;
  // nullptr if w is no instruction.
  const Decoded* DecodeAtPc(uint32_t w) const {
    Decoded& e = decoded_[(st_.pc >> 2) % decoded_.size()];
    if (!e.n || e.f.word != w) {
      e.n = isa::DecodeCached(w);
      if (!e.n) return nullptr;
      e.f = isa::SplitFields(w);
    }
    return &e;
  }

  // An instruction issued in cycle c: the next one is at pc + 4, fetched now.
  void IssueNext(uint64_t c) {
    st_.pc = static_cast<uint16_t>(st_.pc + 4);
    Fetch();
    st_.pipe.issue_at = c + 1;
  }
  // A jump taken in cycle c: the target is fetched in the next cycle and issues in the one after.
  void IssueJump(uint64_t c, uint32_t target) {
    ScalarPipe& p = st_.pipe;
    st_.pc = static_cast<uint16_t>(target);
    p.ir_valid = false;
    p.fetch_at = c + 1;
    p.issue_at = c + 2;
  }
  // The fetch of a taken jump's target, in the cycle after the jump (ScalarIssues).
  void FetchDue(uint64_t c) {
    ScalarPipe& p = st_.pipe;
    if (p.fetch_at == c) {
      Fetch();
      p.fetch_at = kNoCycle;
    }
  }
  // Fetch of the instruction at pc into the pipe (docs/isa.md 6.8: fetched words are latched).
  void Fetch() {
    ScalarPipe& p = st_.pipe;
    const uint16_t pc = st_.pc;
    if (pc >= kSram) {
      p.ir_valid = false;
      return;
    }
    std::memcpy(&p.ir, &st_.sram[pc], 4);  // little endian, as the host
    p.ir_valid = true;
  }

  CeState st_;
  std::unique_ptr<uint8_t[]> own_sram_;  // when no SRAM was given
  fabric::RouterRegs* router_;
  TraceSink* sink_ = nullptr;
  std::vector<TaskStart>* task_log_ = nullptr;
  uint64_t retired_ = 0;
  std::vector<DebugRecord> debug_;
  std::string char_line_;
  uint64_t last_cycle_ = 0;
  bool ticked_ = false;
  Cyc cyc_;
  // Derived from the task table: tasks of each kind.
  uint32_t data_tasks_ = 0, lc_tasks_ = 0;
};

// FaultInfo fields (docs/isa.md 3.2).
uint32_t MakeFaultInfo(arch::DsdRole role, arch::AccSize size, bool write, unsigned ut,
                       unsigned dsr, unsigned index);
inline constexpr unsigned kNoUt = 15;

}  // namespace tessera::ce
