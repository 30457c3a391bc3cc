// Comparisons, minimum/maximum and the sign-bit operations for one format, as header templates
// (see arith.h for why). The rules:
// - Lt and Le are signaling comparisons: any NaN operand raises invalid and compares false.
//   Eq is quiet: a NaN compares unequal, invalid only for a signaling NaN. -0 == +0. The result is
//   0 or 1 (SoftFloat's f32_lt, f32_le, f32_eq).
// - Min and Max are RISC-V fmin/fmax (IEEE 754-2019 minimumNumber/maximumNumber): a NaN operand
//   is ignored in favour of the other one, both NaN gives the canonical NaN, a signaling NaN
//   operand raises invalid, and -0 is less than +0. No other flags.
// - Neg and Abs change the sign bit only: no flags, and a NaN keeps its payload (and stays
//   signaling); they are not arithmetic and never produce the canonical NaN.
#pragma once

#include <cstdint>

#include "fp/flags.h"
#include "fp/format.h"

namespace tessera::fp {
namespace internal {

// a < b for two non-NaN values, with -0 < +0 (the total order on numbers).
template <typename F>
inline bool TotalLess(typename F::Bits a, typename F::Bits b) {
  const bool sa = F::Sign(a);
  if (sa != F::Sign(b)) return sa;
  return sa ? a > b : a < b;
}

}  // namespace internal

template <typename F>
inline bool Lt(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    flags |= kFlagInvalid;
    return false;
  }
  if (F::Sign(a) != F::Sign(b)) return F::Sign(a) && ((a | b) & F::kAbsMask) != 0;
  return a != b && (F::Sign(a) != (a < b));
}

template <typename F>
inline bool Le(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    flags |= kFlagInvalid;
    return false;
  }
  if (F::Sign(a) != F::Sign(b)) return F::Sign(a) || ((a | b) & F::kAbsMask) == 0;
  return a == b || (F::Sign(a) != (a < b));
}

template <typename F>
inline bool Eq(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    if (F::IsSignalingNan(a) || F::IsSignalingNan(b)) flags |= kFlagInvalid;
    return false;
  }
  return a == b || ((a | b) & F::kAbsMask) == 0;
}

template <typename F>
inline typename F::Bits Min(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    if (F::IsSignalingNan(a) || F::IsSignalingNan(b)) flags |= kFlagInvalid;
    if (F::IsNan(a) && F::IsNan(b)) return F::kCanonicalNan;
    return F::IsNan(a) ? b : a;
  }
  return internal::TotalLess<F>(b, a) ? b : a;
}

template <typename F>
inline typename F::Bits Max(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    if (F::IsSignalingNan(a) || F::IsSignalingNan(b)) flags |= kFlagInvalid;
    if (F::IsNan(a) && F::IsNan(b)) return F::kCanonicalNan;
    return F::IsNan(a) ? b : a;
  }
  return internal::TotalLess<F>(a, b) ? b : a;
}

template <typename F>
inline typename F::Bits Neg(typename F::Bits a) {
  return typename F::Bits(a ^ F::kSignMask);
}

template <typename F>
inline typename F::Bits Abs(typename F::Bits a) {
  return typename F::Bits(a & F::kAbsMask);
}

}  // namespace tessera::fp
