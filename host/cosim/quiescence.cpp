#include "cosim/quiescence.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::cosim {

std::optional<Difference> CompareCeQuiet(const fabric::PeEvents& a, const fabric::PeEvents& b) {
  if (a.quiet != b.quiet) return Difference{"quiet", a.quiet ? "1" : "0", b.quiet ? "1" : "0"};
  if (a.settled != b.settled)
    return Difference{"settled", a.settled ? "1" : "0", b.settled ? "1" : "0"};
  return std::nullopt;
}

std::optional<Difference> CompareSettled(bool settled_a, bool settled_b) {
  if (settled_a == settled_b) return std::nullopt;
  return Difference{"settled", settled_a ? "yes" : "no", settled_b ? "yes" : "no"};
}

std::optional<Difference> CompareQuiescence(bool quiescent_a, bool quiescent_b) {
  if (quiescent_a == quiescent_b) return std::nullopt;
  return Difference{"quiescent", quiescent_a ? "yes" : "no", quiescent_b ? "yes" : "no"};
}

std::optional<Mismatch> CompareStops(machine::Machine& a, uint64_t stepped_a, machine::Machine& b,
                                     uint64_t stepped_b) {
  if (stepped_a == stepped_b) return std::nullopt;
  return Mismatch{std::min(a.Cycle(), b.Cycle()),
                  fmt::format("cosim: {} stopped at cycle {} but {} at cycle {} (quiescent, "
                              "settled or faulted on one side only)",
                              a.Name(), a.Cycle(), b.Name(), b.Cycle())};
}

}  // namespace tessera::cosim
