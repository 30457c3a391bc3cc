// The parser of Tessera's integer expressions, shared by the assembler (asm/expr.h) and the
// layout language (layout/expr.h): C's grammar over a flat token list (expr/token.h, each
// language lexes its own), into a Tree (expr/tree.h). What differs between the languages is
// given in Syntax; what the operands and calls mean is their evaluators' (expr/eval.h).
//
//   cond      = binary(1) [ "?" cond ":" cond ]
//   binary(p) = unary { OP binary(prec(OP) + 1) }   OP a binary operator of precedence >= p
//   unary     = ( "-" | "+" | "!" | "~" ) unary | primary
//   primary   = "(" cond ")" | NAME "(" [ cond { "," cond } ] ")" | OPERAND
//
// The operators and their precedence are expr/ops.h's. An OPERAND is any token that is not
// punctuation. Errors are LineErrors at the offending token's offset.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "expr/token.h"
#include "expr/tree.h"

namespace tessera::expr {

struct Syntax {
  // Whether NAME followed by '(' is a call; if not, NAME is an operand and the '(' ends the
  // expression. May throw LineError to refuse an unknown function where it is named. Unset: no
  // functions.
  std::function<bool(const Token& name)> is_function;
  // Called on each operand and each call once it is parsed, in the order of the text; throws
  // LineError to refuse it (a keyword where a value belongs, a malformed number, a call with the
  // wrong arguments). Unset: everything is accepted.
  std::function<void(const Tree& tree, const Node& node)> check;
  // The column of a byte offset of the line, for a message that names a second place ("the '('
  // at column 7"). Unset: the offset plus 1.
  std::function<int(size_t pos)> column;
};

// Parses the longest expression that starts at toks[begin] and ends by toks[end]; *stop is the
// index of the first token after it. Where the range ends, a message quotes toks[end] (the ','
// after an operand) or, past the last token, "the end of the line".
Tree ParsePrefix(const std::vector<Token>& toks, size_t begin, size_t end, const Syntax& syntax,
                 size_t* stop);

// Parses toks[begin, end) as one expression; a token left over is an error.
Tree Parse(const std::vector<Token>& toks, size_t begin, size_t end, const Syntax& syntax);

}  // namespace tessera::expr
