// Evaluating a tree (expr/eval.h): operands left to right, `&&`, `||` and `?:` evaluating only
// what they need, and the arithmetic's errors at the column of their operator.
#include "expr/eval.h"

#include <gtest/gtest.h>

#include <string>

#include "expr_test_util.h"

namespace tessera::expr::test {
namespace {

// The value of text and the number of operands read to get it.
std::pair<int64_t, int> Counted(const std::string& text) {
  const std::vector<Token> toks = Toks(text);
  const Tree tree = Parse(toks, 0, toks.size(), TestSyntax());
  const std::map<std::string, int64_t> names;
  MapEvaluator e(tree, toks, names);
  const int64_t v = e.Eval();
  return {v, e.reads};
}

TEST(Eval, NamesAndCalls) {
  EXPECT_EQ(Ev("x * W + y", {{"x", 3}, {"y", 2}, {"W", 8}}), 26);
  EXPECT_EQ(Ev("neg(x - 1)", {{"x", 3}}), -2);
}

TEST(Eval, OnlyTheSideTakenIsEvaluated) {
  EXPECT_EQ(Ev("0 && 1/0"), 0);
  EXPECT_EQ(Ev("1 || 1/0"), 1);
  EXPECT_EQ(Ev("1 ? 2 : 1/0"), 2);
  EXPECT_EQ(Ev("0 ? 1/0 : 3"), 3);
  EXPECT_EQ(Ev("0 && unknown"), 0);
  EXPECT_EQ(Ev("2 && 3"), 1) << "&& gives 0 or 1";
  EXPECT_EQ(Ev("0 || -5"), 1) << "|| gives 0 or 1";
  EXPECT_EQ(Counted("0 && 1 && 1"), std::make_pair(int64_t(0), 1));
  EXPECT_EQ(Counted("1 || 0 || 0"), std::make_pair(int64_t(1), 1));
  EXPECT_EQ(Counted("1 ? 2 : 3"), std::make_pair(int64_t(2), 2));
}

TEST(Eval, OperandsLeftToRight) {
  EXPECT_EQ(ErrorOf("a + b"), "1: unknown name 'a'");
  EXPECT_EQ(ErrorOf("1/0 + 1/0"), "2: division by zero in 1 / 0");
}

TEST(Eval, ErrorsAreAtTheColumnOfTheirOperator) {
  EXPECT_EQ(ErrorOf("10 / (1 - 1)"), "4: division by zero in 10 / 0");
  EXPECT_EQ(ErrorOf("1 + 10 % 0"), "8: division by zero in 10 % 0");
  EXPECT_EQ(ErrorOf("9223372036854775807 + 1"), "21: overflow in 9223372036854775807 + 1");
  EXPECT_EQ(ErrorOf("0 - 9223372036854775807 - 2"), "25: overflow in -9223372036854775807 - 2");
  EXPECT_EQ(ErrorOf("4294967296 * 4294967296"), "12: overflow in 4294967296 * 4294967296");
  EXPECT_EQ(ErrorOf("(0 - 9223372036854775807 - 1) / -1"),
            "31: overflow in -9223372036854775808 / -1");
  EXPECT_EQ(ErrorOf("1 + -(0 - 9223372036854775807 - 1)"),
            "5: overflow in -(-9223372036854775808)");
  EXPECT_EQ(ErrorOf("3 << 62"), "3: overflow in 3 << 62");
  EXPECT_EQ(ErrorOf("1 << 64"), "3: shift count 64 is out of range (0..63) in 1 << 64");
  EXPECT_EQ(ErrorOf("1 >> -1"), "3: shift count -1 is out of range (0..63) in 1 >> -1");
}

}  // namespace
}  // namespace tessera::expr::test
