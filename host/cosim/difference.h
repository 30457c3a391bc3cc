// What a co-simulation check reports, in two forms. A Mismatch is a first difference over a
// stretch of cycles, as the runtime reports it (`tessera run --backend cosim`): its cycle and one
// sentence. A Difference is one compared item with both values, as the lockstep runner lists them
// under a divergence (`tessera fuzz`): "r3: func 0x00000005, rtl 0x00000004".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "fabric/fabric.h"

namespace tessera::cosim {

struct Difference {
  std::string what;  // the item: "r3", "M[0x0400]", "fault", ...
  std::string a, b;  // its value on each side; both empty: `what` says it all
};

struct Mismatch {
  uint64_t cycle = 0;  // the earlier of the two sides
  std::string message;
};

std::string PeText(fabric::Coord pe);  // "PE(x,y)"
std::string Hex32(uint32_t v);         // "0x%08x"

// Of several findings, the one with the earliest cycle (the first of equals): the likeliest
// cause.
std::optional<Mismatch> Earliest(std::initializer_list<std::optional<Mismatch>> findings);

}  // namespace tessera::cosim
