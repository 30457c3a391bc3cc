// The random program generator of `tessera fuzz` (in the spirit of riscv-dv): from a seed, a
// valid compute-engine program in assembly text that terminates. Same seed and options, same
// text, on every machine (std::mt19937_64 and integer arithmetic only).
//
// What a program holds (docs/isa.md): a `main` local task that sets up registers and routes,
// then random code of the categories of its Mix; other local tasks activated along a chain (a
// task only activates tasks after it, so every task runs a bounded number of times); data tasks
// fed by `send` and fabout through the PE's own router (each looped-back color RAMP -> RAMP);
// control tasks fed by control wavelets; subroutines. Termination and deadlock freedom are by
// construction:
// - loops count a reserved register down from a small constant; branches only go forward;
// - wavelets sent to a task's color never exceed the credits and queue slots between the CE and
//   its own router (at most kSendBudget per color over the whole program), so a `send` never
//   waits for a task that cannot run;
// - every fabout stream on a DSD color is paired, in the same straight-line code, with fabin
//   readers of exactly its length (or an unbounded reader ended by a control wavelet), producers
//   issued first and asynchronously, each on its own microthread;
// - every mem1d element lies in the data region.
// A fraction of programs (Category::kFault) end in one deliberate fault at the label
// `fault_site`, whose cause the program records.
#pragma once

#include <cstdint>
#include <string>

#include "arch/arch.h"
#include "fuzz/mix.h"

namespace tessera::fuzz {

struct GenOptions {
  Mix mix = Mix::All();
  // Loads of CeStatus, UtStatus and UtInfo. Off by default: the RTL does not report CeStatus
  // Stall/StallColor nor implement UtStatus/UtInfo yet.
  bool status_regs = false;
  // Chance that a program (with Category::kFault in the mix) ends in a deliberate fault.
  double fault_rate = 0.05;
  // Top-level units of main; 0 picks 20..80 at random.
  int units = 0;
};

struct Program {
  uint64_t seed = 0;
  std::string mix;     // Mix::ToString() of the options
  std::string source;  // assembly text, assembled by host/asm
  // The deliberate fault (kNone: the program must end quiet, without a fault). Its FaultPc is the
  // address of the label `fault_site`.
  arch::CeFault expect_fault = arch::CeFault::kNone;
  std::string launch = "main";  // the local task the host launches
};

Program Generate(uint64_t seed, const GenOptions& options);

// The expectation a generated source records in its header ("; expect quiet", "; expect fault
// Trap"), so that a dumped program can be replayed; kNone when the header has none.
arch::CeFault ParseExpectation(const std::string& source);

// "Trap", "DsdRange", ... (the arch::CeFault item names) and back.
std::string FaultName(arch::CeFault f);

}  // namespace tessera::fuzz
