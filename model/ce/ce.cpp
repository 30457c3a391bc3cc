// The cycle of docs/isa.md 6.8, and what is not an instruction or a DSD step: results due, the
// control dispatcher, the picker, the CE queues and credits, faults, the end-of-cycle commit.
#include "ce/ce.h"

#include <cstring>
#include <stdexcept>

#include "ce/dsd.h"
#include "ce/fault_text.h"

namespace tessera::ce {
namespace {

using L = arch::Link;
using Cr = arch::Credit;

inline int Ctz(uint32_t m) { return __builtin_ctz(m); }

// The first set bit at or after ptr, wrapping (m != 0).
inline int RoundRobin(uint32_t m, int ptr) {
  const uint32_t upper = m & ~((1u << ptr) - 1);
  return Ctz(upper ? upper : m);
}

constexpr uint32_t kTaskMask = 0x7FFFFFFFu;  // task 31 does not exist

}  // namespace

uint32_t MakeFaultInfo(arch::DsdRole role, arch::AccSize size, bool write, unsigned ut,
                       unsigned dsr, unsigned index) {
  using F = arch::FaultInfo;
  uint32_t v = 0;
  v = F::WithRole(v, static_cast<uint32_t>(role));
  v = F::WithSize(v, static_cast<uint32_t>(size));
  v = F::WithWrite(v, write);
  v = F::WithUt(v, ut);
  v = F::WithDsr(v, dsr);
  return F::WithIndex(v, index);
}

Ce::Ce(uint16_t x, uint16_t y, fabric::RouterRegs* router, uint8_t* sram) : router_(router) {
  if (!sram) {
    own_sram_ = std::make_unique<uint8_t[]>(kSram);  // value-initialized: zero
    sram = own_sram_.get();
  }
  st_.sram = sram;
  st_.x = x;
  st_.y = y;
  st_.out_credits.fill(static_cast<uint8_t>(arch::kRampInDepth));
}

// ---------------------------------------------------------------------------------------------
// Loading and diagnosis

void Ce::Load(const std::vector<uint8_t>& image, const std::vector<TaskBinding>& tasks,
              uint16_t base) {
  if (base + image.size() > kSram)
    throw std::out_of_range("Ce::Load: the image does not fit in SRAM");
  HostWriteSram(base, image.data(), image.size());
  for (const TaskBinding& b : tasks) {
    if (b.id >= kNoTask) throw std::out_of_range("Ce::Load: task IDs are 0-30");
    SetTaskCfg(b.id, b.entry | static_cast<uint32_t>(b.kind) << arch::TaskCfg::kKindLsb);
  }
}

void Ce::Activate(int task) { HostWrite(arch::TaskActiveSet::kAddr, 1u << task); }

std::vector<DebugRecord> Ce::TakeDebugRecords() {
  std::vector<DebugRecord> out;
  out.swap(debug_);
  return out;
}

std::string Ce::FaultMessage() const {
  FaultContext f;
  f.x = st_.x;
  f.y = st_.y;
  f.status = st_.fault_status;
  f.pc = st_.fault_pc;
  f.addr = st_.fault_addr;
  f.info = st_.fault_info;
  if (f.pc + 4 <= kSram && f.pc % 4 == 0) {
    f.word = st_.sram[f.pc] | st_.sram[f.pc + 1] << 8 | st_.sram[f.pc + 2] << 16 |
             static_cast<uint32_t>(st_.sram[f.pc + 3]) << 24;
  }
  for (int t = 0; t < kTasks; ++t) f.task_kind[t] = st_.task_kind[t];
  return DescribeCeFault(f);
}

// Colors a busy microthread has a fabin operand on, until it completes (docs/isa.md 5.1, 5.2).
uint32_t Ce::Readers() const {
  uint32_t r = 0;
  for (uint8_t b = st_.busy; b; b &= b - 1) r |= st_.ut[Ctz(b)].fabin;
  return r;
}

uint32_t Ce::RunnableTasks() const {
  const uint32_t data = data_tasks_ & st_.head_data & ~Readers();
  return (data | (lc_tasks_ & st_.active)) & ~st_.blocked & kTaskMask;
}

int Ce::OwedCredits() const {
  int n = 0;
  for (uint8_t o : st_.owed) n += o;
  return n;
}

bool Ce::Quiet() const {
  if (st_.running || st_.busy || st_.owed_mask || RunnableTasks()) return false;
  for (const InQueue& q : st_.inq)
    if (q.count) return false;
  return true;
}

uint32_t Ce::StatusWord() const {
  using S = arch::CeStatus;
  uint32_t v = 0;
  v = S::WithTask(v, st_.running ? st_.task : kNoTask);
  v = S::WithRunning(v, st_.running);
  v = S::WithFaulted(v, Faulted());
  v = S::WithQuiet(v, Quiet());
  v = S::WithStall(v, st_.pipe.stall);
  v = S::WithStallColor(v, st_.pipe.stall_color);
  return S::WithUtBusy(v, st_.busy);
}

uint64_t Ce::NextWake() const {
  if (Faulted()) return fabric::kNever;
  const uint64_t next = ticked_ ? last_cycle_ + 1 : 0;
  if (st_.running || st_.busy || st_.owed_mask || st_.pipe.fp_pending || RunnableTasks())
    return next;
  // A control wavelet the dispatcher could take.
  for (uint32_t m = st_.head_ctrl; m; m &= m - 1) {
    const InQueue& q = st_.inq[Ctz(m)];
    const uint32_t t = (q.data[q.head] >> arch::kCtrlTaskLsb) & 31;
    if (t == kNoTask || !(st_.active >> t & 1)) return next;
  }
  return fabric::kNever;
}

// ---------------------------------------------------------------------------------------------
// CE queues

uint32_t Ce::Pop(int color) {
  InQueue& q = st_.inq[color];
  const uint32_t data = q.data[q.head];
  q.ctrl &= static_cast<uint16_t>(~(1u << q.head));
  q.head = static_cast<uint8_t>((q.head + 1) % arch::kCeInDepth);
  --q.count;
  const uint32_t bit = 1u << color;
  st_.head_data &= ~bit;
  st_.head_ctrl &= ~bit;
  if (q.count) {
    if (q.ctrl >> q.head & 1) {
      st_.head_ctrl |= bit;
    } else {
      st_.head_data |= bit;
    }
  }
  ++st_.owed[color];
  st_.owed_mask |= bit;
  return data;
}

void Ce::Arrivals(const fabric::RampPort& port) {
  if (L::Valid(port.from_router)) {
    const auto color = static_cast<int>(L::Color(port.from_router));
    if (color >= kColors) throw std::logic_error("CE: the router delivered a reserved color");
    InQueue& q = st_.inq[color];
    if (q.count == arch::kCeInDepth)
      throw std::logic_error("CE: a wavelet arrived at a full CE queue (credit protocol broken)");
    const int slot = (q.head + q.count) % arch::kCeInDepth;
    q.data[slot] = static_cast<uint32_t>(L::Data(port.from_router));
    const bool ctrl = L::Ctrl(port.from_router);
    if (ctrl) {
      q.ctrl |= static_cast<uint16_t>(1u << slot);
    } else {
      q.ctrl &= static_cast<uint16_t>(~(1u << slot));
    }
    if (q.count++ == 0) {
      if (ctrl) {
        st_.head_ctrl |= 1u << color;
      } else {
        st_.head_data |= 1u << color;
      }
    }
  }
  if (Cr::Valid(port.credit_from_router)) {
    const auto color = static_cast<int>(Cr::Color(port.credit_from_router));
    if (color >= kColors || st_.out_credits[color] >= arch::kRampInDepth)
      throw std::logic_error("CE: the router returned a credit it does not owe");
    ++st_.out_credits[color];
  }
}

// ---------------------------------------------------------------------------------------------
// The cycle

void Ce::Tick(uint64_t cycle, fabric::RampPort& port) {
  ahead_.open = false;  // the fabric reached this cycle: what ran ahead before stays
  if (sink_) return Cycle<true>(cycle, port);
  if (!run_ahead_) return Cycle<false>(cycle, port);
  const Decoded* d;
  // Microthreads on the fabric or mem4d: the whole cycle model, and no running ahead in this
  // tick (it would refuse; if they finish in this cycle, the next tick runs ahead).
  if (st_.busy & st_.not_mem1d) return Cycle<false>(cycle, port);
  if (PlainState() && PlainIssue(cycle, d)) {  // the same cycle in fewer steps (run_ahead.cpp)
    port.to_router = 0;
    port.credit_to_router = 0;
    ticked_ = true;
    if (PlainRun(cycle, cycle + 1) == cycle) PlainCycle(cycle, d);
    if (port.from_router | port.credit_from_router) Arrivals(port);
  } else if (arch::CeStall stall;
             BulkState(cycle, stall) && BulkSteps(cycle, cycle + 1, stall) > cycle) {
    port.to_router = 0;  // the cycle of a DSD element step in bulk (dsd_bulk.cpp)
    port.credit_to_router = 0;
    if (port.from_router | port.credit_from_router) Arrivals(port);
  } else {  // an engine with more to do than its scalar pipeline: the whole cycle model
    Cycle<false>(cycle, port);
  }
  if (port.horizon > cycle + 1) RunAhead(port.horizon);
}

template <bool kT>
void Ce::Cycle(uint64_t c, fabric::RampPort& port) {
  port.to_router = 0;
  port.credit_to_router = 0;
  last_cycle_ = c;
  ticked_ = true;
  if (Faulted()) {  // frozen: only the queues keep what the router delivers
    Arrivals(port);
    return;
  }
  Cyc& x = cyc_;
  x = Cyc{};
  x.c = c;
  x.running = st_.running;
  x.busy = st_.busy;
  x.readers = st_.busy ? Readers() : 0;
  x.head_data = st_.head_data;
  x.head_ctrl = st_.head_ctrl;
  x.split_second = st_.split.active && st_.split.cycle == c;
  x.pc = st_.pc;
  // Counters of the state at the start of the cycle (docs/profiling.md).
  if (x.running) Count(arch::PerfEvent::kTaskCycles);
  if (x.split_second) Count(arch::PerfEvent::kSplitSteps);
  if (x.busy) {
    Count(arch::PerfEvent::kUtBusy);
    for (uint32_t m = x.busy; m; m &= m - 1)
      Count(static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kUtReady) +
                                         st_.ut[Ctz(m)].wait));
  }
  // 7. The credit to return is chosen from what is owed at the start of the cycle.
  if (st_.owed_mask) x.credit_color = RoundRobin(st_.owed_mask, st_.owed_ptr);

  ResultsDue<kT>(port);                           // 1
  ScalarStage<kT>();                              // 3
  if (!x.fault) EngineStage<kT>();                // 4 (and completions, in microthread order)
  if (!x.fault && x.head_ctrl) Dispatcher<kT>();  // 5
  if (!x.fault && !x.running) Picker<kT>();       // 6
  Commit();
  if (x.send_link) port.to_router = x.send_link;
  if (!x.fault && x.credit_color >= 0) {  // 7
    const int col = x.credit_color;
    port.credit_to_router = fabric::MakeCredit(col);
    if (--st_.owed[col] == 0) st_.owed_mask &= ~(1u << col);
    st_.owed_ptr = static_cast<uint8_t>(col + 1 == kColors ? 0 : col + 1);
  }
  if (port.from_router | port.credit_from_router) Arrivals(port);  // 8
}

