// Helpers of the fabric interface shared by every backend: range checks and fault text.
#include "fabric/fabric.h"

#include <fmt/format.h>

#include <stdexcept>

namespace tessera::fabric {

void Fabric::CheckContains(Coord c) const {
  if (!Contains(c))
    throw std::out_of_range(
        fmt::format("PE({},{}) is outside the {}x{} fabric", c.x, c.y, Width(), Height()));
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
      what = fmt::format("routing fault: color {} arrived from {}, which its route does not accept",
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
