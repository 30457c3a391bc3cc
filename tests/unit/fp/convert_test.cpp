// Directed tests of the conversions: f16 <-> f32 (NaNs, subnormals, rounding, overflow),
// float -> int32 (toward zero, no inexact, RISC-V saturation) and int32 -> float (rounding).
#include <gtest/gtest.h>

#include <cstdint>

#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

TEST(F16ToF32, IsExactForEveryClass) {
  EXPECT_EQ(F16ToF32(kOne16), (R{kOne32, kNone}));
  EXPECT_EQ(F16ToF32(kNegZero16), (R{kNegZero32, kNone}));
  EXPECT_EQ(F16ToF32(kMax16), (R{0x477FE000, kNone}));  // 65504
  EXPECT_EQ(F16ToF32(kNegInf16), (R{kNegInf32, kNone}));
}

TEST(F16ToF32, SubnormalsBecomeNormal) {
  EXPECT_EQ(F16ToF32(kMinSub16), (R{0x33800000, kNone}));            // 2^-24
  EXPECT_EQ(F16ToF32(kMinSub16 | kSign16), (R{0xB3800000, kNone}));  // -2^-24
  EXPECT_EQ(F16ToF32(kMaxSub16), (R{0x387FC000, kNone}));            // 2^-14 - 2^-24
}

TEST(F16ToF32, NansBecomeCanonicalInvalidOnlyIfSignaling) {
  EXPECT_EQ(F16ToF32(0x7E01), (R{kQNaN32, kNone}));
  EXPECT_EQ(F16ToF32(0xFE00), (R{kQNaN32, kNone}));
  EXPECT_EQ(F16ToF32(kSNaN16), (R{kQNaN32, kNV}));
}

TEST(F32ToF16, RoundsToNearestEven) {
  EXPECT_EQ(F32ToF16(kOne32), (R{kOne16, kNone}));
  EXPECT_EQ(F32ToF16(0x3F801000), (R{kOne16, kNX}));  // 1 + 2^-11: tie, to even
  EXPECT_EQ(F32ToF16(0x3F803000), (R{0x3C02, kNX}));  // 1 + 3 * 2^-11: tie, to even
  EXPECT_EQ(F32ToF16(0x3F801001), (R{0x3C01, kNX}));  // just above the tie
}

TEST(F32ToF16, OverflowAndMaxFinite) {
  EXPECT_EQ(F32ToF16(0x477FF000), (R{kInf16, kOF | kNX}));  // 65520: tie, up to 2^16
  EXPECT_EQ(F32ToF16(0x477FEFFF), (R{kMax16, kNX}));        // just below
  EXPECT_EQ(F32ToF16(kMax32 | kSign32), (R{kNegInf16, kOF | kNX}));
  EXPECT_EQ(F32ToF16(kInf32), (R{kInf16, kNone}));
}

TEST(F32ToF16, SubnormalResultsAndTininessAfterRounding) {
  EXPECT_EQ(F32ToF16(0x33800000), (R{kMinSub16, kNone}));      // 2^-24 exactly
  EXPECT_EQ(F32ToF16(0x33000000), (R{kZero16, kNX | kUF}));    // 2^-25: tie, to 0
  EXPECT_EQ(F32ToF16(0x33000001), (R{kMinSub16, kNX | kUF}));  // just above
  EXPECT_EQ(F32ToF16(kMinSub32 | kSign32), (R{kNegZero16, kNX | kUF}));
  // 2^-14 * (1 - 2^-12): rounds up to 2^-14 even with an unbounded exponent: not tiny.
  EXPECT_EQ(F32ToF16(0x387FF000), (R{kMinNorm16, kNX}));
  // 2^-14 - 2^-25: exact with an unbounded exponent, so tiny; rounds (tie) up to 2^-14.
  EXPECT_EQ(F32ToF16(0x387FE000), (R{kMinNorm16, kNX | kUF}));
}

TEST(F32ToF16, NansBecomeCanonical) {
  EXPECT_EQ(F32ToF16(0x7FC12345), (R{kQNaN16, kNone}));
  EXPECT_EQ(F32ToF16(kSNaN32), (R{kQNaN16, kNV}));
}

