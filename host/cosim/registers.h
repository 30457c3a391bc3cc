// One PE's register files and the SRAM words it wrote, compared between two machines after a
// cycle.
#pragma once

#include <cstdint>
#include <vector>

#include "cosim/difference.h"
#include "fabric/fabric.h"
#include "machine/machine.h"

namespace tessera::cosim {

// Every differing GPR ("rN", 0x%08x) and, with `dsrs`, DSR ("dN", 0x%016x); the runner calls
// them "registers".
std::vector<Difference> CompareCore(machine::Machine& a, machine::Machine& b, fabric::Coord pe,
                                    bool dsrs = true);

// The SRAM words at `words` (word addresses, either side's PeEvents::sram_writes; duplicates
// allowed): every one that differs ("M[0x%04x]"); the runner calls them "memory written".
std::vector<Difference> CompareWrittenSram(machine::Machine& a, machine::Machine& b,
                                           fabric::Coord pe, std::vector<uint16_t> words);

}  // namespace tessera::cosim
