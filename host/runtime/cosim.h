// Co-simulation checks (docs/runtime.md "Co-simulation"): the functional model and the RTL run
// the same image on the same inputs; these compare what they did and report the first
// difference in words, with the PE, the cycle and both values. Empty string: no difference.
#pragma once

#include <string>
#include <vector>

#include "ce/trace.h"
#include "fabric/fabric.h"
#include "runtime/machine.h"

namespace tessera::runtime {

// The debug records, task starts and faults of the same stretch of cycles.
std::string CompareDebug(const std::vector<ce::DebugRecord>& a,
                         const std::vector<ce::DebugRecord>& b, const std::string& na,
                         const std::string& nb);
std::string CompareTasks(const std::vector<TaskStart>& a, const std::vector<TaskStart>& b,
                         const std::string& na, const std::string& nb);
std::string CompareFaults(const std::vector<fabric::FaultRecord>& a,
                          const std::vector<fabric::FaultRecord>& b, const std::string& na,
                          const std::string& nb);

// Lockstep, after each cycle: the instructions the PE retired in it, and after a retire its
// general registers.
std::string CompareLockstep(Machine& a, Machine& b, fabric::Coord pe);

// The final state of every PE, bit for bit: all SRAM and the architectural registers (general,
// pc, descriptors, task table, routes and switches, flags, faults, CE queues and microthreads).
std::string CompareState(Machine& a, Machine& b);

// The registers CompareState reads, as (address, name), e.g. (0xC800, "Gpr[0]").
struct RegName {
  uint16_t addr;
  std::string name;
};
const std::vector<RegName>& ArchRegisters();

}  // namespace tessera::runtime
