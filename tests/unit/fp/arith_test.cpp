// Directed tests of add, sub, mul and fused multiply-add: the corners where a soft-float library
// most often goes wrong. Expected values are worked out by hand in each comment; the shared
// TestFloat vectors (fpcheck_func_* tests) cover the bulk.
#include <gtest/gtest.h>

#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

// --- Round to nearest, ties to even --------------------------------------------------------

TEST(F32Round, TieBetweenOneAndNextRoundsDownToEven) {
  // 1 + 2^-24 is halfway between 1 (even) and 1 + 2^-23 (odd).
  EXPECT_EQ(F32Add(kOne32, 0x33800000), (R{kOne32, kNX}));
}

TEST(F32Round, TieAboveOddRoundsUpToEven) {
  // (1 + 2^-23) + 2^-24 is halfway between 0x3F800001 (odd) and 0x3F800002 (even).
  EXPECT_EQ(F32Add(0x3F800001, 0x33800000), (R{0x3F800002, kNX}));
}

TEST(F32Round, JustAboveTieRoundsUp) {
  // 1 + 2^-24 + 2^-47 is above the halfway point.
  EXPECT_EQ(F32Add(kOne32, 0x33800001), (R{0x3F800001, kNX}));
}

TEST(F32Round, MulTieRoundsToEven) {
  // (1 + 2^-23) * 1.5 = 1.5 + 1.5 ulp: halfway between 1.5 + 1 ulp (odd) and + 2 ulp (even).
  EXPECT_EQ(F32Mul(0x3F800001, 0x3FC00000), (R{0x3FC00002, kNX}));
}

TEST(F32Round, FmaRoundsOnceNotTwice) {
  // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24, exact. A separate multiply rounds the product
  // 1 + 2^-11 + 2^-24 (a tie) to 1 + 2^-11 first, and the difference would be 2^-11.
  EXPECT_EQ(F32MulAdd(0x3F800800, 0x3F800800, kNegOne32), (R{0x3A000400, kNone}));
  EXPECT_EQ(F32Mul(0x3F800800, 0x3F800800), (R{0x3F801000, kNX}));
}

TEST(F32Round, FmaStickyBitsBreakTies) {
  // 1 + 2^-24 * b: b = 1 is the exact tie (to even: 1); b = 1 + 2^-23 puts the sum 2^-47 above
  // the tie (up); b = 1 - 2^-24 puts it 2^-48 below (down).
  EXPECT_EQ(F32MulAdd(0x33800000, kOne32, kOne32), (R{kOne32, kNX}));
  EXPECT_EQ(F32MulAdd(0x33800000, 0x3F800001, kOne32), (R{0x3F800001, kNX}));
  EXPECT_EQ(F32MulAdd(0x33800000, 0x3F7FFFFF, kOne32), (R{kOne32, kNX}));
  // Subtracting a tiny product from a tie-free value: 1 - 2^-298 rounds to 1.
  EXPECT_EQ(F32MulAdd(kMinSub32 | kSign32, kMinSub32, kOne32), (R{kOne32, kNX}));
  // ... and from 1 + 2^-23 the sticky bit must not round down past 1 + 2^-23.
  EXPECT_EQ(F32MulAdd(kMinSub32 | kSign32, kMinSub32, 0x3F800001), (R{0x3F800001, kNX}));
}

TEST(F16Round, TieBetweenOneAndNextRoundsDownToEven) {
  // 1 + 2^-11 is halfway between 1 (even) and 1 + 2^-10 (odd).
  EXPECT_EQ(F16Add(kOne16, 0x1000), (R{kOne16, kNX}));
}

TEST(F16Round, TieAboveOddRoundsUpToEven) { EXPECT_EQ(F16Add(0x3C01, 0x1000), (R{0x3C02, kNX})); }

TEST(F16Round, MulTieRoundsToEven) {
  // (1 + 2^-10) * 1.5 = 1.5 + 1.5 ulp.
  EXPECT_EQ(F16Mul(0x3C01, 0x3E00), (R{0x3E02, kNX}));
}

