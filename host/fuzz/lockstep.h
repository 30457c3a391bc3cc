// Lockstep co-simulation of two backends running the same programs: both step one cycle at a
// time, and after every cycle the comparator checks, per PE, the retired instruction (pc), the
// task started, the debug records, the fault flag, CeStatus.Quiet, both register files (or only
// after a retire: RunOptions::regs_on_retire), and the SRAM words either backend reports as
// written; with a fabric on both sides (Backend::LinkFabric) also the wavelets that crossed every
// link both observe in that cycle. When every PE of both backends has been quiet for a while, or
// a PE faulted, it compares the end state (end_state.h). It stops at the first
// difference and reports the PE, the cycle, the last instruction retired (disassembled) and every
// differing item with both values.
//
// RunSolo runs one backend the same way, for checking programs without a second backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/backend.h"
#include "fuzz/end_state.h"

namespace tessera::fuzz {

struct RunOptions {
  uint64_t max_cycles = 200000;
  // The run ends once every PE has been quiet for this many consecutive cycles: longer than a
  // wavelet needs to go round the router (2 x RampLatency + hops, docs/router.md).
  int quiet_cycles = 48;
  int history = 12;  // events of the divergence's PE kept for its report
  // Compare a PE's GPRs only after a cycle in which it retired an instruction, its DSRs only
  // after a retire that wrote one (PeEvents::dsr_write), and both once more at the end; not
  // after every cycle: for backends whose register reads are slow (RtlFabricBackend). A register
  // written otherwise (a task start's r0, an asynchronous fdot's accumulator, a wrong write) is
  // then found at the PE's next such retire, or at the end.
  bool regs_on_retire = false;
};

struct Divergence {
  int pe = 0;
  fabric::Coord coord;
  uint64_t cycle = 0;
  bool has_pc = false;  // an instruction had retired on this PE
  uint16_t pc = 0;      // the last one retired at or before the cycle (backend a)
  uint32_t word = 0;
  std::string insn;  // disassembled
  std::string what;  // "retire", "task start", "registers", "memory", "end state", ...
  std::vector<Difference> diffs;
  // What the PE did in the last cycles up to the divergence (backend a): "@170 task 11 start",
  // "@172 0x01f8 tend".
  std::vector<std::string> history;

  // "PE(0,0) cycle 412 pc 0x0058 (fadd.s r3, r3, r4): registers differ\n  r3: func 0x..., rtl
  // 0x..."
  std::string Describe(const std::string& name_a, const std::string& name_b) const;
};

enum class RunEnd { kQuiet, kFault, kTimeout };
const char* RunEndName(RunEnd e);

struct LockstepResult {
  bool diverged = false;
  Divergence divergence;
  RunEnd end = RunEnd::kQuiet;  // how the run ended (both backends alike unless diverged)
  uint64_t cycles = 0;
};

LockstepResult RunLockstep(Backend& a, Backend& b, const RunOptions& options);

struct SoloResult {
  RunEnd end = RunEnd::kQuiet;
  uint64_t cycles = 0;
};

SoloResult RunSolo(Backend& a, const RunOptions& options);

}  // namespace tessera::fuzz
