// The IEEE 754 binary interchange formats the FMAC works on, as bit patterns: field widths, masks
// and the classifications every operation needs. F32 and F16 are the two formats; the operation
// templates (arith.h, compare.h, convert.h) take one of them as their parameter.
#pragma once

#include <cstdint>

#include "arch/arch.h"

namespace tessera::fp {

template <int kExpBitsT, int kFracBitsT, typename BitsT, BitsT kCanonicalNanT>
struct BinaryFormat {
  using Bits = BitsT;
  static constexpr int kExpBits = kExpBitsT;
  static constexpr int kFracBits = kFracBitsT;      // stored fraction bits
  static constexpr int kPrecision = kFracBits + 1;  // significand bits, hidden bit included
  static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  static constexpr int kMaxExp = (1 << kExpBits) - 1;  // biased exponent of infinity and NaN
  static constexpr Bits kSignMask = Bits(Bits(1) << (kExpBits + kFracBits));
  static constexpr Bits kAbsMask = Bits(kSignMask - 1);
  static constexpr Bits kFracMask = Bits((Bits(1) << kFracBits) - 1);
  static constexpr Bits kHiddenBit = Bits(Bits(1) << kFracBits);
  static constexpr Bits kQuietBit = Bits(Bits(1) << (kFracBits - 1));
  static constexpr Bits kInf = Bits(Bits(kMaxExp) << kFracBits);
  static constexpr Bits kCanonicalNan = kCanonicalNanT;

  static constexpr bool Sign(Bits x) { return (x & kSignMask) != 0; }
  static constexpr int Exp(Bits x) { return (x >> kFracBits) & kMaxExp; }
  static constexpr Bits Frac(Bits x) { return x & kFracMask; }
  static constexpr bool IsNan(Bits x) { return (x & kAbsMask) > kInf; }
  static constexpr bool IsSignalingNan(Bits x) { return IsNan(x) && !(x & kQuietBit); }
  static constexpr bool IsInf(Bits x) { return (x & kAbsMask) == kInf; }
  static constexpr bool IsZero(Bits x) { return (x & kAbsMask) == 0; }
  // Infinity or NaN: the cases every arithmetic operation sends off its main path.
  static constexpr bool IsSpecial(Bits x) { return (x & kAbsMask) >= kInf; }
};

using F32 = BinaryFormat<8, 23, uint32_t, arch::kCanonicalNan32>;
using F16 = BinaryFormat<5, 10, uint16_t, static_cast<uint16_t>(arch::kCanonicalNan16)>;

}  // namespace tessera::fp
