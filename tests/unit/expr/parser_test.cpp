// The parser (expr/parser.h): C's precedence and associativity, the tree it builds, where a
// prefix stops, what the Syntax hooks see, and its errors with their columns.
#include "expr/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expr_test_util.h"

namespace tessera::expr::test {
namespace {

TEST(Parser, PrecedenceIsC) {
  EXPECT_EQ(Ev("1 + 2 * 3"), 7);
  EXPECT_EQ(Ev("(1 + 2) * 3"), 9);
  EXPECT_EQ(Ev("7 - 6 % 4"), 5);
  EXPECT_EQ(Ev("1 << 2 + 1"), 8);    // + binds tighter than <<
  EXPECT_EQ(Ev("1 << 2 < 5"), 1);    // << tighter than <
  EXPECT_EQ(Ev("3 < 4 == 1"), 1);    // relational before equality
  EXPECT_EQ(Ev("6 & 3 == 3"), 0);    // == tighter than &
  EXPECT_EQ(Ev("12 & 10 ^ 6"), 14);  // & before ^
  EXPECT_EQ(Ev("1 | 2 ^ 3"), 1);     // ^ before |
  EXPECT_EQ(Ev("1 | 2 && 0"), 0);    // | before &&
  EXPECT_EQ(Ev("0 || 0 && 1"), 0);   // && before ||
  EXPECT_EQ(Ev("0 || 1 ? 5 : 6"), 5);
  EXPECT_EQ(Ev("-2 * -3"), 6);  // unary binds tightest
  EXPECT_EQ(Ev("!5 + !0 + ~0"), 0);
  EXPECT_EQ(Ev("- - 3"), 3);
  EXPECT_EQ(Ev("neg(2) * 3"), -6);
}

TEST(Parser, Associativity) {
  EXPECT_EQ(Ev("10 - 4 - 3"), 3);
  EXPECT_EQ(Ev("100 / 10 / 5"), 2);
  EXPECT_EQ(Ev("2 * 3 % 4"), 2);
  EXPECT_EQ(Ev("64 >> 2 >> 1"), 8);
  EXPECT_EQ(Ev("0 ? 1 : 2 ? 3 : 4"), 3);  // ?: groups to the right
  EXPECT_EQ(Ev("1 ? 0 ? 5 : 6 : 7"), 6);
}

TEST(Parser, TheTreeNamesItsTokens) {
  const std::vector<Token> toks = Toks("a + (b * c)");
  const Tree t = Parse(toks, 0, toks.size(), TestSyntax());
  const Node& root = t.root();
  EXPECT_EQ(root.kind, NodeKind::kBinary);
  EXPECT_EQ(root.op, Op::kAdd);
  EXPECT_EQ(toks[root.tok].text, "+");
  EXPECT_EQ(root.begin, 0u);
  EXPECT_EQ(root.end, toks.size());
  const Node& mul = t.operand(root, 1);
  EXPECT_EQ(mul.op, Op::kMul);
  EXPECT_EQ(mul.begin, 2u) << "a parenthesized node's tokens include its parentheses";
  EXPECT_EQ(mul.end, 7u);
  EXPECT_EQ(toks[t.operand(root, 0).tok].text, "a");
  EXPECT_EQ(t.operand(mul, 1).kind, NodeKind::kOperand);

  const std::vector<Token> call = Toks("neg(1, x)");
  const Tree c = Parse(call, 0, call.size(), TestSyntax());
  EXPECT_EQ(c.root().kind, NodeKind::kCall);
  EXPECT_EQ(c.root().count, 2u);
  EXPECT_EQ(call[c.operand(c.root(), 1).tok].text, "x");
}

TEST(Parser, PrefixStopsWhereAnExpressionCannotGoOn) {
  const std::vector<Token> toks = Toks("x + 1 = 3");
  size_t stop = 0;
  ParsePrefix(toks, 0, toks.size(), TestSyntax(), &stop);
  EXPECT_EQ(toks[stop].text, "=");
  const std::vector<Token> words = Toks("a b");
  ParsePrefix(words, 0, words.size(), TestSyntax(), &stop);
  EXPECT_EQ(stop, 1u);
  // A name that is not a function is an operand: the '(' after it ends the expression.
  const std::vector<Token> foo = Toks("foo(1)");
  ParsePrefix(foo, 0, foo.size(), TestSyntax(), &stop);
  EXPECT_EQ(stop, 1u);
}

TEST(Parser, SyntaxHooks) {
  std::vector<std::string> seen;
  Syntax s = TestSyntax();
  s.check = [&](const Tree& tree, const Node& n) {
    seen.push_back(std::to_string(static_cast<int>(n.kind)) + ":" + std::to_string(n.tok));
  };
  s.column = [](size_t pos) { return static_cast<int>(pos) + 100; };
  const std::vector<Token> toks = Toks("a * neg(b) + 2");
  Parse(toks, 0, toks.size(), s);
  // Operands and calls, in the order of the text (a call after its arguments).
  EXPECT_EQ(seen, (std::vector<std::string>{"0:0", "0:4", "1:2", "0:7"}));
  const std::vector<Token> open = Toks("a * (b");
  try {
    Parse(open, 0, open.size(), s);
    FAIL() << "no error";
  } catch (const LineError& e) {
    EXPECT_EQ(std::string(e.what()), "expected ')' to close the '(' at column 104");
  }
  s.check = [](const Tree&, const Node& n) {
    if (n.kind == NodeKind::kOperand) throw LineError(9, "refused");
  };
  EXPECT_THROW(Parse(toks, 0, toks.size(), s), LineError);
}

TEST(Parser, ErrorsNameTheColumn) {
  EXPECT_EQ(ErrorOf("1 +"), "4: expected an expression, found the end of the line");
  EXPECT_EQ(ErrorOf("1 + )"), "5: expected an expression, found ')'");
  EXPECT_EQ(ErrorOf("* 2"), "1: expected an expression, found '*'");
  EXPECT_EQ(ErrorOf("@"), "1: expected an expression, found '@'");
  EXPECT_EQ(ErrorOf("(1 + 2"), "7: expected ')' to close the '(' at column 1");
  EXPECT_EQ(ErrorOf("1 ? 2"), "6: expected ':' of the conditional 'c ? a : b'");
  EXPECT_EQ(ErrorOf("neg(1 2)"), "7: expected ',' or ')' in the arguments of neg, found '2'");
  EXPECT_EQ(ErrorOf("1 2"), "3: unexpected '2' after the expression");
  EXPECT_EQ(ErrorOf("foo(1)"), "4: unexpected '(' after the expression");
  // Where a range ends before the tokens do, the message quotes the token after it.
  const std::vector<Token> toks = Toks("1 + , 2");
  try {
    Parse(toks, 0, 2, TestSyntax());
    FAIL() << "no error";
  } catch (const LineError& e) {
    EXPECT_EQ(e.pos(), 4u);
    EXPECT_EQ(std::string(e.what()), "expected an expression, found ','");
  }
}

}  // namespace
}  // namespace tessera::expr::test
