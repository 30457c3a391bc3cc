#include "cosim/faults.h"

#include <utility>

#include "arch/arch.h"
#include "cosim/sequence.h"

namespace tessera::cosim {
namespace {

// The fault registers of a PE, for reports of a fault on one side only.
std::vector<std::pair<std::string, uint32_t>> FaultRegs(machine::Machine& m, fabric::Coord pe) {
  return {{"FaultStatus", m.Read(pe, arch::FaultStatus::kAddr)},
          {"FaultPc", m.Read(pe, arch::FaultPc::kAddr)},
          {"FaultAddr", m.Read(pe, arch::FaultAddr::kAddr)},
          {"FaultInfo", m.Read(pe, arch::FaultInfo::kAddr)},
          {"RouterFault", m.Read(pe, arch::RouterFault::kAddr)}};
}

}  // namespace

std::vector<Difference> CompareFaultFlag(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                                         bool faulted_a, bool faulted_b) {
  std::vector<Difference> d;
  if (faulted_a == faulted_b) return d;
  d.push_back({"fault", faulted_a ? "raised" : "clear", faulted_b ? "raised" : "clear"});
  const auto ra = FaultRegs(a, pe), rb = FaultRegs(b, pe);
  for (size_t i = 0; i < ra.size(); ++i)
    d.push_back({ra[i].first, Hex32(ra[i].second), Hex32(rb[i].second)});
  return d;
}

bool Faulted(machine::Machine& m, fabric::Coord pe) {
  for (const fabric::FaultRecord& f : m.Fabric().Faults())
    if (f.pe == pe) return true;
  return false;
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

}  // namespace tessera::cosim
