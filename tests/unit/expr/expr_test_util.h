// Helpers shared by the expression library's tests: a minimal lexer (decimal numbers, names,
// expr/ops.h's punctuation, any other character alone), parsing and evaluating text, catching
// errors with their column.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "expr/eval.h"
#include "expr/line_error.h"
#include "expr/ops.h"
#include "expr/parser.h"

namespace tessera::expr::test {

inline std::vector<Token> Toks(const std::string& s) {
  std::vector<Token> toks;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    Token t;
    t.pos = i;
    if (std::isalnum(static_cast<unsigned char>(s[i]))) {
      const bool number = std::isdigit(static_cast<unsigned char>(s[i])) != 0;
      while (i < s.size() && std::isalnum(static_cast<unsigned char>(s[i]))) ++i;
      t.kind = number ? TokKind::kInt : TokKind::kIdent;
      t.text = s.substr(t.pos, i - t.pos);
      if (number) t.value = static_cast<int64_t>(std::stoull(t.text));
    } else {
      const size_t n = PunctLength(s, i);
      t.text = s.substr(i, n ? n : 1);
      i += t.text.size();
    }
    t.end = i;
    toks.push_back(t);
  }
  return toks;
}

// Integers whose names are a map's and whose one function is neg(a); counts the operands read.
class MapEvaluator : public IntEvaluator {
 public:
  MapEvaluator(const Tree& tree, const std::vector<Token>& toks,
               const std::map<std::string, int64_t>& names)
      : IntEvaluator(tree, toks), names_(names) {}
  int reads = 0;

 protected:
  int64_t Operand(const Node& n) override {
    const Token& t = token(n);
    ++reads;
    if (t.kind == TokKind::kInt) return t.value;
    const auto it = names_.find(t.text);
    if (it == names_.end()) throw LineError(t.pos, "unknown name '" + t.text + "'");
    return it->second;
  }
  int64_t Call(const Node& call) override { return -Eval(operand(call, 0)); }

 private:
  const std::map<std::string, int64_t>& names_;
};

inline Syntax TestSyntax() {
  Syntax s;
  s.is_function = [](const Token& name) { return name.text == "neg"; };
  return s;
}

inline int64_t Ev(const std::string& text, const std::map<std::string, int64_t>& names = {}) {
  const std::vector<Token> toks = Toks(text);
  const Tree tree = Parse(toks, 0, toks.size(), TestSyntax());
  return MapEvaluator(tree, toks, names).Eval();
}

// "column: message" of the error parsing or evaluating text, "" if there is none.
inline std::string ErrorOf(const std::string& text) {
  try {
    Ev(text);
  } catch (const LineError& e) {
    return std::to_string(e.pos() + 1) + ": " + e.what();
  }
  return "";
}

}  // namespace tessera::expr::test
