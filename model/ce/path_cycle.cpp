// The whole cycle model (docs/isa.md 6.8), untraced or traced (CyclePath, path.h): results due,
// the scalar stage (the instruction bodies of insn_bodies.h), the DSD engine (dsd.cpp), the
// control dispatcher, the picker, the end-of-cycle commit and the credit returned. It may take any
// cycle: it is the reference the other drivers must agree with, the only path while a trace sink
// is set, and the path of every cycle in which more happens than they cover (Ce::Tick).
#include <cstring>
#include <stdexcept>

#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/insn_bodies.h"

namespace tessera::ce {
namespace {

inline int Ctz(uint32_t m) { return __builtin_ctz(m); }

// The first set bit at or after ptr, wrapping (m != 0).
inline int RoundRobin(uint32_t m, int ptr) {
  const uint32_t upper = m & ~((1u << ptr) - 1);
  return Ctz(upper ? upper : m);
}

}  // namespace

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
  StartCounts([this](arch::PerfEvent e, uint32_t n) { Count(e, n); });
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
  ScalarFpDue(x.c);
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
      x.fifo_w = r.fifo;
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

// 3. The scalar stage: the instruction at pc, if one issues in this cycle, through its body. It
// first checks its faults, then its resources (it stalls if one is missing), and only then takes
// effect: a faulting or stalled instruction changes nothing. The cycles without an issue (a task
// waiting) return early, inline; the issue is a call of its own.
template <bool kT>
__attribute__((always_inline)) inline void Ce::ScalarStage() {
  Cyc& x = cyc_;
  CyclePath<kT> path;
  if (x.running && ScalarIssues(path, x.c)) IssueStage(path);
}

template <bool kT>
__attribute__((noinline)) void Ce::IssueStage(CyclePath<kT>& path) {
  Cyc& x = cyc_;
  ScalarPipe& p = st_.pipe;
  if (!p.ir_valid) {  // sequential execution ran past 0xBFFC
    RaiseFault<kT>(arch::CeFault::kPcRange, st_.pc, st_.pc, body::PlainInfo());
    return;
  }
  const uint32_t w = p.ir;
  const arch::InsnInfo* n = isa::DecodeCached(w);
  if (!n) {
    RaiseFault<kT>(arch::CeFault::kIllegal, st_.pc, w, body::PlainInfo());
    return;
  }
  if constexpr (kT) {
    path.rec.kind = TraceRecord::Kind::kRetire;
    path.rec.cycle = x.c;
    path.rec.pc = st_.pc;
    path.rec.word = w;
  }
  if (Body(path, *n, isa::SplitFields(w), x.c) == Issue::kDone) Retire(path);
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
