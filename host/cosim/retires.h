// Lockstep per retired instruction of one PE (`tessera run --backend cosim --lockstep X,Y`).
#pragma once

#include <optional>
#include <string>

#include "cosim/difference.h"
#include "fabric/fabric.h"
#include "fabric/pe_events.h"
#include "machine/machine.h"

namespace tessera::cosim {

// One PE in one cycle: whether and where it retired an instruction ("retire": "pc 0x%04x" or
// "none"; the runner calls the difference "retired instruction").
std::optional<Difference> CompareRetire(const fabric::PeEvents& a, const fabric::PeEvents& b);

// After cycle `cycle`, stepped with Machine::Step (ea, eb: the watched PE's events): whether the
// PE retired an instruction in it on both sides (in the sequence wording of sequence.h,
// "retired instructions of PE(x,y)", an item "pc 0x%04x at cycle N"), and after a retire its
// general registers: "cosim lockstep: PE(x,y) after the instruction at pc 0x%04x (cycle N): rI is
// 0x%08x on a but 0x%08x on b". "" if they agree.
std::string CompareLockstep(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                            uint64_t cycle, const fabric::PeEvents& ea, const fabric::PeEvents& eb);

}  // namespace tessera::cosim
