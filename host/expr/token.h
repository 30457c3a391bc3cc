// The token form the expression parser (expr/parser.h) reads, made by each language's own lexer:
// the assembler's (asm/lexer.h) and the layout's (layout/expr.cpp). The parser knows only
// punctuation (kPunct) and names (kIdent, which may start a call); every other token is an
// operand whose meaning is its user's. The layout's lexer makes kIdent, kInt and kPunct only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessera::expr {

enum class TokKind : uint8_t {
  kIdent,     // text: the identifier
  kInt,       // value; text: as written (character literals included)
  kReal,      // text: as written, e.g. "1.5e-3" (assembly: .f32, .f16, f32(), f16())
  kString,    // text: the decoded contents (assembly)
  kLocalRef,  // value: the label number; forward: 1f (true) or 1b (false) (assembly)
  kPunct,     // text: an operator, punctuation, or a character no expression uses
};

struct Token {
  TokKind kind = TokKind::kPunct;
  std::string text;
  size_t pos = 0, end = 0;  // byte offsets of the token in the line
  int64_t value = 0;
  bool forward = false;
  bool Is(const char* punct) const { return kind == TokKind::kPunct && text == punct; }
  bool IsIdent() const { return kind == TokKind::kIdent; }
  // The token as a message quotes it: a string in its double quotes, anything else as written.
  std::string Shown() const { return kind == TokKind::kString ? "\"" + text + "\"" : text; }
};

}  // namespace tessera::expr
