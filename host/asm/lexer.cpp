#include "asm/lexer.h"

#include <fmt/core.h>

#include <cctype>

#include "asm/diagnostics.h"
#include "expr/ops.h"

namespace tessera::assembler {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// One character of a string or character literal at text[i] (after the opening quote); advances
// i past it.
char ReadChar(const std::string& text, size_t& i) {
  const size_t start = i;
  char c = text[i++];
  if (c != '\\') return c;
  if (i >= text.size()) throw LineError(start, "unfinished escape sequence");
  c = text[i++];
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case '0':
      return '\0';
    case '\\':
      return '\\';
    case '\'':
      return '\'';
    case '"':
      return '"';
    case 'x': {
      int v = 0, digits = 0;
      while (i < text.size() && digits < 2 && HexValue(text[i]) >= 0) {
        v = v * 16 + HexValue(text[i++]);
        ++digits;
      }
      if (digits == 0) throw LineError(start, "\\x needs one or two hex digits");
      return static_cast<char>(v);
    }
    default:
      throw LineError(start, fmt::format("unknown escape sequence '\\{}' (allowed: \\n \\t \\r \\0 "
                                         "\\\\ \\' \\\" \\xHH)",
                                         c));
  }
}

Token LexNumber(const std::string& text, size_t& i) {
  const size_t start = i;
  Token t;
  t.pos = start;
  auto finish = [&](TokKind kind) {
    t.kind = kind;
    t.end = i;
    t.text = text.substr(start, i - start);
    if (i < text.size() && IsIdentChar(text[i])) {
      size_t j = i;
      while (j < text.size() && IsIdentChar(text[j])) ++j;
      throw LineError(start, fmt::format("malformed number '{}'", text.substr(start, j - start)));
    }
    return t;
  };
  auto accumulate = [&](int base, auto digit_of) {
    uint64_t v = 0;
    size_t digits = 0;
    while (i < text.size()) {
      const int d = digit_of(text[i]);
      if (d < 0) break;
      if (v > (UINT64_MAX - d) / base) throw LineError(start, "number does not fit in 64 bits");
      v = v * base + d;
      ++i;
      ++digits;
    }
    t.value = static_cast<int64_t>(v);
    return digits;
  };
  if (text[i] == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
    i += 2;
    if (accumulate(16, HexValue) == 0) throw LineError(start, "0x needs hex digits");
    return finish(TokKind::kInt);
  }
  if (text[i] == '0' && i + 2 < text.size() && (text[i + 1] == 'b' || text[i + 1] == 'B') &&
      (text[i + 2] == '0' || text[i + 2] == '1')) {
    i += 2;
    accumulate(2, [](char c) { return c == '0' || c == '1' ? c - '0' : -1; });
    return finish(TokKind::kInt);
  }
  accumulate(10, [](char c) { return IsDigit(c) ? c - '0' : -1; });
  // A local label reference: digits then f or b, not followed by an identifier character.
  if (i < text.size() && (text[i] == 'f' || text[i] == 'b') &&
      (i + 1 >= text.size() || !IsIdentChar(text[i + 1]))) {
    t.forward = text[i] == 'f';
    ++i;
    return finish(TokKind::kLocalRef);
  }
  bool real = false;
  if (i + 1 < text.size() && text[i] == '.' && IsDigit(text[i + 1])) {
    real = true;
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t j = i + 1;
    if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
    if (j < text.size() && IsDigit(text[j])) {
      real = true;
      i = j;
      while (i < text.size() && IsDigit(text[i])) ++i;
    }
  }
  if (real) {
    t.value = 0;
    return finish(TokKind::kReal);
  }
  return finish(TokKind::kInt);
}

}  // namespace

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}

bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }

std::string ToLower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t CommentStart(const std::string& text) {
  QuoteTracker quotes;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quotes.Quoted(text, i)) continue;
    if (c == ';' || (c == '/' && i + 1 < text.size() && text[i + 1] == '/')) {
      return i;
    }
  }
  return text.size();
}

std::vector<Token> Lex(const std::string& text) {
  std::vector<Token> toks;
  const size_t stop = CommentStart(text);
  size_t i = 0;
  while (i < stop) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    const size_t start = i;
    if (IsDigit(c)) {
      toks.push_back(LexNumber(text, i));
      continue;
    }
    Token t;
    t.pos = start;
    if (IsIdentStart(c)) {
      while (i < stop && IsIdentChar(text[i])) ++i;
      t.kind = TokKind::kIdent;
      t.text = text.substr(start, i - start);
    } else if (c == '"') {
      ++i;
      std::string s;
      while (i < stop && text[i] != '"') s += ReadChar(text, i);
      if (i >= stop) throw LineError(start, "string has no closing '\"'");
      ++i;
      t.kind = TokKind::kString;
      t.text = s;
    } else if (c == '\'') {
      ++i;
      if (i >= stop || text[i] == '\'') throw LineError(start, "empty character literal");
      const char v = ReadChar(text, i);
      if (i >= stop || text[i] != '\'') {
        throw LineError(start, "character literal has no closing quote (one character: 'c')");
      }
      ++i;
      t.kind = TokKind::kInt;
      t.value = static_cast<unsigned char>(v);
      t.text = text.substr(start, i - start);
    } else {
      // An operator or punctuation of expressions, or the `=` of `NAME = value` and `key=value`.
      t.kind = TokKind::kPunct;
      size_t n = expr::PunctLength(text, i);
      if (n == 0 && c == '=') n = 1;
      if (n == 0) {
        if (c == '\\') {
          throw LineError(start,
                          "'\\' outside a macro body (\\name substitutes a macro parameter)");
        }
        throw LineError(start, fmt::format("unexpected character '{}'", c));
      }
      t.text = text.substr(i, n);
      i += n;
    }
    t.end = i;
    toks.push_back(std::move(t));
  }
  return toks;
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\0':
        out += "\\0";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace tessera::assembler
