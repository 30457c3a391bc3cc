// DSD element steps in bulk (docs/performance.md, "DSD steps in bulk"). While the running task
// waits for one synchronous microthread whose operands are all mem1d with every element left in
// SRAM, and nothing else in the engine acts (no credit owed, no control wavelet, no split step,
// no scalar FP result pending, no fetch pending), every cycle of Cycle<false> does the same few
// things: the counters of the state and the sync stall, the result due (an SRAM write at the end
// of the cycle), and one element step whose two reads go through the two free read ports. Then
// the microthread drains. BulkSteps runs such cycles in one loop, with the element step of dsd.cpp
// (ElementResult, Advance) and the commit of ce.cpp (CommitData), and stops before the first cycle
// that would do anything else: an element step whose reads conflict in a bank (a split step), or
// the cycle whose result completes the operation. Those, and everything after, take Cycle<false>.
#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {

bool Ce::BulkState(uint64_t c) const {
  if (st_.fault_status || !st_.running || st_.owed_mask || st_.head_ctrl || st_.split.active)
    return false;
  const uint8_t b = st_.busy;
  if (b == 0 || (b & (b - 1))) return false;  // exactly one busy microthread
  const int u = __builtin_ctz(b);
  const ScalarPipe& p = st_.pipe;
  if (p.sync_ut != u || p.std_pending || p.fp_pending || p.fetch_at != kNoCycle || c < p.issue_at)
    return false;
  const Microthread& m = st_.ut[u];
  if (m.dot || !m.has[kDst]) return false;
  const int64_t lim = static_cast<int64_t>(kSram);
  for (int r = 0; r < 3; ++r) {
    if (!m.has[r]) continue;
    const DsdOperand& o = m.opnd[r];
    if (o.kind != static_cast<uint8_t>(arch::DsdKind::kMem1d)) return false;
    if (m.ended) continue;
    if (m.n == kUnbounded) return false;
    // Every element left lies in SRAM: mem1d addresses are monotonic in the index.
    for (const uint64_t e : {m.i, m.n - 1}) {
      const int64_t a = ElemAddr(o, e);
      if (a < 0 || a > lim - o.size) return false;
    }
  }
  return true;
}

uint64_t Ce::QuietUntil(uint64_t cycle) const {
  if (!st_.busy || !BulkState(cycle)) return cycle;
  // The task waits for the microthread, which takes a cycle per element step (two elements in
  // a pair step) before it can complete.
  const Microthread& m = st_.ut[__builtin_ctz(st_.busy)];
  const uint64_t left = m.ended ? 0 : m.n - m.i;
  return cycle + (m.pairs ? (left + 1) / 2 : left);
}

uint64_t Ce::BulkSteps(uint64_t c, uint64_t end) {
  const uint64_t first = c;
  const int u = __builtin_ctz(st_.busy);
  Microthread& m = st_.ut[u];
  const StepKernel k = ResolveStep(m.op, m.fmt);
  const uint32_t s = StepScalar(m);
  // The element addresses of src0, src1 and dst for element m.i, and their steps per element
  // (mem1d: base + i * stride * size, ElemAddr).
  const bool h0 = m.has[kSrc0], h1 = m.has[kSrc1];
  const DsdOperand& o0 = m.opnd[kSrc0];
  const DsdOperand& o1 = m.opnd[kSrc1];
  const DsdOperand& od = m.opnd[kDst];
  const int64_t d0 = h0 ? int64_t{o0.stride} * o0.size : 0;
  const int64_t d1 = h1 ? int64_t{o1.stride} * o1.size : 0;
  const int64_t dd = int64_t{od.stride} * od.size;
  int64_t a0 = h0 ? ElemAddr(o0, m.i) : 0;
  int64_t a1 = h1 ? ElemAddr(o1, m.i) : 0;
  int64_t ad = ElemAddr(od, m.i);
  // Two reads can conflict only if they may share a bank: not when both move by the same bytes
  // per element and lie 4 to 12 bytes apart in the 16 bytes of a row (reads of at most 4 bytes).
  const int64_t apart = ((a1 - a0) % 16 + 16) % 16;
  const bool check = h0 && h1 && !(d0 == d1 && apart >= 4 && apart <= 12);
  uint8_t flags = 0;
  uint32_t elems = 0;  // element steps taken
  uint32_t ready = 0;  // cycles that started with the microthread ready
  for (; c < end; ++c) {
    PendingResult& due = st_.results[c % kResultRing];
    const bool has_due = due.due == c;
    if (has_due && m.ended && m.in_flight == 1) break;  // it completes in this cycle
    const int wait = m.wait;
    if (m.ended) {
      m.wait = static_cast<uint8_t>(arch::UtWait::kDrain);
    } else {
      // The step's reads: in one cycle unless they conflict in a bank (then a split step).
      const bool pair = m.pairs && m.i + 1 < m.n && ((a0 | a1 | ad) & 3) == 0;
      const unsigned b0 = pair ? 4 : o0.size, b1 = pair ? 4 : o1.size;
      const auto u0 = static_cast<uint32_t>(a0), u1 = static_cast<uint32_t>(a1);
      if (check && Conflict(BankMask(u0, b0), Row(u0), BankMask(u1, b1), Row(u1))) break;
      const uint32_t x0 = h0 ? ReadElem(st_.sram, u0, b0) : 0;
      const uint32_t x1 = h1 ? ReadElem(st_.sram, u1, b1) : 0;
      Advance(u, pair, c, ElementResult(m, k, s, pair, x0, x1, m.i));
      const int64_t e = pair ? 2 : 1;
      a0 += e * d0;
      a1 += e * d1;
      ad += e * dd;
      m.wait = static_cast<uint8_t>(arch::UtWait::kReady);
      ++elems;
    }
    m.wait_color = arch::kNoColor;
    // The microthread's state at the start of the cycle (the other counters: after the loop).
    if (wait == static_cast<int>(arch::UtWait::kReady)) {
      ++ready;
    } else {
      Count(static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kUtReady) + wait));
    }
    // The result due, written at the end of the cycle: after the step read.
    if (has_due) {
      due.due = kNoCycle;
      flags |= due.flags;
      --m.in_flight;
      WriteSram(due.addr, due.size, due.value);
    }
  }
  const auto n = static_cast<uint32_t>(c - first);
  if (n == 0) return c;
  // What every cycle run did alike: Cycle<false>'s counters of a running task with a busy
  // microthread, the scalar pipeline's sync stall, the round robin past the stepper, the flags.
  Count(arch::PerfEvent::kUtReady, ready);
  Count(arch::PerfEvent::kTaskCycles, n);
  Count(arch::PerfEvent::kUtBusy, n);
  st_.pipe.stall = static_cast<uint8_t>(arch::CeStall::kSync);
  Count(StallEvent(arch::CeStall::kSync), n);
  if (elems) st_.rr_ptr = static_cast<uint8_t>((u + 1) % kUts);
  if (flags) st_.fp_flags = static_cast<uint8_t>((st_.fp_flags | flags) & 0x1F);
  last_cycle_ = c - 1;
  ticked_ = true;
  return c;
}

}  // namespace tessera::ce
