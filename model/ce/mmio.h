// The memory-mapped registers of a PE (docs/isa.md 3.2) as the CE and the host see them: which
// address is which register, its name, and what a CE access may do with it (all from the
// generated register table, arch::kRegisters). The values live in
// CeState (or in the router, for ColorCfg, SwitchCfg and RouterFault); Ce reads and writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"

namespace tessera::ce {

// The register list, its ids and access kinds are generated from model/arch/tessera.def.
using arch::RegAccess;
using arch::RegId;

struct RegRef {
  RegId id = RegId::kPeCoord;
  uint8_t index = 0;  // element of a register array
  RegAccess access = RegAccess::kRO;
  const char* name = nullptr;  // nullptr: no register at this address
  bool valid() const { return name != nullptr; }
};

// The register at a 16-bit address (word aligned, in 0xC000..0xFFFF); invalid otherwise.
RegRef FindReg(uint16_t addr);

// "CycleLo", "CeColor[3]", "Gpr[15]".
std::string RegName(const RegRef& r);

// Every register word co-simulation compares at the end of a run, in the order of
// model/arch/tessera.def: registers not marked no-cosim, each element of an array.
struct ComparedReg {
  uint16_t addr;
  std::string name;  // as RegName spells it
};
const std::vector<ComparedReg>& ComparedRegs();

}  // namespace tessera::ce
