#include "noc/noc_cosim.h"

#include <fmt/format.h>

#include <algorithm>

#include "cosim/faults.h"

namespace tessera::noc {

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
  r.a = RunNoc(a, opt);
  r.b = RunNoc(b, opt);
  r.mismatches = CountLogMismatches(*r.a.scoreboard, *r.b.scoreboard);
  if (r.mismatches) {
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
