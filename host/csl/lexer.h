// The CSL lexer: identifiers and keywords, builtins (`@name`), integer, float, character and
// string literals, punctuation, and `//` comments (the language has no block comments).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "csl/source.h"

namespace tessera::csl {

enum class Tok : uint8_t {
  kEof,
  kIdent,    // text
  kKeyword,  // text: const, var, fn, if, ...
  kBuiltin,  // text without the '@'
  kInt,      // ival (character literals too)
  kFloat,    // fval
  kString,   // text with escapes decoded
  kPunct,    // text: "(", "+=", ".*", "->", ...
};

struct Token {
  Tok kind = Tok::kEof;
  std::string text;
  int64_t ival = 0;
  double fval = 0;
  Loc loc;
};

bool IsKeyword(const std::string& word);

// The whole file as tokens, ending with kEof; throws Error at the first bad character.
std::vector<Token> Lex(const Sources& sources, int file);

}  // namespace tessera::csl