TEST(F16Round, FmaRoundsOnce) {
  // (1 + 2^-6)^2 - 1 = 2^-5 + 2^-12, exact; a separate multiply loses the 2^-12.
  EXPECT_EQ(F16MulAdd(0x3C10, 0x3C10, 0xBC00), (R{0x2808, kNone}));
  EXPECT_EQ(F16Mul(0x3C10, 0x3C10), (R{0x3C20, kNX}));
  // (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20: half an ulp of 2^-9, a tie, to even 2^-9.
  EXPECT_EQ(F16MulAdd(0x3C01, 0x3C01, 0xBC00), (R{0x1800, kNX}));
}

// --- Subnormal boundaries ------------------------------------------------------------------

TEST(F32Subnormal, LargestSubnormalPlusSmallestIsSmallestNormal) {
  EXPECT_EQ(F32Add(kMaxSub32, kMinSub32), (R{kMinNorm32, kNone}));
}

TEST(F32Subnormal, SmallestNormalMinusSmallestSubnormalIsLargestSubnormalExactly) {
  // An exact subnormal result raises nothing: underflow needs inexact too.
  EXPECT_EQ(F32Sub(kMinNorm32, kMinSub32), (R{kMaxSub32, kNone}));
}

TEST(F32Subnormal, ExactSubnormalProductRaisesNothing) {
  EXPECT_EQ(F32Mul(kMinNorm32, kHalf32), (R{0x00400000, kNone}));
}

TEST(F32Subnormal, InexactSubnormalProductUnderflows) {
  // 2^-126 * 0.5 * (1 + 2^-23) = 2^-127 + 2^-150: a tie at subnormal precision, to even.
  EXPECT_EQ(F32Mul(kMinNorm32, 0x3F000001), (R{0x00400000, kNX | kUF}));
}

TEST(F32Subnormal, HalfOfSmallestSubnormalRoundsToZeroKeepingSign) {
  EXPECT_EQ(F32Mul(kMinSub32, kHalf32), (R{kZero32, kNX | kUF}));
  EXPECT_EQ(F32Mul(kMinSub32 | kSign32, kHalf32), (R{kNegZero32, kNX | kUF}));
}

TEST(F32Subnormal, JustOverHalfOfSmallestSubnormalRoundsUpToIt) {
  EXPECT_EQ(F32Mul(kMinSub32, 0x3F000001), (R{kMinSub32, kNX | kUF}));
}

TEST(F32Subnormal, SubnormalInputsAreNotFlushed) {
  EXPECT_EQ(F32Mul(kMaxSub32, kTwo32), (R{0x00FFFFFE, kNone}));
  EXPECT_EQ(F32Add(kMinSub32, kMinSub32), (R{0x00000002, kNone}));
}

TEST(F32Tininess, RoundingUpToSmallestNormalIsNotTinyAfterRounding) {
  // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 * (1 - 2^-46): rounds to 2^-126 both at subnormal
  // precision and with an unbounded exponent, so it is not tiny after rounding: no underflow.
  EXPECT_EQ(F32Mul(0x3F800001, kMaxSub32), (R{kMinNorm32, kNX}));
}

TEST(F32Tininess, RoundingUpToSmallestNormalCanStillBeTiny) {
  // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150: a tie at subnormal precision that rounds up to
  // 2^-126, but with an unbounded exponent it is exact and below 2^-126: tiny, so underflow.
  EXPECT_EQ(F32Mul(0x3F7FFFFF, kMinNorm32), (R{kMinNorm32, kNX | kUF}));
}

TEST(F32Tininess, FmaSumJustBelowSmallestNormal) {
  // 2^-126 * (1 - 2^-46) again, as a fused product plus +0: same answer.
  EXPECT_EQ(F32MulAdd(0x3F800001, kMaxSub32, kZero32), (R{kMinNorm32, kNX}));
  // (2^-126 - 2^-149) + 2^-149 * (1 - 2^-24) = 2^-126 - 2^-173: not tiny after rounding.
  EXPECT_EQ(F32MulAdd(kMinSub32, 0x3F7FFFFF, kMaxSub32), (R{kMinNorm32, kNX}));
  // (2^-126 - 2^-149) + 2^-149 * 2^-1 = 2^-126 - 2^-150: tiny after rounding.
  EXPECT_EQ(F32MulAdd(kMinSub32, kHalf32, kMaxSub32), (R{kMinNorm32, kNX | kUF}));
}

