// The FMAC datapath's function at the word level, the contract FpCase describes (fp_backend.h):
// a 32-bit operation and format code, three 32-bit operand words, a 32-bit result and per-lane
// flags. f16 Add, Sub, Mul, MulAdd, Min, Max, Neg and Abs work on two independent lanes (bits
// 15:0 and 31:16); f16 comparisons and conversions read lane 0 only. A 16-bit result (f16 from a
// conversion) is zero-extended; a comparison gives 0 or 1. For CvtF2F and CvtF2I the format is
// the source's, for CvtI2F the destination's. Use scalar_ops.h for one scalar at a time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "arch/arch.h"
#include "fp/fp_backend.h"

namespace tessera::fp {

// True when (op, fmt) computes two f16 lanes, each with its own flags (the ops of the
// IsTwoLaneF16 set in model/arch/tessera.def).
constexpr bool IsTwoLane(arch::FpOp op, arch::FpFmt fmt) {
  return fmt == arch::FpFmt::kF16 && arch::IsTwoLaneF16(op);
}

// Sets flags[0] and flags[1] (0 for lane 1 of a one-lane operation) and returns the result word.
// Throws std::invalid_argument for an op or fmt value outside the enums (ExecuteBatch too).
uint32_t Execute(arch::FpOp op, arch::FpFmt fmt, uint32_t a, uint32_t b, uint32_t c,
                 uint8_t flags[arch::kF16Lanes]);

// Execute for one (op, fmt), looked up once: for callers that run one operation many times.
using ExecuteFn = uint32_t (*)(uint32_t a, uint32_t b, uint32_t c, uint8_t flags[arch::kF16Lanes]);
ExecuteFn Resolve(arch::FpOp op, arch::FpFmt fmt);

// out[i] = Execute(in[i]) for i < n.
void ExecuteBatch(const FpCase* in, FpOut* out, size_t n);

}  // namespace tessera::fp