template <bool kT>
void Ce::ResultsDue(fabric::RampPort& port) {
  Cyc& x = cyc_;
  ScalarFpDue();
  PendingResult& r = st_.results[x.c % kResultRing];
  if (r.due != x.c) return;
  r.due = kNoCycle;
  switch (r.kind) {
    case PendingResult::kSram:
      x.sram_w = true;
      x.write_port = true;
      x.sram_addr = r.addr;
      x.sram_size = r.size;
      x.sram_value = r.value;
      break;
    case PendingResult::kWavelet:
      port.to_router = r.link;
      x.ramp = true;
      break;
    case PendingResult::kGpr:
      x.dot_w = true;
      x.dot_reg = r.reg;
      x.dot_value = r.value;
      break;
    case PendingResult::kNone:
      break;
  }
  x.flags |= r.flags;
  Microthread& m = st_.ut[r.ut];
  --m.in_flight;
  if (m.ended && m.in_flight == 0 && (!m.dot || m.dotst.stage == DotStages(m.fmt)))
    x.complete |= static_cast<uint8_t>(1u << r.ut);
}

template <bool kT>
void Ce::RaiseFault(arch::CeFault cause, uint16_t pc, uint32_t addr, uint32_t info) {
  cyc_.fault = true;
  if (st_.fault_status) return;
  st_.fault_status = static_cast<uint32_t>(cause);
  st_.fault_pc = pc;
  st_.fault_addr = addr;
  st_.fault_info = info;
  if constexpr (kT) {
    TraceRecord r;
    r.kind = TraceRecord::Kind::kFault;
    r.cycle = cyc_.c;
    r.pc = pc;
    r.fault = {st_.fault_status, st_.fault_pc, st_.fault_addr, st_.fault_info};
    sink_->Record(r);
  }
}

