// The first difference between two sequences of records of the same stretch of cycles (each
// record has a .cycle), in the runtime's wording: "cosim: {what} #{i} differs: {na} has {x}; {nb}
// has {y}", or "cosim: {na} has {n} more {what} than {nb}, the first: {x}".
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cosim/difference.h"

namespace tessera::cosim {

// eq(x, y): the records agree; show(x): a record in words.
template <typename T, typename Eq, typename Show>
std::optional<Mismatch> FirstDifference(const std::vector<T>& a, const std::vector<T>& b,
                                        const std::string& na, const std::string& nb,
                                        const char* what, Eq eq, Show show) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (!eq(a[i], b[i]))
      return Mismatch{std::min<uint64_t>(a[i].cycle, b[i].cycle),
                      fmt::format("cosim: {} #{} differs: {} has {}; {} has {}", what, i, na,
                                  show(a[i]), nb, show(b[i]))};
  }
  if (a.size() != b.size()) {
    const bool a_more = a.size() > b.size();
    const T& first = a_more ? a[n] : b[n];
    return Mismatch{first.cycle, fmt::format("cosim: {} has {} more {} than {}, the first: {}",
                                             a_more ? na : nb, a_more ? a.size() - n : b.size() - n,
                                             what, a_more ? nb : na, show(first))};
  }
  return std::nullopt;
}

}  // namespace tessera::cosim
