// The assembler's side of expressions (asm/expr.h): its functions, its operands and its link-time
// values, on the shared parser and arithmetic of host/expr.
#include "asm/expr.h"

#include <fmt/core.h>

#include <stdexcept>

#include "asm/diagnostics.h"
#include "expr/eval.h"
#include "expr/parser.h"

namespace tessera::assembler {
namespace {

using expr::Node;
using expr::NodeKind;
using expr::Op;

std::string LinkTimeMessage(const Value& v) {
  return fmt::format(
      "'{}' is a link-time value (a label, a param or a symbol of another object): an "
      "expression may only add a constant to it or subtract one from it, optionally inside "
      "lo() or hi()",
      v.sym);
}

// A name followed by '(' is a call only for the functions of assembly, in any case.
bool IsFunction(const Token& name) {
  const std::string f = ToLower(name.text);
  return f == "lo" || f == "hi" || f == "f32" || f == "f16" || f == "id";
}

// Each function takes one argument; id's is the name of a task's entry label.
void CheckCall(const expr::Tree& tree, const Node& call, const std::vector<Token>& toks) {
  if (call.kind != NodeKind::kCall) return;
  const Token& name = toks[call.tok];
  const std::string f = ToLower(name.text);
  if (call.count == 0) throw LineError(name.pos, fmt::format("{}() needs an argument", f));
  const Node& arg = tree.operand(call, 0);
  if (f == "id") {
    if (call.count != 1 || arg.kind != NodeKind::kOperand || arg.end != arg.begin + 1 ||
        !toks[arg.tok].IsIdent()) {
      throw LineError(toks[call.tok + 2].pos, "id() takes the name of a task's entry label");
    }
  } else if (call.count != 1) {
    throw LineError(name.pos, fmt::format("{}() takes one argument", f));
  }
}

// Values of assembly: constants under the one rule of expr/arith.h, and link-time values
// `sym + c`, lo(sym + c) and hi(sym + c), which only + and - (and lo, hi) may take.
//
// As in C, a name must mean something wherever it is written, but an operator applies only where
// it is evaluated: Run first gives every operand (and every id()) its value, on every side of
// && || ?:, so that an undefined symbol, a register or a misplaced literal is an error even on a
// side not taken; then it applies the operators where they are evaluated (`0 && 1/0` is 0).
class AsmEvaluator : public expr::Evaluator<Value> {
 public:
  AsmEvaluator(const expr::Tree& tree, const std::vector<Token>& toks, SymbolContext& ctx,
               bool task)
      : Evaluator(tree, toks), ctx_(ctx), task_(task), values_(tree.nodes.size()) {}

  Value Run() {
    Resolve(tree().root());
    return Eval();
  }

 protected:
  Value Operand(const Node& n) override { return values_[Index(n)]; }

  Value Call(const Node& call) override {
    const Token& name = token(call);
    const std::string f = ToLower(name.text);
    const Node& arg = operand(call, 0);
    if (f == "f32" || f == "f16") {
      // The argument's tokens: a real literal, or an integer expression.
      const RealFormat format = f == "f32" ? RealFormat::kF32 : RealFormat::kF16;
      return Value{EvaluateReal(tokens(), arg.begin, arg.end, ctx_, format), ""};
    }
    if (f == "id") return values_[Index(call)];
    Value v = Eval(arg);
    if (v.wrap != Wrap::kNone) throw LineError(name.pos, "lo() and hi() cannot be nested");
    if (v.IsConst()) return Value{f == "lo" ? (v.num & 0xFFFF) : ((v.num >> 16) & 0xFFFF), ""};
    v.wrap = f == "lo" ? Wrap::kLo : Wrap::kHi;
    return v;
  }

  Value Unary(const Node& op, const Value& a) override {
    if (op.op == Op::kPlus) return a;
    if (!a.IsConst()) throw LineError(token(op).pos, LinkTimeMessage(a));
    return Value{expr::Apply(op.op, a.num, token(op).pos), ""};
  }

  Value Binary(const Node& op, const Value& a, const Value& b) override {
    const size_t pos = token(op).pos;
    if (a.wrap != Wrap::kNone || b.wrap != Wrap::kNone) {
      throw LineError(pos, "lo() or hi() of a link-time value must be the whole operand");
    }
    if (a.IsConst() && b.IsConst()) return Value{expr::Apply(op.op, a.num, b.num, pos), ""};
    // A link-time value plus or minus a constant stays one; its constant follows the same rule.
    if (op.op == Op::kAdd && b.IsConst())
      return Value{expr::Apply(op.op, a.num, b.num, pos), a.sym};
    if (op.op == Op::kAdd && a.IsConst())
      return Value{expr::Apply(op.op, a.num, b.num, pos), b.sym};
    if (op.op == Op::kSub && b.IsConst())
      return Value{expr::Apply(op.op, a.num, b.num, pos), a.sym};
    if (op.op == Op::kSub && !a.IsConst() && !b.IsConst()) {
      // Two labels of one section of this file: their distance is known here.
      const auto pa = ctx_.Position(a.sym), pb = ctx_.Position(b.sym);
      if (pa && pb && pa->first == pb->first) {
        const int64_t x = expr::Apply(Op::kAdd, pa->second, a.num, pos);
        const int64_t y = expr::Apply(Op::kAdd, pb->second, b.num, pos);
        return Value{expr::Apply(Op::kSub, x, y, pos), ""};
      }
      throw LineError(pos,
                      fmt::format("'{}' - '{}': only two labels of the same section of this file "
                                  "can be subtracted",
                                  a.sym, b.sym));
    }
    throw LineError(pos, LinkTimeMessage(a.IsConst() ? b : a));
  }

