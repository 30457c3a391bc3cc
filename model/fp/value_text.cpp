#include "fp/value_text.h"

#include <fmt/format.h>

#include <cstring>

#include "fp/convert.h"
#include "fp/format.h"

namespace tessera::fp {
namespace {

// The meaning of an f32 bit pattern: shortest decimal that reads back to it, or a name.
std::string F32Meaning(uint32_t bits) {
  const char* sign = F32::Sign(bits) ? "-" : "";
  if (F32::IsNan(bits)) {
    return fmt::format("{}{}NaN", sign, F32::IsSignalingNan(bits) ? "s" : "q");
  }
  if (F32::IsInf(bits)) return fmt::format("{}inf", sign);
  float f;
  static_assert(sizeof f == sizeof bits);
  std::memcpy(&f, &bits, sizeof f);
  return fmt::format("{}", f);
}

}  // namespace

int HexDigits(ValueType type) {
  switch (type) {
    case ValueType::kF16:
      return 4;
    case ValueType::kBool:
      return 1;
    default:
      return 8;
  }
}

std::string FormatValue(ValueType type, uint32_t bits) {
  switch (type) {
    case ValueType::kF16: {
      const auto h = static_cast<uint16_t>(bits);
      std::string meaning;
      if (F16::IsNan(h)) {
        meaning =
            fmt::format("{}{}NaN", F16::Sign(h) ? "-" : "", F16::IsSignalingNan(h) ? "s" : "q");
      } else {
        uint8_t ignored = 0;  // f16 -> f32 is exact
        meaning = F32Meaning(ConvertFloat<F16, F32>(h, ignored));
      }
      if (bits >> 16) return fmt::format("0x{:08X} ({}, upper half not 0)", bits, meaning);
      return fmt::format("0x{:04X} ({})", bits, meaning);
    }
    case ValueType::kF32:
      return fmt::format("0x{:08X} ({})", bits, F32Meaning(bits));
    case ValueType::kI32:
      return fmt::format("0x{:08X} ({})", bits, static_cast<int32_t>(bits));
    case ValueType::kBool:
      if (bits <= 1) return fmt::format("{} ({})", bits, bits ? "true" : "false");
      return fmt::format("0x{:08X} (not a comparison result)", bits);
  }
  return fmt::format("0x{:08X}", bits);
}

}  // namespace tessera::fp
