// The instruction a PE issued, as the traces see it: its word read from the PE's SRAM through
// the back door (the same on every backend), and whether it ends the running task.
#pragma once

#include <cstdint>
#include <string>

#include "fabric/fabric.h"
#include "layout/image.h"
#include "machine/machine.h"

namespace tessera::trace {

uint32_t IssuedWord(machine::Machine& m, fabric::Coord pe, uint16_t pc);
// `tend`: the task stops running after it.
bool EndsTask(uint32_t word);
// A task as the traces name it: "task 3", with the label at its entry if the PE's program has
// one, "task 3 (main)" (the entry read from TaskCfg through the back door).
std::string TaskName(machine::Machine& m, const layout::Image& image, fabric::Coord pe, int task);

}  // namespace tessera::trace
