#include "asm/expr.h"

#include <fmt/core.h>

#include "asm/diagnostics.h"
#include "asm/floor_div.h"

namespace tessera::assembler {
namespace {

int Precedence(const Token& t) {
  if (t.kind != TokKind::kPunct) return -1;
  const std::string& o = t.text;
  if (o == "||") return 1;
  if (o == "&&") return 2;
  if (o == "|") return 3;
  if (o == "^") return 4;
  if (o == "&") return 5;
  if (o == "==" || o == "!=") return 6;
  if (o == "<" || o == "<=" || o == ">" || o == ">=") return 7;
  if (o == "<<" || o == ">>") return 8;
  if (o == "+" || o == "-") return 9;
  if (o == "*" || o == "/" || o == "%") return 10;
  return -1;
}

std::string LinkTimeMessage(const Value& v) {
  return fmt::format(
      "'{}' is a link-time value (a label, a param or a symbol of another object): an "
      "expression may only add a constant to it or subtract one from it, optionally inside "
      "lo() or hi()",
      v.sym);
}

class Parser {
 public:
  Parser(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx, bool task)
      : toks_(toks), i_(begin), end_(end), ctx_(ctx), task_(task) {}

  Value ParseAll() {
    if (i_ >= end_) throw LineError(Pos(), "expected an expression");
    Value v = Ternary();
    if (i_ < end_) {
      throw LineError(toks_[i_].pos,
                      fmt::format("unexpected '{}' in expression", Describe(toks_[i_])));
    }
    return v;
  }

 private:
  size_t Pos() const {
    if (i_ < end_) return toks_[i_].pos;
    return end_ > 0 && end_ <= toks_.size() ? toks_[end_ - 1].end : 0;
  }
  static std::string Describe(const Token& t) {
    return t.kind == TokKind::kString ? "\"" + t.text + "\"" : t.text;
  }
  bool Accept(const char* punct) {
    if (i_ < end_ && toks_[i_].Is(punct)) {
      ++i_;
      return true;
    }
    return false;
  }
  void Expect(const char* punct) {
    if (!Accept(punct)) {
      throw LineError(Pos(),
                      i_ < end_ ? fmt::format("expected '{}', got '{}'", punct, Describe(toks_[i_]))
                                : fmt::format("expected '{}'", punct));
    }
  }
  static void RequireConst(const Value& v, size_t pos) {
    if (!v.IsConst()) throw LineError(pos, LinkTimeMessage(v));
  }

  Value Ternary() {
    const size_t pos = Pos();
    Value c = Binary(1);
    if (!Accept("?")) return c;
    RequireConst(c, pos);
    Value a = Ternary();
    Expect(":");
    Value b = Ternary();
    return c.num ? a : b;
  }

  Value Binary(int min_prec) {
    Value lhs = Unary();
    while (i_ < end_) {
      const Token& op = toks_[i_];
      const int prec = Precedence(op);
      if (prec < min_prec) break;
      ++i_;
      Value rhs = Binary(prec + 1);
      lhs = Apply(op, lhs, rhs);
    }
    return lhs;
  }

  Value Apply(const Token& op, const Value& a, const Value& b) {
    const std::string& o = op.text;
    if (a.wrap != Wrap::kNone || b.wrap != Wrap::kNone) {
      throw LineError(op.pos, "lo() or hi() of a link-time value must be the whole operand");
    }
    if (a.IsConst() && b.IsConst()) return Value{Constant(op, a.num, b.num), "", Wrap::kNone};
    if (o == "+" && b.IsConst()) return Value{int64_t(uint64_t(a.num) + uint64_t(b.num)), a.sym};
    if (o == "+" && a.IsConst()) return Value{int64_t(uint64_t(a.num) + uint64_t(b.num)), b.sym};
    if (o == "-" && b.IsConst()) return Value{int64_t(uint64_t(a.num) - uint64_t(b.num)), a.sym};
    if (o == "-" && !a.IsConst() && !b.IsConst()) {
      const auto pa = ctx_.Position(a.sym), pb = ctx_.Position(b.sym);
      if (pa && pb && pa->first == pb->first) {
        return Value{(pa->second + a.num) - (pb->second + b.num), ""};
      }
      throw LineError(op.pos,
                      fmt::format("'{}' - '{}': only two labels of the same section of this file "
                                  "can be subtracted",
                                  a.sym, b.sym));
    }
    throw LineError(op.pos, LinkTimeMessage(a.IsConst() ? b : a));
  }

