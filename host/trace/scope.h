// Which part of a run a trace covers (docs/profiling.md, "Traces"): a rectangle of PEs and a
// window of cycles. Every trace, the timeline and the link trace take the same scope, so a window
// of a big run costs little.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "fabric/fabric.h"

namespace tessera::trace {

struct Scope {
  int x0 = 0, y0 = 0, x1 = INT_MAX, y1 = INT_MAX;  // PEs, inclusive
  uint64_t from = 0, to = UINT64_MAX;              // cycles [from, to)

  bool Has(fabric::Coord pe) const { return pe.x >= x0 && pe.x <= x1 && pe.y >= y0 && pe.y <= y1; }
  bool During(uint64_t cycle) const { return cycle >= from && cycle < to; }
};

// Reads `--trace-region X0,Y0:X1,Y1` and `--trace-window FROM:TO` (either may be empty: the
// whole fabric, every cycle); throws std::invalid_argument naming the option.
Scope ParseScope(const std::string& region, const std::string& window);

}  // namespace tessera::trace
