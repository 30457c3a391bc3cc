// Division and square root: the special cases by hand, then every f16 square root and a million
// f32 quotients and roots against the host's double-precision arithmetic. A double holds more than
// twice the bits of f32 plus two, so rounding the exact double result once more to f32 or f16 is
// the correctly rounded result (double rounding is innocuous for division and square root at that
// width); the flags come from the directed cases and the TestFloat files (fpcheck_*_div, _sqrt).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

float AsF32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t Bits32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
double AsF16(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return static_cast<double>(h);
}
uint16_t Bits16(double d) {
  const _Float16 h = static_cast<_Float16>(d);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
bool IsNan32(uint32_t b) { return (b & 0x7FFFFFFF) > 0x7F800000; }
bool IsNan16(uint16_t b) { return (b & 0x7FFF) > 0x7C00; }

TEST(F32Div, SpecialCases) {
  EXPECT_EQ(F32Div(kOne32, kZero32), (R{kInf32, kDZ}));
  EXPECT_EQ(F32Div(kNegOne32, kZero32), (R{kNegInf32, kDZ}));
  EXPECT_EQ(F32Div(kOne32, kNegZero32), (R{kNegInf32, kDZ}));
  EXPECT_EQ(F32Div(kZero32, kZero32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Div(kInf32, kNegInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Div(kInf32, kZero32), (R{kInf32, kNone}));  // no divide-by-zero for infinity
  EXPECT_EQ(F32Div(kNegZero32, kOne32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Div(kOne32, kNegInf32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Div(kQNaN32, kZero32), (R{kQNaN32, kNone}));
  EXPECT_EQ(F32Div(kOne32, kSNaN32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Div(0x7FC12345, kOne32), (R{kQNaN32, kNone}));  // canonical, payload dropped
}

TEST(F32Div, RoundingOverflowAndUnderflow) {
  EXPECT_EQ(F32Div(kOne32, 0x40400000), (R{0x3EAAAAAB, kNX}));    // 1/3 rounds up
  EXPECT_EQ(F32Div(0x40C00000, 0x40400000), (R{kTwo32, kNone}));  // 6/3 exact
  EXPECT_EQ(F32Div(kMax32, kHalf32), (R{kInf32, kOF | kNX}));
  EXPECT_EQ(F32Div(kMinNorm32, kTwo32), (R{0x00400000, kNone}));  // exact subnormal: no underflow
  EXPECT_EQ(F32Div(kMinSub32, kTwo32), (R{kZero32, kUF | kNX}));  // half the smallest: to even
  EXPECT_EQ(F32Div(kMinSub32, 0x3FC00000), (R{kMinSub32, kUF | kNX}));  // 2/3 of it: up
  EXPECT_EQ(F32Div(kMaxSub32, kMaxSub32), (R{kOne32, kNone}));          // subnormal operands
}

TEST(F32Sqrt, SpecialCasesAndExactRoots) {
  EXPECT_EQ(F32Sqrt(kNegZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Sqrt(kZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32Sqrt(kInf32), (R{kInf32, kNone}));
  EXPECT_EQ(F32Sqrt(kNegInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Sqrt(kNegOne32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Sqrt(kSNaN32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Sqrt(0x40800000), (R{kTwo32, kNone}));      // sqrt(4) = 2
  EXPECT_EQ(F32Sqrt(kTwo32), (R{0x3FB504F3, kNX}));        // sqrt(2)
  EXPECT_EQ(F32Sqrt(kMinSub32), (R{0x1A3504F3, kNX}));     // 2^-74.5: normal
  EXPECT_EQ(F32Sqrt(0x00000002), (R{0x1A800000, kNone}));  // sqrt(2^-148) = 2^-74
}

TEST(F16DivSqrt, SpecialCases) {
  EXPECT_EQ(F16Div(kOne16, kZero16), (R{kInf16, kDZ}));
  EXPECT_EQ(F16Div(kZero16, kZero16), (R{kQNaN16, kNV}));
  EXPECT_EQ(F16Div(kMax16, 0x3800), (R{kInf16, kOF | kNX}));  // 65504 / 0.5
  EXPECT_EQ(F16Sqrt(kNegZero16), (R{kNegZero16, kNone}));
  EXPECT_EQ(F16Sqrt(0xBC00), (R{kQNaN16, kNV}));
  EXPECT_EQ(F16Sqrt(0x4400), (R{kTwo16, kNone}));  // sqrt(4)
}

TEST(F16Sqrt, EveryInputAgainstTheHost) {
  for (uint32_t a = 0; a <= 0xFFFF; ++a) {
    const R r = F16Sqrt(static_cast<uint16_t>(a));
    const double x = AsF16(static_cast<uint16_t>(a));
    if (std::isnan(x) || x < 0) {
      ASSERT_EQ(r.bits, kQNaN16) << std::hex << a;
      continue;
    }
    ASSERT_EQ(r.bits, Bits16(std::sqrt(x))) << "f16 sqrt of 0x" << std::hex << a;
  }
}

TEST(F16Div, RandomPairsAgainstTheHost) {
  std::mt19937 rng(16);
  for (int i = 0; i < 1000000; ++i) {
    const uint16_t a = static_cast<uint16_t>(rng()), b = static_cast<uint16_t>(rng());
    const R r = F16Div(a, b);
    const double q = AsF16(a) / AsF16(b);
    if (std::isnan(q)) {
      ASSERT_TRUE(IsNan16(static_cast<uint16_t>(r.bits)) && r.bits == kQNaN16)
          << std::hex << a << " / " << b;
      continue;
    }
    ASSERT_EQ(r.bits, Bits16(q)) << "f16 0x" << std::hex << a << " / 0x" << b;
  }
}

TEST(F32DivSqrt, RandomOperandsAgainstTheHost) {
  std::mt19937 rng(32);
  for (int i = 0; i < 1000000; ++i) {
    const uint32_t a = rng(), b = rng();
    const R q = F32Div(a, b);
    const double dq = static_cast<double>(AsF32(a)) / static_cast<double>(AsF32(b));
    if (std::isnan(dq)) {
      ASSERT_EQ(q.bits, kQNaN32) << std::hex << a << " / " << b;
    } else {
      ASSERT_EQ(q.bits, Bits32(static_cast<float>(dq)))
          << "f32 0x" << std::hex << a << " / 0x" << b;
    }
    const R s = F32Sqrt(a);
    const double ds = std::sqrt(static_cast<double>(AsF32(a)));
    if (std::isnan(ds)) {
      ASSERT_TRUE(IsNan32(s.bits) && s.bits == kQNaN32) << "f32 sqrt 0x" << std::hex << a;
    } else {
      ASSERT_EQ(s.bits, Bits32(static_cast<float>(ds))) << "f32 sqrt 0x" << std::hex << a;
    }
  }
}

}  // namespace
}  // namespace tessera::fp::fptest
