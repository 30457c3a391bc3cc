// The one arithmetic rule of Tessera's integer expressions (assembly and layouts):
// - 64-bit signed values; comparisons and `! && ||` give 0 or 1; `>>` is arithmetic.
// - `/` and `%` round toward minus infinity (expr/floor_div.h): `-7 / 2` is -4, `-1 % 8` is 7.
// - Overflow (of `+ - *`, negation, `<<`, `min / -1`), division by zero and a shift count
//   outside 0..63 are errors, never wrapped silently: a LineError at `pos`, the operator's offset,
//   whose message names the operation ("overflow in 9223372036854775807 + 1").
#pragma once

#include <cstddef>
#include <cstdint>

#include "expr/ops.h"

namespace tessera::expr {

// a op b for a binary op (`&&` and `||` here evaluate both sides; the evaluator does not).
int64_t Apply(Op op, int64_t a, int64_t b, size_t pos);

// op a for a unary op.
int64_t Apply(Op op, int64_t a, size_t pos);

}  // namespace tessera::expr
