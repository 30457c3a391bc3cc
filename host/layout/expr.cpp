#include "layout/expr.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace tessera::layout {

using assembler::Error;
using assembler::LineError;
using assembler::Location;

enum class Op : uint8_t {
  kNum,
  kName,
  kCall,
  kNeg,
  kPlus,
  kNot,
  kBitNot,
  kMul,
  kDiv,
  kMod,
  kAdd,
  kSub,
  kShl,
  kShr,
  kLt,
  kLe,
  kGt,
  kGe,
  kEq,
  kNe,
  kAnd,
  kXor,
  kOr,
  kLAnd,
  kLOr,
  kCond,
};

struct ExprNode {
  Op op = Op::kNum;
  int64_t value = 0;
  std::string name;  // kName, kCall
  std::vector<std::shared_ptr<const ExprNode>> args;
  size_t pos = 0;  // offset in the parsed line, for messages
};

namespace {

using NodePtr = std::shared_ptr<const ExprNode>;

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct BinaryOp {
  const char* text;
  Op op;
  int prec;  // higher binds tighter
};

// Longest operators first, so that "<<" is not read as "<".
constexpr BinaryOp kBinary[] = {
    {"||", Op::kLOr, 1}, {"&&", Op::kLAnd, 2}, {"==", Op::kEq, 6},  {"!=", Op::kNe, 6},
    {"<=", Op::kLe, 7},  {">=", Op::kGe, 7},   {"<<", Op::kShl, 8}, {">>", Op::kShr, 8},
    {"|", Op::kOr, 3},   {"^", Op::kXor, 4},   {"&", Op::kAnd, 5},  {"<", Op::kLt, 7},
    {">", Op::kGt, 7},   {"+", Op::kAdd, 9},   {"-", Op::kSub, 9},  {"*", Op::kMul, 10},
    {"/", Op::kDiv, 10}, {"%", Op::kMod, 10},
};

class Parser {
 public:
  Parser(const std::string& s, size_t pos) : s_(s), pos_(pos) {}
  size_t pos() const { return pos_; }

  NodePtr Conditional() {
    NodePtr c = Binary(1);
    SkipSpace();
    if (Peek() != '?') return c;
    const size_t at = pos_++;
    NodePtr a = Conditional();
    SkipSpace();
    if (Peek() != ':') throw LineError(pos_, "expected ':' of the conditional 'c ? a : b'");
    ++pos_;
    NodePtr b = Conditional();
    auto n = std::make_shared<ExprNode>();
    n->op = Op::kCond;
    n->pos = at;
    n->args = {c, a, b};
    return n;
  }

 private:
  char Peek(size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }

  const BinaryOp* PeekBinary() {
    SkipSpace();
    for (const BinaryOp& b : kBinary) {
      const size_t n = std::char_traits<char>::length(b.text);
      if (s_.compare(pos_, n, b.text) != 0) continue;
      // "a = b" is not an expression; "a .. b" ends one; "|" and "&" must not eat "||", "&&".
      return &b;
    }
    return nullptr;
  }

  NodePtr Binary(int min_prec) {
    NodePtr lhs = Unary();
    for (;;) {
      const size_t save = pos_;
      const BinaryOp* b = PeekBinary();
      if (!b || b->prec < min_prec) {
        pos_ = save;
        return lhs;
      }
      const size_t at = pos_;
      pos_ += std::char_traits<char>::length(b->text);
      NodePtr rhs = Binary(b->prec + 1);
      auto n = std::make_shared<ExprNode>();
      n->op = b->op;
      n->pos = at;
      n->args = {lhs, rhs};
      lhs = n;
    }
  }

  NodePtr Unary() {
    SkipSpace();
    const char c = Peek();
    Op op;
    if (c == '-') {
      op = Op::kNeg;
    } else if (c == '+') {
      op = Op::kPlus;
    } else if (c == '!' && Peek(1) != '=') {
      op = Op::kNot;
    } else if (c == '~') {
      op = Op::kBitNot;
    } else {
      return Primary();
    }
    auto n = std::make_shared<ExprNode>();
    n->op = op;
    n->pos = pos_++;
    n->args = {Unary()};
    return n;
  }

