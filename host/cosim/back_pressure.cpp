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
        const size_t i = fabric::Fabric::BackPressureIndex(pe, d, c);
        if (a[i] == b[i]) continue;
        r.pe = pe;
        r.diff = {fmt::format("back pressure on output {}, color {} (cycles)",
                              arch::ToString(static_cast<arch::Dir>(d)), c),
                  fmt::format("{}", a[i]), fmt::format("{}", b[i])};
        return r;
      }
    }
  }
  return r;
}

std::optional<std::string> BackPressureMismatch(const fabric::Fabric& fa,
                                                const fabric::Fabric& fb) {
  const BackPressureDifference d = CompareBackPressure(fa, fb);
  if (d.pe < 0) return std::nullopt;
  const fabric::Coord pe = fa.At(d.pe);
  return fmt::format("cosim: PE({},{}): {}: {} {}, {} {}", pe.x, pe.y, d.diff.what, fa.Name(),
                     d.diff.a, fb.Name(), d.diff.b);
}

}  // namespace tessera::cosim
