// DSD semantics as pure functions (docs/isa.md 4.11, 6.1-6.6): descriptor fields and checks,
// element types, and the computation of one step. The DSD engine (Ce::EngineStage in dsd.cpp)
// adds readiness, resources and timing.
#pragma once

#include <cstdint>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "ce/ce_state.h"
#include "ce/fault_text.h"
#include "fp/convert.h"
#include "fp/execute.h"

namespace tessera::ce {

inline bool IsMem(const DsdOperand& o) {
  return o.kind == static_cast<uint8_t>(arch::DsdKind::kMem1d) ||
         o.kind == static_cast<uint8_t>(arch::DsdKind::kMem4d);
}
inline bool IsMem4d(const DsdOperand& o) {
  return o.kind == static_cast<uint8_t>(arch::DsdKind::kMem4d);
}

// A descriptor register's fields; ext is the odd register of its pair (used by mem4d only).
inline DsdOperand DecodeDsd(uint64_t raw, uint8_t dsr, uint64_t ext) {
  using D = arch::Dsd;
  using X = arch::Dsd4x;
  DsdOperand o;
  o.raw = raw;
  o.dsr = dsr;
  o.kind = static_cast<uint8_t>(D::Kind(raw));
  o.elem = static_cast<uint8_t>(D::Elem(raw));
  o.size = ElemBytes(o.elem);
  o.color = static_cast<uint8_t>(D::Color(raw));
  o.ctrl = D::Ctrl(raw);
  o.idx = D::Idx(raw);
  o.base = static_cast<uint16_t>(D::Base(raw));
  o.stride = static_cast<int16_t>(D::Stride(raw));
  if (IsMem4d(o)) {
    o.dim_len = {static_cast<uint16_t>(D::Length(raw)), static_cast<uint16_t>(X::Len1(ext)),
                 static_cast<uint16_t>(X::Len2(ext))};
    o.dim_stride = {static_cast<int16_t>(X::Stride1(ext)), static_cast<int16_t>(X::Stride2(ext)),
                    static_cast<int16_t>(X::Stride3(ext))};
  }
  return o;
}

// The number of elements a mem4d descriptor describes: the product of its four lengths.
inline uint64_t Mem4dCount(const DsdOperand& o) {
  return uint64_t{o.dim_len[0]} * o.dim_len[1] * o.dim_len[2] * o.color;
}

// The byte address of element i of a mem1d or mem4d operand, exactly (docs/isa.md 4.11). mem4d
// walks dimension 0 fastest; a length 0 of a dimension 0..2 counts as 1 (only an operand that does
// not set N can have one and still step).
inline int64_t ElemAddr(const DsdOperand& o, uint64_t i) {
  if (!IsMem4d(o)) return o.base + static_cast<int64_t>(i) * o.stride * o.size;
  int64_t off = 0;
  uint64_t t = i;
  for (int k = 0; k < 3; ++k) {
    const uint64_t len = o.dim_len[k] ? o.dim_len[k] : 1;
    off += static_cast<int64_t>(t % len) * (k ? o.dim_stride[k - 1] : o.stride);
    t /= len;
  }
  off += static_cast<int64_t>(t) * o.dim_stride[2];
  return o.base + off * o.size;
}

// Why a descriptor is not valid at all (docs/isa.md 2.3), or false if it is.
inline bool InvalidDsd(const DsdOperand& o, DsdInvalidWhy& why) {
  using D = arch::Dsd;
  if (o.kind == 0 || o.kind > static_cast<uint8_t>(arch::DsdKind::kMem4d)) {
    why = DsdInvalidWhy::kKind;
    return true;
  }
  if (o.elem > static_cast<uint8_t>(arch::ElemType::kU16)) {
    why = DsdInvalidWhy::kType;
    return true;
  }
  if (D::Rsvd0(o.raw) || D::Rsvd1(o.raw)) {
    why = DsdInvalidWhy::kReserved;
    return true;
  }
  if (IsMem4d(o) && o.dsr % 2) {
    why = DsdInvalidWhy::kPair;
    return true;
  }
  return false;
}

// Whether an element type is in the class a role requires (docs/isa.md 4.11).
inline bool TypeFits(arch::ElemClass c, uint8_t elem) {
  using arch::ElemType;
  const auto e = static_cast<ElemType>(elem);
  switch (c) {
    case arch::ElemClass::kF32:
      return e == ElemType::kF32;
    case arch::ElemClass::kF16:
      return e == ElemType::kF16;
    case arch::ElemClass::kI32:
      return e == ElemType::kI32 || e == ElemType::kU32;
    case arch::ElemClass::kI16:
      return e == ElemType::kI16 || e == ElemType::kU16;
    case arch::ElemClass::kX32:
      return ElemBytes(elem) == 4;
    case arch::ElemClass::kX16:
      return ElemBytes(elem) == 2;
    case arch::ElemClass::kNone:
      return true;
  }
  return false;
}

// The FMAC operation of a DSD operation (DsdOp orders its FP operations differently from FpOp).
inline arch::FpOp FpOpOf(arch::DsdOp op) {
  using arch::DsdOp;
  using arch::FpOp;
  switch (op) {
    case DsdOp::kAdd:
      return FpOp::kAdd;
    case DsdOp::kSub:
      return FpOp::kSub;
    case DsdOp::kMul:
      return FpOp::kMul;
    case DsdOp::kMax:
      return FpOp::kMax;
    case DsdOp::kMin:
      return FpOp::kMin;
    case DsdOp::kNeg:
      return FpOp::kNeg;
    case DsdOp::kAbs:
      return FpOp::kAbs;
    case DsdOp::kCvt:
      return FpOp::kCvtF2F;
    case DsdOp::kCvtF2I:
      return FpOp::kCvtF2I;
    case DsdOp::kCvtI2F:
      return FpOp::kCvtI2F;
    case DsdOp::kMulAdd:
    case DsdOp::kDot:
      return FpOp::kMulAdd;
    case DsdOp::kDiv:
      return FpOp::kDiv;
    case DsdOp::kSqrt:
      return FpOp::kSqrt;
    case DsdOp::kCmpEq:
    case DsdOp::kCmpNe:
      return FpOp::kEq;
    case DsdOp::kCmpLt:
    case DsdOp::kCmpGt:
      return FpOp::kLt;
    case DsdOp::kCmpLe:
    case DsdOp::kCmpGe:
      return FpOp::kLe;
    default:
      return FpOp::kAdd;
  }
}

// Element-wise compares (v0.2): a mask of ones or zeros from the FMAC's compare; they step one
// element at a time (the FMAC compares lane 0 only).
inline bool IsCompare(arch::DsdOp op) {
  return op >= arch::DsdOp::kCmpEq && op <= arch::DsdOp::kCmpGe;
}

inline bool IsFmacFmt(arch::DsdFmt fmt) {
  return fmt == arch::DsdFmt::kF32 || fmt == arch::DsdFmt::kF16 || fmt == arch::DsdFmt::kMix;
}

struct StepValue {
  uint32_t value = 0;
  uint8_t flags = 0;
};

// An FMAC operation's flags from the active lanes only (docs/isa.md 6.2).
inline uint32_t FmacLanes(arch::FpOp op, arch::FpFmt fmt, uint32_t a, uint32_t b, uint32_t c,
                          unsigned lanes, uint8_t& flags) {
  uint8_t fl[arch::kF16Lanes];
  const uint32_t r = fp::Execute(op, fmt, a, b, c, fl);
  flags |= static_cast<uint8_t>(((lanes & 1) ? fl[0] : 0) | ((lanes & 2) ? fl[1] : 0));
  return r;
}

inline uint32_t Int16Lanes(arch::DsdOp op, uint32_t a, uint32_t b, uint32_t s) {
  uint32_t r = 0;
  for (int l = 0; l < 2; ++l) {
    const uint32_t x = (a >> (16 * l)) & 0xFFFF, y = (b >> (16 * l)) & 0xFFFF;
    uint32_t v = 0;
    switch (op) {
      case arch::DsdOp::kSel:
        v = x ? y : (s >> (16 * l)) & 0xFFFF;
        break;
      case arch::DsdOp::kIAdd:
        v = x + y;
        break;
      case arch::DsdOp::kISub:
        v = x - y;
        break;
      case arch::DsdOp::kIAnd:
        v = x & y;
        break;
      case arch::DsdOp::kIOr:
        v = x | y;
        break;
      case arch::DsdOp::kIXor:
        v = x ^ y;
        break;
      case arch::DsdOp::kIShl:
        v = x << (y & 15);
        break;
      case arch::DsdOp::kIShr:
        v = x >> (y & 15);
        break;
      default:
        v = x;
        break;
    }
    r |= (v & 0xFFFF) << (16 * l);
  }
  return r;
}

// One element step of every operation except fdot (docs/isa.md 4.11, 6.6). x0 and x1 hold the
// operands (16-bit elements in their lanes; x1 is the scalar in VS forms), s the scalar of Fill
// and V4 forms (16-bit: in both lanes). lanes: active f16 lanes (bit l = lane l).
inline StepValue ComputeStep(arch::DsdOp op, arch::DsdFmt fmt, arch::DsdForm form, uint32_t x0,
                             uint32_t x1, uint32_t s, unsigned lanes) {
  using arch::DsdFmt;
  using arch::DsdOp;
  using arch::FpFmt;
  StepValue r;
  if (op == DsdOp::kIMov) {
    r.value = form == arch::DsdForm::kFill ? s : x0;
    return r;
  }
  if (fmt == DsdFmt::kW32) {
    switch (op) {
      case DsdOp::kIAdd:
        r.value = x0 + x1;
        break;
      case DsdOp::kISub:
        r.value = x0 - x1;
        break;
      case DsdOp::kIAnd:
        r.value = x0 & x1;
        break;
      case DsdOp::kIOr:
        r.value = x0 | x1;
        break;
      case DsdOp::kIXor:
        r.value = x0 ^ x1;
        break;
      case DsdOp::kIShl:
        r.value = x0 << (x1 & 31);
        break;
      case DsdOp::kIShr:
        r.value = x0 >> (x1 & 31);
        break;
      case DsdOp::kSel:
        r.value = x0 ? x1 : s;
        break;
      default:
        break;
    }
    return r;
  }
  if (fmt == DsdFmt::kW16 && op == DsdOp::kCvtF2I) {  // fh2i: no FMAC, one element a step
    r.value = fp::F16ToI16TowardZero(static_cast<uint16_t>(x0), r.flags);
    return r;
  }
  if (fmt == DsdFmt::kW16) {
    r.value = Int16Lanes(op, x0, x1, s);
    return r;
  }
  if (fmt == DsdFmt::kMix) {  // fmachs: dst = src0 + f32(src1) * f32(s), one rounding
    const uint32_t b = FmacLanes(arch::FpOp::kCvtF2F, FpFmt::kF16, x1 & 0xFFFF, 0, 0, 1, r.flags);
    const uint32_t c = FmacLanes(arch::FpOp::kCvtF2F, FpFmt::kF16, s & 0xFFFF, 0, 0, 1, r.flags);
    r.value = FmacLanes(arch::FpOp::kMulAdd, FpFmt::kF32, b, c, x0, 1, r.flags);
    return r;
  }
  const FpFmt ff = fmt == DsdFmt::kF16 ? FpFmt::kF16 : FpFmt::kF32;
  const arch::FpOp fop = FpOpOf(op);
  if (IsCompare(op)) {  // gt and ge swap the operands of lt and le; ne inverts eq
    const bool swap = op == DsdOp::kCmpGt || op == DsdOp::kCmpGe;
    uint32_t bit = FmacLanes(fop, ff, swap ? x1 : x0, swap ? x0 : x1, 0, 1, r.flags) & 1;
    if (op == DsdOp::kCmpNe) bit ^= 1;
    r.value = bit ? (ff == FpFmt::kF16 ? 0xFFFFu : 0xFFFFFFFFu) : 0;
    return r;
  }
  switch (op) {
    case DsdOp::kMulAdd:  // x0 + x1 * s
      r.value = FmacLanes(fop, ff, x1, s, x0, lanes, r.flags);
      break;
    case DsdOp::kNeg:
    case DsdOp::kAbs:
    case DsdOp::kCvt:
    case DsdOp::kSqrt:
    case DsdOp::kCvtF2I:
      r.value = FmacLanes(fop, ff, x0, 0, 0, lanes, r.flags);
      break;
    case DsdOp::kCvtI2F:  // an i16 source is sign-extended
      r.value = FmacLanes(fop, ff, fmt == DsdFmt::kF16 ? uint32_t(int32_t(int16_t(x0))) : x0, 0, 0,
                          lanes, r.flags);
      break;
    default:
      r.value = FmacLanes(fop, ff, x0, x1, 0, lanes, r.flags);
      break;
  }
  return r;
}

// The number of combine steps of an fdot (docs/isa.md 6.5): 3 for f32, 4 for f16.
inline uint8_t DotStages(arch::DsdFmt fmt) { return fmt == arch::DsdFmt::kF16 ? 4 : 3; }

// Conversions step one element at a time: the FMAC converts lane 0 only.
inline bool IsConversion(arch::DsdOp op) {
  return op == arch::DsdOp::kCvt || op == arch::DsdOp::kCvtF2I || op == arch::DsdOp::kCvtI2F;
}

// Whether an operation reduces into R[S] through fdot's partials and combine steps (6.5): fdot,
// and the sum, max and min reductions.
inline bool IsReduction(arch::DsdOp op) {
  return op == arch::DsdOp::kDot || op == arch::DsdOp::kSum || op == arch::DsdOp::kMaxR ||
         op == arch::DsdOp::kMinR;
}

// The FMAC operation of a reduction's combine steps, and of its element steps (MulAdd for the
// dot product and the sum, into the partial as the addend; Max or Min with the partial as b).
inline arch::FpOp CombineOp(arch::DsdOp op) {
  return op == arch::DsdOp::kMaxR   ? arch::FpOp::kMax
         : op == arch::DsdOp::kMinR ? arch::FpOp::kMin
                                    : arch::FpOp::kAdd;
}

// The initial partials: p0 = the accumulator, the others the identity of the combine: -0.0 for
// sums, the canonical (quiet) NaN for max and min (maximumNumber ignores a quiet NaN).
inline void DotInit(DotState& d, arch::DsdOp op, arch::DsdFmt fmt, uint32_t acc) {
  d = DotState{};
  const bool nan = CombineOp(op) != arch::FpOp::kAdd;
  if (fmt == arch::DsdFmt::kF16) {
    const uint32_t id = nan ? arch::kCanonicalNan16 : 0x8000u;
    d.part = {(acc & 0xFFFF) | id << 16, id * 0x10001u, id * 0x10001u, id * 0x10001u};
  } else {
    const uint32_t id = nan ? arch::kCanonicalNan32 : 0x80000000u;
    d.part = {acc, id, id, id};
  }
}

}  // namespace tessera::ce
