// Directed vectors for an FMAC operation, for the operations TestFloat has no vectors for (Min,
// Max, Neg, Abs): operand pairs from special and random values, each vector's expected result and
// flags computed by the functional model (Execute). Checking another backend with them
// (vector_check.h, `tessera fpcheck --directed`) compares it with the functional model, whose own
// rules the unit tests pin down (tests/unit/fp).
#pragma once

#include <cstdint>
#include <vector>

#include "arch/arch.h"
#include "fp/testfloat_file.h"

namespace tessera::fp {

// The operand values for a format (arch::FpFmt::kF32: f32 bit patterns; kF16: f16 bit patterns in
// bits 15:0), 84 of them: 24 special values, each with both signs (zero, the smallest and largest
// subnormal, the smallest normal, one and the next value up, the largest finite value, infinity,
// the quiet NaN with an empty and a non-empty payload, two signaling NaNs); 40 random values; 10
// pairs of adjacent bit patterns (for the magnitude compare). Fixed: the same on every call.
std::vector<uint32_t> DirectedValues(arch::FpFmt fmt);

// Every ordered pair (x, y) of DirectedValues as a vector with a = x and b = y (a one-operand
// operation ignores b, so b sweeps the values too); a three-operand operation's c cycles through
// the values. i32 operands take the f32 values' bit patterns. For a two-lane f16 operation every
// pair appears twice, so that CheckVectors, which packs consecutive vectors into lanes 0 and 1,
// runs each pair once in each lane: vector 2i is pair i, vector 2i + 1 is pair n - 1 - i. The
// file's path is "directed" and a vector's line is its 1-based index.
TestFloatFile DirectedVectors(const TestFloatOp& op);

}  // namespace tessera::fp
