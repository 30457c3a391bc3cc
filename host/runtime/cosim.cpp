#include "runtime/cosim.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "arch/arch.h"
#include "ce/mmio.h"

namespace tessera::runtime {
namespace {

std::string PeText(fabric::Coord pe) { return fmt::format("PE({},{})", pe.x, pe.y); }

// The first index at which two sequences of records (each with a .cycle) differ.
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

std::string WaveletText(uint64_t word) {
  using L = arch::Link;
  return fmt::format("data 0x{:08x}{}", L::Data(word), L::Ctrl(word) ? " (control)" : "");
}

}  // namespace

std::optional<Mismatch> CompareDebug(const std::vector<ce::DebugRecord>& a,
                                     const std::vector<ce::DebugRecord>& b, const std::string& na,
                                     const std::string& nb) {
  return FirstDifference(
      a, b, na, nb, "debug records",
      [](const ce::DebugRecord& x, const ce::DebugRecord& y) { return x == y; },
      [](const ce::DebugRecord& d) { return "\"" + d.ToString() + "\""; });
}

std::optional<Mismatch> CompareTasks(const std::vector<TaskStart>& a,
                                     const std::vector<TaskStart>& b, const std::string& na,
                                     const std::string& nb) {
  return FirstDifference(
      a, b, na, nb, "task starts", [](const TaskStart& x, const TaskStart& y) { return x == y; },
      [](const TaskStart& t) {
        return fmt::format("{} starts task {} at cycle {}", PeText(t.pe), t.task, t.cycle);
      });
}

std::optional<Mismatch> CompareFaults(const std::vector<fabric::FaultRecord>& a,
                                      const std::vector<fabric::FaultRecord>& b,
                                      const std::string& na, const std::string& nb) {
  return FirstDifference(
      a, b, na, nb, "faults",
      [](const fabric::FaultRecord& x, const fabric::FaultRecord& y) {
        return x.pe == y.pe && x.cycle == y.cycle && x.status == y.status &&
               x.ce_status == y.ce_status && x.ce_pc == y.ce_pc && x.ce_addr == y.ce_addr &&
               x.ce_info == y.ce_info;
      },
      [](const fabric::FaultRecord& f) { return "\"" + fabric::DescribeFault(f) + "\""; });
}

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

std::string CompareLockstep(Machine& a, Machine& b, fabric::Coord pe) {
  const std::vector<Retire> ra = a.TakeRetires(), rb = b.TakeRetires();
  const std::optional<Mismatch> diff = FirstDifference(
      ra, rb, a.Name(), b.Name(), fmt::format("retired instructions of {}", PeText(pe)).c_str(),
      [](const Retire& x, const Retire& y) { return x.cycle == y.cycle && x.pc == y.pc; },
      [](const Retire& r) { return fmt::format("pc 0x{:04x} at cycle {}", r.pc, r.cycle); });
  if (diff) return diff->message;
  if (ra.empty()) return "";
  for (uint32_t i = 0; i < arch::kNumGprs; ++i) {
    const uint32_t va = a.Read(pe, arch::Gpr::Addr(i)), vb = b.Read(pe, arch::Gpr::Addr(i));
    if (va != vb)
      return fmt::format(
          "cosim lockstep: {} after the instruction at pc 0x{:04x} (cycle {}): r{} is 0x{:08x} "
          "on {} but 0x{:08x} on {}",
          PeText(pe), ra.back().pc, ra.back().cycle, i, va, a.Name(), vb, b.Name());
  }
  return "";
}

std::string CompareState(Machine& a, Machine& b) {
  for (int i = 0; i < a.Width() * a.Height(); ++i) {
    const fabric::Coord pe{i % a.Width(), i / a.Width()};
    if (a.Retired(pe) != b.Retired(pe))
      return fmt::format("cosim: by cycle {} {} issued {} instructions on {} but {} on {}",
                         a.Cycle(), PeText(pe), a.Retired(pe), a.Name(), b.Retired(pe), b.Name());
    for (const ce::ComparedReg& r : ce::ComparedRegs()) {
      const uint32_t va = a.Read(pe, r.addr), vb = b.Read(pe, r.addr);
      if (va != vb)
        return fmt::format(
            "cosim: final state of {} differs at cycle {}: {} (0x{:04x}) is 0x{:08x} on {} but "
            "0x{:08x} on {}",
            PeText(pe), a.Cycle(), r.name, r.addr, va, a.Name(), vb, b.Name());
    }
    for (uint32_t addr = 0; addr < arch::kSramBytes; addr += 4) {
      const auto ad = static_cast<uint16_t>(addr);
      const uint32_t va = a.Read(pe, ad), vb = b.Read(pe, ad);
      if (va != vb)
        return fmt::format(
            "cosim: final SRAM of {} differs at cycle {}: word 0x{:04x} is 0x{:08x} on {} but "
            "0x{:08x} on {}",
            PeText(pe), a.Cycle(), ad, va, a.Name(), vb, b.Name());
    }
  }
  return "";
}

}  // namespace tessera::runtime
