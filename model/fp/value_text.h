// Human-readable text of the values an FMAC case carries, for failure reports and tools: the bit
// pattern in hex and what it means ("0xBF800000 (-1)", "0x7E00 (qNaN)"). Display only: the
// decimal text of a float comes from the host's formatting, never from the arithmetic.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::fp {

// How to read a 32-bit word: an f16 (bits 15:0), an f32, a two's complement int32, or a
// comparison result (0 or 1).
enum class ValueType : uint8_t { kF16, kF32, kI32, kBool };

// Number of hex digits TestFloat writes for the type (4, 8, 8, 1).
int HexDigits(ValueType type);

// "0x3C00 (1)", "0xFF800000 (-inf)", "0x7F800001 (sNaN)", "0xFFFFFFFF (-1)", "1 (true)".
std::string FormatValue(ValueType type, uint32_t bits);

}  // namespace tessera::fp
