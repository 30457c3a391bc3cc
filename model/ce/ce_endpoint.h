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

 private:
  Ce& ce_;
};

}  // namespace tessera::ce