  // The condition of ?: and the operands of && and || must be constants.
  bool Truth(const Node& n, const Value& v) override {
    if (!v.IsConst()) throw LineError(tokens()[n.begin].pos, LinkTimeMessage(v));
    return v.num != 0;
  }

  Value Bool(bool b) override { return Value{b ? 1 : 0, ""}; }

 private:
  size_t Index(const Node& n) const { return static_cast<size_t>(&n - tree().nodes.data()); }

  // Every operand and id() in the text order, but not the argument of f32() or f16(), which is a
  // real literal or is evaluated as a whole where it is taken.
  void Resolve(const Node& n) {
    if (n.kind == NodeKind::kOperand) {
      values_[Index(n)] = OperandValue(token(n));
      return;
    }
    if (n.kind == NodeKind::kCall) {
      const std::string f = ToLower(token(n).text);
      if (f == "f32" || f == "f16") return;
      if (f == "id") {
        values_[Index(n)] = ctx_.TaskId(token(operand(n, 0)));
        return;
      }
    }
    for (size_t i = 0; i < n.count; ++i) Resolve(operand(n, i));
  }

  Value OperandValue(const Token& t) {
    switch (t.kind) {
      case TokKind::kInt:
        return Value{t.value, ""};
      case TokKind::kIdent:
        return ctx_.Lookup(t, task_);
      case TokKind::kLocalRef:
        return ctx_.LocalLabel(t);
      case TokKind::kReal:
        throw LineError(t.pos, fmt::format("real literal {} is only allowed in .f32, .f16, "
                                           "f32() and f16()",
                                           t.text));
      case TokKind::kString:
        throw LineError(t.pos, "a string is not a value (write one character as 'c')");
      case TokKind::kPunct:
        break;
    }
    throw std::logic_error("the expression parser took punctuation for an operand");
  }

  SymbolContext& ctx_;
  bool task_;
  std::vector<Value> values_;  // of each operand and id() node, by index
};

}  // namespace

std::string Value::ToString() const {
  if (IsConst()) return std::to_string(num);
  std::string s = sym;
  if (num > 0) s += fmt::format("+{}", num);
  if (num < 0) s += fmt::format("-{}", 0 - static_cast<uint64_t>(num));
  if (wrap == Wrap::kLo) return "lo(" + s + ")";
  if (wrap == Wrap::kHi) return "hi(" + s + ")";
  return s;
}

Value Evaluate(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
               bool task_context) {
  expr::Syntax syntax;
  syntax.is_function = IsFunction;
  syntax.check = [&toks](const expr::Tree& tree, const Node& n) { CheckCall(tree, n, toks); };
  syntax.column = [&ctx](size_t pos) { return ctx.Column(pos); };
  const expr::Tree tree = expr::Parse(toks, begin, end, syntax);
  return AsmEvaluator(tree, toks, ctx, task_context).Run();
}

int64_t EvaluateConst(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
                      const std::string& what) {
  const Value v = Evaluate(toks, begin, end, ctx);
  if (!v.IsConst()) {
    throw LineError(begin < end ? toks[begin].pos : 0,
                    fmt::format("{} must be an assembly-time constant, but '{}' is a link-time "
                                "value (a label, a param or a symbol of another object)",
                                what, v.sym));
  }
  return v.num;
}

uint32_t EvaluateReal(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
                      RealFormat format) {
  if (begin >= end) throw LineError(0, "expected a real number");
  size_t k = begin;
  bool negative = false;
  while (k < end && (toks[k].Is("-") || toks[k].Is("+"))) {
    negative ^= toks[k].Is("-");
    ++k;
  }
  std::optional<Decimal> d;
  std::string shown;
  if (k + 1 == end) {
    const Token& t = toks[k];
    const std::string lower = ToLower(t.text);
    if (t.kind == TokKind::kReal ||
        (t.kind == TokKind::kInt && t.text[0] >= '0' && t.text[0] <= '9' &&
         t.text.find_first_of("xXbB") == std::string::npos)) {
      d = ParseDecimal(t.text);
    } else if (t.IsIdent() && (lower == "inf" || lower == "nan")) {
      d = ParseDecimal(lower);
    }
    if (d) {
      d->negative = negative;
      shown = (negative ? "-" : "") + t.text;
    }
  }
  if (!d) {
    const int64_t v = EvaluateConst(toks, begin, end, ctx, "a real number");
    d = DecimalOf(v);
    shown = std::to_string(v);
  }
  const RoundedReal r = RoundDecimal(*d, format);
  if (r.overflow) {
    throw LineError(
        toks[begin].pos,
        fmt::format("{} is beyond the largest finite {} ({})", shown, FormatName(format),
                    format == RealFormat::kF32 ? "3.40282347e38" : "65504"));
  }
  return r.bits;
}

}  // namespace tessera::assembler