TEST(F32ToI32, TruncatesWithoutInexact) {
  EXPECT_EQ(F32ToI32(0x3FC00000), (R{1, kNone}));           // 1.5
  EXPECT_EQ(F32ToI32(0xBFC00000), (R{0xFFFFFFFF, kNone}));  // -1.5 -> -1
  EXPECT_EQ(F32ToI32(0x3F7FFFFF), (R{0, kNone}));           // 0.99999994
  EXPECT_EQ(F32ToI32(0xBF000000), (R{0, kNone}));           // -0.5 -> 0
  EXPECT_EQ(F32ToI32(kMinSub32), (R{0, kNone}));
  EXPECT_EQ(F32ToI32(0x4EFFFFFF), (R{0x7FFFFF80, kNone}));  // 2147483520
}

TEST(F32ToI32, SaturatesLikeRiscV) {
  EXPECT_EQ(F32ToI32(0xCF000000), (R{0x80000000, kNone}));  // -2^31 fits
  EXPECT_EQ(F32ToI32(0x4F000000), (R{0x7FFFFFFF, kNV}));    // 2^31
  EXPECT_EQ(F32ToI32(0xCF000001), (R{0x80000000, kNV}));    // below -2^31
  EXPECT_EQ(F32ToI32(kMax32), (R{0x7FFFFFFF, kNV}));
  EXPECT_EQ(F32ToI32(kInf32), (R{0x7FFFFFFF, kNV}));
  EXPECT_EQ(F32ToI32(kNegInf32), (R{0x80000000, kNV}));
  EXPECT_EQ(F32ToI32(kQNaN32), (R{0x7FFFFFFF, kNV}));
  EXPECT_EQ(F32ToI32(0xFFC00000), (R{0x7FFFFFFF, kNV}));  // a negative NaN too
  EXPECT_EQ(F32ToI32(kSNaN32), (R{0x7FFFFFFF, kNV}));
}

TEST(F16ToI32, TruncatesAndSaturatesOnlyOnInfAndNan) {
  EXPECT_EQ(F16ToI32(kMax16), (R{65504, kNone}));
  EXPECT_EQ(F16ToI32(kMax16 | kSign16), (R{static_cast<uint32_t>(-65504), kNone}));
  EXPECT_EQ(F16ToI32(0xBE00), (R{0xFFFFFFFF, kNone}));  // -1.5 -> -1
  EXPECT_EQ(F16ToI32(kMaxSub16), (R{0, kNone}));
  EXPECT_EQ(F16ToI32(kInf16), (R{0x7FFFFFFF, kNV}));
  EXPECT_EQ(F16ToI32(kNegInf16), (R{0x80000000, kNV}));
  EXPECT_EQ(F16ToI32(0xFE00), (R{0x7FFFFFFF, kNV}));
}

TEST(I32ToF32, RoundsToNearestEven) {
  EXPECT_EQ(I32ToF32(0), (R{kZero32, kNone}));
  EXPECT_EQ(I32ToF32(-1), (R{kNegOne32, kNone}));
  EXPECT_EQ(I32ToF32(INT32_MIN), (R{0xCF000000, kNone}));
  EXPECT_EQ(I32ToF32(INT32_MAX), (R{0x4F000000, kNX}));
  EXPECT_EQ(I32ToF32(16777217), (R{0x4B800000, kNX}));  // 2^24 + 1: tie, to even 2^24
  EXPECT_EQ(I32ToF32(16777219), (R{0x4B800002, kNX}));  // 2^24 + 3: tie, to even 2^24 + 4
}

TEST(I32ToF16, RoundsAndOverflows) {
  EXPECT_EQ(I32ToF16(65504), (R{kMax16, kNone}));
  EXPECT_EQ(I32ToF16(65519), (R{kMax16, kNX}));
  EXPECT_EQ(I32ToF16(65520), (R{kInf16, kOF | kNX}));
  EXPECT_EQ(I32ToF16(-65520), (R{kNegInf16, kOF | kNX}));
  EXPECT_EQ(I32ToF16(INT32_MIN), (R{kNegInf16, kOF | kNX}));
  EXPECT_EQ(I32ToF16(2049), (R{0x6800, kNX}));  // tie, to even 2048
  EXPECT_EQ(I32ToF16(2051), (R{0x6802, kNX}));  // tie, to even 2052
}

}  // namespace
}  // namespace tessera::fp::fptest