  NodePtr Primary() {
    SkipSpace();
    const size_t at = pos_;
    const char c = Peek();
    auto n = std::make_shared<ExprNode>();
    n->pos = at;
    if (c == '(') {
      ++pos_;
      NodePtr inner = Conditional();
      SkipSpace();
      if (Peek() != ')') {
        throw LineError(pos_, fmt::format("expected ')' to close the '(' at column {}", at + 1));
      }
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (IsIdentChar(Peek())) ++pos_;
      const std::string word = s_.substr(at, pos_ - at);
      n->op = Op::kNum;
      n->value = ParseNumber(word, at);
      return n;
    }
    if (IsIdentStart(c)) {
      while (IsIdentChar(Peek())) ++pos_;
      n->name = s_.substr(at, pos_ - at);
      if (IsKeyword(n->name)) {
        throw LineError(at, fmt::format("expected an expression, found '{}'", n->name));
      }
      SkipSpace();
      if (Peek() != '(') {
        n->op = Op::kName;
        return n;
      }
      n->op = Op::kCall;
      if (n->name != "min" && n->name != "max" && n->name != "abs") {
        throw LineError(at,
                        fmt::format("unknown function '{}' (there are min, max and abs)", n->name));
      }
      ++pos_;
      for (;;) {
        n->args.push_back(Conditional());
        SkipSpace();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() == ')') break;
        throw LineError(pos_, fmt::format("expected ',' or ')' in the arguments of {}", n->name));
      }
      ++pos_;
      const size_t count = n->args.size();
      if (n->name == "abs" ? count != 1 : count < 2) {
        throw LineError(at, n->name == "abs"
                                ? "abs takes one argument"
                                : fmt::format("{} takes two or more arguments", n->name));
      }
      return n;
    }
    if (c == '\0') throw LineError(at, "expected an expression, found the end of the line");
    throw LineError(at, fmt::format("expected an expression, found '{}'", c));
  }

  static int64_t ParseNumber(const std::string& word, size_t at) {
    int base = 10;
    std::string digits = word;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
      base = 16;
      digits = word.substr(2);
    } else if (word.size() > 2 && word[0] == '0' && (word[1] == 'b' || word[1] == 'B')) {
      base = 2;
      digits = word.substr(2);
    }
    uint64_t v = 0;
    for (char d : digits) {
      int k;
      if (std::isdigit(static_cast<unsigned char>(d))) {
        k = d - '0';
      } else if (std::isxdigit(static_cast<unsigned char>(d))) {
        k = std::tolower(static_cast<unsigned char>(d)) - 'a' + 10;
      } else {
        k = 99;
      }
      if (k >= base) {
        throw LineError(at,
                        fmt::format("malformed number '{}' (decimal, 0x hex or 0b binary)", word));
      }
      if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - k) / base) {
        throw LineError(at, fmt::format("number '{}' does not fit in 64 bits", word));
      }
      v = v * base + k;
    }
    return static_cast<int64_t>(v);
  }

  const std::string& s_;
  size_t pos_;
};

// Levenshtein distance, for "did you mean".
size_t Distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diag = up;
    }
  }
  return row[b.size()];
}

class Evaluator {
 public:
  Evaluator(const Scope& scope, const Location& base, const std::string& context)
      : scope_(scope), base_(base), context_(context) {}