template <bool kT>
void Ce::Complete(int u) {
  Microthread& m = st_.ut[u];
  const uint32_t bit = 1u << m.tid;
  if (m.tid != kNoTask) {
    if (m.unblock) {
      cyc_.h_blocked_clr |= bit;
    } else {
      const auto kind = static_cast<arch::TaskKind>(st_.task_kind[m.tid]);
      if (kind != arch::TaskKind::kLocal && kind != arch::TaskKind::kControl) {
        RaiseFault<kT>(arch::CeFault::kTaskKind, m.pc, m.tid,
                       MakeFaultInfo(arch::DsdRole::kNone, arch::AccSize::kByte, false,
                                     static_cast<unsigned>(u), 0, 0));
        return;
      }
      cyc_.h_active_set |= bit;
    }
  }
  m.busy = false;
  st_.busy &= static_cast<uint8_t>(~(1u << u));
  m.wait = static_cast<uint8_t>(arch::UtWait::kReady);
  m.wait_color = arch::kNoColor;
  if constexpr (kT) {
    TraceRecord r;
    r.kind = TraceRecord::Kind::kUtDone;
    r.cycle = cyc_.c;
    r.ut = static_cast<uint8_t>(u);
    r.pc = m.pc;
    if (m.dot && cyc_.dot_w && cyc_.dot_reg == m.s_reg)
      r.AddWrite(TraceWrite::Kind::kGpr, m.s_reg, cyc_.dot_value);
    sink_->Record(r);
  }
}

