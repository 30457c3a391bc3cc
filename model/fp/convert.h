// Conversions between the formats and 32-bit integers, as header templates (see arith.h):
// - float -> float: a NaN gives the destination's canonical NaN (invalid if signaling); widening
//   is exact, narrowing rounds to nearest even (overflow, underflow, inexact as for arithmetic).
// - float -> int32 rounds toward zero like a C cast and raises no inexact flag (TestFloat's
//   `_rminMag` vectors: SoftFloat's conversion with exact = false). NaN, infinities and values
//   out of range raise invalid and saturate as RISC-V does: NaN and positive overflow give
//   0x7FFFFFFF, negative overflow gives 0x80000000.
// - int32 -> float rounds to nearest even (f16 overflows to infinity beyond 65519).
#pragma once

#include <cstdint>

#include "fp/flags.h"
#include "fp/format.h"
#include "fp/round_pack.h"

namespace tessera::fp {

inline constexpr uint32_t kI32PosSaturate = 0x7FFFFFFF;  // NaN and positive overflow
inline constexpr uint32_t kI32NegSaturate = 0x80000000;  // negative overflow

// From format S to format D (either direction).
template <typename S, typename D>
inline typename D::Bits ConvertFloat(typename S::Bits x, uint8_t& flags) {
  using Bits = typename D::Bits;
  const Bits sign = S::Sign(x) ? D::kSignMask : 0;
  if (S::IsSpecial(x)) {
    if (S::IsNan(x)) {
      if (S::IsSignalingNan(x)) flags |= kFlagInvalid;
      return D::kCanonicalNan;
    }
    return Bits(sign | D::kInf);
  }
  if (S::IsZero(x)) return sign;
  // x = m * 2^(e - S::kBias - S::kFracBits); normalized: (s / 2^63) * 2^(63 - lz + ...).
  const uint64_t m = S::Frac(x) | (S::Exp(x) ? S::kHiddenBit : 0);
  const int e = S::Exp(x) ? S::Exp(x) : 1;
  const int lz = LeadingZeros(m);
  const int exp = e - S::kBias - S::kFracBits + 63 - lz + D::kBias;
  return RoundPack<D>(sign != 0, exp, m << lz, flags);
}

template <typename F>
inline uint32_t ToI32TowardZero(typename F::Bits x, uint8_t& flags) {
  const bool sign = F::Sign(x);
  const int e = F::Exp(x);
  if (e == F::kMaxExp) {
    flags |= kFlagInvalid;
    return (F::IsNan(x) || !sign) ? kI32PosSaturate : kI32NegSaturate;
  }
  const int unbiased = e - F::kBias;
  if (unbiased < 0) return 0;  // |x| < 1 (zero and subnormals included)
  if (unbiased >= 31) {
    if (sign && unbiased == 31 && F::Frac(x) == 0) return kI32NegSaturate;  // exactly -2^31
    flags |= kFlagInvalid;
    return sign ? kI32NegSaturate : kI32PosSaturate;
  }
  const uint64_t m = F::Frac(x) | F::kHiddenBit;
  const uint32_t mag = unbiased >= F::kFracBits ? uint32_t(m << (unbiased - F::kFracBits))
                                                : uint32_t(m >> (F::kFracBits - unbiased));
  return sign ? 0u - mag : mag;
}

// f16 -> i16 toward zero, saturating (the DSD's fh2i): out of range, infinities and NaN raise
// invalid and give the saturated value, NaN the positive one; -32768 itself is exact.
inline uint16_t F16ToI16TowardZero(uint16_t x, uint8_t& flags) {
  const auto v = static_cast<int32_t>(ToI32TowardZero<F16>(x, flags));
  if (v > 32767 || v < -32768) {
    flags |= kFlagInvalid;
    return v > 0 ? 0x7FFF : 0x8000;
  }
  return static_cast<uint16_t>(v);
}

template <typename F>
inline typename F::Bits FromI32(uint32_t i, uint8_t& flags) {
  if (i == 0) return 0;
  const bool sign = (i >> 31) != 0;
  const uint64_t mag = sign ? 0u - i : i;
  const int lz = LeadingZeros(mag);
  return RoundPack<F>(sign, 63 - lz + F::kBias, mag << lz, flags);
}

}  // namespace tessera::fp