  int64_t Eval(const ExprNode& n) const {
    switch (n.op) {
      case Op::kNum:
        return n.value;
      case Op::kName: {
        if (std::optional<int64_t> v = scope_.Get(n.name)) return *v;
        if (n.name == "x" || n.name == "y") {
          Fail(n, fmt::format("unknown name '{}' (x and y, the PE's coordinates, are defined only "
                              "in param and when expressions)",
                              n.name));
        }
        if (n.name == "X0" || n.name == "Y0" || n.name == "W" || n.name == "H") {
          Fail(n, fmt::format("unknown name '{}' (X0, Y0, W and H are defined only in a region's "
                              "param and when expressions)",
                              n.name));
        }
        std::string hint;
        size_t best = 3;
        for (const std::string& cand : scope_.Names()) {
          const size_t d = Distance(n.name, cand);
          if (d < best) {
            best = d;
            hint = fmt::format(" (did you mean '{}'?)", cand);
          }
        }
        if (hint.empty()) {
          std::string names;
          for (const std::string& cand : scope_.Names()) {
            names += (names.empty() ? "" : ", ") + cand;
          }
          hint = fmt::format(" (known here: {})", names.empty() ? "none" : names);
        }
        Fail(n, fmt::format("unknown name '{}'{}", n.name, hint));
      }
      case Op::kCall: {
        std::vector<int64_t> v;
        for (const auto& a : n.args) v.push_back(Eval(*a));
        if (n.name == "abs") {
          if (v[0] == std::numeric_limits<int64_t>::min()) Fail(n, "overflow in abs");
          return v[0] < 0 ? -v[0] : v[0];
        }
        return n.name == "min" ? *std::min_element(v.begin(), v.end())
                               : *std::max_element(v.begin(), v.end());
      }
      case Op::kCond:
        return Eval(*n.args[0]) != 0 ? Eval(*n.args[1]) : Eval(*n.args[2]);
      case Op::kLAnd:
        return Eval(*n.args[0]) != 0 && Eval(*n.args[1]) != 0;
      case Op::kLOr:
        return Eval(*n.args[0]) != 0 || Eval(*n.args[1]) != 0;
      default:
        break;
    }
    const int64_t a = Eval(*n.args[0]);
    switch (n.op) {
      case Op::kNeg:
        if (a == std::numeric_limits<int64_t>::min()) Fail(n, "overflow in negation");
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
    const int64_t b = Eval(*n.args[1]);
    int64_t r = 0;
    switch (n.op) {
      case Op::kAdd:
        if (__builtin_add_overflow(a, b, &r)) Fail(n, fmt::format("overflow in {} + {}", a, b));
        return r;
      case Op::kSub:
        if (__builtin_sub_overflow(a, b, &r)) Fail(n, fmt::format("overflow in {} - {}", a, b));
        return r;
      case Op::kMul:
        if (__builtin_mul_overflow(a, b, &r)) Fail(n, fmt::format("overflow in {} * {}", a, b));
        return r;
      case Op::kDiv:
      case Op::kMod: {
        const char* sym = n.op == Op::kDiv ? "/" : "%";
        if (b == 0) Fail(n, fmt::format("division by zero in {} {} 0", a, sym));
        const std::optional<int64_t> q = n.op == Op::kDiv ? FloorDiv(a, b) : FloorMod(a, b);
        if (!q) Fail(n, fmt::format("overflow in {} {} {}", a, sym, b));
        return *q;
      }
      case Op::kShl:
      case Op::kShr: {
        if (b < 0 || b > 63) {
          Fail(n, fmt::format("shift count {} is out of range (0..63)", b));
        }
        if (n.op == Op::kShr) return a >> b;
        r = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
        if ((r >> b) != a) Fail(n, fmt::format("overflow in {} << {}", a, b));
        return r;
      }
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
      default:
        break;
    }
    Fail(n, "internal error: unknown operator");
  }

 private:
  [[noreturn]] void Fail(const ExprNode& n, const std::string& message) const {
    Location at = base_;
    if (at.line > 0 && at.column > 0) at.column += static_cast<int>(n.pos);
    throw Error(at, message + context_);
  }

  const Scope& scope_;
  const Location& base_;
  const std::string& context_;
};

}  // namespace

bool IsKeyword(const std::string& name) {
  static const char* const kKeywords[] = {"param", "when", "at", "size", "program",
                                          "color", "rx",   "tx", "pos1", "pos2",
                                          "pos3",  "ring", "in", "step"};
  for (const char* k : kKeywords) {
    if (name == k) return true;
  }
  return false;
}

std::optional<int64_t> Scope::Get(const std::string& name) const {
  for (auto it = vars_.rbegin(); it != vars_.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return std::nullopt;
}

std::vector<std::string> Scope::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, value] : vars_) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

Expr::Expr(int64_t value) : text_(std::to_string(value)) {
  auto n = std::make_shared<ExprNode>();
  n->value = value;
  root_ = n;
}

Expr Expr::Parse(const std::string& text, const Location& at) {
  size_t pos = 0;
  Location line_at = at;
  Expr e;
  try {
    e = ParsePrefix(text, &pos, line_at);
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
    if (pos < text.size()) {
      throw LineError(pos, fmt::format("unexpected '{}' after the expression", text.substr(pos)));
    }
  } catch (const LineError& err) {
    Location where = at;
    if (where.column > 0) where.column += static_cast<int>(err.pos());
    throw Error(where, err.what());
  }
  return e;
}

Expr Expr::ParsePrefix(const std::string& line, size_t* pos, const Location& line_at) {
  Parser p(line, *pos);
  Expr e;
  e.root_ = p.Conditional();
  size_t first = *pos;
  while (first < line.size() && (line[first] == ' ' || line[first] == '\t')) ++first;
  e.text_ = line.substr(first, p.pos() - first);
  e.loc_ = line_at;
  *pos = p.pos();
  return e;
}

int64_t Expr::Eval(const Scope& scope, const std::string& context) const {
  if (!root_) throw Error(loc_, "internal error: evaluating an empty expression");
  return Evaluator(scope, loc_, context).Eval(*root_);
}

}  // namespace tessera::layout