TEST(F16Subnormal, LargestSubnormalPlusSmallestIsSmallestNormal) {
  EXPECT_EQ(F16Add(kMaxSub16, kMinSub16), (R{kMinNorm16, kNone}));
}

TEST(F16Subnormal, InexactSubnormalUnderflows) {
  // 2^-14 * 0.5 * (1 + 2^-10) = 2^-15 + 2^-25: a tie at subnormal precision (ulp 2^-24).
  EXPECT_EQ(F16Mul(kMinNorm16, 0x3801), (R{0x0200, kNX | kUF}));
}

TEST(F16Tininess, RoundingUpToSmallestNormalIsNotTinyAfterRounding) {
  // (1 + 2^-10) * (2^-14 - 2^-24) = 2^-14 * (1 - 2^-20).
  EXPECT_EQ(F16Mul(0x3C01, kMaxSub16), (R{kMinNorm16, kNX}));
}

TEST(F16Tininess, RoundingUpToSmallestNormalCanStillBeTiny) {
  // (1 - 2^-11) * 2^-14 = 2^-14 - 2^-25: exact with an unbounded exponent, so tiny.
  EXPECT_EQ(F16Mul(0x3BFF, kMinNorm16), (R{kMinNorm16, kNX | kUF}));
}

// --- Overflow ------------------------------------------------------------------------------

TEST(F32Overflow, ProductOverflowsToInfinity) {
  EXPECT_EQ(F32Mul(kMax32, kTwo32), (R{kInf32, kOF | kNX}));
  EXPECT_EQ(F32Mul(kMax32, kTwo32 | kSign32), (R{kNegInf32, kOF | kNX}));
}

TEST(F32Overflow, SumOfMaxesOverflows) {
  EXPECT_EQ(F32Add(kMax32, kMax32), (R{kInf32, kOF | kNX}));
}

TEST(F32Overflow, TieAboveMaxFiniteRoundsUpToInfinity) {
  // max + 2^103 (half an ulp of max): the tie goes to the even neighbour, 2^128: overflow.
  EXPECT_EQ(F32Add(kMax32, 0x73000000), (R{kInf32, kOF | kNX}));
}

TEST(F32Overflow, BelowTieRoundsDownToMaxFiniteWithoutOverflow) {
  // max + 2^102 (a quarter ulp) rounds to max finite: inexact only. (Round to nearest never
  // overflows to max finite; that needs a directed rounding mode, which the FMAC lacks.)
  EXPECT_EQ(F32Add(kMax32, 0x72800000), (R{kMax32, kNX}));
}

TEST(F32Overflow, FmaOverflowsOnTheExactSum) {
  // max * 1 + 2^103: the exact sum is the tie above max.
  EXPECT_EQ(F32MulAdd(kMax32, kOne32, 0x73000000), (R{kInf32, kOF | kNX}));
  // max * 2 - max = max exactly: the product's overflow is not seen, there is one rounding.
  EXPECT_EQ(F32MulAdd(kMax32, kTwo32, kMax32 | kSign32), (R{kMax32, kNone}));
}

TEST(F16Overflow, TieAboveMaxFiniteRoundsUpToInfinity) {
  // 65504 + 16 = 65520: halfway between 65504 and 65536.
  EXPECT_EQ(F16Add(kMax16, 0x4C00), (R{kInf16, kOF | kNX}));
  EXPECT_EQ(F16Add(kMax16 | kSign16, 0xCC00), (R{kNegInf16, kOF | kNX}));
}

TEST(F16Overflow, BelowTieRoundsDownToMaxFinite) {
  EXPECT_EQ(F16Add(kMax16, 0x4800), (R{kMax16, kNX}));  // 65504 + 8
}

