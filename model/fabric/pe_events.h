// What one PE did in one cycle, for lockstep co-simulation: the one per-cycle events type of
// every backend (the functional model's trace sinks and the RTL tiles' event ports fill it).
#pragma once

#include <cstdint>
#include <vector>

#include "fabric/debug_record.h"

namespace tessera::fabric {

// What one PE did in one cycle (lockstep co-simulation), and its flags after it.
struct PeEvents {
  bool retire = false;  // an instruction issued in the cycle
  uint16_t retire_pc = 0;
  bool task_start = false;  // the picker started a task
  uint8_t task = 0;
  std::vector<DebugRecord> debug;  // records completed in the cycle (Char: whole lines)
  // SRAM words the backend knows were written in the cycle (word addresses): hints that let a
  // comparator check a store's memory at once; a backend may leave it empty.
  std::vector<uint16_t> sram_writes;
  // The retired instruction wrote a descriptor register (a hint, like sram_writes).
  bool dsr_write = false;
  bool faulted = false;  // the PE's fault flag after the cycle: a CE or a routing fault
  bool quiet = false;    // CeStatus.Quiet after the cycle
  bool settled = false;  // CeStatus.Settled after the cycle

  void Clear() {
    retire = task_start = dsr_write = faulted = quiet = settled = false;
    retire_pc = 0;
    task = 0;
    debug.clear();
    sram_writes.clear();
  }
};

}  // namespace tessera::fabric
