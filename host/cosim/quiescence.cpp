#include "cosim/quiescence.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::cosim {

std::optional<Difference> CompareCeQuiet(const fabric::PeEvents& a, const fabric::PeEvents& b) {
  if (a.quiet == b.quiet) return std::nullopt;
  return Difference{"quiet", a.quiet ? "1" : "0", b.quiet ? "1" : "0"};
}

std::optional<Difference> CompareQuiescence(bool quiescent_a, bool quiescent_b) {
  if (quiescent_a == quiescent_b) return std::nullopt;
  return Difference{"quiescent", quiescent_a ? "yes" : "no", quiescent_b ? "yes" : "no"};
}

std::optional<Mismatch> CompareStops(machine::Machine& a, uint64_t stepped_a, machine::Machine& b,
                                     uint64_t stepped_b) {
  if (stepped_a == stepped_b) return std::nullopt;
  return Mismatch{std::min(a.Cycle(), b.Cycle()),
                  fmt::format("cosim: {} stopped at cycle {} but {} at cycle {} (quiescent or "
                              "faulted on one side only)",
                              a.Name(), a.Cycle(), b.Name(), b.Cycle())};
}

}  // namespace tessera::cosim
