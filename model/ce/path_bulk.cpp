// DSD element steps in bulk (docs/performance.md, "DSD steps in bulk"), a driver (path.h) that
// may take a cycle when BulkState holds (FastPaths::bulk). While the running task
// waits for its microthreads (stalled on a synchronous one, in a utwait on busy ones, or issuing
// a DSD operation whose microthread is busy), every busy microthread's operands are mem1d with
// every element in SRAM (Microthread::mem1d), and nothing else in the
// engine acts (no credit owed, no control wavelet, no split step, no scalar FP result pending,
// no fetch pending), every cycle of Cycle<false> does the same few things: the counters of the
// state and the stall, the result due (an SRAM write at the end of the cycle), and one element
// step, of the first microthread at or after the round robin's pointer that has elements left,
// whose two reads go through the two free read ports (the others wait their turn). BulkSteps runs
// such cycles in one loop, with the element step of dsd.h (ElementResult), Advance's progress
// and the commit's SRAM write (WriteSram), and stops before the first cycle that would do
// anything else: a step whose reads conflict in a bank (a split step), or a cycle whose result
// completes an operation. Those, and everything after, take Cycle<false>.
#include <algorithm>
#include <array>
#include <cstring>
#include <new>

#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/exec_scalar.h"
#include "ce/insn_bodies.h"
#include "fp/arith.h"

namespace tessera::ce {

namespace {

// A result in flight while BulkSteps runs, by due cycle modulo the ring.
struct Flight {
  bool live;
  uint8_t ut, size, flags;
  uint16_t addr;
  uint32_t value;
};
using Ring = std::array<Flight, kResultRing>;

// The element steps of one microthread stepping alone (BulkSteps): operands mem1d with no bank
// conflict between its reads, f32 elements (no pair steps) of a resolved kernel, results of 4
// bytes into SRAM; every result in flight is its own.
struct SoloSteps {
  uint8_t* sram;
  int64_t a0, a1, ad;  // the next step's element addresses
  int64_t d0, d1, dd;  // bytes per element
  bool h0, h1, vs;     // sources present; VS form: x1 is s
  uint32_t s;
  uint8_t ut;

