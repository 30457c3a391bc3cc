// A fuzzing campaign: programs from consecutive seeds (program i has seed `seed + i`, so any one
// is reproduced with --seed S --programs 1), each generated (for one PE, or for every PE of a
// fabric), assembled and linked by host/asm, loaded into a machine (machine::Machine) and
// launched, then run in lockstep against a second machine (cosim::RunLockstep), or alone.
// A program fails when the backends diverge, or when its run does not end as the generator
// intended (quiet without a fault, or the deliberate fault at `fault_site`).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cosim/lockstep.h"
#include "fuzz/fabric_gen.h"
#include "fuzz/generator.h"
#include "machine/machine.h"

namespace tessera::fuzz {

// Makes a fresh machine of the campaign's shape for each program.
using MachineFactory = std::function<std::unique_ptr<machine::Machine>()>;

// The co-simulation runner's options, and `apart`: run the two machines each alone, then compare
// how and when they ended and their end state (the functional model with and without running
// ahead, which lockstep would not exercise: it steps one cycle at a time). `paths`: machines
// that each run the program alone, as `reference` does, and must end the same way, after the
// same cycles, in the same state: the functional model with each of its fast paths off
// (PathVariants), whatever the comparison above.
struct RunOptions : cosim::LockstepOptions {
  bool apart = false;
  MachineFactory reference;
  std::vector<MachineFactory> paths;
};
using cosim::RunEnd;
using cosim::RunEndName;

// The functional model of a W x H fabric with every path (the reference of RunOptions::paths),
// and with each switch that turns a path off: no plain path, no bulk steps, no running ahead,
// none of them (func-step), traced, and on a fabric of more than one PE two threads.
MachineFactory FuncReference(int width, int height);
std::vector<MachineFactory> PathVariants(int width, int height);

struct Failure {
  uint64_t seed = 0;
  std::string kind;     // "divergence", "outcome" or "assembly"
  std::string message;  // the report
  std::string dumped;   // the program's .s when dumped, else empty
};

struct ProgramRun {
  std::optional<Failure> failure;
  uint64_t cycles = 0;
  RunEnd end = RunEnd::kQuiet;
};

// Runs one program on `a`, in lockstep with `b` (or apart, RunOptions::apart) unless b is empty.
ProgramRun RunProgram(const Program& p, const MachineFactory& a, const MachineFactory& b,
                      const RunOptions& options);

// Runs a fabric program the same way: PE i runs f.pes[i], all launched before the first cycle,
// with FabricDim set; the backends must have f's shape. A failure names the PE.
ProgramRun RunFabricProgram(const FabricProgram& f, const MachineFactory& a,
                            const MachineFactory& b, const RunOptions& options);

struct CampaignOptions {
  uint64_t seed = 1;
  int programs = 100;
  int width = 1, height = 1;  // PEs; more than one: fabric programs (fabric_gen.h)
  GenOptions gen;
  RunOptions run;
  std::string dump_dir;  // where failing programs go (DIR/fuzz-SEED.s and .txt); empty: nowhere
};

struct CampaignResult {
  int programs = 0;
  std::vector<Failure> failures;  // at most one per program
  uint64_t cycles = 0;            // cycles stepped, over all programs
};

// `on_failure` sees each failure as it happens (for printing); it may be empty.
CampaignResult RunCampaign(const CampaignOptions& options, const MachineFactory& a,
                           const MachineFactory& b,
                           const std::function<void(const Failure&)>& on_failure);

// Writes DIR/fuzz-SEED.s (the source; of a fabric program, FabricProgram::Source()) and
// DIR/fuzz-SEED.txt (the report); returns the .s path.
std::string DumpProgram(const std::string& dir, uint64_t seed, const std::string& source,
                        const std::string& report);

}  // namespace tessera::fuzz