  int64_t Constant(const Token& op, int64_t a, int64_t b) {
    const std::string& o = op.text;
    const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    if (o == "+") return int64_t(ua + ub);
    if (o == "-") return int64_t(ua - ub);
    if (o == "*") return int64_t(ua * ub);
    if (o == "/" || o == "%") {  // rounded toward minus infinity (asm/floor_div.h)
      if (b == 0) throw LineError(op.pos, "division by zero");
      if (a == INT64_MIN && b == -1) return o == "/" ? a : 0;  // wraps, like + - *
      return o == "/" ? *FloorDiv(a, b) : *FloorMod(a, b);
    }
    if (o == "<<" || o == ">>") {
      if (b < 0 || b > 63) {
        throw LineError(op.pos, fmt::format("shift count {} is out of range (0..63)", b));
      }
      return o == "<<" ? int64_t(ua << b) : a >> b;
    }
    if (o == "&") return a & b;
    if (o == "|") return a | b;
    if (o == "^") return a ^ b;
    if (o == "==") return a == b;
    if (o == "!=") return a != b;
    if (o == "<") return a < b;
    if (o == "<=") return a <= b;
    if (o == ">") return a > b;
    if (o == ">=") return a >= b;
    if (o == "&&") return a && b;
    if (o == "||") return a || b;
    throw LineError(op.pos, fmt::format("'{}' is not a binary operator", o));
  }

  Value Unary() {
    if (i_ >= end_) throw LineError(Pos(), "expected a value at the end of the expression");
    const Token& t = toks_[i_];
    if (t.Is("+") || t.Is("-") || t.Is("~") || t.Is("!")) {
      ++i_;
      Value v = Unary();
      if (t.Is("+")) return v;
      if (!v.IsConst()) throw LineError(t.pos, LinkTimeMessage(v));
      if (t.Is("-")) return Value{int64_t(0 - uint64_t(v.num)), ""};
      if (t.Is("~")) return Value{~v.num, ""};
      return Value{!v.num, ""};
    }
    return Primary();
  }

  // The index of the ')' that closes the '(' at open.
  size_t Closing(size_t open) const {
    int depth = 0;
    for (size_t k = open; k < end_; ++k) {
      if (toks_[k].Is("(")) ++depth;
      if (toks_[k].Is(")") && --depth == 0) return k;
    }
    throw LineError(toks_[open].pos, "'(' has no matching ')'");
  }

  Value Primary() {
    const Token& t = toks_[i_];
    switch (t.kind) {
      case TokKind::kInt:
        ++i_;
        return Value{t.value, ""};
      case TokKind::kReal:
        throw LineError(t.pos, fmt::format("real literal {} is only allowed in .f32, .f16, "
                                           "f32() and f16()",
                                           t.text));
      case TokKind::kString:
        throw LineError(t.pos, "a string is not a value (write one character as 'c')");
      case TokKind::kLocalRef:
        ++i_;
        return ctx_.LocalLabel(t);
      case TokKind::kIdent:
        if (i_ + 1 < end_ && toks_[i_ + 1].Is("(")) {
          const std::string f = ToLower(t.text);
          if (f == "lo" || f == "hi" || f == "f32" || f == "f16" || f == "id") return Call(f);
        }
        ++i_;
        return ctx_.Lookup(t, task_);
      case TokKind::kPunct:
        if (t.Is("(")) {
          ++i_;
          Value v = Ternary();
          Expect(")");
          return v;
        }
        throw LineError(t.pos, fmt::format("expected a value, got '{}'", t.text));
    }
    throw LineError(t.pos, "expected a value");
  }

  Value Call(const std::string& f) {
    const size_t name_pos = toks_[i_].pos;
    const size_t open = i_ + 1;
    const size_t close = Closing(open);
    i_ = close + 1;
    if (close == open + 1) throw LineError(name_pos, fmt::format("{}() needs an argument", f));
    if (f == "f32" || f == "f16") {
      const RealFormat fmt = f == "f32" ? RealFormat::kF32 : RealFormat::kF16;
      return Value{EvaluateReal(toks_, open + 1, close, ctx_, fmt), ""};
    }
    if (f == "id") {
      if (close != open + 2 || !toks_[open + 1].IsIdent()) {
        throw LineError(toks_[open + 1].pos, "id() takes the name of a task's entry label");
      }
      return ctx_.TaskId(toks_[open + 1]);
    }
    Value v = Parser(toks_, open + 1, close, ctx_, task_).ParseAll();
    if (v.wrap != Wrap::kNone) throw LineError(name_pos, "lo() and hi() cannot be nested");
    if (v.IsConst()) {
      const int64_t r = f == "lo" ? (v.num & 0xFFFF) : ((v.num >> 16) & 0xFFFF);
      return Value{r, ""};
    }
    v.wrap = f == "lo" ? Wrap::kLo : Wrap::kHi;
    return v;
  }

  const std::vector<Token>& toks_;
  size_t i_, end_;
  SymbolContext& ctx_;
  bool task_;
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
  return Parser(toks, begin, end, ctx, task_context).ParseAll();
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
