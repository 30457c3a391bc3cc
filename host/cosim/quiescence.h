// Whether two machines stopped together: a run stops after a fault or once its fabric is
// quiescent (fabric::Fabric::SetStopWhenQuiescent), so stopping on one side only is a difference.
#pragma once

#include <cstdint>
#include <optional>

#include "cosim/difference.h"
#include "fabric/pe_events.h"
#include "machine/machine.h"

namespace tessera::cosim {

// One PE's CeStatus.Quiet and Settled after a cycle ("quiet" or "settled": "1" or "0"; the runner
// calls the difference "CeStatus").
std::optional<Difference> CompareCeQuiet(const fabric::PeEvents& a, const fabric::PeEvents& b);

// Whether each fabric is quiescent, and settled, after a cycle (fabric::Fabric::Quiescent: no
// wavelet in flight, every CE quiet; Settled: ... every CE settled): "quiescent" or "settled"
// yes/no when only one is. The lockstep runner calls the difference "quiescence".
std::optional<Difference> CompareQuiescence(bool quiescent_a, bool quiescent_b);
std::optional<Difference> CompareSettled(bool settled_a, bool settled_b);

// Both machines were asked for the same cycles and stepped `stepped_a` and `stepped_b`: "cosim:
// {a} stopped at cycle X but {b} at cycle Y (quiescent or faulted on one side only)" if those
// differ.
std::optional<Mismatch> CompareStops(machine::Machine& a, uint64_t stepped_a, machine::Machine& b,
                                     uint64_t stepped_b);

}  // namespace tessera::cosim
