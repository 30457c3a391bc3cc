#include "cosim/back_pressure.h"

#include <fmt/format.h>

#include "arch/arch.h"

namespace tessera::cosim {

BackPressureDifference CompareBackPressure(const fabric::Fabric& fa, const fabric::Fabric& fb) {
  BackPressureDifference r;
  const std::vector<uint64_t>& a = fa.BackPressure();
  const std::vector<uint64_t>& b = fb.BackPressure();
  if (a.empty() || b.empty() || a == b) return r;
  for (int pe = 0; pe < fa.NumPes(); ++pe) {
    for (int d = 0; d < static_cast<int>(arch::kNumDirs); ++d) {
      for (int c = 0; c < fabric::Fabric::kBackPressureColors; ++c) {
        const size_t i = fa.BackPressureIndex(fa.At(pe), d, c);
        if (a[i] == b[i]) continue;
        r.pe = pe;
        r.diff = {fmt::format("back pressure on output {}, color {} (cycles)",
                              arch::Text(static_cast<arch::Dir>(d)), c),
                  fmt::format("{}", a[i]), fmt::format("{}", b[i])};
        return r;
      }
    }
  }
  return r;
}

}  // namespace tessera::cosim