  // Runs the steps of cycles [c, to) in the cycle model's order: each cycle's reads, then the
  // result due at its end (from the ring in the first DsdLatency cycles, then one of these steps'
  // every cycle, 4 bytes). kernel(x0, x1, flags) gives a step's value. Puts the results still in
  // flight into the ring and counts them in in_flight; returns the flags of those written.
  template <class Kernel>
  uint8_t Run(uint64_t c, uint64_t to, Ring& ring, uint32_t& in_flight, Kernel kernel) {
    // Locals, which the SRAM writes cannot alias.
    uint8_t* const mem = sram;
    int64_t x0a = a0, x1a = a1, da = ad;
    const int64_t s0 = d0, s1 = d1, sd = dd;
    const bool has0 = h0, has1 = h1, scalar = vs;
    const uint32_t sv = s;
    // These steps' results by due cycle modulo the ring: the address of the one due in cycle t
    // is that of the step in t - DsdLatency.
    std::array<uint32_t, kResultRing> value;
    std::array<uint8_t, kResultRing> fls;
    uint8_t flags = 0;
    auto step = [&](uint64_t cycle) __attribute__((always_inline)) {
      const uint32_t x0 = has0 ? ReadElem(mem, static_cast<uint32_t>(x0a), 4) : 0;
      const uint32_t x1 = scalar ? sv : has1 ? ReadElem(mem, static_cast<uint32_t>(x1a), 4) : 0;
      const unsigned slot = (cycle + arch::kDsdLatency) % kResultRing;
      uint8_t f = 0;
      value[slot] = kernel(x0, x1, f);
      fls[slot] = f;
      x0a += s0;
      x1a += s1;
      da += sd;
    };
    const uint32_t n = static_cast<uint32_t>(to - c);
    const uint32_t fresh = std::min<uint32_t>(n, arch::kDsdLatency);  // still in flight at the end
    for (const uint64_t warm = c + fresh; c < warm; ++c) {
      step(c);
      Flight& due = ring[c % kResultRing];
      if (due.live) {
        due.live = false;
        flags |= due.flags;
        --in_flight;
        std::memcpy(mem + due.addr, &due.value, due.size);
      }
    }
    const int64_t back = int64_t{arch::kDsdLatency} * sd;  // a due result's address from da
    for (; c < to; ++c) {
      const unsigned slot = c % kResultRing;
      const int64_t due = da - back;
      step(c);
      std::memcpy(mem + due, &value[slot], 4);  // after the step's reads
      flags |= fls[slot];
    }
    for (uint32_t j = 1; j <= fresh; ++j) {
      const unsigned slot = (to - j + arch::kDsdLatency) % kResultRing;
      ring[slot] = {true,       ut, 4, fls[slot], static_cast<uint16_t>(da - int64_t{j} * sd),
                    value[slot]};
    }
    in_flight += fresh;
    a0 = x0a;
    a1 = x1a;
    ad = da;
    return flags;
  }
};

}  // namespace

bool Ce::BulkEngine() const {
  const uint8_t busy = st_.busy;
  if (!busy || (busy & st_.not_mem1d)) return false;  // one test refuses fabric and mem4d operands
  for (uint8_t b = busy; b; b &= b - 1) {
    const Microthread& m = st_.ut[__builtin_ctz(b)];
    if (m.dot || !m.has[kDst]) return false;  // (not mem1d: refused above)
  }
  return !st_.fault_status && st_.running && !st_.owed_mask && !st_.head_ctrl && !st_.split.active;
}

uint8_t Ce::BulkWaits(Issue issue, const ProbePath& probe, arch::CeStall& stall) const {
  // A stall issues nothing: no scalar FP result, fetch or std word is due in its cycle. A
  // synchronous microthread that is done is not one: the scalar stage clears the wait, a change.
  const ScalarPipe& p = st_.pipe;
  if (issue != Issue::kStall || (p.sync_ut >= 0 && !(st_.busy >> p.sync_ut & 1))) return 0;
  stall = probe.stall;
  return probe.waits;
}

uint8_t Ce::BulkState(uint64_t c, arch::CeStall& stall) const {
  if (!BulkEngine()) return 0;
  ProbePath probe;
  const Issue issue = ProbeIssue(c, probe);
  return BulkWaits(issue, probe, stall);
}

uint64_t Ce::QuietUntil(uint64_t cycle) const {
  // The task goes on only when every microthread it waits for is done, each after a cycle per
  // element step left (two elements in a pair step); the others send nothing.
  arch::CeStall stall;
  uint64_t steps = 0;
  for (uint8_t b = BulkState(cycle, stall); b; b &= b - 1) {
    const Microthread& m = st_.ut[__builtin_ctz(b)];
    const uint64_t left = m.ended ? 0 : m.n - m.i;
    steps = std::max(steps, m.pairs ? (left + 1) / 2 : left);
  }
  return cycle + steps;
}

uint64_t Ce::BulkSteps(uint64_t c, uint64_t end, arch::CeStall stall) {
  const uint64_t first = c;
  const uint8_t busy = st_.busy;
  // The loop works on copies in locals, which the SRAM writes cannot alias, and writes them back:
  // each busy microthread (its operation, progress and element addresses), and the results in
  // flight (by due cycle modulo the ring).
  struct Lane {
    explicit Lane(const Microthread& from) : m(from) {}
    Microthread m;
    StepKernel k;
    uint32_t s;
    int64_t a0, a1, ad, d0, d1, dd;
    bool check;  // its two reads may conflict in a bank
    bool solo;   // f32 element steps of a resolved kernel into memory: it can step alone fast
  };
  // Only the busy ones are constructed: a Microthread is large.
  union Slot {
    Slot() {}
    Lane l;
  };
  std::array<Slot, kUts> lanes;
  uint8_t stepping = 0;  // busy microthreads with elements left
  for (uint8_t b = busy; b; b &= b - 1) {
    const int u = __builtin_ctz(b);
    Lane& l = *new (&lanes[u].l) Lane(st_.ut[u]);
    const Microthread& m = l.m;
    if (!m.ended) stepping |= static_cast<uint8_t>(1u << u);
    l.k = ResolveStep(m.op, m.fmt);
    l.s = StepScalar(m);
    // mem1d: base + i * stride * size (ElemAddr).
    const bool h0 = m.has[kSrc0], h1 = m.has[kSrc1];
    const DsdOperand& o0 = m.opnd[kSrc0];
    const DsdOperand& o1 = m.opnd[kSrc1];
    const DsdOperand& od = m.opnd[kDst];
    l.d0 = h0 ? int64_t{o0.stride} * o0.size : 0;
    l.d1 = h1 ? int64_t{o1.stride} * o1.size : 0;
    l.dd = int64_t{od.stride} * od.size;
    l.a0 = h0 ? ElemAddr(o0, m.i) : 0;
    l.a1 = h1 ? ElemAddr(o1, m.i) : 0;
    l.ad = ElemAddr(od, m.i);
    // Two reads can conflict only if they may share a bank: not when both move by the same bytes
    // per element and lie 4 to 12 bytes apart in the 16 bytes of a row (reads of at most 4 bytes).
    const int64_t apart = ((l.a1 - l.a0) % 16 + 16) % 16;
    l.check = h0 && h1 && !(l.d0 == l.d1 && apart >= 4 && apart <= 12);
    l.solo = !l.check && !m.pairs && l.k.shape != StepKernel::kGeneric && od.size == 4 &&
             (!h0 || o0.size == 4) && (!h1 || o1.size == 4);
  }
  Ring ring{};
  for (int j = 0; j < kResultRing; ++j) {
    const PendingResult& r = st_.results[j];
    if (r.due == kNoCycle) continue;
    if (r.kind != PendingResult::kSram || r.fifo >= 0) return c;  // not a memory operation's
    ring[j] = {true, r.ut, r.size, r.flags, r.addr, r.value};
  }
  uint8_t rr = st_.rr_ptr;
  uint8_t flags = 0;
  constexpr int kWaits = static_cast<int>(arch::UtWait::kDrain) + 1;
  std::array<uint32_t, kWaits> waits{};  // cycles that began with a microthread in each state
  uint32_t steps = 0, elems = 0, fmac_steps = 0;
  bool stop = false;
  while (c < end && !stop) {
    // The stepper: the first microthread with elements left at or after the round robin's. While
    // several take turns, one cycle at a time; while one steps alone (or none), until that ends.
    int u = -1;
    if (stepping) {
      const uint32_t upper = stepping & ~((1u << rr) - 1);
      u = __builtin_ctz(upper ? upper : stepping);
    }
    // One that can step alone fast but waited last cycle takes one cycle here first.
    const bool solo = u >= 0 && busy == 1u << u && lanes[u].l.solo;
    const uint64_t limit = stepping & (stepping - 1) || solo ? c + 1 : end;
    Lane* l = u >= 0 ? &lanes[u].l : nullptr;
    Microthread* m = l ? &l->m : nullptr;
    uint64_t i = m ? m->i : 0;
    uint32_t in_flight = m ? m->in_flight : 0;
    int64_t a0 = l ? l->a0 : 0, a1 = l ? l->a1 : 0, ad = l ? l->ad : 0;
    uint32_t run = 0, ready = 0;
    const bool solo_steps = solo && m->wait == static_cast<uint8_t>(arch::UtWait::kReady);
    if (solo_steps) {
      // It steps alone, with no other microthread busy (so every result in flight is its own),
      // through its last element or to the end (SoloSteps): the loop below without what these
      // steps cannot need. Its writes are logged for Rewind once, before.
      const uint64_t stop = std::min(end, c + (m->n - i));
      const auto n = static_cast<uint32_t>(stop - c);
      if (ahead_.open) {
        for (const Flight& f : ring)
          if (f.live) LogSram(f.addr, f.addr + f.size);
        const int64_t last = ad + (n - 1) * l->dd;
        LogSram(static_cast<uint32_t>(std::min(ad, last)),
                static_cast<uint32_t>(std::max(ad, last) + 4));
      }
      SoloSteps q{st_.sram,
                  a0,
                  a1,
                  ad,
                  l->d0,
                  l->d1,
                  l->dd,
                  m->has[kSrc0],
                  m->has[kSrc1],
                  m->form == arch::DsdForm::kVS,
                  l->s,
                  static_cast<uint8_t>(u)};
      // The FMAC's commonest f32 operations inlined; the others through the resolved kernel.
      const uint32_t sc = l->s;
      using fp::F32;
      // (ShapeStep: the operands as RunKernel feeds them.)
      using K = StepKernel;
      const arch::FpOp fop = arch::FmacOp(m->op);
      switch (m->fmt == arch::DsdFmt::kF32 && l->k.shape != K::kGeneric ? fop : arch::FpOp::kEq) {
        case arch::FpOp::kMulAdd:
          flags |= q.Run(c, stop, ring, in_flight, [sc](uint32_t x0, uint32_t x1, uint8_t& f) {
            auto fma = [](uint32_t a, uint32_t b, uint32_t d, uint8_t& g) {
              return fp::MulAdd<F32>(a, b, d, g);
            };
            return ShapeStep<K::kMulAdd>(fma, x0, x1, sc, f);
          });
          break;
        case arch::FpOp::kAdd:
          flags |= q.Run(c, stop, ring, in_flight, [](uint32_t x0, uint32_t x1, uint8_t& f) {
            auto add = [](uint32_t a, uint32_t b, uint32_t, uint8_t& g) {
              return fp::Add<F32>(a, b, g);
            };
            return ShapeStep<K::kBinary>(add, x0, x1, 0, f);
          });
          break;
        case arch::FpOp::kMul:
          flags |= q.Run(c, stop, ring, in_flight, [](uint32_t x0, uint32_t x1, uint8_t& f) {
            auto mul = [](uint32_t a, uint32_t b, uint32_t, uint8_t& g) {
              return fp::Mul<F32>(a, b, g);
            };
            return ShapeStep<K::kBinary>(mul, x0, x1, 0, f);
          });
          break;
        default: {
          const StepKernel k = l->k;
          flags |= q.Run(c, stop, ring, in_flight, [k, sc](uint32_t x0, uint32_t x1, uint8_t& f) {
            const StepValue v = RunKernel(k, x0, x1, sc, 1);
            f = v.flags;
            return v.value;
          });
          break;
        }
      }
      c = stop;
      a0 = q.a0;
      a1 = q.a1;
      ad = q.ad;
      i += n;
      elems += n;
      run = ready = n;
    }
    for (; !solo_steps && c < limit; ++c) {
      Flight& due = ring[c % kResultRing];
      if (due.live && due.ut != u) {  // the stepper's results cannot complete it
        const Microthread& o = lanes[due.ut].l.m;
        if (o.ended && o.in_flight == 1) {  // that one completes in this cycle
          stop = true;
          break;
        }
      }
      bool done = false;  // the stepper's last step
      if (m) {
        // The step's reads: in one cycle unless they conflict in a bank (then a split step).
        bool pair = false;
        if (m->pairs) pair = i + 1 < m->n && ((a0 | a1 | ad) & 3) == 0;
        const unsigned b0 = pair ? 4 : m->opnd[kSrc0].size, b1 = pair ? 4 : m->opnd[kSrc1].size;
        const auto u0 = static_cast<uint32_t>(a0), u1 = static_cast<uint32_t>(a1);
        if (l->check && Conflict(BankMask(u0, b0), Row(u0), BankMask(u1, b1), Row(u1))) {
          stop = true;
          break;
        }
        // Its state at the start of the cycle, then in this one.
        if (m->wait == static_cast<uint8_t>(arch::UtWait::kReady)) {
          ++ready;
        } else {
          ++waits[m->wait];
          m->wait = static_cast<uint8_t>(arch::UtWait::kReady);
        }
        const uint32_t x0 = m->has[kSrc0] ? ReadElem(st_.sram, u0, b0) : 0;
        const uint32_t x1 = m->has[kSrc1] ? ReadElem(st_.sram, u1, b1) : 0;
        const PendingResult r = ElementResult(*m, l->k, l->s, pair, x0, x1, i, ad);
        // Advance, on the locals: the result due DsdLatency cycles on, the next element.
        ring[(c + arch::kDsdLatency) % kResultRing] = {
            true, static_cast<uint8_t>(u), r.size, r.flags, r.addr, r.value};
        ++in_flight;
        const unsigned e = pair ? 2 : 1;
        elems += e;
        i += e;
        a0 += e * l->d0;
        a1 += e * l->d1;
        ad += e * l->dd;
        done = i >= m->n;
      }
      ++run;
      // The result due, written at the end of the cycle: after the step read.
      if (due.live) {
        due.live = false;
        flags |= due.flags;
        if (due.ut == u) {
          --in_flight;
        } else {
          --lanes[due.ut].l.m.in_flight;
        }
        WriteSram(due.addr, due.size, due.value);
      }
      if (done) {  // the others (if any) take their turns, or the microthreads drain
        ++c;
        break;
      }
    }
    // The others' states: as they began the first of these cycles, then waiting their turn or
    // draining.
    for (uint8_t b = busy & ~(u >= 0 ? 1u << u : 0u); b && run; b &= b - 1) {
      Microthread& o = lanes[__builtin_ctz(b)].l.m;
      ++waits[o.wait];
      o.wait = static_cast<uint8_t>(o.ended ? arch::UtWait::kDrain : arch::UtWait::kTurn);
      waits[o.wait] += run - 1;
    }
    if (!m || !run) continue;
    waits[0] += ready;
    steps += run;
    fmac_steps += m->fmac ? run : 0;
    rr = static_cast<uint8_t>((u + 1) % kUts);
    m->i = i;
    m->in_flight = static_cast<uint8_t>(in_flight);
    l->a0 = a0;
    l->a1 = a1;
    l->ad = ad;
    if (i >= m->n) {
      m->ended = true;
      stepping &= static_cast<uint8_t>(~(1u << u));
    }
  }
  const auto n = static_cast<uint32_t>(c - first);
  if (n == 0) return c;
  // Back: the microthreads, the results still in flight, and what every cycle run did alike:
  // Cycle<false>'s counters of a running task with busy microthreads, the task's stall, the step
  // counters (Advance), the round robin, the flags.
  for (uint8_t b = busy; b; b &= b - 1) {
    const int u = __builtin_ctz(b);
    Microthread& m = st_.ut[u];
    const Microthread& l = lanes[u].l.m;
    m.i = l.i;
    m.ended = l.ended;
    m.in_flight = l.in_flight;
    m.wait = l.wait;
    m.wait_color = arch::kNoColor;
  }
  for (int j = 0; j < kResultRing; ++j) {
    PendingResult& r = st_.results[j];
    r.due = kNoCycle;
    if (!ring[j].live) continue;
    r = PendingResult{};
    r.due = c + ((static_cast<uint64_t>(j) - c) % kResultRing);
    r.ut = ring[j].ut;
    r.kind = PendingResult::kSram;
    r.size = ring[j].size;
    r.addr = ring[j].addr;
    r.value = ring[j].value;
    r.flags = ring[j].flags;
  }
  for (int w = 0; w < kWaits; ++w)
    Count(static_cast<arch::PerfEvent>(static_cast<int>(arch::PerfEvent::kUtReady) + w), waits[w]);
  Count(arch::PerfEvent::kTaskCycles, n);
  Count(arch::PerfEvent::kUtBusy, n);
  st_.pipe.stall = static_cast<uint8_t>(stall);
  Count(StallEvent(stall), n);
  Count(arch::PerfEvent::kFmacBusy, fmac_steps);
  Count(arch::PerfEvent::kDsdElems, elems);
  st_.rr_ptr = rr;
  if (flags) st_.fp_flags = static_cast<uint8_t>((st_.fp_flags | flags) & 0x1F);
  last_cycle_ = c - 1;
  ticked_ = true;
  return c;
}

}  // namespace tessera::ce
