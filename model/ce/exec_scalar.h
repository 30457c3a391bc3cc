// Semantics of the scalar instructions (docs/isa.md 4.5-4.10) as pure functions of their operand
// values: the one definition that the fast and the traced interpreter share (Ce::Execute in
// exec_scalar.cpp adds operand fetch, resources and timing).
#pragma once

#include <cstdint>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "ce/mmio.h"
#include "fp/execute.h"
#include "isa/decode.h"

namespace tessera::ce {

inline uint32_t Sx16(uint16_t v) { return static_cast<uint32_t>(static_cast<int16_t>(v)); }

// The second operand of an ALU instruction: R[C] (R format) or the immediate, extended as its
// operand kind says (simm: sign, uimm and sh: zero).
inline uint32_t AluRhs(const arch::InsnInfo& n, const isa::Fields& f, uint32_t rc) {
  if (n.format == arch::InsnFormat::kR) return rc;
  return n.operands[n.num_operands - 1] == arch::OperandKind::kSimm ? Sx16(f.imm) : f.imm;
}

inline uint32_t AluExec(arch::AluOp op, uint32_t a, uint32_t b) {
  using arch::AluOp;
  switch (op) {
    case AluOp::kAdd:
      return a + b;
    case AluOp::kSub:
      return a - b;
    case AluOp::kAnd:
      return a & b;
    case AluOp::kOr:
      return a | b;
    case AluOp::kXor:
      return a ^ b;
    case AluOp::kShl:
      return a << (b & 31);
    case AluOp::kShr:
      return a >> (b & 31);
    case AluOp::kSra:
      return static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31));
    case AluOp::kSlt:
      return static_cast<int32_t>(a) < static_cast<int32_t>(b);
    case AluOp::kSltu:
      return a < b;
    case AluOp::kMul:
      return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(a)) *
                                   static_cast<int32_t>(static_cast<int16_t>(b)));
    case AluOp::kMulu:
      return (a & 0xFFFF) * (b & 0xFFFF);
    case AluOp::kLui:
      return b << 16;
  }
  return 0;
}

inline bool BranchTaken(arch::BrOp op, uint32_t a, uint32_t b) {
  using arch::BrOp;
  switch (op) {
    case BrOp::kEq:
      return a == b;
    case BrOp::kNe:
      return a != b;
    case BrOp::kLt:
      return static_cast<int32_t>(a) < static_cast<int32_t>(b);
    case BrOp::kGe:
      return static_cast<int32_t>(a) >= static_cast<int32_t>(b);
    case BrOp::kLtu:
      return a < b;
    case BrOp::kGeu:
      return a >= b;
  }
  return false;
}

// A mem or tgt operand's address: Z ? zx(imm) : R[B] + sx(imm), 32-bit.
inline uint32_t EffAddr(const isa::Fields& f, uint32_t rb) {
  return f.z ? f.imm : rb + Sx16(f.imm);
}

// The target of a branch, or of j / jal: pc + 4 * sx(imm).
inline int64_t RelTarget(uint16_t pc, uint16_t imm) {
  return pc + static_cast<int64_t>(static_cast<int16_t>(imm)) * 4;
}
inline int64_t JumpTarget(arch::JumpOp op, uint16_t pc, uint16_t imm, uint32_t ea) {
  return op == arch::JumpOp::kJ || op == arch::JumpOp::kJal ? RelTarget(pc, imm) : ea;
}
// Whether a taken branch's target, or a jump's, is a place the CE can fetch from (else a PcRange
// fault); a branch target is always word aligned.
inline bool BranchTargetOk(int64_t t) { return t >= 0 && t < arch::kMmioBase; }
inline bool JumpTargetOk(int64_t t) { return BranchTargetOk(t) && !(t & 3); }

inline unsigned MemBytes(arch::MemOp op) {
  switch (op) {
    case arch::MemOp::kB:
    case arch::MemOp::kBu:
      return 1;
    case arch::MemOp::kH:
    case arch::MemOp::kHu:
      return 2;
    default:
      return 4;
  }
}

