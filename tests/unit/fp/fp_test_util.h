// Helpers for the soft-float unit tests: named bit patterns, and wrappers that return an
// operation's result together with the flags it raised, so one EXPECT_EQ checks both and a
// failure prints them readably.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>

#include "fp/flags.h"
#include "fp/scalar_ops.h"
#include "fp/testfloat_file.h"

namespace tessera::fp::fptest {

// f32 bit patterns.
inline constexpr uint32_t kZero32 = 0x00000000;
inline constexpr uint32_t kNegZero32 = 0x80000000;
inline constexpr uint32_t kOne32 = 0x3F800000;
inline constexpr uint32_t kNegOne32 = 0xBF800000;
inline constexpr uint32_t kTwo32 = 0x40000000;
inline constexpr uint32_t kHalf32 = 0x3F000000;
inline constexpr uint32_t kMinSub32 = 0x00000001;   // 2^-149
inline constexpr uint32_t kMaxSub32 = 0x007FFFFF;   // 2^-126 - 2^-149
inline constexpr uint32_t kMinNorm32 = 0x00800000;  // 2^-126
inline constexpr uint32_t kMax32 = 0x7F7FFFFF;      // (2 - 2^-23) * 2^127
inline constexpr uint32_t kInf32 = 0x7F800000;
inline constexpr uint32_t kNegInf32 = 0xFF800000;
inline constexpr uint32_t kQNaN32 = 0x7FC00000;  // also the canonical NaN
inline constexpr uint32_t kSNaN32 = 0x7F800001;
inline constexpr uint32_t kSign32 = 0x80000000;

// f16 bit patterns.
inline constexpr uint16_t kZero16 = 0x0000;
inline constexpr uint16_t kNegZero16 = 0x8000;
inline constexpr uint16_t kOne16 = 0x3C00;
inline constexpr uint16_t kTwo16 = 0x4000;
inline constexpr uint16_t kMinSub16 = 0x0001;   // 2^-24
inline constexpr uint16_t kMaxSub16 = 0x03FF;   // 2^-14 - 2^-24
inline constexpr uint16_t kMinNorm16 = 0x0400;  // 2^-14
inline constexpr uint16_t kMax16 = 0x7BFF;      // 65504
inline constexpr uint16_t kInf16 = 0x7C00;
inline constexpr uint16_t kNegInf16 = 0xFC00;
inline constexpr uint16_t kQNaN16 = 0x7E00;  // also the canonical NaN
inline constexpr uint16_t kSNaN16 = 0x7C01;
inline constexpr uint16_t kSign16 = 0x8000;

inline constexpr uint8_t kNone = 0;
inline constexpr uint8_t kNX = kFlagInexact;
inline constexpr uint8_t kUF = kFlagUnderflow;
inline constexpr uint8_t kOF = kFlagOverflow;
inline constexpr uint8_t kNV = kFlagInvalid;
inline constexpr uint8_t kDZ = kFlagInfinite;  // division by zero

// A result word and the flags raised.
struct R {
  uint32_t bits;
  uint8_t flags;
  bool operator==(const R& o) const { return bits == o.bits && flags == o.flags; }
};
inline void PrintTo(const R& r, std::ostream* os) {
  *os << fmt::format("0x{:08X} flags {}", r.bits, FlagNames(r.flags));
}

#define TESSERA_FP_WRAP2(NAME, T)         \
  inline R NAME(T a, T b) {               \
    uint8_t f = 0;                        \
    const uint32_t r = fp::NAME(a, b, f); \
    return {r, f};                        \
  }
#define TESSERA_FP_WRAP1(NAME, T)                             \
  inline R NAME(T a) {                                        \
    uint8_t f = 0;                                            \
    const uint32_t r = static_cast<uint32_t>(fp::NAME(a, f)); \
    return {r, f};                                            \
  }

TESSERA_FP_WRAP2(F32Add, uint32_t)
TESSERA_FP_WRAP2(F32Sub, uint32_t)
TESSERA_FP_WRAP2(F32Mul, uint32_t)
TESSERA_FP_WRAP2(F32Min, uint32_t)
TESSERA_FP_WRAP2(F32Max, uint32_t)
TESSERA_FP_WRAP2(F32Lt, uint32_t)
TESSERA_FP_WRAP2(F32Le, uint32_t)
TESSERA_FP_WRAP2(F32Eq, uint32_t)
TESSERA_FP_WRAP2(F16Add, uint16_t)
TESSERA_FP_WRAP2(F16Sub, uint16_t)
TESSERA_FP_WRAP2(F16Mul, uint16_t)
TESSERA_FP_WRAP2(F16Min, uint16_t)
TESSERA_FP_WRAP2(F16Max, uint16_t)
TESSERA_FP_WRAP2(F16Lt, uint16_t)
TESSERA_FP_WRAP2(F16Le, uint16_t)
TESSERA_FP_WRAP2(F16Eq, uint16_t)
TESSERA_FP_WRAP2(F32Div, uint32_t)
TESSERA_FP_WRAP2(F16Div, uint16_t)
TESSERA_FP_WRAP1(F32Sqrt, uint32_t)
TESSERA_FP_WRAP1(F16Sqrt, uint16_t)
TESSERA_FP_WRAP1(F16ToF32, uint16_t)
TESSERA_FP_WRAP1(F32ToF16, uint32_t)
TESSERA_FP_WRAP1(F32ToI32, uint32_t)
TESSERA_FP_WRAP1(F16ToI32, uint16_t)
TESSERA_FP_WRAP1(I32ToF32, int32_t)
TESSERA_FP_WRAP1(I32ToF16, int32_t)

#undef TESSERA_FP_WRAP1
#undef TESSERA_FP_WRAP2

inline R F32MulAdd(uint32_t a, uint32_t b, uint32_t c) {
  uint8_t f = 0;
  const uint32_t r = fp::F32MulAdd(a, b, c, f);
  return {r, f};
}
inline R F16MulAdd(uint16_t a, uint16_t b, uint16_t c) {
  uint8_t f = 0;
  const uint32_t r = fp::F16MulAdd(a, b, c, f);
  return {r, f};
}

// The TestFloat operation of that name (a test failure if there is none).
inline const TestFloatOp& Op(const char* name) {
  const TestFloatOp* op = FindTestFloatOp(name);
  EXPECT_NE(op, nullptr) << name;
  return *op;
}

}  // namespace tessera::fp::fptest
