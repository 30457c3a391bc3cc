#include "traffic/noc_cosim.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "cosim/back_pressure.h"
#include "cosim/faults.h"
#include "cosim/links.h"

namespace tessera::noc {
namespace {

// Cycles both runs step between two comparisons of their link logs.
constexpr uint64_t kLockstepChunk = 64;

}  // namespace

uint64_t CountLogMismatches(const Scoreboard& a, const Scoreboard& b) {
  uint64_t n = 0;
  const int pes = a.Width() * a.Height();
  for (int dst = 0; dst < pes; ++dst) {
    for (uint32_t color = 0; color < 32; ++color) {
      const auto& la = a.Log(dst, color);
      const auto& lb = b.Log(dst, color);
      size_t common = std::min(la.size(), lb.size());
      for (size_t i = 0; i < common; ++i) {
        const LogEntry& x = la[i];
        const LogEntry& y = lb[i];
        n += x.cycle != y.cycle || x.seq != y.seq || x.src != y.src || x.ctrl != y.ctrl;
      }
      n += std::max(la.size(), lb.size()) - common;
    }
  }
  return n;
}

NocCosimResult RunNocCosim(fabric::Fabric& a, fabric::Fabric& b, const NocOptions& options) {
  if (a.Width() != b.Width() || a.Height() != b.Height())
    throw std::invalid_argument(fmt::format("co-simulation needs equal fabrics ({}x{} vs {}x{})",
                                            a.Width(), a.Height(), b.Width(), b.Height()));
  NocOptions opt = options;
  opt.keep_log = true;
  NocCosimResult r;
  // Both runs in lockstep chunks: after each, every wavelet on every link both fabrics observe
  // is compared (cosim::CompareLinks), so memory stays bounded and a difference is found at its
  // cycle. The runs end together, or the link logs differ.
  NocSession sa(a, opt), sb(b, opt);
  a.SetLinkLog(true);
  b.SetLinkLog(true);
  a.SetBackPressureCount(true);  // and the routers' back pressure, compared after each chunk
  b.SetBackPressureCount(true);
  std::optional<cosim::Mismatch> link_diff;
  while ((!sa.Done() || !sb.Done()) && !link_diff) {
    const uint64_t ca = a.Cycle(), cb = b.Cycle();
    sa.Step(kLockstepChunk);
    sb.Step(kLockstepChunk);
    // A side that ended early runs on alone to the same cycle (its fabric is quiescent).
    if (a.Cycle() - ca < b.Cycle() - cb && sa.Done()) a.Run(b.Cycle() - cb - (a.Cycle() - ca));
    if (b.Cycle() - cb < a.Cycle() - ca && sb.Done()) b.Run(a.Cycle() - ca - (b.Cycle() - cb));
    uint64_t compared = 0;
    link_diff =
        cosim::CompareLinks(a.TakeLinkLog(), b.TakeLinkLog(), a, b, a.Name(), b.Name(), &compared);
    r.link_wavelets += compared;
    if (!link_diff)
      if (auto bp = cosim::BackPressureMismatch(a, b)) link_diff = cosim::Mismatch{a.Cycle(), *bp};
  }
  r.back_pressure_cycles =
      std::accumulate(a.BackPressure().begin(), a.BackPressure().end(), uint64_t{0});
  a.SetBackPressureCount(false);
  b.SetBackPressureCount(false);
  a.SetLinkLog(false);
  b.SetLinkLog(false);
  r.a = sa.Finish();
  r.b = sb.Finish();
  if (link_diff) {
    ++r.mismatches;
    r.first_difference = link_diff->message;
  }
  const uint64_t log_mismatches = CountLogMismatches(*r.a.scoreboard, *r.b.scoreboard);
  r.mismatches += log_mismatches;
  if (log_mismatches && r.first_difference.empty()) {
    r.first_difference = fmt::format("{} vs {}: {}", a.Name(), b.Name(),
                                     CompareLogs(*r.a.scoreboard, *r.b.scoreboard, true));
  }
  // Faults must agree too: the same PEs, causes and cycles. A different count is one mismatch,
  // else each differing fault is one; the first difference is co-simulation's fault check's.
  if (r.a.faults.size() != r.b.faults.size()) {
    ++r.mismatches;
  } else {
    for (size_t i = 0; i < r.a.faults.size(); ++i) {
      const auto& fa = r.a.faults[i];
      const auto& fb = r.b.faults[i];
      r.mismatches += !(fa.pe == fb.pe && fa.cycle == fb.cycle && fa.status == fb.status);
    }
  }
  if (r.mismatches && r.first_difference.empty()) {
    if (auto m = cosim::CompareFaults(r.a.faults, r.b.faults, a.Name(), b.Name()))
      r.first_difference = m->message;
  }
  return r;
}

}  // namespace tessera::noc
