// Tokens of one assembly line (docs/isa.md 8.1): identifiers `[A-Za-z_.$][A-Za-z0-9_.$]*`,
// integers (decimal, 0x, 0b, 'c'), real literals (1.5, 2e-3), strings, numeric local label
// references (1f, 1b), the operators and punctuation of expressions (expr/ops.h) and `=`. A
// comment (`;` or `//`) ends the line. The token form is the expression parser's (expr/token.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "expr/token.h"

namespace tessera::assembler {

using expr::Token;
using expr::TokKind;

// The tokens of text up to its comment. Throws LineError on a malformed token.
std::vector<Token> Lex(const std::string& text);

// Follows a left-to-right scan of a line through quoted strings and character literals.
class QuoteTracker {
 public:
  // True if text[i] is inside quotes (the quotes included); steps `i` over an escaped character.
  bool Quoted(const std::string& text, size_t& i) {
    const char c = text[i];
    if (quote_ != 0) {
      if (c == '\\') {
        ++i;
      } else if (c == quote_) {
        quote_ = 0;
      }
      return true;
    }
    if (c == '"' || c == '\'') {
      quote_ = c;
      return true;
    }
    return false;
  }

 private:
  char quote_ = 0;
};

// Offset of the comment that ends the line (`;` or `//` outside quotes), or text.size().
size_t CommentStart(const std::string& text);

bool IsIdentStart(char c);
bool IsIdentChar(char c);
std::string ToLower(std::string s);

// s with quotes and C escapes, so that Lex reads it back as one kString token.
std::string Quote(const std::string& s);

}  // namespace tessera::assembler
