// DSD element steps in bulk (docs/performance.md, "DSD steps in bulk"). While the running task
// waits for one synchronous microthread whose operands are all mem1d with every element left in
// SRAM, and nothing else in the engine acts (no credit owed, no control wavelet, no split step,
// no scalar FP result pending, no fetch pending), every cycle of Cycle<false> does the same few
// things: the counters of the state and the sync stall, the result due (an SRAM write at the end
// of the cycle), and one element step whose two reads go through the two free read ports. Then
// the microthread drains. BulkSteps runs such cycles in one loop, with the element step of dsd.h
// (ElementResult), Advance's progress and the commit's SRAM write (WriteSram), and stops before
// the first cycle that would do anything else: an element step whose reads conflict in a bank (a
// split step), or the cycle whose result completes the operation. Those, and everything after,
// take Cycle<false>.
#include <array>

#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/exec_scalar.h"

namespace tessera::ce {

bool Ce::BulkState(uint64_t c) const {
  const uint8_t b = st_.busy;
  if (b == 0 || (b & (b - 1))) return false;  // exactly one busy microthread
  const int u = __builtin_ctz(b);
  const Microthread& m = st_.ut[u];
  const ScalarPipe& p = st_.pipe;
  if (!m.mem1d || m.dot || p.sync_ut != u) return false;
  if (st_.fault_status || !st_.running || st_.owed_mask || st_.head_ctrl || st_.split.active)
    return false;
  if (p.std_pending || p.fp_pending || p.fetch_at != kNoCycle || c < p.issue_at) return false;
  if (m.ended) return true;
  if (m.n == kUnbounded) return false;
  // Every element left lies in SRAM: mem1d addresses are monotonic in the index.
  const int64_t lim = static_cast<int64_t>(kSram);
  for (int r = 0; r < 3; ++r) {
    if (!m.has[r]) continue;
    const DsdOperand& o = m.opnd[r];
    for (const uint64_t e : {m.i, m.n - 1}) {
      const int64_t a = ElemAddr(o, e);
      if (a < 0 || a > lim - o.size) return false;
    }
  }
  return true;
}

uint64_t Ce::QuietUntil(uint64_t cycle) const {
  bulk_memo_ = {cycle, st_.busy && BulkState(cycle)};  // for the Tick of this cycle
  if (!bulk_memo_.bulk) return cycle;
  // The task waits for the microthread, which takes a cycle per element step (two elements in
  // a pair step) before it can complete.
  const Microthread& m = st_.ut[__builtin_ctz(st_.busy)];
  const uint64_t left = m.ended ? 0 : m.n - m.i;
  return cycle + (m.pairs ? (left + 1) / 2 : left);
}

uint64_t Ce::BulkSteps(uint64_t c, uint64_t end) {
  const uint64_t first = c;
  const int u = __builtin_ctz(st_.busy);
  // The loop works on copies in locals, which the SRAM writes cannot alias, and writes them back:
  // the operation (mc), its progress, and the results in flight (by due cycle modulo the ring).
  const Microthread mc = st_.ut[u];
  struct Flight {
    bool live;
    uint8_t size, flags;
    uint16_t addr;
    uint32_t value;
  };
  std::array<Flight, kResultRing> ring{};
  for (int j = 0; j < kResultRing; ++j) {
    const PendingResult& r = st_.results[j];
    if (r.due == kNoCycle) continue;
    if (r.kind != PendingResult::kSram || r.ut != u) return c;  // not this operation's: no bulk
    ring[j] = {true, r.size, r.flags, r.addr, r.value};
  }
  const StepKernel k = ResolveStep(mc.op, mc.fmt);
  const uint32_t s = StepScalar(mc);
  // The element addresses of src0, src1 and dst for element i, and their steps per element
  // (mem1d: base + i * stride * size, ElemAddr).
  const bool h0 = mc.has[kSrc0], h1 = mc.has[kSrc1];
  const DsdOperand& o0 = mc.opnd[kSrc0];
  const DsdOperand& o1 = mc.opnd[kSrc1];
  const DsdOperand& od = mc.opnd[kDst];
  const int64_t d0 = h0 ? int64_t{o0.stride} * o0.size : 0;
  const int64_t d1 = h1 ? int64_t{o1.stride} * o1.size : 0;
  const int64_t dd = int64_t{od.stride} * od.size;
  uint64_t i = mc.i;
  int64_t a0 = h0 ? ElemAddr(o0, i) : 0;
  int64_t a1 = h1 ? ElemAddr(o1, i) : 0;
  int64_t ad = ElemAddr(od, i);
  // Two reads can conflict only if they may share a bank: not when both move by the same bytes
  // per element and lie 4 to 12 bytes apart in the 16 bytes of a row (reads of at most 4 bytes).
  const int64_t apart = ((a1 - a0) % 16 + 16) % 16;
  const bool check = h0 && h1 && !(d0 == d1 && apart >= 4 && apart <= 12);
  bool ended = mc.ended;
  uint32_t in_flight = mc.in_flight;
  uint8_t wait = mc.wait;
  uint8_t flags = 0;
  uint32_t steps = 0, elems = 0;  // element steps taken, elements they covered
  uint32_t ready = 0;             // cycles that started with the microthread ready
  for (; c < end; ++c) {
    Flight& due = ring[c % kResultRing];
    if (due.live && ended && in_flight == 1) break;  // it completes in this cycle
    const uint8_t at_start = wait;
    if (ended) {
      wait = static_cast<uint8_t>(arch::UtWait::kDrain);
    } else {
      // The step's reads: in one cycle unless they conflict in a bank (then a split step).
      bool pair = false;
      if (mc.pairs) pair = i + 1 < mc.n && ((a0 | a1 | ad) & 3) == 0;
      const unsigned b0 = pair ? 4 : o0.size, b1 = pair ? 4 : o1.size;
      const auto u0 = static_cast<uint32_t>(a0), u1 = static_cast<uint32_t>(a1);
      if (check && Conflict(BankMask(u0, b0), Row(u0), BankMask(u1, b1), Row(u1))) break;
      const uint32_t x0 = h0 ? ReadElem(st_.sram, u0, b0) : 0;
      const uint32_t x1 = h1 ? ReadElem(st_.sram, u1, b1) : 0;
      const PendingResult r = ElementResult(mc, k, s, pair, x0, x1, i, ad);
      // Advance, on the locals: the result due DsdLatency cycles on, the next element.
      ring[(c + arch::kDsdLatency) % kResultRing] = {true, r.size, r.flags, r.addr, r.value};
      ++in_flight;
      const unsigned e = pair ? 2 : 1;
      ++steps;
      elems += e;
      i += e;
      if (i >= mc.n) ended = true;
      a0 += e * d0;
      a1 += e * d1;
      ad += e * dd;
      wait = static_cast<uint8_t>(arch::UtWait::kReady);
    }
    // The microthread's state at the start of the cycle (the other counters: after the loop).
    if (at_start == static_cast<uint8_t>(arch::UtWait::kReady)) {
      ++ready;
    } else {
      Count(static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kUtReady) + at_start));
    }
    // The result due, written at the end of the cycle: after the step read.
    if (due.live) {
      due.live = false;
      flags |= due.flags;
      --in_flight;
      WriteSram(due.addr, due.size, due.value);
    }
  }
  const auto n = static_cast<uint32_t>(c - first);
  if (n == 0) return c;
  // Back: the microthread's progress, the results still in flight, and what every cycle run did
  // alike: Cycle<false>'s counters of a running task with a busy microthread, the scalar
  // pipeline's sync stall, the step counters (Advance), the round robin past the stepper, flags.
  Microthread& m = st_.ut[u];
  m.i = i;
  m.ended = ended;
  m.in_flight = static_cast<uint8_t>(in_flight);
  m.wait = wait;
  m.wait_color = arch::kNoColor;
  for (int j = 0; j < kResultRing; ++j) {
    PendingResult& r = st_.results[j];
    r.due = kNoCycle;
    if (!ring[j].live) continue;
    r = PendingResult{};
    r.due = c + ((static_cast<uint64_t>(j) - c) % kResultRing);
    r.ut = static_cast<uint8_t>(u);
    r.kind = PendingResult::kSram;
    r.size = ring[j].size;
    r.addr = ring[j].addr;
    r.value = ring[j].value;
    r.flags = ring[j].flags;
  }
  Count(arch::PerfEvent::kUtReady, ready);
  Count(arch::PerfEvent::kTaskCycles, n);
  Count(arch::PerfEvent::kUtBusy, n);
  st_.pipe.stall = static_cast<uint8_t>(arch::CeStall::kSync);
  Count(StallEvent(arch::CeStall::kSync), n);
  if (mc.fmac) Count(arch::PerfEvent::kFmacBusy, steps);
  Count(arch::PerfEvent::kDsdElems, elems);
  if (steps) st_.rr_ptr = static_cast<uint8_t>((u + 1) % kUts);
  if (flags) st_.fp_flags = static_cast<uint8_t>((st_.fp_flags | flags) & 0x1F);
  last_cycle_ = c - 1;
  ticked_ = true;
  return c;
}

}  // namespace tessera::ce
