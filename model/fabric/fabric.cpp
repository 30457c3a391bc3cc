// Helpers of the fabric interface shared by every backend: range checks and fault text.
#include "fabric/fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>

namespace tessera::fabric {

void Fabric::CheckContains(Coord c) const {
  if (!Contains(c))
    throw std::out_of_range(
        fmt::format("PE({},{}) is outside the {}x{} fabric", c.x, c.y, Width(), Height()));
}

bool Fabric::IsEdgePort(Coord c, int dir) const {
  switch (static_cast<arch::Dir>(dir)) {
    case arch::Dir::kW:
      return c.x == 0;
    case arch::Dir::kE:
      return c.x == Width() - 1;
    case arch::Dir::kS:
      return c.y == Height() - 1;
    case arch::Dir::kN:
      return c.y == 0;
    default:
      return false;
  }
}

void Fabric::CheckEdgePort(Coord c, int dir) const {
  CheckContains(c);
  if (dir < 0 || dir > static_cast<int>(arch::Dir::kN))
    throw std::invalid_argument(
        fmt::format("PE({},{}) direction {}: an edge port is W, E, S or N (0..3)", c.x, c.y, dir));
  if (!IsEdgePort(c, dir))
    throw std::invalid_argument(
        fmt::format("PE({},{}) port {} faces another PE of the {}x{} fabric, not its edge", c.x,
                    c.y, ToString(static_cast<arch::Dir>(dir)), Width(), Height()));
}

std::string DirMaskText(uint32_t mask, const char* sep, const char* none) {
  std::string s;
  for (unsigned d = 0; d < arch::kNumDirs; ++d) {
    if (mask >> d & 1)
      s += (s.empty() ? "" : sep) + std::string(arch::ToString(static_cast<arch::Dir>(d)));
  }
  return s.empty() ? none : s;
}

std::string DescribeLink(const LinkEvent& e) {
  const auto dir = static_cast<arch::Dir>(e.port);
  const std::string pe = fmt::format("PE({},{})", e.pe.x, e.pe.y);
  if (dir == arch::Dir::kRamp)
    return e.into ? fmt::format("the ramp from {}'s CE up to its router", pe)
                  : fmt::format("the ramp from {}'s router down to its CE", pe);
  return e.into ? fmt::format("the edge link into {} from the {}", pe, ToString(dir))
                : fmt::format("the link out of {} to the {}", pe, ToString(dir));
}

std::string DescribeWavelet(uint32_t color, uint32_t data, bool ctrl) {
  return fmt::format("color {} data 0x{:08x}{}", color, data, ctrl ? " (control)" : "");
}

void CanonicalLinkLogs(std::vector<LinkEvent>& la, std::vector<LinkEvent>& lb, const Fabric& a,
                       const Fabric& b) {
  auto key = [](const LinkEvent& e) {
    return std::make_tuple(e.pe.y, e.pe.x, e.port, e.into, arch::Link::Color(e.word), e.cycle,
                           e.word);
  };
  for (std::vector<LinkEvent>* v : {&la, &lb}) {
    v->erase(std::remove_if(v->begin(), v->end(),
                            [&](const LinkEvent& e) {
                              return !a.ObservesLink(e.pe, e.port, e.into) ||
                                     !b.ObservesLink(e.pe, e.port, e.into);
                            }),
             v->end());
    std::sort(v->begin(), v->end(),
              [&](const LinkEvent& x, const LinkEvent& y) { return key(x) < key(y); });
  }
}

void Fabric::SetBackPressureCount(bool on) {
  static_assert(kBackPressureDirs == static_cast<int>(arch::kNumDirs));
  back_pressure_.assign(
      on ? static_cast<size_t>(NumPes()) * kBackPressureDirs * kBackPressureColors : 0, 0);
  if (!on) back_pressure_.shrink_to_fit();
}

std::vector<LinkEvent> Fabric::TakeLinkLog() {
  std::vector<LinkEvent> out;
  out.swap(link_log_);
  return out;
}

bool Fabric::ObservesLink(Coord pe, int port, bool into) const {
  if (!Contains(pe) || port < 0 || port > static_cast<int>(arch::Dir::kRamp)) return false;
  // Into the router: only from the CE or an edge endpoint (a neighbour's link is its output).
  if (into && port != static_cast<int>(arch::Dir::kRamp)) return IsEdgePort(pe, port);
  return true;
}

void Fabric::ThrowEdgeLinkBusy(Coord c, int dir) const {
  throw std::logic_error(fmt::format(
      "PE({},{}) edge port {}: a wavelet is on the link between the router and the endpoint; "
      "changing the endpoint now would lose it (run until the port is idle)",
      c.x, c.y, ToString(static_cast<arch::Dir>(dir))));
}

std::string DescribeFault(const FaultRecord& f) {
  using RF = arch::RouterFault;
  auto cause = static_cast<arch::FaultCause>(RF::Cause(f.status));
  auto dir = static_cast<arch::Dir>(RF::Dir(f.status));
  uint32_t color = RF::Color(f.status);
  uint32_t count = RF::Count(f.status);
  if (f.ce_status != 0 && cause == arch::FaultCause::kNone) {
    // The words for each cause are the CE's (model/ce/fault_text.h); here the registers.
    return fmt::format(
        "PE({},{}) fault at cycle {}: compute engine fault, cause {} at pc 0x{:04x} (address "
        "0x{:08x}, info 0x{:08x})",
        f.pe.x, f.pe.y, f.cycle, f.ce_status, f.ce_pc, f.ce_addr, f.ce_info);
  }
  std::string what;
  switch (cause) {
    case arch::FaultCause::kRxMismatch:
      what = fmt::format(
          "routing fault: color {} arrived from {}, which no switch position of its route accepts",
          color, ToString(dir));
      break;
    case arch::FaultCause::kReservedColor:
      what = fmt::format("reserved color {} entered the fabric from {}", color, ToString(dir));
      break;
    case arch::FaultCause::kTiedOffEdge:
      what = fmt::format(
          "routing fault: color {} (from {}) is routed off the fabric edge onto a "
          "tied-off port",
          color, ToString(dir));
      break;
    case arch::FaultCause::kNoRoute:
      what = fmt::format("routing fault: color {} (from {}) has no output in its route", color,
                         ToString(dir));
      break;
    case arch::FaultCause::kNone:
      what = "fault flag set with no recorded cause";
      break;
  }
  return fmt::format("PE({},{}) fault at cycle {}: {} ({} fault{})", f.pe.x, f.pe.y, f.cycle, what,
                     count, count == 1 ? "" : "s");
}

}  // namespace tessera::fabric
