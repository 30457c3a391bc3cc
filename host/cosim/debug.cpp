#include "cosim/debug.h"

#include <fmt/format.h>

#include <algorithm>

#include "cosim/sequence.h"

namespace tessera::cosim {

std::vector<Difference> CompareCycleDebug(const std::vector<fabric::DebugRecord>& a,
                                          const std::vector<fabric::DebugRecord>& b) {
  std::vector<Difference> d;
  if (a == b) return d;
  auto text = [](const fabric::DebugRecord& r) {
    return fmt::format("{} (fmt {}, value 0x{:08x})", r.ToString(), r.fmt, r.value);
  };
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    d.push_back({fmt::format("debug record {}", i), i < a.size() ? text(a[i]) : "none",
                 i < b.size() ? text(b[i]) : "none"});
  }
  return d;
}

std::optional<Mismatch> CompareDebug(const std::vector<fabric::DebugRecord>& a,
                                     const std::vector<fabric::DebugRecord>& b,
                                     const std::string& na, const std::string& nb) {
  return FirstDifference(
      a, b, na, nb, "debug records",
      [](const fabric::DebugRecord& x, const fabric::DebugRecord& y) { return x == y; },
      [](const fabric::DebugRecord& d) { return "\"" + d.ToString() + "\""; });
}

}  // namespace tessera::cosim
