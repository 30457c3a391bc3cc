// Running ahead (docs/performance.md, "Running ahead"): a compute engine whose task only computes
// runs the cycles the fabric guarantees quiet for it (RampPort::horizon) in the Tick of the first,
// instead of one Tick per cycle. A cycle runs ahead only if nothing in it can reach or hear the
// fabric: the engine sends, pops and returns nothing, reads and writes no register, cannot fault
// and keeps its task running; its microthreads, if any, work on memory only. Such a cycle depends
// on nothing but the engine's own state, so it is the cycle the fabric would have stepped,
// computed earlier: by the plain path (path_plain.cpp) while no microthread is busy, by DSD steps
// in bulk (path_bulk.cpp) while the task waits for them, else by the whole cycle model; each
// cycle's issue is probed first (ProbeIssue) and the run stops before one that would leave the
// engine. It may run after any tick whose port gives a horizon beyond the next cycle
// (FastPaths::ahead), when CanRunAhead holds.
//
// A run that stops early (a fault elsewhere) stops before the horizon it gave; Rewind then takes
// the engine back: it restores what the run ahead could change and steps again up to the cycle
// the run ended, which gives the same state, since those cycles depend on nothing else.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ce/ce.h"
#include "ce/dsd.h"
#include "ce/insn_bodies.h"

namespace tessera::ce {

bool Ce::CreditsHome() const {
  static constexpr auto kHome = [] {
    std::array<uint8_t, kColors> h{};
    for (uint8_t& c : h) c = static_cast<uint8_t>(arch::kRampInDepth);
    return h;
  }();
  return std::memcmp(st_.out_credits.data(), kHome.data(), kColors) == 0;
}

bool Ce::CanRunAhead() const {
  for (uint8_t b = st_.busy; b; b &= b - 1) {
    const Microthread& m = st_.ut[__builtin_ctz(b)];
    // Only mem1d operands (no fabric, no mem4d), every element in SRAM (an element step cannot
    // fault): Microthread::mem1d, found at issue.
    if (!m.mem1d) return false;
    if (m.tid != kNoTask) return false;  // its completion would change the task masks
  }
  return !st_.fault_status && st_.running && !st_.owed_mask && !st_.head_ctrl && CreditsHome();
}

void Ce::AheadCycle(uint64_t c) {
  fabric::RampPort none;  // the whole cycle model, with nothing arriving
  Cycle<false>(c, none);
  if (none.to_router || none.credit_to_router || Faulted())
    throw std::logic_error(fmt::format(
        "PE({},{}) cycle {}: a cycle run ahead reached the fabric or faulted", st_.x, st_.y, c));
}

void Ce::OpenAhead() {
  ahead_.open = true;
  ahead_.from = last_cycle_;
  ahead_.engine = st_.busy != 0;
  ahead_.sram.clear();
  ahead_.bytes.clear();
  CopyAheadState(true);
}

void Ce::RunAhead(uint64_t horizon) {
  if (!CanRunAhead()) return;
  ProbePath probe;
  for (uint64_t c = last_cycle_ + 1; c < horizon;) {
    if (!st_.busy && fast_.plain) {  // PlainState holds, as when the run ahead began
      if (!ahead_.open) {            // the log opens before the first change
        if (ProbeIssue(c, probe) == Issue::kLeave) return;
        OpenAhead();
      }
      const uint64_t next = PlainRun(c, horizon);
      if (next == c) return;  // its issue would leave the engine
      c = next;
      continue;
    }
    const Issue issue = ProbeIssue(c, probe);
    if (issue == Issue::kLeave) return;
    if (!ahead_.open) OpenAhead();
    // The task waits for its microthreads on memory: DSD element steps in bulk.
    if (arch::CeStall stall; fast_.bulk && BulkEngine() && BulkWaits(issue, probe, stall)) {
      const uint64_t next = BulkSteps(c, horizon, stall);
      if (next != c) {
        c = next;
        continue;
      }
    }
    AheadCycle(c);
    ++c;
  }
}

// One list of what a run ahead can change, copied into the log or back from it.
__attribute__((always_inline)) inline void Ce::CopyAheadState(bool save) {
  AheadLog& a = ahead_;
  auto copy = [save](auto& logged, auto& live) {
    if (save) {
      logged = live;
    } else {
      live = logged;
    }
  };
  copy(a.gpr, st_.gpr);
  copy(a.pc, st_.pc);
  copy(a.pipe, st_.pipe);
  copy(a.perf, st_.perf);
  copy(a.fp_flags, st_.fp_flags);
  copy(a.retired, retired_);
  if (!a.engine) return;  // no microthread was busy: none started since
  copy(a.busy, st_.busy);
  if (!a.ut) a.ut = std::make_unique<std::array<Microthread, kUts>>();
  // Only busy microthreads change while running ahead (none issues): a.busy is the same mask
  // saving and restoring.
  for (uint8_t b = a.busy; b; b &= b - 1) {
    const int u = __builtin_ctz(b);
    copy((*a.ut)[u], st_.ut[u]);
  }
  copy(a.rr_ptr, st_.rr_ptr);
  copy(a.results, st_.results);
  copy(a.split, st_.split);
}

void Ce::Rewind(uint64_t cycle) {
  AheadLog& a = ahead_;
  if (!a.open || last_cycle_ <= cycle) return;
  a.open = false;
  for (auto it = a.sram.rbegin(); it != a.sram.rend(); ++it)
    std::memcpy(&st_.sram[it->addr],
                it->size <= 4 ? static_cast<const void*>(&it->old) : &a.bytes[it->old], it->size);
  CopyAheadState(false);
  last_cycle_ = a.from;
  // The same cycles through the whole cycle model: they depend on nothing but the engine.
  for (uint64_t c = a.from + 1; c <= cycle; ++c) AheadCycle(c);
}

}  // namespace tessera::ce