TEST(F16Overflow, ProductOverflows) { EXPECT_EQ(F16Mul(kMax16, kTwo16), (R{kInf16, kOF | kNX})); }

// --- Invalid operations and NaNs -----------------------------------------------------------

TEST(F32Invalid, InfMinusInf) {
  EXPECT_EQ(F32Add(kInf32, kNegInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Sub(kInf32, kInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Add(kInf32, kInf32), (R{kInf32, kNone}));
}

TEST(F32Invalid, ZeroTimesInf) {
  EXPECT_EQ(F32Mul(kZero32, kInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Mul(kNegInf32, kNegZero32), (R{kQNaN32, kNV}));
}

TEST(F32Invalid, FmaZeroTimesInfPlusQuietNanIsInvalid) {
  // RISC-V (and SoftFloat): 0 * inf is invalid even when the addend is a quiet NaN.
  EXPECT_EQ(F32MulAdd(kZero32, kInf32, kQNaN32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32MulAdd(kInf32, kZero32, 0x7FC12345), (R{kQNaN32, kNV}));
}

TEST(F32Invalid, FmaZeroTimesInfPlusSignalingNan) {
  EXPECT_EQ(F32MulAdd(kZero32, kInf32, kSNaN32), (R{kQNaN32, kNV}));
}

TEST(F32Invalid, FmaZeroTimesInfPlusNumber) {
  EXPECT_EQ(F32MulAdd(kZero32, kInf32, kOne32), (R{kQNaN32, kNV}));
}

TEST(F32Invalid, FmaInfProductMinusInf) {
  EXPECT_EQ(F32MulAdd(kInf32, kOne32, kNegInf32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32MulAdd(kInf32, kNegOne32, kNegInf32), (R{kNegInf32, kNone}));
  EXPECT_EQ(F32MulAdd(kOne32, kTwo32, kNegInf32), (R{kNegInf32, kNone}));
}

TEST(F32Invalid, FmaInfProductPlusQuietNanIsQuiet) {
  EXPECT_EQ(F32MulAdd(kInf32, kTwo32, kQNaN32), (R{kQNaN32, kNone}));
}

TEST(F32Nan, QuietNanGivesCanonicalNanWithoutFlags) {
  EXPECT_EQ(F32Add(0x7FC12345, kOne32), (R{kQNaN32, kNone}));  // payload dropped
  EXPECT_EQ(F32Mul(kOne32, 0xFFC00000), (R{kQNaN32, kNone}));  // sign dropped
  EXPECT_EQ(F32MulAdd(kOne32, kOne32, 0xFFFFFFFF), (R{kQNaN32, kNone}));
  EXPECT_EQ(F32MulAdd(0x7FC00001, kZero32, kInf32), (R{kQNaN32, kNone}));
}

TEST(F32Nan, SignalingNanRaisesInvalid) {
  EXPECT_EQ(F32Add(kSNaN32, kOne32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Sub(kOne32, 0xFFBFFFFF), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32Mul(kQNaN32, kSNaN32), (R{kQNaN32, kNV}));
  EXPECT_EQ(F32MulAdd(kQNaN32, kOne32, kSNaN32), (R{kQNaN32, kNV}));  // sNaN addend counts too
  EXPECT_EQ(F32MulAdd(kOne32, kOne32, kSNaN32), (R{kQNaN32, kNV}));
}

TEST(F16Invalid, FmaZeroTimesInfPlusQuietNanIsInvalid) {
  EXPECT_EQ(F16MulAdd(kInf16, kZero16, kQNaN16), (R{kQNaN16, kNV}));
}

TEST(F16Nan, NaNsGiveCanonicalNan) {
  EXPECT_EQ(F16Add(0x7E55, kOne16), (R{kQNaN16, kNone}));
  EXPECT_EQ(F16Mul(kSNaN16, kOne16), (R{kQNaN16, kNV}));
  EXPECT_EQ(F16Sub(kInf16, kInf16), (R{kQNaN16, kNV}));
}

// --- Signs of zero -------------------------------------------------------------------------

TEST(F32ZeroSign, ExactCancellationIsPlusZero) {
  EXPECT_EQ(F32Add(kOne32, kNegOne32), (R{kZero32, kNone}));
  EXPECT_EQ(F32Sub(0xC0490FDB, 0xC0490FDB), (R{kZero32, kNone}));
  EXPECT_EQ(F32Add(kMinSub32 | kSign32, kMinSub32), (R{kZero32, kNone}));
}

TEST(F32ZeroSign, SumsOfZeros) {
  EXPECT_EQ(F32Add(kNegZero32, kNegZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Add(kZero32, kNegZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32Add(kNegZero32, kZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32Sub(kNegZero32, kZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Sub(kZero32, kZero32), (R{kZero32, kNone}));
}

TEST(F32ZeroSign, ZeroPlusNumberIsTheNumber) {
  EXPECT_EQ(F32Add(kNegZero32, kMinSub32 | kSign32), (R{kMinSub32 | kSign32, kNone}));
}

TEST(F32ZeroSign, ProductOfZeroTakesXorOfSigns) {
  EXPECT_EQ(F32Mul(kNegZero32, kTwo32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32Mul(kNegZero32, kNegOne32), (R{kZero32, kNone}));
}

TEST(F32ZeroSign, FmaExactCancellationIsPlusZero) {
  EXPECT_EQ(F32MulAdd(kOne32, kOne32, kNegOne32), (R{kZero32, kNone}));
  EXPECT_EQ(F32MulAdd(kNegOne32, kOne32, kOne32), (R{kZero32, kNone}));
}

TEST(F32ZeroSign, FmaZeroProductPlusZero) {
  // Exact zero sum: -0 only when the product's zero and the addend are both negative.
  EXPECT_EQ(F32MulAdd(kNegZero32, kOne32, kNegZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32MulAdd(kNegOne32, kZero32, kNegZero32), (R{kNegZero32, kNone}));
  EXPECT_EQ(F32MulAdd(kZero32, kNegOne32, kZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32MulAdd(kZero32, kOne32, kNegZero32), (R{kZero32, kNone}));
  EXPECT_EQ(F32MulAdd(kNegZero32, kNegOne32, kNegZero32), (R{kZero32, kNone}));
}

TEST(F32ZeroSign, FmaZeroProductPlusNumberIsTheNumberExactly) {
  EXPECT_EQ(F32MulAdd(kZero32, kMax32, kMinSub32), (R{kMinSub32, kNone}));
}

TEST(F32ZeroSign, FmaTinyProductPlusZeroRoundsToSignedZero) {
  // 2^-298 is not a zero: it rounds to a zero of its own sign, with underflow.
  EXPECT_EQ(F32MulAdd(kMinSub32, kMinSub32, kZero32), (R{kZero32, kNX | kUF}));
  EXPECT_EQ(F32MulAdd(kMinSub32 | kSign32, kMinSub32, kZero32), (R{kNegZero32, kNX | kUF}));
}

TEST(F32Cancellation, MassiveCancellationInFmaIsExact) {
  // (1 + 2^-23) * (1 - 2^-23) - 1 = -2^-46 exactly.
  EXPECT_EQ(F32MulAdd(0x3F800001, 0x3F7FFFFE, kNegOne32), (R{0xA8800000, kNone}));
}

TEST(F16ZeroSign, Cancellation) {
  EXPECT_EQ(F16Add(kOne16, 0xBC00), (R{kZero16, kNone}));
  EXPECT_EQ(F16Add(kNegZero16, kNegZero16), (R{kNegZero16, kNone}));
  EXPECT_EQ(F16MulAdd(kNegZero16, kOne16, kNegZero16), (R{kNegZero16, kNone}));
  EXPECT_EQ(F16MulAdd(kOne16, kOne16, 0xBC00), (R{kZero16, kNone}));
}

}  // namespace
}  // namespace tessera::fp::fptest
