// A CE fault in words (docs/isa.md section 7), from what the host can read after the fact: the
// four fault registers, the instruction word at FaultPc and the task table. Both backends'
// faults are described by this one function, so equal registers give equal messages.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "arch/arch.h"

namespace tessera::ce {

struct FaultContext {
  uint16_t x = 0, y = 0;                            // the PE
  uint32_t status = 0, pc = 0, addr = 0, info = 0;  // FaultStatus, FaultPc, FaultAddr, FaultInfo
  uint32_t word = 0;                                // the instruction at FaultPc (0 if none)
  std::array<uint8_t, 32> task_kind{};              // TaskCfg[t].Kind
};

// Sub-causes of DsdInvalid at issue, kept in FaultInfo.Index (docs/isa.md 7, refined here).
using DsdInvalidWhy = arch::DsdWhy;

// "PE(3,2) fault: misaligned 32-bit load at pc 0x0124 (address 0x0103)"; empty if no fault.
std::string DescribeCeFault(const FaultContext& f);

}  // namespace tessera::ce
