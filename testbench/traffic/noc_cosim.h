// Random-traffic co-simulation: the same traffic on two fabric backends run in lockstep chunks,
// every wavelet on every link both observe compared as they go (cosim::CompareLinks), then every
// delivered wavelet (destination, color, source, sequence, order and, since the functional model
// is cycle exact, the cycle it arrived) and the faults.
#pragma once

#include <cstdint>
#include <string>

#include "fabric/fabric.h"
#include "traffic/noc_run.h"

namespace tessera::noc {

struct NocCosimResult {
  NocResult a, b;              // the runs on each backend
  uint64_t mismatches = 0;     // a link difference, log entries that differ, deliveries one
                               // side lacks, differing faults
  uint64_t link_wavelets = 0;  // link crossings compared
  // back pressure both counted and compared (fabric::Fabric::SetBackPressureCount): the
  // (router output, color) cycles in which a wavelet waited for a credit, summed
  uint64_t back_pressure_cycles = 0;
  std::string first_difference;  // in words; "" when the runs agree
  bool Passed() const { return mismatches == 0 && a.Passed() && b.Passed(); }
};

NocCosimResult RunNocCosim(fabric::Fabric& a, fabric::Fabric& b, const NocOptions& options);

// Entries that differ between two runs' delivery logs, compared position by position per
// (destination, color); a log longer than the other counts each extra entry.
uint64_t CountLogMismatches(const Scoreboard& a, const Scoreboard& b);

}  // namespace tessera::noc
