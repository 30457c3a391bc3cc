// Evaluating a parsed expression (expr/tree.h) in C's order: operands left to right, and `&&`,
// `||` and `?:` evaluate only the operands they need, so `0 && 1/0` is 0. An Evaluator walks
// the tree; what the operands, the calls and the operators mean on its values is its user's:
// - IntEvaluator gives the operators their one meaning on integers (expr/arith.h); the layout
//   adds its names and functions (layout/expr.cpp).
// - The assembler's evaluator (asm/expr.cpp) has values that may be link-time (`sym + c`): it
//   applies expr/arith.h to constants and its own rules to the rest.
#pragma once

#include <cstdint>
#include <vector>

#include "expr/arith.h"
#include "expr/token.h"
#include "expr/tree.h"

namespace tessera::expr {

template <typename V>
class Evaluator {
 public:
  // `toks` are the tokens the tree was parsed from.
  Evaluator(const Tree& tree, const std::vector<Token>& toks) : tree_(tree), toks_(toks) {}
  virtual ~Evaluator() = default;

  V Eval() { return Eval(tree_.root()); }

 protected:
  V Eval(const Node& n) {
    switch (n.kind) {
      case NodeKind::kOperand:
        return Operand(n);
      case NodeKind::kCall:
        return Call(n);
      case NodeKind::kUnary:
        return Unary(n, Eval(operand(n, 0)));
      case NodeKind::kCond: {
        const Node& c = operand(n, 0);
        return Truth(c, Eval(c)) ? Eval(operand(n, 1)) : Eval(operand(n, 2));
      }
      case NodeKind::kBinary:
        break;
    }
    const Node& a = operand(n, 0);
    const Node& b = operand(n, 1);
    if (n.op == Op::kLAnd || n.op == Op::kLOr) {
      const bool first = Truth(a, Eval(a));
      if (first == (n.op == Op::kLOr)) return Bool(first);  // decided by the left side
      return Bool(Truth(b, Eval(b)));
    }
    const V left = Eval(a);
    const V right = Eval(b);
    return Binary(n, left, right);
  }

  const Token& token(const Node& n) const { return toks_[n.tok]; }
  const Node& operand(const Node& n, size_t i) const { return tree_.operand(n, i); }
  const std::vector<Token>& tokens() const { return toks_; }
  const Tree& tree() const { return tree_; }

  // The value of an operand, the token token(n).
  virtual V Operand(const Node& n) = 0;
  // A call's value; its arguments are operand(call, 0..call.count-1), evaluated with Eval.
  virtual V Call(const Node& call) = 0;
  // op.op applied to the values of its operands (never `&&` or `||`).
  virtual V Unary(const Node& op, const V& a) = 0;
  virtual V Binary(const Node& op, const V& a, const V& b) = 0;
  // Whether the value v of the node `n` counts as true (the condition of ?:, an operand of && ||).
  virtual bool Truth(const Node& n, const V& v) = 0;
  // 0 or 1, the value of `&&` and `||`.
  virtual V Bool(bool b) = 0;

 private:
  const Tree& tree_;
  const std::vector<Token>& toks_;
};

// Integers under the one rule of expr/arith.h; the user gives its operands and calls.
class IntEvaluator : public Evaluator<int64_t> {
 public:
  using Evaluator::Evaluator;

 protected:
  int64_t Unary(const Node& op, const int64_t& a) override {
    return Apply(op.op, a, token(op).pos);
  }
  int64_t Binary(const Node& op, const int64_t& a, const int64_t& b) override {
    return Apply(op.op, a, b, token(op).pos);
  }
  bool Truth(const Node&, const int64_t& v) override { return v != 0; }
  int64_t Bool(bool b) override { return b ? 1 : 0; }
};

}  // namespace tessera::expr
