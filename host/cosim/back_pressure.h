// Back pressure counted by two fabrics running the same program (fabric::Fabric::
// SetBackPressureCount): per PE, output port and color, the cycles a waiting wavelet found no
// credit. Both backends count the same; the lockstep runner compares the counts after every cycle
// and a cosim device's profile at the end of a run.
#pragma once

#include <optional>
#include <string>

#include "cosim/difference.h"
#include "fabric/fabric.h"

namespace tessera::cosim {

// The first (PE, port, color) in PE order whose counts differ, as the PE's index and a
// Difference ("back pressure on output E, color 3 (cycles)", the two counts); pe -1 when they
// agree or either fabric does not count.
struct BackPressureDifference {
  int pe = -1;
  Difference diff;
};
BackPressureDifference CompareBackPressure(const fabric::Fabric& fa, const fabric::Fabric& fb);
// The same difference in words, "cosim: PE(1,0): back pressure on output E, color 3 (cycles):
// func 120, rtl 119", naming each fabric by its Name(); nullopt when they agree.
std::optional<std::string> BackPressureMismatch(const fabric::Fabric& fa, const fabric::Fabric& fb);

}  // namespace tessera::cosim
