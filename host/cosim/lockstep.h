// Lockstep co-simulation of two machines running the same programs (`tessera fuzz`): both step
// one cycle at a time (machine::Machine::Step), and after every cycle, per PE, the runner checks
// the retired instruction (pc), the task started, the debug records, the fault flag, both
// register files (or only after a retire: LockstepOptions::regs_on_retire), the SRAM words either
// machine reports as written, and CeStatus.Quiet and Settled; then the wavelets that crossed
// every link both fabrics observe in that cycle, and whether both fabrics are quiescent and
// settled. The run is done after a cycle in which a PE faulted, or after which both fabrics are
// settled (fabric::Fabric::Settled: nothing can move until the host acts; quiescent fabrics are
// settled too), the runtime's run to settling; then it compares every PE's end state. It stops
// at the first difference and reports the PE, the cycle, the last instruction retired
// (disassembled) and every differing item with both values.
//
// RunSolo runs one machine to the same end, for checking programs without a second backend.
#pragma once

#include <cstdint>

#include "cosim/divergence.h"
#include "machine/machine.h"

namespace tessera::cosim {

struct LockstepOptions {
  uint64_t max_cycles = 200000;
  int history = 12;  // events of the divergence's PE kept for its report
  // Compare a PE's GPRs only after a cycle in which it retired an instruction, its DSRs only
  // after a retire that wrote one (PeEvents::dsr_write), and both once more at the end; not
  // after every cycle. A register written otherwise (a task start's r0, an asynchronous fdot's
  // accumulator, a wrong write) is then found at the PE's next such retire, or at the end.
  bool regs_on_retire = false;
};

struct LockstepResult {
  bool diverged = false;
  Divergence divergence;
  RunEnd end = RunEnd::kQuiet;  // how the run ended (both machines alike unless diverged)
  uint64_t cycles = 0;
};

// The machines must have the same shape (else std::invalid_argument) and be loaded alike.
LockstepResult RunLockstep(machine::Machine& a, machine::Machine& b, const LockstepOptions& o);

struct SoloResult {
  RunEnd end = RunEnd::kQuiet;
  uint64_t cycles = 0;
};

SoloResult RunSolo(machine::Machine& a, const LockstepOptions& o);

}  // namespace tessera::cosim
