// DSD semantics as pure functions (docs/isa.md 4.11, 6.1-6.6): descriptor fields and checks,
// element types, and the computation of one step. The DSD engine (Ce::EngineStage in dsd.cpp)
// adds readiness, resources and timing.
#pragma once

#include <cstdint>
#include <cstring>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "ce/ce_state.h"
#include "ce/fault_text.h"
#include "fabric/ramp_port.h"
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
inline bool IsFifo(const DsdOperand& o) {
  return o.kind == static_cast<uint8_t>(arch::DsdKind::kFifo);
}
// An operand that reads or writes SRAM: mem1d, mem4d, or a FIFO's buffer.
inline bool InSram(const DsdOperand& o) { return IsMem(o) || IsFifo(o); }

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
  if (IsFifo(o)) o.cap = static_cast<uint16_t>(D::Length(raw));
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

// A FIFO operand (docs/isa.md 2.3): the byte address of slot p of its buffer, and the slot after
// p (the last wraps to 0; so does any slot past the capacity).
inline int64_t FifoAddr(const DsdOperand& o, uint16_t p) {
  return o.base + static_cast<int64_t>(p) * o.size;
}
inline uint16_t FifoNext(const DsdOperand& o, uint16_t p) {
  return p + 1 >= o.cap ? 0 : static_cast<uint16_t>(p + 1);
}

