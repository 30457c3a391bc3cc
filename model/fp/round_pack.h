// Rounding of an exact intermediate result to a format, the one place where rounding, overflow,
// subnormal results and tininess are decided. Every operation that can be inexact (arithmetic,
// f32->f16, int->float) ends here, so all of them share the rule: round to nearest, ties to even;
// overflow gives infinity with overflow|inexact; underflow is raised when the result is tiny AFTER
// rounding and inexact (SoftFloat's RISC-V specialization).
#pragma once

#include <cstdint>

#include "fp/flags.h"
#include "fp/format.h"

namespace tessera::fp {

// x shifted right by n (any n >= 0) with the bits shifted out ORed into bit 0 ("jammed"). For
// n >= 64 this is x != 0; x must have bit 63 clear so that n = 63 gives the same.
inline uint64_t ShiftRightJam(uint64_t x, int n) {
  n = n < 63 ? n : 63;
  return (x >> n) | ((x & ((uint64_t(1) << n) - 1)) != 0);
}

inline int LeadingZeros(uint64_t x) { return __builtin_clzll(x); }  // x != 0

// Rounds the nonzero value (sig / 2^63) * 2^(exp - F::kBias) to F and packs it with the given
// sign, ORing inexact/underflow/overflow into flags. sig has its leading one at bit 63; exp is the
// biased exponent that leading one has (it may be out of the format's range either way). Bits of
// sig below the kept ones may hold a sticky (jammed) bit, as long as it lies below the round bit.
template <typename F>
inline typename F::Bits RoundPack(bool sign, int exp, uint64_t sig, uint8_t& flags) {
  using Bits = typename F::Bits;
  constexpr int kDrop = 64 - F::kPrecision;  // bits of sig below the kept ones, normal result
  constexpr uint64_t kHalf = uint64_t(1) << 63;
  const uint64_t sign_bits = sign ? F::kSignMask : 0;
  if (__builtin_expect(exp >= 1, 1)) {
    uint64_t mant = sig >> kDrop;                // hidden bit included
    const uint64_t rest = sig << F::kPrecision;  // dropped bits, the round bit at bit 63
    flags |= static_cast<uint8_t>((rest != 0) * kFlagInexact);  // branch-free: follows the data
    mant += (rest > kHalf) | ((rest == kHalf) & mant);
    // The hidden bit adds one to the exponent field, and a carry out of the significand moves
    // on into it: both come out right by adding.
    uint64_t bits = (uint64_t(exp - 1) << F::kFracBits) + mant;
    if (bits >= F::kInf) {
      flags |= kFlagOverflow | kFlagInexact;
      bits = F::kInf;
    }
    return Bits(sign_bits | bits);
  }
  // Subnormal range: fewer significand bits, the exponent field is 0 (or 1 after a carry).
  const int shift = kDrop + 1 - exp;
  uint64_t mant = 0, rest;
  if (shift < 64) {
    mant = sig >> shift;
    rest = sig << (64 - shift);
  } else if (shift == 64) {
    rest = sig;  // at least half of the smallest subnormal
  } else {
    rest = 1;  // below half of the smallest subnormal
  }
  if (rest != 0) {
    flags |= kFlagInexact;
    // Tiny after rounding unless rounding to full precision with an unbounded exponent carries
    // up to the smallest normal number: exp is 0 and the top kPrecision + 1 bits are all ones.
    constexpr uint64_t kCarriesToNormal = ~uint64_t(0) << (63 - F::kPrecision);
    if (exp < 0 || sig < kCarriesToNormal) flags |= kFlagUnderflow;
    mant += (rest > kHalf) | ((rest == kHalf) & mant);
  }
  return Bits(sign_bits | mant);
}

}  // namespace tessera::fp