template <bool kT>
void Ce::Dispatcher() {
  Cyc& x = cyc_;
  for (uint32_t m = x.head_ctrl & ~x.readers; m; m &= m - 1) {
    const int c = Ctz(m);
    const InQueue& q = st_.inq[c];
    const uint32_t data = q.data[q.head];
    const uint32_t t = (data >> arch::kCtrlTaskLsb) & 31;
    if (t != kNoTask && (st_.active >> t & 1)) continue;  // waits until that task starts
    if (t != kNoTask && st_.task_kind[t] != static_cast<uint8_t>(arch::TaskKind::kControl)) {
      // FaultInfo.Write marks a fault of the dispatcher (not of the instruction at FaultPc).
      RaiseFault<kT>(arch::CeFault::kTaskKind, x.pc, t,
                     MakeFaultInfo(arch::DsdRole::kNone, arch::AccSize::kByte, true, kNoUt, 0,
                                   static_cast<unsigned>(c)));
      return;
    }
    Pop(c);
    if (t != kNoTask) {
      x.h_active_set |= 1u << t;
      x.d_arg_task = static_cast<int>(t);
      x.d_arg = static_cast<uint16_t>(data);
    }
    return;
  }
}

template <bool kT>
void Ce::Picker() {
  Cyc& x = cyc_;
  const uint32_t runnable = ((data_tasks_ & x.head_data & ~x.readers) | (lc_tasks_ & st_.active)) &
                            ~st_.blocked & kTaskMask;
  if (!runnable) return;
  const int t = Ctz(runnable);
  const uint16_t entry = st_.task_entry[t];
  if (entry % 4 != 0 || entry >= arch::kMmioBase) {
    RaiseFault<kT>(arch::CeFault::kTaskEntry, x.pc, entry,
                   MakeFaultInfo(arch::DsdRole::kNone, arch::AccSize::kByte, false, kNoUt, 0,
                                 static_cast<unsigned>(t)));
    return;
  }
  uint32_t r0;
  if (st_.task_kind[t] == static_cast<uint8_t>(arch::TaskKind::kData)) {
    r0 = Pop(t);
  } else {
    x.p_active_clr |= 1u << t;
    r0 = st_.task_arg[t];
  }
  st_.gpr[0] = r0;
  st_.pc = entry;
  st_.running = true;
  st_.task = static_cast<uint8_t>(t);
  ScalarPipe& p = st_.pipe;
  Fetch();
  p.fetch_at = kNoCycle;
  p.issue_at = x.c + 1;
  p.stall = 0;
  p.stall_color = 0;
  if (task_log_) task_log_->push_back({x.c, static_cast<uint8_t>(t)});
  if constexpr (kT) {
    TraceRecord rec;
    rec.kind = TraceRecord::Kind::kTaskStart;
    rec.cycle = x.c;
    rec.task = static_cast<uint8_t>(t);
    rec.pc = entry;
    rec.AddWrite(TraceWrite::Kind::kGpr, 0, r0);
    sink_->Record(rec);
  }
}

