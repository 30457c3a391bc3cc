// IEEE exception flags as the FMAC raises them: the arch::FpFlag bits (TestFloat's order) as plain
// uint8_t masks, which the operations OR into a caller's flag byte, and their names for messages.
#pragma once

#include <cstdint>
#include <string>

#include "arch/arch.h"

namespace tessera::fp {

inline constexpr uint8_t kFlagInexact = static_cast<uint8_t>(arch::FpFlag::kInexact);
inline constexpr uint8_t kFlagUnderflow = static_cast<uint8_t>(arch::FpFlag::kUnderflow);
inline constexpr uint8_t kFlagOverflow = static_cast<uint8_t>(arch::FpFlag::kOverflow);
inline constexpr uint8_t kFlagInfinite = static_cast<uint8_t>(arch::FpFlag::kInfinite);
inline constexpr uint8_t kFlagInvalid = static_cast<uint8_t>(arch::FpFlag::kInvalid);
inline constexpr uint8_t kFlagMask = 0x1F;

// The set flags by name in bit order, e.g. "inexact|underflow"; "none" for 0. Bits outside
// kFlagMask appear in hex at the end.
std::string FlagNames(uint8_t flags);

}  // namespace tessera::fp
