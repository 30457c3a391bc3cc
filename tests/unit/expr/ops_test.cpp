// The operator table (expr/ops.h): lookups by spelling, C's precedence, and the longest-match rule
// the lexers use.
#include "expr/ops.h"

#include <gtest/gtest.h>

#include <string>

namespace tessera::expr {
namespace {

int Prec(const char* text) {
  const OpInfo* o = FindBinary(text);
  EXPECT_NE(o, nullptr) << text << " is not a binary operator";
  return o ? o->prec : -1;
}

TEST(Ops, EveryOperatorIsFoundBySpelling) {
  for (const OpInfo& o : kBinaryOps) {
    ASSERT_NE(FindBinary(o.text), nullptr) << o.text;
    EXPECT_EQ(FindBinary(o.text)->op, o.op);
    EXPECT_EQ(std::string(Spelling(o.op)), o.text);
  }
  for (const OpInfo& o : kUnaryOps) {
    ASSERT_NE(FindUnary(o.text), nullptr) << o.text;
    EXPECT_EQ(FindUnary(o.text)->op, o.op);
  }
  EXPECT_EQ(std::string(Spelling(Op::kNeg)), "-");
  EXPECT_EQ(FindBinary("="), nullptr);
  EXPECT_EQ(FindBinary("!"), nullptr) << "! is unary only";
  EXPECT_EQ(FindUnary("*"), nullptr);
}

TEST(Ops, PrecedenceIsC) {
  EXPECT_EQ(Prec("*"), Prec("/"));
  EXPECT_EQ(Prec("/"), Prec("%"));
  EXPECT_GT(Prec("*"), Prec("+"));
  EXPECT_EQ(Prec("+"), Prec("-"));
  EXPECT_GT(Prec("-"), Prec("<<"));
  EXPECT_EQ(Prec("<<"), Prec(">>"));
  EXPECT_GT(Prec(">>"), Prec("<"));
  EXPECT_EQ(Prec("<"), Prec(">="));
  EXPECT_GT(Prec("<="), Prec("=="));
  EXPECT_EQ(Prec("=="), Prec("!="));
  EXPECT_GT(Prec("!="), Prec("&"));
  EXPECT_GT(Prec("&"), Prec("^"));
  EXPECT_GT(Prec("^"), Prec("|"));
  EXPECT_GT(Prec("|"), Prec("&&"));
  EXPECT_GT(Prec("&&"), Prec("||"));
  EXPECT_GT(Prec("||"), 0) << "?: binds looser than every binary operator";
}

TEST(Ops, PunctLengthTakesTheLongestSpelling) {
  EXPECT_EQ(PunctLength("<<=", 0), 2u);
  EXPECT_EQ(PunctLength("<=", 0), 2u);
  EXPECT_EQ(PunctLength("< =", 0), 1u);
  EXPECT_EQ(PunctLength("!=", 0), 2u);
  EXPECT_EQ(PunctLength("!x", 0), 1u);
  EXPECT_EQ(PunctLength("&&", 0), 2u);
  EXPECT_EQ(PunctLength("a||b", 1), 2u);
  EXPECT_EQ(PunctLength("(", 0), 1u);
  EXPECT_EQ(PunctLength("?:", 0), 1u);
  EXPECT_EQ(PunctLength("=", 0), 0u) << "'=' is no operator of expressions";
  EXPECT_EQ(PunctLength("..", 0), 0u);
  EXPECT_EQ(PunctLength("x", 0), 0u);
}

}  // namespace
}  // namespace tessera::expr
