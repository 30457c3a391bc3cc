// The faults two fabrics recorded (fabric::FaultRecord): which PE, when, and every fault
// register.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/fabric.h"
#include "machine/machine.h"

namespace tessera::cosim {

// One PE's fault flags after a cycle. If only one is raised: "fault" raised/clear, then both
// machines' FaultStatus, FaultPc, FaultAddr, FaultInfo and RouterFault.
std::vector<Difference> CompareFaultFlag(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                                         bool faulted_a, bool faulted_b);

// Whether the machine's fabric recorded a fault of PE pe (a CE or a routing fault).
bool Faulted(machine::Machine& m, fabric::Coord pe);

// Both in PE order; a fault in words is fabric::DescribeFault in quotes.
std::optional<Mismatch> CompareFaults(const std::vector<fabric::FaultRecord>& a,
                                      const std::vector<fabric::FaultRecord>& b,
                                      const std::string& na, const std::string& nb);

}  // namespace tessera::cosim
