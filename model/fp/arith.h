// Add, subtract, multiply, fused multiply-add, divide and square root for one format, as header
// templates so that the dispatch loop (execute.cpp) and the named scalar functions (scalar_ops.cpp)
// inline them. Results are exact then rounded once by RoundPack; NaN results are F::kCanonicalNan.
// Integer arithmetic only: nothing here depends on the host FPU or its rounding mode.
//
// NaN and invalid rules (SoftFloat 3e, RISC-V specialization):
// - any NaN operand gives the canonical NaN; invalid is raised if any operand is a signaling NaN;
// - inf - inf (add/sub, also inf*x + -inf in MulAdd) and 0 * inf give the canonical NaN with
//   invalid; MulAdd raises invalid for 0 * inf even when the addend is a quiet NaN;
// - an exact zero sum is +0, except that (-0) + (-0) is -0 (and in MulAdd a zero product plus a
//   zero addend of the same sign keeps that sign).
#pragma once

#include <cstdint>

#include "fp/flags.h"
#include "fp/format.h"
#include "fp/round_pack.h"

namespace tessera::fp {
namespace internal {

// Significand with its hidden bit (none for subnormals and zero).
template <typename F>
inline uint64_t Significand(typename F::Bits x) {
  return F::Frac(x) | (F::Exp(x) ? F::kHiddenBit : 0);
}

// Exponent to scale the significand by: subnormals share the smallest normal exponent, 1.
template <typename F>
inline int ScaleExp(typename F::Bits x) {
  const int e = F::Exp(x);
  return e ? e : 1;
}

template <typename F>
inline typename F::Bits NanResult(bool invalid, uint8_t& flags) {
  if (invalid) flags |= kFlagInvalid;
  return F::kCanonicalNan;
}

// a + b where a or b is infinity or NaN.
template <typename F>
inline typename F::Bits AddSpecial(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  if (F::IsNan(a) || F::IsNan(b)) {
    return NanResult<F>(F::IsSignalingNan(a) || F::IsSignalingNan(b), flags);
  }
  if (F::IsInf(a)) {
    if (F::IsInf(b) && a != b) return NanResult<F>(true, flags);  // inf - inf
    return a;
  }
  return b;
}

}  // namespace internal

template <typename F>
inline typename F::Bits Add(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  using Bits = typename F::Bits;
  if (__builtin_expect(F::IsSpecial(a) || F::IsSpecial(b), 0)) {
    return internal::AddSpecial<F>(a, b, flags);
  }
  // Order by magnitude (the bit patterns order like the magnitudes): |a| >= |b|.
  if ((a & F::kAbsMask) < (b & F::kAbsMask)) {
    const Bits t = a;
    a = b;
    b = t;
  }
  if (F::IsZero(b)) {
    if (F::IsZero(a)) return Bits(a & b);  // -0 only for (-0) + (-0)
    return a;
  }
  // Both significands with the hidden bit at bit 62: x = s * 2^(e - bias - 62).
  const int ea = internal::ScaleExp<F>(a);
  const uint64_t sa = internal::Significand<F>(a) << (63 - F::kPrecision);
  uint64_t sb = internal::Significand<F>(b) << (63 - F::kPrecision);
  sb = ShiftRightJam(sb, ea - internal::ScaleExp<F>(b));
  // Sum, or difference (not negative as |a| >= |b|); without a branch on the signs.
  const uint64_t sub_mask = 0 - uint64_t(F::Sign(a ^ b));
  const uint64_t s = sa + ((sb ^ sub_mask) - sub_mask);
  if (s == 0) return 0;  // exact cancellation: +0 when rounding to nearest
  const int lz = LeadingZeros(s);
  return RoundPack<F>(F::Sign(a), ea + 1 - lz, s << lz, flags);
}

template <typename F>
inline typename F::Bits Sub(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  return Add<F>(a, typename F::Bits(b ^ F::kSignMask), flags);
}

template <typename F>
inline typename F::Bits Mul(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  using Bits = typename F::Bits;
  const Bits sign = (a ^ b) & F::kSignMask;
  if (__builtin_expect(F::IsSpecial(a) || F::IsSpecial(b), 0)) {
    if (F::IsNan(a) || F::IsNan(b)) {
      return internal::NanResult<F>(F::IsSignalingNan(a) || F::IsSignalingNan(b), flags);
    }
    if (F::IsZero(a) || F::IsZero(b)) return internal::NanResult<F>(true, flags);  // 0 * inf
    return Bits(sign | F::kInf);
  }
  if (F::IsZero(a) || F::IsZero(b)) return sign;
  // m = ma * mb exactly (at most 2 * kPrecision bits); x = m * 2^(ea + eb - 2 bias - 2 (p - 1)).
  const uint64_t m = internal::Significand<F>(a) * internal::Significand<F>(b);
  const int lz = LeadingZeros(m);
  const int exp = internal::ScaleExp<F>(a) + internal::ScaleExp<F>(b) - F::kBias + 63 - lz -
                  2 * (F::kPrecision - 1);
  return RoundPack<F>(sign != 0, exp, m << lz, flags);
}

namespace internal {

// a * b + c where one of them is infinity or NaN.
template <typename F>
inline typename F::Bits MulAddSpecial(typename F::Bits a, typename F::Bits b, typename F::Bits c,
                                      uint8_t& flags) {
  using Bits = typename F::Bits;
  const bool any_snan = F::IsSignalingNan(a) || F::IsSignalingNan(b) || F::IsSignalingNan(c);
  if (F::IsNan(a) || F::IsNan(b)) return NanResult<F>(any_snan, flags);
  const bool product_inf = F::IsInf(a) || F::IsInf(b);
  if (product_inf && (F::IsZero(a) || F::IsZero(b))) {
    return NanResult<F>(true, flags);  // 0 * inf (+ anything, even a quiet NaN)
  }
  if (F::IsNan(c)) return NanResult<F>(any_snan, flags);
  if (product_inf) {
    const Bits product = Bits(((a ^ b) & F::kSignMask) | F::kInf);
    if (F::IsInf(c) && c != product) return NanResult<F>(true, flags);  // inf - inf
    return product;
  }
  return c;  // finite product + infinite addend
}

}  // namespace internal

// a * b + c with one rounding.
template <typename F>
inline typename F::Bits MulAdd(typename F::Bits a, typename F::Bits b, typename F::Bits c,
                               uint8_t& flags) {
  using Bits = typename F::Bits;
  if (__builtin_expect(F::IsSpecial(a) || F::IsSpecial(b) || F::IsSpecial(c), 0)) {
    return internal::MulAddSpecial<F>(a, b, c, flags);
  }
  const Bits sign_p = (a ^ b) & F::kSignMask;
  const Bits sign_c = c & F::kSignMask;
  if (F::IsZero(a) || F::IsZero(b)) {
    if (!F::IsZero(c)) return c;
    return Bits(sign_p & sign_c);  // zero sum: -0 only if both zeros are negative
  }
  // The product exactly, its leading one at bit 62: p = sp * 2^(ep - bias - 62).
  const uint64_t m = internal::Significand<F>(a) * internal::Significand<F>(b);
  // Two normal factors give a product of 2p - 1 or 2p bits: no need to count.
  const int lzp = F::Exp(a) != 0 && F::Exp(b) != 0
                      ? 65 - 2 * F::kPrecision - static_cast<int>(m >> (2 * F::kPrecision - 1))
                      : LeadingZeros(m);
  uint64_t sp = m << (lzp - 1);
  const int ep =
      internal::ScaleExp<F>(a) + internal::ScaleExp<F>(b) - F::kBias + 65 - lzp - 2 * F::kPrecision;
  if (F::IsZero(c)) return RoundPack<F>(sign_p != 0, ep, sp << 1, flags);
  // The addend likewise, normalized so that both leading ones sit at bit 62.
  const uint64_t mc = internal::Significand<F>(c);
  const int lzc = F::Exp(c) != 0 ? 64 - F::kPrecision : LeadingZeros(mc);
  uint64_t sc = mc << (lzc - 1);
  const int ec = internal::ScaleExp<F>(c) + 64 - F::kPrecision - lzc;
  // Align the operand with the smaller exponent to the other. It only loses bits (to the sticky
  // bit) when the exponents differ by 2 or more; then the sum keeps its leading one at bit 61 or
  // above, so the sticky bit stays far below the round bit. Shifts by 0 or 1 are exact (both
  // significands have at least 15 trailing zero bits), which covers every case of massive
  // cancellation. Written without branches: the operands' order and signs are data-dependent.
  const bool c_bigger = ec > ep;
  const uint64_t c_mask = 0 - uint64_t(c_bigger);
  const uint64_t big = (sc & c_mask) | (sp & ~c_mask);
  const int d = ep - ec;
  const uint64_t small = ShiftRightJam(big ^ sp ^ sc, d < 0 ? -d : d);
  const int exp = c_bigger ? ec : ep;
  // Sum or difference (both below 2^63, so a difference's sign is bit 63); only with equal
  // exponents can the difference come out negative.
  const uint64_t sub_mask = 0 - uint64_t(sign_p != sign_c);
  uint64_t s = big + ((small ^ sub_mask) - sub_mask);
  const uint64_t neg_mask = (0 - (s >> 63)) & sub_mask;
  s = (s ^ neg_mask) - neg_mask;
  if (s == 0) return 0;  // exact cancellation: +0 when rounding to nearest
  const bool sign = ((c_bigger ? sign_c : sign_p) != 0) != (neg_mask != 0);
  const int lz = LeadingZeros(s);
  return RoundPack<F>(sign, exp + 1 - lz, s << lz, flags);
}

namespace internal {

// The significand of a finite nonzero x with its leading one moved to bit kPrecision - 1, and the
// biased exponent that leading one then has (below 1 for subnormals).
template <typename F>
inline uint64_t Normalized(typename F::Bits x, int& exp) {
  uint64_t m = Significand<F>(x);
  const int shift = LeadingZeros(m) - (64 - F::kPrecision);
  exp = ScaleExp<F>(x) - shift;
  return m << shift;
}

// floor(sqrt(n)) for n < 2^62, and whether the root is exact.
inline uint64_t IntSqrt(uint64_t n, bool& exact) {
  uint64_t rem = n, root = 0, bit = uint64_t(1) << 62;
  while (bit > rem) bit >>= 2;
  while (bit != 0) {
    if (rem >= root + bit) {
      rem -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  exact = rem == 0;
  return root;
}

}  // namespace internal

// a / b, correctly rounded. x / 0 for finite nonzero x is infinity with the infinite flag; 0 / 0
// and inf / inf are invalid.
template <typename F>
inline typename F::Bits Div(typename F::Bits a, typename F::Bits b, uint8_t& flags) {
  using Bits = typename F::Bits;
  const Bits sign = (a ^ b) & F::kSignMask;
  if (__builtin_expect(F::IsSpecial(a) || F::IsSpecial(b), 0)) {
    if (F::IsNan(a) || F::IsNan(b)) {
      return internal::NanResult<F>(F::IsSignalingNan(a) || F::IsSignalingNan(b), flags);
    }
    if (F::IsInf(a)) {
      if (F::IsInf(b)) return internal::NanResult<F>(true, flags);  // inf / inf
      return Bits(sign | F::kInf);
    }
    return sign;  // finite / inf
  }
  if (F::IsZero(b)) {
    if (F::IsZero(a)) return internal::NanResult<F>(true, flags);  // 0 / 0
    flags |= kFlagInfinite;
    return Bits(sign | F::kInf);
  }
  if (F::IsZero(a)) return sign;
  // a = ma * 2^(ea - bias - (p - 1)) with ma in [2^(p-1), 2^p), b likewise. The quotient of
  // ma * 2^(p+2) by mb has p + 2 or p + 3 bits: the kept bits, a round bit and one more; the
  // remainder says whether anything lies below them.
  int ea = 0, eb = 0;
  const uint64_t ma = internal::Normalized<F>(a, ea);
  const uint64_t mb = internal::Normalized<F>(b, eb);
  const uint64_t n = ma << (F::kPrecision + 2);
  const uint64_t q = n / mb;
  const bool sticky = n % mb != 0;
  const int lz = LeadingZeros(q);
  const int exp = F::kBias + ea - eb + (63 - lz) - (F::kPrecision + 2);
  return RoundPack<F>(sign != 0, exp, (q << lz) | sticky, flags);
}

// sqrt(a), correctly rounded. sqrt(-0) = -0; the root of a negative nonzero number (infinity
// included) is invalid.
template <typename F>
inline typename F::Bits Sqrt(typename F::Bits a, uint8_t& flags) {
  if (F::IsNan(a)) return internal::NanResult<F>(F::IsSignalingNan(a), flags);
  if (F::IsZero(a)) return a;
  if (F::Sign(a)) return internal::NanResult<F>(true, flags);
  if (F::IsInf(a)) return a;
  // a = ma * 2^k with k even (ma doubled if needed); sqrt(a) = sqrt(ma * 4^s) * 2^(k/2 - s),
  // whose integer part has at least p + 2 bits for s = p/2 + 2.
  int ea = 0;
  uint64_t ma = internal::Normalized<F>(a, ea);
  int k = ea - F::kBias - (F::kPrecision - 1);
  if (k & 1) {
    ma <<= 1;
    k -= 1;
  }
  constexpr int kS = F::kPrecision / 2 + 2;
  bool exact = false;
  const uint64_t r = internal::IntSqrt(ma << (2 * kS), exact);
  const int lz = LeadingZeros(r);
  const int exp = F::kBias + k / 2 - kS + (63 - lz);
  return RoundPack<F>(false, exp, (r << lz) | !exact, flags);
}

}  // namespace tessera::fp
