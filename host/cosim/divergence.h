// How a lockstep run ended, and the first divergence it found, in words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cosim/difference.h"
#include "fabric/fabric.h"

namespace tessera::cosim {

// How a run ended: quiescent; settled (fabric::Fabric::Settled) but not quiescent, some
// microthread or wavelet waiting for data that cannot come; a fault; the cycle limit.
enum class RunEnd { kQuiet, kFault, kTimeout, kSettled };
const char* RunEndName(RunEnd e);  // "quiet", "fault", "timeout", "settled"

struct Divergence {
  int pe = 0;  // index y * W + x
  fabric::Coord coord;
  uint64_t cycle = 0;
  bool has_pc = false;  // an instruction had retired on this PE
  uint16_t pc = 0;      // the last one retired at or before the cycle (machine a)
  uint32_t word = 0;
  std::string insn;  // disassembled
  std::string what;  // "retired instruction", "task start", "registers", "end state", ...
  std::vector<Difference> diffs;
  // What the PE did in the last cycles up to the divergence (machine a): "@170 task 11 start",
  // "@172 0x01f8 tend".
  std::vector<std::string> history;

  // "PE(0,0) cycle 412, pc 0x0058: fadd.s r3, r3, r4 (0x...): registers differ\n  r3: func
  // 0x..., rtl 0x...", with the last events between.
  std::string Describe(const std::string& name_a, const std::string& name_b) const;
};

}  // namespace tessera::cosim
