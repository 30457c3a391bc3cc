// Co-simulation checks (docs/runtime.md "Co-simulation"): the functional model and the RTL run
// the same image on the same inputs; these compare what they did and report the first
// difference in words, with the PE, the cycle and both values. Empty string: no difference.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ce/trace.h"
#include "fabric/fabric.h"
#include "runtime/machine.h"

namespace tessera::runtime {

// A first difference: its cycle (the earlier of the two sides) and its words.
struct Mismatch {
  uint64_t cycle = 0;
  std::string message;
};

// The debug records, task starts and faults of the same stretch of cycles, each in its
// machine's order (cycle, then PE).
std::optional<Mismatch> CompareDebug(const std::vector<ce::DebugRecord>& a,
                                     const std::vector<ce::DebugRecord>& b, const std::string& na,
                                     const std::string& nb);
std::optional<Mismatch> CompareTasks(const std::vector<TaskStart>& a,
                                     const std::vector<TaskStart>& b, const std::string& na,
                                     const std::string& nb);
std::optional<Mismatch> CompareFaults(const std::vector<fabric::FaultRecord>& a,
                                      const std::vector<fabric::FaultRecord>& b,
                                      const std::string& na, const std::string& nb);
// The link logs (fabric::LinkEvent) of the same stretch of cycles, in any order: per link and
// color, the sequence of wavelets with their cycles. Only links both fabrics observe
// (Fabric::ObservesLink) are compared; `compared`, if given, receives how many of b's were.
// Reports the difference with the earliest cycle.
std::optional<Mismatch> CompareLinks(std::vector<fabric::LinkEvent> a,
                                     std::vector<fabric::LinkEvent> b, const fabric::Fabric& fa,
                                     const fabric::Fabric& fb, const std::string& na,
                                     const std::string& nb, uint64_t* compared = nullptr);

// Lockstep, after each cycle: the instructions the PE retired in it, and after a retire its
// general registers.
std::string CompareLockstep(Machine& a, Machine& b, fabric::Coord pe);

// The final state of every PE, bit for bit: all SRAM, every register word that
// model/arch/tessera.def does not mark no-cosim (ce::ComparedRegs), and the number of
// instructions each PE issued.
std::string CompareState(Machine& a, Machine& b);

}  // namespace tessera::runtime
