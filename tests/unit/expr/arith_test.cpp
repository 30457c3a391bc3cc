// The one arithmetic rule (expr/arith.h, expr/floor_div.h): every operator's value, division
// rounding toward minus infinity, and every overflow, division by zero and shift count error
// with its message and position.
#include "expr/arith.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "expr/floor_div.h"
#include "expr/line_error.h"

namespace tessera::expr {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// "pos: message" of the error of a op b, or "" if there is none.
std::string Error(Op op, int64_t a, int64_t b) {
  try {
    Apply(op, a, b, 7);
  } catch (const LineError& e) {
    return std::to_string(e.pos()) + ": " + e.what();
  }
  return "";
}

TEST(Arith, EveryBinaryOperator) {
  EXPECT_EQ(Apply(Op::kMul, -6, 7, 0), -42);
  EXPECT_EQ(Apply(Op::kDiv, 7, 2, 0), 3);
  EXPECT_EQ(Apply(Op::kMod, 7, 2, 0), 1);
  EXPECT_EQ(Apply(Op::kAdd, 2, 3, 0), 5);
  EXPECT_EQ(Apply(Op::kSub, 2, 3, 0), -1);
  EXPECT_EQ(Apply(Op::kShl, 1, 40, 0), int64_t(1) << 40);
  EXPECT_EQ(Apply(Op::kShl, -1, 63, 0), kMin) << "the sign bit is not lost";
  EXPECT_EQ(Apply(Op::kShr, -16, 2, 0), -4) << "arithmetic shift";
  EXPECT_EQ(Apply(Op::kShr, kMax, 63, 0), 0);
  EXPECT_EQ(Apply(Op::kLt, 1, 2, 0), 1);
  EXPECT_EQ(Apply(Op::kLe, 2, 2, 0), 1);
  EXPECT_EQ(Apply(Op::kGt, 1, 2, 0), 0);
  EXPECT_EQ(Apply(Op::kGe, 1, 2, 0), 0);
  EXPECT_EQ(Apply(Op::kEq, 3, 3, 0), 1);
  EXPECT_EQ(Apply(Op::kNe, 3, 3, 0), 0);
  EXPECT_EQ(Apply(Op::kAnd, 12, 10, 0), 8);
  EXPECT_EQ(Apply(Op::kXor, 12, 10, 0), 6);
  EXPECT_EQ(Apply(Op::kOr, 12, 10, 0), 14);
  EXPECT_EQ(Apply(Op::kLAnd, 5, 0, 0), 0);
  EXPECT_EQ(Apply(Op::kLAnd, 5, -1, 0), 1);
  EXPECT_EQ(Apply(Op::kLOr, 0, 0, 0), 0);
  EXPECT_EQ(Apply(Op::kLOr, 0, 9, 0), 1);
}

TEST(Arith, EveryUnaryOperator) {
  EXPECT_EQ(Apply(Op::kNeg, 5, 0), -5);
  EXPECT_EQ(Apply(Op::kNeg, kMax, 0), kMin + 1);
  EXPECT_EQ(Apply(Op::kPlus, -5, 0), -5);
  EXPECT_EQ(Apply(Op::kNot, 0, 0), 1);
  EXPECT_EQ(Apply(Op::kNot, 7, 0), 0);
  EXPECT_EQ(Apply(Op::kBitNot, 0, 0), -1);
}

TEST(Arith, DivisionRoundsTowardMinusInfinity) {
  EXPECT_EQ(Apply(Op::kDiv, -7, 2, 0), -4);
  EXPECT_EQ(Apply(Op::kDiv, 7, -2, 0), -4);
  EXPECT_EQ(Apply(Op::kDiv, -7, -2, 0), 3);
  EXPECT_EQ(Apply(Op::kMod, -7, 2, 0), 1);
  EXPECT_EQ(Apply(Op::kMod, -1, 8, 0), 7) << "(x-1)%W wraps to W-1";
  EXPECT_EQ(Apply(Op::kMod, 7, -2, 0), -1) << "the remainder has the divisor's sign";
  EXPECT_EQ(Apply(Op::kMod, -8, 8, 0), 0);
  EXPECT_EQ(Apply(Op::kMod, kMin, -1, 0), 0);
  EXPECT_EQ(FloorMod(kMin, -1), 0);
  EXPECT_FALSE(FloorDiv(kMin, -1).has_value());
  EXPECT_FALSE(FloorDiv(1, 0).has_value());
  EXPECT_FALSE(FloorMod(1, 0).has_value());
}

TEST(Arith, OverflowIsAnErrorNamingTheOperation) {
  EXPECT_EQ(Error(Op::kAdd, kMax, 1), "7: overflow in 9223372036854775807 + 1");
  EXPECT_EQ(Error(Op::kAdd, kMin, -1), "7: overflow in -9223372036854775808 + -1");
  EXPECT_EQ(Error(Op::kSub, kMin, 1), "7: overflow in -9223372036854775808 - 1");
  EXPECT_EQ(Error(Op::kSub, 0, kMin), "7: overflow in 0 - -9223372036854775808");
  EXPECT_EQ(Error(Op::kMul, int64_t(1) << 32, int64_t(1) << 32),
            "7: overflow in 4294967296 * 4294967296");
  EXPECT_EQ(Error(Op::kMul, kMin, -1), "7: overflow in -9223372036854775808 * -1");
  EXPECT_EQ(Error(Op::kDiv, kMin, -1), "7: overflow in -9223372036854775808 / -1");
  EXPECT_EQ(Error(Op::kShl, 3, 62), "7: overflow in 3 << 62");
  EXPECT_EQ(Error(Op::kShl, 1, 63), "7: overflow in 1 << 63") << "the sign bit would change";
  EXPECT_EQ(Error(Op::kShl, -2, 63), "7: overflow in -2 << 63");
  try {
    Apply(Op::kNeg, kMin, 4);
    FAIL() << "negating the minimum did not fail";
  } catch (const LineError& e) {
    EXPECT_EQ(e.pos(), 4u);
    EXPECT_EQ(std::string(e.what()), "overflow in -(-9223372036854775808)");
  }
}

TEST(Arith, DivisionByZeroAndShiftCounts) {
  EXPECT_EQ(Error(Op::kDiv, 10, 0), "7: division by zero in 10 / 0");
  EXPECT_EQ(Error(Op::kMod, 10, 0), "7: division by zero in 10 % 0");
  EXPECT_EQ(Error(Op::kShl, 1, 64), "7: shift count 64 is out of range (0..63) in 1 << 64");
  EXPECT_EQ(Error(Op::kShl, 1, -1), "7: shift count -1 is out of range (0..63) in 1 << -1");
  EXPECT_EQ(Error(Op::kShr, 1, 64), "7: shift count 64 is out of range (0..63) in 1 >> 64");
  EXPECT_EQ(Error(Op::kShr, 1, -1), "7: shift count -1 is out of range (0..63) in 1 >> -1");
}

}  // namespace
}  // namespace tessera::expr
