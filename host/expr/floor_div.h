// Integer division as every expression language of Tessera defines it (assembly, docs/assembler.md;
// layouts, docs/layout.md; both through expr/arith.h): `/` and `%` round toward minus infinity,
// so `-7 / 2` is -4 and `-1 % 8` is 7, and `(x - 1) % W` wraps to W - 1. The remainder has the
// divisor's sign.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace tessera::expr {

// a / b rounded toward minus infinity; nullopt on division by zero and on min / -1 (overflow).
inline std::optional<int64_t> FloorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// a - b * FloorDiv(a, b); nullopt on division by zero (min % -1 is 0).
inline std::optional<int64_t> FloorMod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace tessera::expr
