// Tokens of one assembly line (docs/isa.md 8.1): identifiers `[A-Za-z_.$][A-Za-z0-9_.$]*`,
// integers (decimal, 0x, 0b, 'c'), real literals (1.5, 2e-3), strings, numeric local label
// references (1f, 1b) and the operators of expressions. A comment (`;` or `//`) ends the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::assembler {

enum class TokKind : uint8_t {
  kIdent,     // text: the identifier
  kInt,       // value; text: as written (character literals included)
  kReal,      // text: as written, e.g. "1.5e-3"
  kString,    // text: the decoded contents
  kLocalRef,  // value: the label number; forward: 1f (true) or 1b (false)
  kPunct,     // text: the operator or punctuation
};

struct Token {
  TokKind kind = TokKind::kPunct;
  std::string text;
  size_t pos = 0, end = 0;  // byte offsets of the token in the line
  int64_t value = 0;
  bool forward = false;
  bool Is(const char* punct) const { return kind == TokKind::kPunct && text == punct; }
  bool IsIdent() const { return kind == TokKind::kIdent; }
};

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
