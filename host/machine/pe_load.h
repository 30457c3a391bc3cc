// Loading one PE of a machine through the host's back door, in zero simulated time: its SRAM
// image, its task bindings and the host's launch of a local task. The same writes on every
// backend, so two machines loaded alike start alike (co-simulation, the fuzzer, the CE tests'
// RTL twin). SRAM resets to zero, so only the non-zero words of an image are written.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/arch.h"
#include "asm/link.h"
#include "fabric/fabric.h"
#include "machine/machine.h"

namespace tessera::machine {

// Writes the non-zero 32-bit words of `image` from SRAM address 0 (a short last word is padded
// with zero bytes).
void LoadSram(Machine& m, fabric::Coord pe, const std::vector<uint8_t>& image);
// Binds task `id` to `entry` with `kind` (its TaskCfg register).
void BindTask(Machine& m, fabric::Coord pe, int id, arch::TaskKind kind, uint16_t entry);
// LoadSram of the program's image, BindTask for each of its bindings, then the tasks blocked and
// active at load (TaskBlockSet, TaskActiveSet).
void LoadPeProgram(Machine& m, fabric::Coord pe, const assembler::PeProgram& program);
// Activates local task `task`, as the host's launch does (TaskActiveSet = 1 << task).
void LaunchTask(Machine& m, fabric::Coord pe, int task);

}  // namespace tessera::machine
