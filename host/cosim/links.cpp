#include "cosim/links.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "arch/arch.h"

namespace tessera::cosim {
namespace {

std::string WaveletText(uint64_t word) {
  using L = arch::Link;
  return fmt::format("data 0x{:08x}{}", L::Data(word), L::Ctrl(word) ? " (control)" : "");
}

}  // namespace

std::optional<Mismatch> CompareLinks(std::vector<fabric::LinkEvent> a,
                                     std::vector<fabric::LinkEvent> b, const fabric::Fabric& fa,
                                     const fabric::Fabric& fb, const std::string& na,
                                     const std::string& nb, uint64_t* compared) {
  using L = arch::Link;
  // A link and color: the sequences compared.
  auto group = [](const fabric::LinkEvent& e) {
    return std::make_tuple(e.pe.y, e.pe.x, e.port, e.into, L::Color(e.word));
  };
  fabric::CanonicalLinkLogs(a, b, fa, fb);
  if (compared) *compared = b.size();
  std::optional<Mismatch> first;
  auto note = [&](uint64_t cycle, const fabric::LinkEvent& e, std::string what) {
    if (first && first->cycle <= cycle) return;
    first = Mismatch{cycle, fmt::format("cosim: {}, color {}: {}", fabric::DescribeLink(e),
                                        L::Color(e.word), what)};
  };
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const auto g =
        (j == b.size() || (i < a.size() && group(a[i]) < group(b[j]))) ? group(a[i]) : group(b[j]);
    size_t ie = i, je = j;
    while (ie < a.size() && group(a[ie]) == g) ++ie;
    while (je < b.size() && group(b[je]) == g) ++je;
    for (size_t k = 0;; ++k) {
      const bool ha = i + k < ie, hb = j + k < je;
      if (!ha && !hb) break;
      if (ha && hb) {
        const fabric::LinkEvent &x = a[i + k], &y = b[j + k];
        if (x.cycle == y.cycle && x.word == y.word) continue;
        note(std::min(x.cycle, y.cycle), x,
             fmt::format("{} carries {} at cycle {}; {} carries {} at cycle {} (the wavelets "
                         "before agree)",
                         na, WaveletText(x.word), x.cycle, nb, WaveletText(y.word), y.cycle));
      } else {
        const fabric::LinkEvent& x = ha ? a[i + k] : b[j + k];
        note(x.cycle, x,
             fmt::format("{} carries {} at cycle {} but {} carries no such wavelet", ha ? na : nb,
                         WaveletText(x.word), x.cycle, ha ? nb : na));
      }
      break;
    }
    i = ie;
    j = je;
  }
  return first;
}

LinkDifference CompareCycleLinks(fabric::Fabric& fa, fabric::Fabric& fb) {
  std::vector<fabric::LinkEvent> la = fa.TakeLinkLog(), lb = fb.TakeLinkLog();
  fabric::CanonicalLinkLogs(la, lb, fa, fb);
  if (la == lb) return {};
  size_t k = 0;
  while (k < la.size() && k < lb.size() && la[k] == lb[k]) ++k;
  // The link that differs is the first of the two in link order (each log is sorted so); a
  // link carries at most one wavelet per cycle.
  auto link = [](const fabric::LinkEvent& x) {
    return std::make_tuple(x.pe.y, x.pe.x, x.port, x.into);
  };
  const bool use_a = k < la.size() && (k == lb.size() || link(la[k]) <= link(lb[k]));
  const fabric::LinkEvent& e = use_a ? la[k] : lb[k];
  auto on_link = [&](const std::vector<fabric::LinkEvent>& v) -> std::string {
    for (const fabric::LinkEvent& x : v)
      if (x.pe == e.pe && x.port == e.port && x.into == e.into)
        return fabric::DescribeWavelet(arch::Link::Color(x.word), arch::Link::Data(x.word),
                                       arch::Link::Ctrl(x.word));
    return "nothing";
  };
  return {fa.Index(e.pe), Difference{fabric::DescribeLink(e), on_link(la), on_link(lb)}};
}

}  // namespace tessera::cosim