void Ce::Commit() {
  Cyc& x = cyc_;
  if (x.mmio_w) WriteReg(x.mmio_addr, x.mmio_value, false);
  // Masks: the register write first, then the task instructions, the picker's clear, and the
  // sets by the dispatcher and completions (docs/isa.md 3.2).
  if (x.s_active_set | x.s_blocked_set | x.s_blocked_clr | x.p_active_clr | x.h_active_set |
      x.h_blocked_clr) {
    uint32_t active = st_.active | x.s_active_set;
    uint32_t blocked = (st_.blocked | x.s_blocked_set) & ~x.s_blocked_clr;
    active &= ~x.p_active_clr;
    active |= x.h_active_set;
    blocked &= ~x.h_blocked_clr;
    st_.active = active & kTaskMask;
    st_.blocked = blocked & kTaskMask;
  }
  if (x.s_arg_task >= 0) st_.task_arg[x.s_arg_task] = x.s_arg;
  if (x.d_arg_task >= 0) st_.task_arg[x.d_arg_task] = x.d_arg;
  CommitData();
}

template void Ce::Cycle<true>(uint64_t, fabric::RampPort&);
template void Ce::Cycle<false>(uint64_t, fabric::RampPort&);
template void Ce::RaiseFault<true>(arch::CeFault, uint16_t, uint32_t, uint32_t);
template void Ce::RaiseFault<false>(arch::CeFault, uint16_t, uint32_t, uint32_t);
template void Ce::Complete<true>(int);
template void Ce::Complete<false>(int);

}  // namespace tessera::ce
