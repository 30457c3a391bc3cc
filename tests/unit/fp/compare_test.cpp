// Directed tests of the comparisons, minimum/maximum and the sign-bit operations: signed zeros,
// NaNs (quiet and signaling) and which of them raise invalid.
#include <gtest/gtest.h>

#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

TEST(F32Compare, SignedZerosAreEqual) {
  EXPECT_EQ(F32Lt(kNegZero32, kZero32), (R{0, kNone}));
  EXPECT_EQ(F32Le(kNegZero32, kZero32), (R{1, kNone}));
  EXPECT_EQ(F32Le(kZero32, kNegZero32), (R{1, kNone}));
  EXPECT_EQ(F32Eq(kNegZero32, kZero32), (R{1, kNone}));
}

TEST(F32Compare, OrdersNegativesAndInfinities) {
  EXPECT_EQ(F32Lt(kNegOne32, kHalf32 | kSign32), (R{1, kNone}));  // -1 < -0.5
  EXPECT_EQ(F32Lt(kHalf32 | kSign32, kNegOne32), (R{0, kNone}));
  EXPECT_EQ(F32Lt(kNegInf32, kInf32), (R{1, kNone}));
  EXPECT_EQ(F32Lt(kMinSub32, kMaxSub32), (R{1, kNone}));
  EXPECT_EQ(F32Lt(kOne32, kOne32), (R{0, kNone}));
  EXPECT_EQ(F32Le(kOne32, kOne32), (R{1, kNone}));
  EXPECT_EQ(F32Eq(kInf32, kInf32), (R{1, kNone}));
  EXPECT_EQ(F32Le(kNegOne32, kNegInf32), (R{0, kNone}));
}

TEST(F32Compare, LtAndLeSignalOnQuietNan) {
  EXPECT_EQ(F32Lt(kQNaN32, kOne32), (R{0, kNV}));
  EXPECT_EQ(F32Le(kOne32, kQNaN32), (R{0, kNV}));
  EXPECT_EQ(F32Le(kQNaN32, kQNaN32), (R{0, kNV}));
}

TEST(F32Compare, EqIsQuietOnQuietNan) {
  EXPECT_EQ(F32Eq(kQNaN32, kOne32), (R{0, kNone}));
  EXPECT_EQ(F32Eq(kQNaN32, kQNaN32), (R{0, kNone}));  // a NaN is not equal to itself
}

TEST(F32Compare, EqSignalsOnSignalingNan) {
  EXPECT_EQ(F32Eq(kSNaN32, kSNaN32), (R{0, kNV}));
  EXPECT_EQ(F32Eq(kOne32, 0xFF800001), (R{0, kNV}));
}

TEST(F16Compare, Basics) {
  EXPECT_EQ(F16Lt(kNegZero16, kZero16), (R{0, kNone}));
  EXPECT_EQ(F16Le(kNegZero16, kZero16), (R{1, kNone}));
  EXPECT_EQ(F16Eq(kZero16, kNegZero16), (R{1, kNone}));
  EXPECT_EQ(F16Lt(0xC000, 0xBC00), (R{1, kNone}));  // -2 < -1
  EXPECT_EQ(F16Lt(kQNaN16, kOne16), (R{0, kNV}));
  EXPECT_EQ(F16Eq(kQNaN16, kOne16), (R{0, kNone}));
  EXPECT_EQ(F16Eq(kSNaN16, kOne16), (R{0, kNV}));
}

TEST(F32MinMax, MinusZeroIsBelowPlusZero) {
  EXPECT_EQ(F32Min(kNegZero32, kZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Min(kZero32, kNegZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Max(kNegZero32, kZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32Max(kZero32, kNegZero32), (R{kZero32, kNone}));
}

TEST(F32MinMax, OrdinaryValues) {
  EXPECT_EQ(F32Min(kNegOne32, kTwo32 | kSign32), (R{kTwo32 | kSign32, kNone}));
  EXPECT_EQ(F32Max(kNegOne32, kTwo32 | kSign32), (R{kNegOne32, kNone}));
  EXPECT_EQ(F32Min(kNegInf32, kMax32), (R{kNegInf32, kNone}));
  EXPECT_EQ(F32Max(kInf32, kMax32), (R{kInf32, kNone}));
  EXPECT_EQ(F32Min(kMinSub32, kMaxSub32), (R{kMinSub32, kNone}));
}

TEST(F32MinMax, OneQuietNanGivesTheOtherOperand) {
  EXPECT_EQ(F32Min(kQNaN32, kOne32), (R{kOne32, kNone}));
  EXPECT_EQ(F32Min(kOne32, 0xFFC00001), (R{kOne32, kNone}));
  EXPECT_EQ(F32Max(kQNaN32, kNegInf32), (R{kNegInf32, kNone}));
}

TEST(F32MinMax, SignalingNanGivesTheOtherOperandAndInvalid) {
  EXPECT_EQ(F32Min(kSNaN32, kOne32), (R{kOne32, kNV}));
  EXPECT_EQ(F32Max(kNegOne32, kSNaN32), (R{kNegOne32, kNV}));
}

TEST(F32MinMax, TwoNansGiveTheCanonicalNan) {
  EXPECT_EQ(F32Min(0x7FC12345, 0xFFC54321), (R{kQNaN32, kNone}));
  EXPECT_EQ(F32Max(kSNaN32, kQNaN32), (R{kQNaN32, kNV}));
}

TEST(F16MinMax, SignedZerosAndNans) {
  EXPECT_EQ(F16Min(kZero16, kNegZero16), (R{kNegZero16, kNone}));
  EXPECT_EQ(F16Max(kNegZero16, kZero16), (R{kZero16, kNone}));
  EXPECT_EQ(F16Min(0x7E01, kTwo16), (R{kTwo16, kNone}));
  EXPECT_EQ(F16Max(kTwo16, kSNaN16), (R{kTwo16, kNV}));
  EXPECT_EQ(F16Max(kSNaN16, 0xFE00), (R{kQNaN16, kNV}));
}

TEST(SignOps, NegAndAbsChangeOnlyTheSignBit) {
  EXPECT_EQ(F32Neg(kOne32), kNegOne32);
  EXPECT_EQ(F32Neg(kZero32), kNegZero32);
  EXPECT_EQ(F32Abs(kNegInf32), kInf32);
  EXPECT_EQ(F16Neg(kOne16), 0xBC00);
  EXPECT_EQ(F16Abs(kNegZero16), kZero16);
}

TEST(SignOps, NansKeepTheirPayloadAndStaySignaling) {
  EXPECT_EQ(F32Neg(kSNaN32), 0xFF800001u);
  EXPECT_EQ(F32Abs(0xFFC12345), 0x7FC12345u);
  EXPECT_EQ(F16Neg(kSNaN16), 0xFC01);
  EXPECT_EQ(F16Abs(0xFE55), 0x7E55);
}

}  // namespace
}  // namespace tessera::fp::fptest
