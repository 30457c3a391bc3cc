// Integer expressions of a layout (docs/layout.md, "Expressions"): per-PE parameters, `when`
// conditions, coordinates and sizes. The parser and the arithmetic are the shared expression
// library's (host/expr), with its one rule: 64-bit signed, C precedence, `/` and `%` rounding
// toward minus infinity (so (x-1)%W wraps to W-1), and overflow, division by zero and shifts
// outside 0..63 as errors, never wrapped silently. The layout adds its own: its lexical form
// (names, decimal, 0x and 0b numbers), the names of a Scope, min, max and abs, and its keywords.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asm/diagnostics.h"

namespace tessera::layout {

// Names an expression may use, with their values; a later entry hides an earlier one of the
// same name.
class Scope {
 public:
  void Set(const std::string& name, int64_t value) { vars_.emplace_back(name, value); }
  std::optional<int64_t> Get(const std::string& name) const;
  std::vector<std::string> Names() const;  // for "did you mean"

 private:
  std::vector<std::pair<std::string, int64_t>> vars_;
};

struct ParsedExpr;  // the tokens and the tree (layout/expr.cpp)

class Expr {
 public:
  Expr() = default;
  // A constant (the C++ API's short form).
  Expr(int64_t value);  // NOLINT(google-explicit-constructor): Expr e = 3 reads well
  // Parses all of `text`; `at` is where text starts (its file, line, column), for messages.
  // Throws assembler::Error at the column of the problem.
  static Expr Parse(const std::string& text, const assembler::Location& at = {"<expr>", 1, 1});
  // Parses the longest expression of `line` that starts at *pos (after spaces) and moves *pos
  // past it and the blanks after it. Stops before a character that cannot continue an expression
  // (space-separated words, ',', '..', '='). Throws assembler::LineError at the offending offset of
  // `line`.
  static Expr ParsePrefix(const std::string& line, size_t* pos, const assembler::Location& line_at);

  // Throws assembler::Error at the column of the failing operation or name; `context` is
  // appended to the message (" at PE(3,4)").
  int64_t Eval(const Scope& scope, const std::string& context = "") const;
  const std::string& text() const { return text_; }
  // Where column 1 of the parsed line is (messages add the offset of the problem).
  const assembler::Location& location() const { return loc_; }
  bool empty() const { return !parsed_; }

 private:
  std::shared_ptr<const ParsedExpr> parsed_;
  std::string text_;
  assembler::Location loc_;  // of the parsed line's first character; empty for a constant
};

// Words of the layout's statements (param, when, at, rx, step, ...): never names in an
// expression, so that `param A=x+ param B=1` is an error at the second `param`.
bool IsKeyword(const std::string& name);

}  // namespace tessera::layout