// Why a descriptor is not valid at all (docs/isa.md 2.3), or false if it is.
inline bool InvalidDsd(const DsdOperand& o, DsdInvalidWhy& why) {
  using D = arch::Dsd;
  if (o.kind == 0 || (o.kind > static_cast<uint8_t>(arch::DsdKind::kMem4d) && !IsFifo(o))) {
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
  if (IsFifo(o) && (o.cap == 0 || o.cap == arch::kUnboundedLength || o.color >= arch::kNumFifos)) {
    why = DsdInvalidWhy::kFifo;
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

// The FMAC operation of a DSD operation's element step, and the sets of operations that step
// one element at a time or reduce, come from the instruction table (model/arch/isa.def:
// arch::FmacOp, arch::CombineOp, arch::IsCompare, arch::IsConversion, arch::IsReduction), as
// the RTL's do.

// 16-bit elements in both lanes of a word (f16, w16).
inline bool IsHalfFmt(arch::DsdFmt fmt) {
  return fmt == arch::DsdFmt::kF16 || fmt == arch::DsdFmt::kW16;
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

// How an FP element step feeds the FMAC, for the operations whose step is one FMAC operation on
// lanes that are all active or pair steps (docs/isa.md 6.6): resolved once per DSD operation, so
// that a run of element steps calls the FMAC operation directly.
struct StepKernel {
  enum Shape : uint8_t {
    kGeneric,  // anything else: ComputeStep works it out
    kBinary,   // op(x0, x1)
    kMulAdd,   // x0 + x1 * s
    kUnary,    // op(x0)
  };
  Shape shape = kGeneric;
  fp::ExecuteFn fn = nullptr;
};

inline StepKernel ResolveStep(arch::DsdOp op, arch::DsdFmt fmt) {
  using arch::DsdOp;
  StepKernel k;
  if ((fmt != arch::DsdFmt::kF32 && fmt != arch::DsdFmt::kF16) || op == DsdOp::kIMov ||
      arch::IsCompare(op))
    return k;
  const arch::FpFmt ff = fmt == arch::DsdFmt::kF16 ? arch::FpFmt::kF16 : arch::FpFmt::kF32;
  const arch::FpOp fop = arch::FmacOp(op);
  if (op == DsdOp::kCvtI2F && ff == arch::FpFmt::kF16)
    return k;  // an i16 source is sign-extended first (GenericStep)
  k.shape = fop == arch::FpOp::kMulAdd ? StepKernel::kMulAdd
            : arch::IsUnary(fop)       ? StepKernel::kUnary
                                       : StepKernel::kBinary;
  k.fn = fp::Resolve(fop, ff);
  return k;
}

// How a step of each shape feeds its FMAC operation `fn` (fn(a, b, c, flags) = a op b, or
// a * b + c): the one definition, for RunKernel and the bulk loop's inlined kernels.
template <StepKernel::Shape S, class Fn, class Flags>
__attribute__((always_inline)) inline uint32_t ShapeStep(Fn&& fn, uint32_t x0, uint32_t x1,
                                                         uint32_t s, Flags&& flags) {
  if constexpr (S == StepKernel::kMulAdd) {
    return fn(x1, s, x0, flags);  // x0 + x1 * s
  } else if constexpr (S == StepKernel::kUnary) {
    return fn(x0, 0, 0, flags);
  } else {
    return fn(x0, x1, 0, flags);
  }
}

// The step of a resolved kernel (shape != kGeneric); flags from the active lanes only.
inline StepValue RunKernel(const StepKernel& k, uint32_t x0, uint32_t x1, uint32_t s,
                           unsigned lanes) {
  uint8_t fl[arch::kF16Lanes];
  StepValue r;
  switch (k.shape) {
    case StepKernel::kMulAdd:
      r.value = ShapeStep<StepKernel::kMulAdd>(k.fn, x0, x1, s, fl);
      break;
    case StepKernel::kUnary:
      r.value = ShapeStep<StepKernel::kUnary>(k.fn, x0, x1, s, fl);
      break;
    default:
      r.value = ShapeStep<StepKernel::kBinary>(k.fn, x0, x1, s, fl);
      break;
  }
  r.flags = static_cast<uint8_t>(((lanes & 1) ? fl[0] : 0) | ((lanes & 2) ? fl[1] : 0));
  return r;
}

// One element step of every operation except fdot (docs/isa.md 4.11, 6.6). x0 and x1 hold the
// operands (16-bit elements in their lanes; x1 is the scalar in VS forms), s the scalar of Fill
// and V4 forms (16-bit: in both lanes). lanes: active f16 lanes (bit l = lane l). k: the
// operation's ResolveStep; GenericStep (dsd.cpp) computes what it does not resolve.
StepValue GenericStep(arch::DsdOp op, arch::DsdFmt fmt, arch::DsdForm form, uint32_t x0,
                      uint32_t x1, uint32_t s, unsigned lanes);
inline StepValue ComputeStep(const StepKernel& k, arch::DsdOp op, arch::DsdFmt fmt,
                             arch::DsdForm form, uint32_t x0, uint32_t x1, uint32_t s,
                             unsigned lanes) {
  if (k.shape != StepKernel::kGeneric) return RunKernel(k, x0, x1, s, lanes);
  return GenericStep(op, fmt, form, x0, x1, s, lanes);
}

// The scalar s of an operation's element steps (ComputeStep): R[S] as issued, a 16-bit one in
// both lanes.
inline uint32_t StepScalar(const Microthread& m) {
  const bool half_s = IsHalfFmt(m.fmt) || m.fmt == arch::DsdFmt::kMix;
  return half_s ? (m.scalar & 0xFFFF) * 0x10001u : m.scalar;
}

// The result of element step i of an operation that is not a reduction (k: its ResolveStep; s:
// its StepScalar; addr: the SRAM address of the destination's element i: ElemAddr, or a FIFO's
// slot).
inline PendingResult ElementResult(const Microthread& m, const StepKernel& k, uint32_t s, bool pair,
                                   uint32_t x0, uint32_t x1, uint64_t i, int64_t addr) {
  PendingResult r;
  if (m.form == arch::DsdForm::kVS) x1 = s;
  const StepValue v = ComputeStep(k, m.op, m.fmt, m.form, x0, x1, s, pair ? 3 : 1);
  r.flags = v.flags;
  const DsdOperand& dst = m.opnd[kDst];
  if (InSram(dst)) {
    r.kind = PendingResult::kSram;
    r.addr = static_cast<uint16_t>(addr);
    r.size = static_cast<uint8_t>(pair ? 4 : dst.size);
    r.value = r.size == 2 ? v.value & 0xFFFF : v.value;
  } else {
    uint32_t data = v.value;
    if (ElemBytes(dst.elem) == 2)
      data = (dst.idx ? ((dst.base + i) & 0xFFFF) << 16 : 0) | (v.value & 0xFFFF);
    r.kind = PendingResult::kWavelet;
    r.link = fabric::MakeLink(dst.ctrl, dst.color, data);
  }
  return r;
}

// An element of `bytes` (2 or 4) at SRAM address a, little endian as the host.
inline uint32_t ReadElem(const uint8_t* sram, uint32_t a, unsigned bytes) {
  if (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, sram + a, 4);
    return v;
  }
  uint16_t h;
  std::memcpy(&h, sram + a, 2);
  return h;
}

// The number of combine steps of an fdot (docs/isa.md 6.5): 3 for f32, 4 for f16.
inline uint8_t DotStages(arch::DsdFmt fmt) { return fmt == arch::DsdFmt::kF16 ? 4 : 3; }

// The initial partials: p0 = the accumulator, the others the identity of the combine: -0.0 for
// sums, the canonical (quiet) NaN for max and min (maximumNumber ignores a quiet NaN).
inline void DotInit(DotState& d, arch::DsdOp op, arch::DsdFmt fmt, uint32_t acc) {
  d = DotState{};
  const bool nan = arch::CombineOp(op) != arch::FpOp::kAdd;
  if (fmt == arch::DsdFmt::kF16) {
    const uint32_t id = nan ? arch::kCanonicalNan16 : 0x8000u;
    d.part = {(acc & 0xFFFF) | id << 16, id * 0x10001u, id * 0x10001u, id * 0x10001u};
  } else {
    const uint32_t id = nan ? arch::kCanonicalNan32 : 0x80000000u;
    d.part = {acc, id, id, id};
  }
}

}  // namespace tessera::ce
