// Deadlock detection on every backend (docs/runtime.md, "Run, quiescence and what a run
// returns"): a run that is not over but in which nothing has moved for a whole window will
// never end. The probe takes a signature of what moves, every window of cycles: each PE's
// instructions issued and DSD elements processed, its CeStatus (without the stall fields), the
// CE's per-color queues and credits (CeColor), the router's queue occupancy (RouterInCount), and
// what the host's streams have still to inject. Two equal signatures one window apart mean that
// nothing happened in between: a wavelet in flight reaches a router queue or a CE within the
// window, which is longer than any path across the fabric.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "machine/machine.h"

namespace tessera::runtime {

class StallProbe {
 public:
  // `pending`: what the host's streams still hold (part of the signature).
  StallProbe(machine::Machine& m, std::function<std::string()> pending);

  // The window: at least 4096 cycles, and 16 per PE along the fabric's width plus height.
  uint64_t Window() const { return window_; }

  // Called as a run goes on, `done` cycles into it: true when a window has passed since the last
  // signature and nothing changed.
  bool Stalled(uint64_t done);

 private:
  std::vector<uint32_t> Signature();

  machine::Machine& m_;
  std::function<std::string()> pending_;
  uint64_t window_;
  uint64_t next_ = 0;
  std::vector<uint32_t> last_;
};

}  // namespace tessera::runtime
