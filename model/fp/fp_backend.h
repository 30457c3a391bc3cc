// One FMAC operation as the datapath sees it, and the interface every FMAC backend implements
// (the soft-float functional model and the verilated RTL datapath), so that `tessera fpcheck`,
// the tests and the benchmarks drive both the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "arch/arch.h"

namespace tessera::fp {

// Operands are 32-bit words. f32: the value. f16 arithmetic (Add, Sub, Mul, MulAdd, Min, Max,
// Neg, Abs): two lanes, lane 0 in bits 15:0 and lane 1 in bits 31:16, computed independently.
// f16 comparisons and conversions use lane 0 only (bits 15:0); integers are 32-bit two's
// complement. MulAdd computes a * b + c with one rounding.
struct FpCase {
  arch::FpOp op;
  arch::FpFmt fmt;
  uint32_t a, b, c;
};

// flags[l]: exception flags (arch::FpFlag bits) raised by lane l; lane 1 is 0 unless the case is
// an f16 two-lane operation.
struct FpOut {
  uint32_t result;
  uint8_t flags[arch::kF16Lanes];
};

class FpBackend {
 public:
  virtual ~FpBackend() = default;
  virtual const char* Name() const = 0;
  // Runs n cases; out[i] is the result of in[i]. Backends stream cases through the datapath at
  // their full rate (the RTL issues one case per cycle).
  virtual void Run(const FpCase* in, FpOut* out, size_t n) = 0;
};

}  // namespace tessera::fp
