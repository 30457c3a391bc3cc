#include "csl/lexer.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <set>

namespace tessera::csl {
namespace {

const std::set<std::string>& Keywords() {
  static const std::set<std::string> k = {
      "align",  "and",      "asm",         "break", "comptime", "const",  "continue", "else",
      "enum",   "export",   "extern",      "false", "fn",       "for",    "if",       "inline",
      "layout", "linkname", "linksection", "or",    "param",    "return", "struct",   "switch",
      "task",   "true",     "undefined",   "var",   "volatile", "while"};
  return k;
}

// Longest first within a starting character.
const char* const kPuncts[] = {"<<=", ">>=", "...", "->", "=>", "==", "!=", "<=", ">=", "<<", ">>",
                               "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", ".*", "..", "+",
                               "-",   "*",   "/",   "%",  "&",  "|",  "^",  "~",  "!",  "<",  ">",
                               "=",   "(",   ")",   "[",  "]",  "{",  "}",  ",",  ";",  ":",  "."};

bool IdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IdentChar(char c) { return IdentStart(c) || (c >= '0' && c <= '9'); }
int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

class Lexer {
 public:
  Lexer(const Sources& s, int file) : src_(s), file_(file), text_(s.file(file).text) {}

  std::vector<Token> Run() {
    std::vector<Token> out;
    for (;;) {
      SkipSpace();
      Token t;
      t.loc = Loc{file_, static_cast<uint32_t>(pos_)};
      if (pos_ >= text_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = text_[pos_];
      if (IdentStart(c)) {
        t.text = Word();
        t.kind = IsKeyword(t.text) ? Tok::kKeyword : Tok::kIdent;
      } else if (c == '@') {
        ++pos_;
        if (pos_ >= text_.size() || !IdentStart(text_[pos_]))
          Fail(pos_ - 1, "'@' must start a builtin's name, as in @get_dsd");
        t.kind = Tok::kBuiltin;
        t.text = Word();
      } else if (c >= '0' && c <= '9') {
        Number(t);
      } else if (c == '"') {
        t.kind = Tok::kString;
        t.text = Quoted('"');
      } else if (c == '\'') {
        t.kind = Tok::kInt;
        const size_t start = pos_;
        const std::string s = Quoted('\'');
        if (s.size() != 1) Fail(start, "a character literal holds exactly one byte");
        t.ival = static_cast<unsigned char>(s[0]);
      } else {
        t.kind = Tok::kPunct;
        for (const char* p : kPuncts) {
          const std::string_view v(p);
          if (text_.compare(pos_, v.size(), v) == 0) {
            t.text = std::string(v);
            break;
          }
        }
        if (t.text.empty()) {
          if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            Fail(pos_, fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c)));
          Fail(pos_, fmt::format("unexpected character '{}'", c));
        }
        pos_ += t.text.size();
      }
      out.push_back(std::move(t));
    }
  }

 private:
  [[noreturn]] void Fail(size_t at, const std::string& message) const {
    src_.Fail(Loc{file_, static_cast<uint32_t>(at)}, message);
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  std::string Word() {
    const size_t b = pos_;
    while (pos_ < text_.size() && IdentChar(text_[pos_])) ++pos_;
    return text_.substr(b, pos_ - b);
  }

  void Number(Token& t) {
    const size_t start = pos_;
    int base = 10;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size()) {
      const char p = text_[pos_ + 1];
      if (p == 'x' || p == 'X') base = 16;
      if (p == 'b' || p == 'B') base = 2;
      if (p == 'o' || p == 'O') base = 8;
      if (base != 10) pos_ += 2;
    }
    std::string digits;
    bool is_float = false;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '_') {
        ++pos_;
        continue;
      }
      if (base == 10 && c == '.' && pos_ + 1 < text_.size() && text_[pos_ + 1] >= '0' &&
          text_[pos_ + 1] <= '9' && !is_float) {
        is_float = true;
      } else if (base == 10 && (c == 'e' || c == 'E')) {
        is_float = true;
        digits += c;
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
          digits += text_[pos_++];
        continue;
      } else if (DigitValue(c) >= base) {
        if (IdentChar(c))
          Fail(pos_, fmt::format("'{}' is not a digit of a base-{} number", c, base));
        break;
      }
      digits += c;
      ++pos_;
    }
    if (digits.empty()) Fail(start, "a number needs digits after its base prefix");
    if (is_float) {
      errno = 0;
      char* end = nullptr;
      t.kind = Tok::kFloat;
      t.fval = std::strtod(digits.c_str(), &end);
      if (*end != '\0') Fail(start, "malformed floating-point number");
      return;
    }
    t.kind = Tok::kInt;
    uint64_t v = 0;
    for (char c : digits) {
      const uint64_t d = static_cast<uint64_t>(DigitValue(c));
      if (v > (UINT64_MAX - d) / static_cast<uint64_t>(base))
        Fail(start, "integer literal does not fit in 64 bits");
      v = v * static_cast<uint64_t>(base) + d;
    }
    if (v > static_cast<uint64_t>(INT64_MAX))
      Fail(start, "integer literal does not fit in 63 bits (comptime integers here are 64-bit)");
    t.ival = static_cast<int64_t>(v);
  }

  std::string Quoted(char quote) {
    const size_t start = pos_++;
    std::string s;
    for (;;) {
      if (pos_ >= text_.size() || text_[pos_] == '\n')
        Fail(start, quote == '"' ? "string literal is not closed on its line"
                                 : "character literal is not closed on its line");
      const char c = text_[pos_++];
      if (c == quote) return s;
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos_ >= text_.size()) Fail(pos_ - 1, "escape at the end of the file");
      const char e = text_[pos_++];
      switch (e) {
        case 'n':
          s += '\n';
          break;
        case 't':
          s += '\t';
          break;
        case 'r':
          s += '\r';
          break;
        case '0':
          s += '\0';
          break;
        case '\\':
          s += '\\';
          break;
        case '\'':
          s += '\'';
          break;
        case '"':
          s += '"';
          break;
        case 'x': {
          if (pos_ + 2 > text_.size() || DigitValue(text_[pos_]) > 15 ||
              DigitValue(text_[pos_ + 1]) > 15)
            Fail(pos_ - 2, "\\x needs two hexadecimal digits");
          s += static_cast<char>(DigitValue(text_[pos_]) * 16 + DigitValue(text_[pos_ + 1]));
          pos_ += 2;
          break;
        }
        default:
          Fail(pos_ - 2, fmt::format("unknown escape '\\{}'", e));
      }
    }
  }

  const Sources& src_;
  int file_;
  const std::string& text_;
  size_t pos_ = 0;
};

}  // namespace

bool IsKeyword(const std::string& word) { return Keywords().count(word) != 0; }

std::vector<Token> Lex(const Sources& sources, int file) { return Lexer(sources, file).Run(); }

}  // namespace tessera::csl
