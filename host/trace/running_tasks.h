// The task running on each PE's compute engine, followed cycle by cycle from what every backend
// reports the same way: task starts (fabric::PeEvents) and retired `tend`s (issued.h). A task
// started in cycle c runs from c + 1, as PerfCount TaskCycles counts it, through the cycle its
// `tend` issues. The observers that need it (RunCounters, LinkTrace) keep one each.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "fabric/pe_events.h"
#include "machine/machine.h"
#include "trace/scope.h"

namespace tessera::trace {

class RunningTasks {
 public:
  bool started() const { return started_; }
  // Before the first cycle watched: the tasks already running (CeStatus) on the PEs of `scope`
  // count from `cycle`.
  void Start(uint64_t cycle, machine::Machine& m, const Scope& scope = {});
  // After cycle `cycle`: `ended(pe_index, task, cycles)` for each task whose `tend` issued in it.
  void After(uint64_t cycle, machine::Machine& m, const std::vector<fabric::PeEvents>& events,
             const std::function<void(int, int, uint64_t)>& ended = {});
  // The task that ran on PE `i` in the last cycle watched; -1: none.
  int During(int i) const { return i < static_cast<int>(during_.size()) ? during_[i] : -1; }
  // The tasks still running: `open(pe_index, task, cycles)` with their cycles up to `end`.
  void ForOpen(uint64_t end, const std::function<void(int, int, uint64_t)>& open) const;

 private:
  bool started_ = false;
  std::vector<int> running_;     // per PE: the task that runs from the next cycle on (-1: none)
  std::vector<uint64_t> since_;  // ... and the first cycle it ran
  std::vector<int> during_;      // per PE: the task that ran in the last cycle watched
};

}  // namespace tessera::trace
