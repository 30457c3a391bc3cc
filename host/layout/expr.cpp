// Layout expressions (layout/expr.h): the layout's lexer, checks, names and functions on the
// shared parser, arithmetic and tree walk of host/expr.
#include "layout/expr.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "expr/eval.h"
#include "expr/ops.h"
#include "expr/parser.h"

namespace tessera::layout {

using assembler::Error;
using assembler::LineError;
using assembler::Location;
using expr::Node;
using expr::NodeKind;
using expr::Token;
using expr::TokKind;

// An expression as parsed: its tokens (offsets in the parsed line) and its tree.
struct ParsedExpr {
  std::vector<Token> toks;
  expr::Tree tree;
};

namespace {

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The value of a number word: decimal, 0x hex or 0b binary (no octal: 010 is ten). nullopt, with
// the reason in *why, if the word is not a number that fits in 64 bits.
std::optional<int64_t> ReadNumber(const std::string& word, std::string* why) {
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
  for (const char d : digits) {
    int k = 99;
    if (IsDigit(d)) {
      k = d - '0';
    } else if (std::isxdigit(static_cast<unsigned char>(d))) {
      k = std::tolower(static_cast<unsigned char>(d)) - 'a' + 10;
    }
    if (k >= base) {
      *why = fmt::format("malformed number '{}' (decimal, 0x hex or 0b binary)", word);
      return std::nullopt;
    }
    if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - k) / base) {
      *why = fmt::format("number '{}' does not fit in 64 bits", word);
      return std::nullopt;
    }
    v = v * base + k;
  }
  return static_cast<int64_t>(v);
}

// The tokens of line[pos...] up to the first character no expression uses ('=', '.', '"', ...),
// which is the last token: what follows an expression is the statement's to read. Names are
// [A-Za-z_][A-Za-z0-9_]*; a number is a word [0-9][A-Za-z0-9_]*, checked when the parser takes it
// as an operand. Never throws.
std::vector<Token> Lex(const std::string& line, size_t pos) {
  std::vector<Token> toks;
  while (pos < line.size()) {
    const char c = line[pos];
    if (c == ' ' || c == '\t') {
      ++pos;
      continue;
    }
    Token t;
    t.pos = pos;
    bool other = false;
    if (IsDigit(c) || IsIdentStart(c)) {
      while (pos < line.size() && IsIdentChar(line[pos])) ++pos;
      t.text = line.substr(t.pos, pos - t.pos);
      t.kind = IsDigit(c) ? TokKind::kInt : TokKind::kIdent;
      std::string why;
      if (t.kind == TokKind::kInt) t.value = ReadNumber(t.text, &why).value_or(0);
    } else {
      size_t n = expr::PunctLength(line, pos);
      other = n == 0;
      if (other) n = 1;
      t.kind = TokKind::kPunct;
      t.text = line.substr(pos, n);
      pos += n;
    }
    t.end = pos;
    toks.push_back(std::move(t));
    if (other) break;
  }
  return toks;
}

// Whether NAME( is a call: for any name but a keyword, and then it must be min, max or abs.
bool IsFunction(const Token& name) {
  if (IsKeyword(name.text)) return false;  // an operand, which Check refuses
  if (name.text != "min" && name.text != "max" && name.text != "abs") {
    throw LineError(name.pos,
                    fmt::format("unknown function '{}' (there are min, max and abs)", name.text));
  }
  return true;
}

// What the parser refuses in a layout once it has read it: a keyword as a name, a malformed
// number, and calls with the wrong number of arguments.
void Check(const Node& n, const std::vector<Token>& toks) {
  const Token& t = toks[n.tok];
  if (n.kind == NodeKind::kOperand) {
    std::string why;
    if (t.kind == TokKind::kInt && !ReadNumber(t.text, &why)) throw LineError(t.pos, why);
    if (t.IsIdent() && IsKeyword(t.text)) {
      throw LineError(t.pos, fmt::format("expected an expression, found '{}'", t.text));
    }
    return;
  }
  if (t.text == "abs" ? n.count != 1 : n.count < 2) {
    throw LineError(t.pos, t.text == "abs" ? "abs takes one argument"
                                           : fmt::format("{} takes two or more arguments", t.text));
  }
}

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

