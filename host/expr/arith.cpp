// The arithmetic of expressions and its checks (expr/arith.h).
#include "expr/arith.h"

#include <fmt/core.h>

#include <limits>
#include <optional>
#include <stdexcept>

#include "expr/floor_div.h"
#include "expr/line_error.h"

namespace tessera::expr {
namespace {

[[noreturn]] void Overflow(Op op, int64_t a, int64_t b, size_t pos) {
  throw LineError(pos, fmt::format("overflow in {} {} {}", a, Spelling(op), b));
}

}  // namespace

int64_t Apply(Op op, int64_t a, int64_t b, size_t pos) {
  int64_t r = 0;
  switch (op) {
    case Op::kAdd:
      if (__builtin_add_overflow(a, b, &r)) Overflow(op, a, b, pos);
      return r;
    case Op::kSub:
      if (__builtin_sub_overflow(a, b, &r)) Overflow(op, a, b, pos);
      return r;
    case Op::kMul:
      if (__builtin_mul_overflow(a, b, &r)) Overflow(op, a, b, pos);
      return r;
    case Op::kDiv:
    case Op::kMod: {
      if (b == 0) {
        throw LineError(pos, fmt::format("division by zero in {} {} 0", a, Spelling(op)));
      }
      const std::optional<int64_t> q = op == Op::kDiv ? FloorDiv(a, b) : FloorMod(a, b);
      if (!q) Overflow(op, a, b, pos);  // min / -1
      return *q;
    }
    case Op::kShl:
    case Op::kShr:
      if (b < 0 || b > 63) {
        throw LineError(pos, fmt::format("shift count {} is out of range (0..63) in {} {} {}", b, a,
                                         Spelling(op), b));
      }
      if (op == Op::kShr) return a >> b;
      r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
      if ((r >> b) != a) Overflow(op, a, b, pos);  // a bit that differs from the sign shifted out
      return r;
    case Op::kLt:
      return a < b;
    case Op::kLe:
      return a <= b;
    case Op::kGt:
      return a > b;
    case Op::kGe:
      return a >= b;
    case Op::kEq:
      return a == b;
    case Op::kNe:
      return a != b;
    case Op::kAnd:
      return a & b;
    case Op::kXor:
      return a ^ b;
    case Op::kOr:
      return a | b;
    case Op::kLAnd:
      return a != 0 && b != 0;
    case Op::kLOr:
      return a != 0 || b != 0;
    case Op::kNeg:
    case Op::kPlus:
    case Op::kNot:
    case Op::kBitNot:
      break;
  }
  throw std::logic_error(fmt::format("'{}' is not a binary operator", Spelling(op)));
}

int64_t Apply(Op op, int64_t a, size_t pos) {
  switch (op) {
    case Op::kNeg:
      if (a == std::numeric_limits<int64_t>::min()) {
        throw LineError(pos, fmt::format("overflow in -({})", a));
      }
      return -a;
    case Op::kPlus:
      return a;
    case Op::kNot:
      return a == 0;
    case Op::kBitNot:
      return ~a;
    default:
      break;
  }
  throw std::logic_error(fmt::format("'{}' is not a unary operator", Spelling(op)));
}

}  // namespace tessera::expr
