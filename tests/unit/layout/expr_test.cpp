// Layout expressions: precedence, floor division, overflow and range errors, and the columns
// their messages give. The rule itself is host/expr's (tests/unit/expr); these check that the
// layout's lexer, names and functions sit on it and that its messages carry file:line:column.
#include "layout/expr.h"

#include <gtest/gtest.h>

namespace tessera::layout {
namespace {

int64_t Ev(const std::string& text, const Scope& scope = {}) {
  return Expr::Parse(text).Eval(scope);
}

std::string ParseError(const std::string& text) {
  try {
    Expr::Parse(text, {"f.tl", 3, 10});
  } catch (const assembler::Error& e) {
    return e.what();
  }
  return "";
}

std::string EvalError(const std::string& text, const Scope& scope = {}) {
  try {
    Expr::Parse(text, {"f.tl", 3, 10}).Eval(scope, " (at PE(1,2))");
  } catch (const assembler::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Expr, PrecedenceAndOperators) {
  EXPECT_EQ(Ev("1+2*3"), 7);
  EXPECT_EQ(Ev("(1+2)*3"), 9);
  EXPECT_EQ(Ev("1 << 4 + 1"), 32);  // + binds tighter than <<, as in C
  EXPECT_EQ(Ev("6 & 3 == 3"), 0);   // == binds tighter than &, as in C
  EXPECT_EQ(Ev("1 | 2 ^ 3 & 1"), 1 | (2 ^ (3 & 1)));
  EXPECT_EQ(Ev("-2*-3"), 6);
  EXPECT_EQ(Ev("!0 + !5 + ~0"), 0);
  EXPECT_EQ(Ev("2 < 3 && 3 <= 3 && 4 > 3 && 3 >= 4 || 1 != 1"), 0);
  EXPECT_EQ(Ev("0 ? 1 : 2 ? 3 : 4"), 3);             // right associative
  EXPECT_EQ(Ev("0x1F + 0b101 + 010"), 31 + 5 + 10);  // no octal: 010 is ten
  EXPECT_EQ(Ev("min(4, -1, 3) + max(2, 9) + abs(-5)"), -1 + 9 + 5);
  EXPECT_EQ(Ev("100 >> 2"), 25);
  EXPECT_EQ(Ev("-1 >> 1"), -1);  // arithmetic
}

TEST(Expr, FloorDivisionAndModulo) {
  EXPECT_EQ(Ev("7 / 2"), 3);
  EXPECT_EQ(Ev("-7 / 2"), -4);
  EXPECT_EQ(Ev("7 / -2"), -4);
  EXPECT_EQ(Ev("-7 / -2"), 3);
  EXPECT_EQ(Ev("-1 % 8"), 7);  // (x-1)%W wraps to W-1
  EXPECT_EQ(Ev("7 % -2"), -1);
  EXPECT_EQ(Ev("-8 % 8"), 0);
  EXPECT_EQ(Ev("(-9223372036854775807-1) % -1"), 0);
}

TEST(Expr, NamesAndScopes) {
  Scope s;
  s.Set("x", 3);
  s.Set("W", 8);
  s.Set("x", 5);  // a later entry hides the earlier one
  EXPECT_EQ(Ev("x + y0*W",
               [] {
                 Scope t;
                 t.Set("x", 5);
                 t.Set("y0", 2);
                 t.Set("W", 8);
                 return t;
               }()),
            21);
  EXPECT_EQ(Ev("x*W", s), 40);
  EXPECT_EQ(Expr(42).Eval({}), 42);
}

TEST(Expr, EvaluationErrorsNameTheColumnAndPe) {
  Scope s;
  s.Set("x", 1);
  s.Set("FW", 8);
  EXPECT_EQ(EvalError("10 / (x-1)", s),
            "f.tl:3:13: error: division by zero in 10 / 0 (at PE(1,2))");
  EXPECT_EQ(EvalError("x % 0", s), "f.tl:3:12: error: division by zero in 1 % 0 (at PE(1,2))");
  EXPECT_EQ(EvalError("x + FX", s),
            "f.tl:3:14: error: unknown name 'FX' (did you mean 'FW'?) (at PE(1,2))");
  EXPECT_EQ(EvalError("zzzz"),
            "f.tl:3:10: error: unknown name 'zzzz' (known here: none) (at PE(1,2))");
  EXPECT_EQ(EvalError("1 << 64"),
            "f.tl:3:12: error: shift count 64 is out of range (0..63) in 1 << 64 (at PE(1,2))");
  EXPECT_EQ(EvalError("1 << -1"),
            "f.tl:3:12: error: shift count -1 is out of range (0..63) in 1 << -1 (at PE(1,2))");
  EXPECT_EQ(EvalError("3 << 62"), "f.tl:3:12: error: overflow in 3 << 62 (at PE(1,2))");
  EXPECT_EQ(EvalError("9223372036854775807 + 1"),
            "f.tl:3:30: error: overflow in 9223372036854775807 + 1 (at PE(1,2))");
  EXPECT_EQ(EvalError("-9223372036854775807 - 2"),
            "f.tl:3:31: error: overflow in -9223372036854775807 - 2 (at PE(1,2))");
  EXPECT_EQ(EvalError("4294967296 * 4294967296"),
            "f.tl:3:21: error: overflow in 4294967296 * 4294967296 (at PE(1,2))");
  EXPECT_EQ(EvalError("(-9223372036854775807-1) / -1"),
            "f.tl:3:35: error: overflow in -9223372036854775808 / -1 (at PE(1,2))");
  EXPECT_EQ(EvalError("1 + -(-9223372036854775807-1)"),
            "f.tl:3:14: error: overflow in -(-9223372036854775808) (at PE(1,2))");
  EXPECT_EQ(EvalError("abs(-9223372036854775807-1)"),
            "f.tl:3:10: error: overflow in abs(-9223372036854775808) (at PE(1,2))");
  // The untaken side of ?:, && and || is not evaluated.
  EXPECT_EQ(Ev("1 ? 2 : 1/0"), 2);
  EXPECT_EQ(Ev("0 && 1/0"), 0);
  EXPECT_EQ(Ev("1 || 1/0"), 1);
}

TEST(Expr, ParseErrorsNameTheColumn) {
  EXPECT_EQ(ParseError("x +"),
            "f.tl:3:13: error: expected an expression, found the end of the line");
  EXPECT_EQ(ParseError("(x + 1"), "f.tl:3:16: error: expected ')' to close the '(' at column 10");
  EXPECT_EQ(ParseError("min(1 2)"),
            "f.tl:3:16: error: expected ',' or ')' in the arguments of min, found '2'");
  EXPECT_EQ(ParseError("x + param"), "f.tl:3:14: error: expected an expression, found 'param'");
  EXPECT_EQ(ParseError("  "),
            "f.tl:3:12: error: expected an expression, found the end of the line");
  EXPECT_EQ(ParseError("12ab"),
            "f.tl:3:10: error: malformed number '12ab' (decimal, 0x hex or 0b binary)");
  EXPECT_EQ(ParseError("0b102"),
            "f.tl:3:10: error: malformed number '0b102' (decimal, 0x hex or 0b binary)");
  EXPECT_EQ(ParseError("99999999999999999999"),
            "f.tl:3:10: error: number '99999999999999999999' does not fit in 64 bits");
  EXPECT_EQ(ParseError("sqrt(4)"),
            "f.tl:3:10: error: unknown function 'sqrt' (there are min, max and abs)");
  EXPECT_EQ(ParseError("min(4)"), "f.tl:3:10: error: min takes two or more arguments");
  EXPECT_EQ(ParseError("abs(1, 2)"), "f.tl:3:10: error: abs takes one argument");
  EXPECT_EQ(ParseError("1 ? 2"), "f.tl:3:15: error: expected ':' of the conditional 'c ? a : b'");
  EXPECT_EQ(ParseError("x y"), "f.tl:3:12: error: unexpected 'y' after the expression");
  EXPECT_EQ(ParseError("x = 1"), "f.tl:3:12: error: unexpected '= 1' after the expression");
  EXPECT_EQ(ParseError("@"), "f.tl:3:10: error: expected an expression, found '@'");
}

TEST(Expr, PrefixStopsWhereAnExpressionCannotGoOn) {
  const std::string line = "at=x + 1..FW-1,2 rx=W";
  size_t pos = 3;
  Expr e = Expr::ParsePrefix(line, &pos, {"f.tl", 1, 1});
  EXPECT_EQ(e.text(), "x + 1");
  EXPECT_EQ(line.substr(pos, 2), "..");
}

}  // namespace
}  // namespace tessera::layout
