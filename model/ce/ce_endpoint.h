// The compute engine as the CE side of a PE's ramp (fabric::RampEndpoint): a fabric backend ticks
// it once per cycle like any traffic endpoint. It adapts and holds no behaviour of its own.
#pragma once

#include "ce/ce.h"
#include "fabric/ramp_port.h"

namespace tessera::ce {

class CeEndpoint final : public fabric::RampEndpoint {
 public:
  explicit CeEndpoint(Ce& ce) : ce_(ce) {}
  void Tick(uint64_t cycle, fabric::RampPort& port) override { ce_.Tick(cycle, port); }
  uint64_t NextWake() const override { return ce_.NextWake(); }
  void Prefetch() const override { ce_.Prefetch(); }
  uint64_t QuietUntil(uint64_t cycle) const override { return ce_.QuietUntil(cycle); }
  bool Quiet() const override { return ce_.Quiet(); }
  bool Settled() const override { return ce_.Settled(); }
  bool Fault(uint32_t regs[4]) const override {
    const CeState& s = ce_.State();
    regs[0] = s.fault_status;
    regs[1] = s.fault_pc;
    regs[2] = s.fault_addr;
    regs[3] = s.fault_info;
    return s.fault_status != 0;
  }
  void Rewind(uint64_t cycle) override { ce_.Rewind(cycle); }

 private:
  Ce& ce_;
};

}  // namespace tessera::ce
