// The instruction a PE issued, as the traces see it: its word read from the PE's SRAM through
// the back door (the same on every backend), and whether it ends the running task.
#pragma once

#include <cstdint>

#include "fabric/fabric.h"
#include "runtime/machine.h"

namespace tessera::trace {

uint32_t IssuedWord(runtime::Machine& m, fabric::Coord pe, uint16_t pc);
// `tend`: the task stops running after it.
bool EndsTask(uint32_t word);

}  // namespace tessera::trace