std::string UnknownName(const std::string& name, const Scope& scope) {
  if (name == "x" || name == "y") {
    return fmt::format(
        "unknown name '{}' (x and y, the PE's coordinates, are defined only in "
        "param and when expressions)",
        name);
  }
  if (name == "X0" || name == "Y0" || name == "W" || name == "H") {
    return fmt::format(
        "unknown name '{}' (X0, Y0, W and H are defined only in a region's param "
        "and when expressions)",
        name);
  }
  std::string hint;
  size_t best = 3;
  for (const std::string& cand : scope.Names()) {
    const size_t d = Distance(name, cand);
    if (d < best) {
      best = d;
      hint = fmt::format(" (did you mean '{}'?)", cand);
    }
  }
  if (hint.empty()) {
    std::string names;
    for (const std::string& cand : scope.Names()) names += (names.empty() ? "" : ", ") + cand;
    hint = fmt::format(" (known here: {})", names.empty() ? "none" : names);
  }
  return fmt::format("unknown name '{}'{}", name, hint);
}

// Integers (expr::IntEvaluator) whose names are the scope's and whose functions are min, max, abs.
class Evaluator : public expr::IntEvaluator {
 public:
  Evaluator(const ParsedExpr& e, const Scope& scope)
      : IntEvaluator(e.tree, e.toks), scope_(scope) {}

 protected:
  int64_t Operand(const Node& n) override {
    const Token& t = token(n);
    if (t.kind == TokKind::kInt) return t.value;
    if (std::optional<int64_t> v = scope_.Get(t.text)) return *v;
    throw LineError(t.pos, UnknownName(t.text, scope_));
  }

  int64_t Call(const Node& call) override {
    std::vector<int64_t> v;
    for (size_t i = 0; i < call.count; ++i) v.push_back(Eval(operand(call, i)));
    const Token& name = token(call);
    if (name.text == "abs") {
      if (v[0] == std::numeric_limits<int64_t>::min()) {
        throw LineError(name.pos, fmt::format("overflow in abs({})", v[0]));
      }
      return v[0] < 0 ? -v[0] : v[0];
    }
    return name.text == "min" ? *std::min_element(v.begin(), v.end())
                              : *std::max_element(v.begin(), v.end());
  }

 private:
  const Scope& scope_;
};

}  // namespace

bool IsKeyword(const std::string& name) {
  static const char* const kKeywords[] = {"param", "when", "at",    "size",   "program", "color",
                                          "rx",    "tx",   "pos1",  "pos2",   "pos3",    "ring",
                                          "in",    "step", "start", "filter", "swap_x"};
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
  auto e = std::make_shared<ParsedExpr>();
  Token t;
  t.kind = TokKind::kInt;
  t.text = text_;
  t.end = text_.size();
  t.value = value;
  e->toks.push_back(t);
  Node n;
  n.end = 1;
  e->tree.nodes.push_back(n);  // one operand: the token
  parsed_ = e;
}

Expr Expr::Parse(const std::string& text, const Location& at) {
  size_t pos = 0;
  Expr e;
  try {
    e = ParsePrefix(text, &pos, at);
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
  auto e = std::make_shared<ParsedExpr>();
  e->toks = Lex(line, *pos);
  if (e->toks.empty())
    throw LineError(line.size(), "expected an expression, found the end of the line");
  expr::Syntax syntax;
  syntax.is_function = IsFunction;
  syntax.check = [&toks = e->toks](const expr::Tree&, const Node& n) { Check(n, toks); };
  syntax.column = [column = line_at.column](size_t p) { return column + static_cast<int>(p); };
  size_t stop = 0;
  e->tree = expr::ParsePrefix(e->toks, 0, e->toks.size(), syntax, &stop);
  const size_t first = e->toks.front().pos;
  const size_t last = e->toks[stop - 1].end;
  *pos = stop < e->toks.size() ? e->toks[stop].pos : line.size();
  e->toks.resize(stop);  // what follows is not the expression's
  Expr out;
  out.parsed_ = e;
  out.text_ = line.substr(first, last - first);
  out.loc_ = line_at;
  return out;
}

int64_t Expr::Eval(const Scope& scope, const std::string& context) const {
  if (!parsed_) throw Error(loc_, "internal error: evaluating an empty expression");
  try {
    return Evaluator(*parsed_, scope).Eval();
  } catch (const LineError& e) {
    Location at = loc_;
    if (at.line > 0 && at.column > 0) at.column += static_cast<int>(e.pos());
    throw Error(at, e.what() + context);
  }
}

}  // namespace tessera::layout
