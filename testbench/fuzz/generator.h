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
// `fault_site`, whose cause the program records. On a fabric (fabric_gen.h), GenOptions::links
// adds the program's part in the traffic between PEs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fuzz/mix.h"

namespace tessera::fuzz {

// One PE's part in the traffic between the PEs of a fabric (fabric_gen.h plans it; empty for a
// program alone on its PE). A link is a color routed from a sender's RAMP to the RAMPs of
// neighbours, perhaps through one router between; each color is one link. A link carries fewer
// wavelets over the whole program than the credits of its path (kSendBudget, as the looped-back
// colors), so no sender ever waits for a receiver; and in every main the streams come before
// the readers of streams, so no PE waits for a neighbour before it has sent all it sends.
// A filter on a color's RAMP copy (docs/router.md, "Filters"): SwitchCfg's filter bits (Filter;
// for a counter filter also Counter, CountData and CountCtrl), FilterRange and, for a counter,
// FilterCount.
struct FilterSpec {
  uint32_t switch_bits = 0;
  uint32_t range = 0;
  uint32_t count = 0;
};

struct PeLinks {
  struct Route {  // this router's part of a link: written first in main
    int color = 0;
    uint32_t color_cfg = 0;
    bool filter = false;  // a range or counter filter on the RAMP (data-task receivers only)
    FilterSpec filter_spec = {};  // its registers
  };
  struct Stream {  // one fabout of `count` wavelets, then perhaps a control wavelet naming no task
    int color = 0;
    int count = 0;
    bool ctrl_end = false;
  };
  // One fabin reader of exactly `count` wavelets. Not an unbounded one ended by the control
  // wavelet: that may come before the reader is issued, and the dispatcher would take it.
  struct Read {
    int color = 0;
    int count = 0;
  };
  std::vector<Route> routes;
  std::vector<int> task_colors;  // to neighbours' data tasks: `send` and fabout units may use them
  std::vector<Stream> streams;   // main sends each once, before any read
  std::vector<int> rx_tasks;     // this PE's data tasks fed by links (task ID = color)
  std::vector<Read> reads;       // main issues each once, after every stream
  uint32_t routed = 0;           // mask of the colors links route at this router: not for own use

  bool Empty() const { return routes.empty(); }
};

struct GenOptions {
  Mix mix = Mix::All();
  // Loads of CeStatus, UtStatus and UtInfo. Off by default: the RTL does not report CeStatus
  // Stall/StallColor nor implement UtStatus/UtInfo yet.
  bool status_regs = false;
  // Chance that a program (with Category::kFault in the mix) ends in a deliberate fault.
  double fault_rate = 0.05;
  // Top-level units of main; 0 picks 20..80 at random.
  int units = 0;
  // The program's part in the traffic of a fabric; empty: a PE alone.
  PeLinks links;
};

struct Program {
  uint64_t seed = 0;
  std::string mix;     // Mix::ToString() of the options
  std::string source;  // assembly text, assembled by host/asm
  // The deliberate fault (kNone: the program must end quiet, without a fault). Its FaultPc is the
  // address of the label `fault_site`.
  arch::CeFault expect_fault = arch::CeFault::kNone;
  // The program ends settled, not quiet: a microthread still waits for data that never comes
  // (docs/isa.md 3.2, CeStatus.Settled).
  bool expect_settled = false;
  std::string launch = "main";  // the local task the host launches
};

Program Generate(uint64_t seed, const GenOptions& options);

// The expectation a generated source records in its header ("; expect quiet", "; expect fault
// Trap"), so that a dumped program can be replayed; kNone when the header has none.
arch::CeFault ParseExpectation(const std::string& source);
// Whether the header says "; expect settled".
bool ParseSettled(const std::string& source);

// "Trap", "DsdRange", ... (the arch::CeFault item names) and back.
std::string FaultName(arch::CeFault f);

}  // namespace tessera::fuzz
