// The state of one PE that co-simulation compares once a run has ended: every register word that
// model/arch/tessera.def does not mark no-cosim (ce::ComparedRegs) and all of SRAM.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/backend.h"

namespace tessera::fuzz {

// One compared item: its name and the two values, as "r3: func 0x00000005, rtl 0x00000004".
struct Difference {
  std::string what;
  std::string a, b;
};

struct EndState {
  std::vector<std::pair<std::string, uint32_t>> regs;  // in a fixed order
  std::vector<uint8_t> sram;                           // arch::kSramBytes
};

EndState CaptureEndState(Backend& b, int pe);

// Differing registers, then up to `max_words` differing SRAM words.
std::vector<Difference> CompareEndStates(const EndState& a, const EndState& b, int max_words = 8);

}  // namespace tessera::fuzz
