// Real literals for .f32, .f16, f32() and f16() (docs/isa.md 8.1): the exact decimal value is
// rounded once, to nearest even, to the format. No binary double is involved, so the result is
// correctly rounded for every literal (f16 included, where double rounding would err).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::assembler {

enum class RealFormat : uint8_t { kF32, kF16 };

// A decimal number: (-1)^negative * digits * 10^exp10, or an infinity or NaN.
struct Decimal {
  bool negative = false;
  std::string digits;  // decimal digits, no sign or point ("" means 0)
  int64_t exp10 = 0;
  bool inf = false, nan = false;
};

// The literal as written ("1.5", "2e-3", "17"), without its sign; nullopt if it is not one.
std::optional<Decimal> ParseDecimal(const std::string& literal);
Decimal DecimalOf(int64_t v);

struct RoundedReal {
  uint32_t bits = 0;      // the format's bit pattern (f16 in bits 15:0)
  bool overflow = false;  // finite, but rounded to infinity
};

// Rounded to nearest even; NaN gives the canonical NaN.
RoundedReal RoundDecimal(const Decimal& d, RealFormat format);

const char* FormatName(RealFormat f);

}  // namespace tessera::assembler
