// The recursive-descent parser of expressions (expr/parser.h): one function per grammar rule.
#include "expr/parser.h"

#include <fmt/core.h>

#include <initializer_list>

#include "expr/line_error.h"

namespace tessera::expr {
namespace {

class Parser {
 public:
  Parser(const std::vector<Token>& toks, size_t begin, size_t end, const Syntax& syntax)
      : toks_(toks), i_(begin), end_(end), syntax_(syntax) {}

  Tree Run(size_t* stop) {
    Cond();
    *stop = i_;
    return std::move(tree_);
  }

 private:
  bool At(const char* punct) const { return i_ < end_ && toks_[i_].Is(punct); }

  // Where the next token is, for messages; at the end of the range, where the range ends.
  size_t Pos() const {
    if (i_ < end_) return toks_[i_].pos;
    if (end_ < toks_.size()) return toks_[end_].pos;
    return end_ > 0 ? toks_[end_ - 1].end : 0;
  }
  // What is at Pos(), for messages: "'x'" or "the end of the line".
  std::string Found() const {
    const size_t k = i_ < end_ ? i_ : end_;
    if (k < toks_.size()) return fmt::format("'{}'", toks_[k].Shown());
    return "the end of the line";
  }
  int Column(size_t pos) const {
    return syntax_.column ? syntax_.column(pos) : static_cast<int>(pos) + 1;
  }

  // Appends a node spanning toks[begin, i_) whose operands are the nodes `operands`.
  uint32_t Add(NodeKind kind, Op op, size_t tok, size_t begin,
               std::initializer_list<uint32_t> operands) {
    return Add(kind, op, tok, begin, std::vector<uint32_t>(operands));
  }
  uint32_t Add(NodeKind kind, Op op, size_t tok, size_t begin,
               const std::vector<uint32_t>& operands) {
    Node n;
    n.kind = kind;
    n.op = op;
    n.tok = tok;
    n.begin = begin;
    n.end = i_;
    n.first = static_cast<uint32_t>(tree_.operands.size());
    n.count = static_cast<uint32_t>(operands.size());
    tree_.operands.insert(tree_.operands.end(), operands.begin(), operands.end());
    tree_.nodes.push_back(n);
    return static_cast<uint32_t>(tree_.nodes.size() - 1);
  }
  void Check(uint32_t n) const {
    if (syntax_.check) syntax_.check(tree_, tree_.nodes[n]);
  }

  // cond = binary(1) [ "?" cond ":" cond ]
  uint32_t Cond() {
    const size_t begin = i_;
    const uint32_t c = Binary(1);
    if (!At("?")) return c;
    const size_t question = i_++;
    const uint32_t a = Cond();
    if (!At(":")) throw LineError(Pos(), "expected ':' of the conditional 'c ? a : b'");
    ++i_;
    const uint32_t b = Cond();
    return Add(NodeKind::kCond, Op::kAdd, question, begin, {c, a, b});
  }

  // binary(p) = unary { OP binary(prec(OP) + 1) }, OP a binary operator of precedence >= p
  uint32_t Binary(int min_prec) {
    const size_t begin = i_;
    uint32_t lhs = Unary();
    while (i_ < end_ && toks_[i_].kind == TokKind::kPunct) {
      const OpInfo* op = FindBinary(toks_[i_].text);
      if (!op || op->prec < min_prec) break;
      const size_t at = i_++;
      const uint32_t rhs = Binary(op->prec + 1);
      lhs = Add(NodeKind::kBinary, op->op, at, begin, {lhs, rhs});
    }
    return lhs;
  }

  // unary = ( "-" | "+" | "!" | "~" ) unary | primary
  uint32_t Unary() {
    if (i_ < end_ && toks_[i_].kind == TokKind::kPunct) {
      if (const OpInfo* op = FindUnary(toks_[i_].text)) {
        const size_t at = i_++;
        const uint32_t a = Unary();
        return Add(NodeKind::kUnary, op->op, at, at, {a});
      }
    }
    return Primary();
  }

  // primary = "(" cond ")" | NAME "(" [ cond { "," cond } ] ")" | OPERAND
  uint32_t Primary() {
    if (i_ >= end_ || (toks_[i_].kind == TokKind::kPunct && !toks_[i_].Is("("))) {
      throw LineError(Pos(), "expected an expression, found " + Found());
    }
    const size_t at = i_++;
    const Token& t = toks_[at];
    if (t.Is("(")) {
      const uint32_t inner = Cond();
      if (!At(")")) {
        throw LineError(Pos(),
                        fmt::format("expected ')' to close the '(' at column {}", Column(t.pos)));
      }
      ++i_;
      tree_.nodes[inner].begin = at;  // the node's tokens include its parentheses
      tree_.nodes[inner].end = i_;
      return inner;
    }
    if (t.IsIdent() && At("(") && syntax_.is_function && syntax_.is_function(t)) return Call(at);
    const uint32_t n = Add(NodeKind::kOperand, Op::kAdd, at, at, {});
    Check(n);
    return n;
  }

  // NAME "(" [ cond { "," cond } ] ")", after NAME
  uint32_t Call(size_t name) {
    ++i_;  // the '('
    std::vector<uint32_t> args;
    if (At(")")) {
      ++i_;
    } else {
      for (;;) {
        args.push_back(Cond());
        if (At(",")) {
          ++i_;
          continue;
        }
        if (At(")")) {
          ++i_;
          break;
        }
        throw LineError(Pos(), fmt::format("expected ',' or ')' in the arguments of {}, found {}",
                                           toks_[name].text, Found()));
      }
    }
    const uint32_t n = Add(NodeKind::kCall, Op::kAdd, name, name, args);
    Check(n);
    return n;
  }

  const std::vector<Token>& toks_;
  size_t i_, end_;
  const Syntax& syntax_;
  Tree tree_;
};

}  // namespace

Tree ParsePrefix(const std::vector<Token>& toks, size_t begin, size_t end, const Syntax& syntax,
                 size_t* stop) {
  return Parser(toks, begin, end, syntax).Run(stop);
}

Tree Parse(const std::vector<Token>& toks, size_t begin, size_t end, const Syntax& syntax) {
  size_t stop = begin;
  Tree tree = ParsePrefix(toks, begin, end, syntax, &stop);
  if (stop < end) {
    throw LineError(toks[stop].pos,
                    fmt::format("unexpected '{}' after the expression", toks[stop].Shown()));
  }
  return tree;
}

}  // namespace tessera::expr
