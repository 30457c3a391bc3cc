// The memory-mapped registers of a PE (docs/isa.md 3.2) as the CE and the host see them: which
// address is which register, its name, and what a CE access may do with it. The values live in
// CeState (or in the router, for ColorCfg, SwitchCfg and RouterFault); Ce reads and writes them.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::ce {

enum class RegId : uint8_t {
  kPeCoord,
  kFabricDim,
  kCeStatus,
  kCycleLo,
  kCycleHi,
  kFpFlags,
  kFaultStatus,
  kFaultPc,
  kFaultAddr,
  kFaultInfo,
  kDebugPort,
  kCeColor,
  kColorCfg,
  kSwitchCfg,
  kRouterFault,
  kRouterInCount,
  kUtStatus,
  kUtInfo,
  kTaskCfg,
  kTaskArg,
  kTaskActive,
  kTaskActiveSet,
  kTaskActiveClr,
  kTaskBlocked,
  kTaskBlockSet,
  kTaskBlockClr,
  kGpr,
  kCePc,
  kDsr,
};

// What a CE access may do (docs/isa.md 3.2): RO faults on a store, Host faults on any CE access.
enum class RegAccess : uint8_t { kRO, kRW, kW1S, kW1C, kHost };

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

}  // namespace tessera::ce
