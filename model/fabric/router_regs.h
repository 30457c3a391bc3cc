// The router's registers as the compute engine of the same PE reaches them: ColorCfg, SwitchCfg
// and RouterFault (docs/isa.md 3.2). The CE loads and stores them like its own registers, and reads
// ColorCfg and SwitchCfg to check that a color can reach it or leave it (BadColor). A backend
// provides one RouterRegs per PE (FuncFabric::RouterRegsOf).
#pragma once

#include <cstdint>

#include "arch/arch.h"

namespace tessera::fabric {

class RouterRegs {
 public:
  virtual ~RouterRegs() = default;
  // The register's current value (the state at the start of the cycle when called from a Tick).
  virtual uint32_t Read(uint16_t addr) = 0;
  // A write made during a cycle takes effect at the end of that cycle, after the router has
  // stepped (and wins over a switch advance of the same cycle); outside a cycle, at once.
  virtual void Write(uint16_t addr, uint32_t value) = 0;
};

// True when color c can reach the CE side: the base route's Tx, or a switch position that replaces
// the output side, includes RAMP (docs/isa.md 4.11, fabin).
inline bool ColorDeliversToCe(uint32_t color_cfg, uint32_t switch_cfg) {
  using CC = arch::ColorCfg;
  using SC = arch::SwitchCfg;
  constexpr uint32_t kRampBit = 1u << static_cast<int>(arch::Dir::kRamp);
  constexpr uint32_t kRampCode = static_cast<uint32_t>(arch::Dir::kRamp) + 1;
  if (CC::Tx(color_cfg) & kRampBit) return true;
  return (SC::Pos1Out(switch_cfg) && SC::Pos1Dir(switch_cfg) == kRampCode) ||
         (SC::Pos2Out(switch_cfg) && SC::Pos2Dir(switch_cfg) == kRampCode) ||
         (SC::Pos3Out(switch_cfg) && SC::Pos3Dir(switch_cfg) == kRampCode);
}

// True when color c can leave the CE side: the base route's Rx, or a switch position that
// replaces the input side, includes RAMP (docs/isa.md 4.10, send and fabout).
inline bool ColorAcceptsFromCe(uint32_t color_cfg, uint32_t switch_cfg) {
  using CC = arch::ColorCfg;
  using SC = arch::SwitchCfg;
  constexpr uint32_t kRampBit = 1u << static_cast<int>(arch::Dir::kRamp);
  constexpr uint32_t kRampCode = static_cast<uint32_t>(arch::Dir::kRamp) + 1;
  if (CC::Rx(color_cfg) & kRampBit) return true;
  return (!SC::Pos1Out(switch_cfg) && SC::Pos1Dir(switch_cfg) == kRampCode) ||
         (!SC::Pos2Out(switch_cfg) && SC::Pos2Dir(switch_cfg) == kRampCode) ||
         (!SC::Pos3Out(switch_cfg) && SC::Pos3Dir(switch_cfg) == kRampCode);
}

}  // namespace tessera::fabric