// A loaded value (raw: the bytes read, little endian, zero-extended) as the register receives it.
inline uint32_t LoadExtend(arch::MemOp op, uint32_t raw) {
  switch (op) {
    case arch::MemOp::kB:
      return static_cast<uint32_t>(static_cast<int8_t>(raw));
    case arch::MemOp::kH:
      return Sx16(static_cast<uint16_t>(raw));
    default:
      return raw;
  }
}

// The bytes a load of `bytes` (1, 2 or 4) at SRAM address ea reads, little endian,
// zero-extended; and what a store of `bytes` writes of its register.
inline uint32_t ReadRaw(const uint8_t* sram, uint32_t ea, unsigned bytes) {
  uint32_t raw = 0;
  for (unsigned k = 0; k < bytes; ++k) raw |= static_cast<uint32_t>(sram[ea + k]) << (8 * k);
  return raw;
}
inline uint32_t StoreValue(uint32_t r, unsigned bytes) {
  return bytes == 4 ? r : r & ((1u << (8 * bytes)) - 1);
}
// A load or store of `bytes` at ea that goes to SRAM and cannot fault (CheckAccess finds nothing
// below the register space but misalignment).
inline bool PlainSramAccess(uint32_t ea, unsigned bytes) {
  return ea < arch::kMmioBase && ea % bytes == 0;
}

// One scalar FP instruction (docs/isa.md 4.8): f16 operations read bits 15:0 of their operands,
// only lane 0 counts, and an f16 result is zero-extended.
inline uint32_t ScalarFp(arch::FpOp op, arch::FpFmt fmt, uint32_t a, uint32_t b, uint32_t c,
                         uint8_t& flags) {
  const bool two = fp::IsTwoLane(op, fmt);
  if (two) {
    a &= 0xFFFF;
    b &= 0xFFFF;
    c &= 0xFFFF;
  }
  uint8_t fl[arch::kF16Lanes];
  uint32_t r = fp::Execute(op, fmt, a, b, c, fl);
  flags = fl[0];
  return two ? (r & 0xFFFF) : r;
}

inline uint16_t AccSizeOf(unsigned bytes) {
  return static_cast<uint16_t>(bytes == 1   ? arch::AccSize::kByte
                               : bytes == 2 ? arch::AccSize::kHalf
                               : bytes == 4 ? arch::AccSize::kWord
                                            : arch::AccSize::kDsd);
}

// The checks of a load or store (docs/isa.md 4.6; ldd/std with dsd = true, 8 bytes).
struct MemFault {
  arch::CeFault cause = arch::CeFault::kNone;
  uint32_t addr = 0;
};
inline MemFault CheckAccess(uint32_t ea, unsigned bytes, bool store) {
  using arch::CeFault;
  if (ea > 0xFFFF) return {CeFault::kOutOfRange, ea};
  if (ea % bytes) return {CeFault::kMisaligned, ea};
  if (ea >= arch::kMmioBase) {
    const RegRef r = FindReg(static_cast<uint16_t>(ea));
    if (bytes != 4 || !r.valid() || r.access == RegAccess::kHost) return {CeFault::kMmioAccess, ea};
    if (store && r.access == RegAccess::kRO) return {CeFault::kReadOnly, ea};
  }
  return {};
}

// SRAM banks (docs/isa.md 3.1): the bank mask and row of a read of `bytes` at `a`.
inline uint8_t BankMask(uint32_t a, unsigned bytes) {
  const unsigned first = (a >> 1) & 7;
  const unsigned n = bytes <= 2 ? 1 : bytes / 2;
  return static_cast<uint8_t>(((1u << n) - 1) << first);
}
inline uint16_t Row(uint32_t a) { return static_cast<uint16_t>(a >> 4); }
// Two reads conflict when they share a bank in different rows.
inline bool Conflict(uint8_t banks_a, uint16_t row_a, uint8_t banks_b, uint16_t row_b) {
  return (banks_a & banks_b) && row_a != row_b;
}

}  // namespace tessera::ce
