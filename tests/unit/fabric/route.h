// Shared by the fabric tests: a color's route on one router, written through its registers.
#pragma once

#include <cstdint>

#include "arch/arch.h"
#include "fabric/fabric.h"

namespace tessera {

// Color `color` at `pe` accepts from the directions in `rx` and sends to those in `tx` (bit d:
// arch::Dir d, kRamp included).
inline void Route(fabric::Fabric& f, fabric::Coord pe, uint32_t color, uint32_t rx, uint32_t tx) {
  f.WriteReg(pe, arch::ColorCfg::Addr(color),
             arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, tx), rx));
}

}  // namespace tessera
