// The plain path (PlainPath, path.h): cycles of a running task alone in its engine, many in one
// loop. It may run while Ce::PlainState holds: no microthread is busy, no credit is owed, no
// control wavelet waits and nothing faulted, so each cycle is the task's scalar pipeline and
// nothing else: every resource is free, no result but a scalar FP one falls due, and the
// dispatcher and picker have nothing to do. Each issue runs its instruction's body (insn_bodies.h)
// on the plain path, which leaves (Issue::kLeave) before changing anything if the instruction
// would reach beyond the engine; the loop stops there and the cycle is the whole model's.
//
// Also the probe (ProbePath): whether a cycle's issue would stay inside the engine, and what it
// waits for, asked by the drivers that run ahead and in bulk before they take a cycle.
#include <algorithm>

#include "ce/ce.h"
#include "ce/insn_bodies.h"

namespace tessera::ce {

uint64_t Ce::PlainWait(uint64_t c, uint64_t stop) {
  Cyc& x = cyc_;  // what ScalarFpDue and CommitData read
  x.sram_w = false;
  x.dot_w = false;
  Count(arch::PerfEvent::kTaskCycles, static_cast<uint32_t>(stop - c));
  for (; c < stop; ++c) {
    x.flags = 0;
    ScalarFpDue(c);
    FetchDue(c);
    CommitData();
  }
  last_cycle_ = stop - 1;
  return stop;
}

uint64_t Ce::PlainRun(uint64_t c, const uint64_t stop) {
  ScalarPipe& p = st_.pipe;
  PlainPath path;
  const uint64_t first = c;
  uint32_t insns = 0;
  uint64_t issuing = 0;  // cycles of the issue loops below, counted at the end
  while (c < stop) {
    if (c < p.issue_at) {  // nothing issues: the task's cycles, an FP result due, a fetch due
      c = PlainWait(c, std::min(p.issue_at, stop));
      continue;
    }
    // The scalar stage's own work before an issue: an std's second word (a cycle without issue),
    // or the end of a wait for a synchronous microthread, which is done.
    if ((p.std_pending || p.sync_ut >= 0) && !ScalarIssues(path, c)) {
      Count(arch::PerfEvent::kTaskCycles);
      last_cycle_ = c;
      ++c;
      continue;
    }
    // Cycles that issue, as long as they follow each other: the next instruction in the next
    // cycle, or, after a taken jump, its target fetched in the next and issued in the one after.
    // (No fetch or FP result falls due in a cycle that issues.)
    const uint64_t from = c;
    bool leave = false;
    for (;;) {
      if (!p.ir_valid) {  // sequential execution ran past the SRAM: a fault
        leave = true;
        break;
      }
      const Decoded* d = DecodeAtPc(p.ir);
      if (!d || Body(path, *d->n, d->f, c) != Issue::kDone) {
        leave = true;
        break;
      }
      ++insns;
      if (++c == stop) break;
      if (p.issue_at == c) continue;
      if (p.fetch_at != c) break;  // a scalar FP instruction: its wait (PlainWait)
      Fetch();
      p.fetch_at = kNoCycle;
      if (++c == stop) break;
    }
    issuing += c - from;
    if (leave) break;
  }
  if (insns) {  // what Retire does for each
    p.stall = 0;
    p.stall_color = 0;
    retired_ += insns;
    Count(arch::PerfEvent::kInsns, insns);
  }
  if (issuing) Count(arch::PerfEvent::kTaskCycles, static_cast<uint32_t>(issuing));
  if (c != first) last_cycle_ = c - 1;
  return c;
}

}  // namespace tessera::ce
