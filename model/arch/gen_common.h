// Helpers shared by the parts of tessera_archgen: error reporting with file:line, number parsing,
// line tokenizing and name conversion.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::archgen {

[[noreturn]] inline void Fail(const std::string& file, int line, const std::string& msg) {
  std::fprintf(stderr, "%s:%d: error: %s\n", file.c_str(), line, msg.c_str());
  std::exit(2);
}

inline uint64_t ParseNum(const std::string& s, const std::string& file, int line) {
  try {
    size_t pos = 0;
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    uint64_t v = std::stoull(s, &pos, hex ? 16 : 10);  // decimal unless 0x: no octal surprises
    if (pos != s.size()) throw std::invalid_argument(s);
    return v;
  } catch (...) {
    Fail(file, line, "'" + s + "' is not a number");
  }
}

// Splits a description line into blank-separated tokens, after removing a `# comment`; the text
// after `--` is returned in `doc`.
inline std::vector<std::string> Tokenize(std::string raw, std::string& doc) {
  doc.clear();
  auto dd = raw.find("--");
  if (dd != std::string::npos) {
    doc = raw.substr(dd + 2);
    doc.erase(0, doc.find_first_not_of(' '));
    raw = raw.substr(0, dd);
  }
  auto hash = raw.find('#');
  if (hash != std::string::npos) raw = raw.substr(0, hash);
  std::istringstream ss(raw);
  std::vector<std::string> tok;
  for (std::string t; ss >> t;) tok.push_back(t);
  return tok;
}

inline std::string Hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "%llX", static_cast<unsigned long long>(v));
  return b;
}

// UpperCamel -> lower_snake, for SystemVerilog type names (dir_e).
inline std::string Snake(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    if (std::isupper(static_cast<unsigned char>(s[i])) && i) o += '_';
    o += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  }
  return o;
}

struct EnumItem {
  std::string name;
  uint64_t value;
};
// A named subset of an enumeration's items (a `set` line): a fact about them that the RTL and the
// C++ code both need, such as which FP operations compute two f16 lanes.
struct EnumSet {
  std::string name, doc;
  std::vector<std::string> items;
};
// A function from an enumeration's items to another's (a `map` line), such as the FMAC operation
// of each DSD operation: C++ gets a constexpr function, SystemVerilog a table indexed by the item.
struct EnumMap {
  std::string name, doc;
  std::string target;  // the enumeration mapped to
  unsigned target_width = 0;
  std::vector<std::string> target_items;  // target item of each source item, by source value
};
struct Enum {
  std::string name, doc;
  unsigned width;
  std::vector<EnumItem> items;
  std::vector<std::string> texts;  // display names of the items (a `names` line), or none
  std::vector<EnumSet> sets;
  std::vector<EnumMap> maps;
};

// Parses `enum NAME WIDTH A=0 B=1 ...` (tokens already split).
inline Enum ParseEnum(const std::vector<std::string>& tok, const std::string& doc,
                      const std::string& file, int line) {
  if (tok.size() < 4) Fail(file, line, "expected: enum NAME WIDTH A=0 ...");
  Enum e{tok[1], doc, static_cast<unsigned>(ParseNum(tok[2], file, line)), {}};
  for (size_t i = 3; i < tok.size(); ++i) {
    auto eq = tok[i].find('=');
    if (eq == std::string::npos) Fail(file, line, "enum item '" + tok[i] + "' needs =VALUE");
    uint64_t v = ParseNum(tok[i].substr(eq + 1), file, line);
    if (v >> e.width) Fail(file, line, "enum item '" + tok[i] + "' does not fit its width");
    e.items.push_back({tok[i].substr(0, eq), v});
  }
  return e;
}

// Parses `set ENUM NAME ITEM...` into the enumeration ENUM (one of `enums`).
inline void ParseSet(const std::vector<std::string>& tok, const std::string& doc,
                     std::vector<Enum>& enums, const std::string& file, int line) {
  if (tok.size() < 3) Fail(file, line, "expected: set ENUM NAME ITEM...");
  Enum* e = nullptr;
  for (auto& x : enums)
    if (x.name == tok[1]) e = &x;
  if (!e) Fail(file, line, "set of unknown enumeration '" + tok[1] + "' (declare it first)");
  EnumSet s{tok[2], doc, {}};
  for (size_t i = 3; i < tok.size(); ++i) {
    bool known = false;
    for (const auto& it : e->items) known |= it.name == tok[i];
    if (!known) Fail(file, line, e->name + " has no item '" + tok[i] + "'");
    s.items.push_back(tok[i]);
  }
  e->sets.push_back(s);
}

// Parses `map ENUM TARGET NAME ITEM=TITEM... [*=TITEM]` into the enumeration ENUM (of `enums`);
// TARGET is one of `enums` or `targets`. `*` maps every item not named; without it, every item
// must be named.
inline void ParseMap(const std::vector<std::string>& tok, const std::string& doc,
                     std::vector<Enum>& enums, const std::vector<Enum>& targets,
                     const std::string& file, int line) {
  if (tok.size() < 5) Fail(file, line, "expected: map ENUM TARGET NAME ITEM=TITEM... [*=TITEM]");
  Enum* e = nullptr;
  const Enum* t = nullptr;
  for (auto& x : enums) {
    if (x.name == tok[1]) e = &x;
    if (x.name == tok[2]) t = &x;
  }
  for (const auto& x : targets)
    if (x.name == tok[2]) t = &x;
  if (!e) Fail(file, line, "map of unknown enumeration '" + tok[1] + "' (declare it first)");
  if (!t) Fail(file, line, "map to unknown enumeration '" + tok[2] + "' (declare it first)");
  EnumMap m{tok[3], doc, t->name, t->width, std::vector<std::string>(size_t{1} << e->width)};
  std::string other;
  auto target_item = [&](const std::string& s) {
    for (const auto& it : t->items)
      if (it.name == s) return s;
    Fail(file, line, t->name + " has no item '" + s + "'");
  };
  for (size_t i = 4; i < tok.size(); ++i) {
    const size_t eq = tok[i].find('=');
    if (eq == std::string::npos) Fail(file, line, "map item '" + tok[i] + "' needs =ITEM");
    const std::string from = tok[i].substr(0, eq), to = target_item(tok[i].substr(eq + 1));
    if (from == "*") {
      other = to;
      continue;
    }
    bool known = false;
    for (const auto& it : e->items) {
      if (it.name != from) continue;
      if (!m.target_items[it.value].empty()) Fail(file, line, "'" + from + "' is mapped twice");
      m.target_items[it.value] = to;
      known = true;
    }
    if (!known) Fail(file, line, e->name + " has no item '" + from + "'");
  }
  for (auto& ti : m.target_items) {
    if (!ti.empty()) continue;
    if (other.empty()) Fail(file, line, "not every item of " + e->name + " is mapped: add *=ITEM");
    ti = other;
  }
  e->maps.push_back(m);
}

// The SystemVerilog typedef and the C++ enum class of an enumeration.
std::string EmitSvEnum(const Enum& e);
std::string EmitSvEnumUse(const Enum& e);
std::string EmitHppEnum(const Enum& e);

// Text for a Markdown table cell. `|` would end the cell; `*` and `_` next to a non-blank could
// start emphasis; a backslash or backquote would escape or start a code span.
inline std::string MdText(const std::string& s) {
  std::string o;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const bool blank_before = i == 0 || s[i - 1] == ' ';
    const bool blank_after = i + 1 == s.size() || s[i + 1] == ' ';
    if (c == '|' || c == '\\' || c == '`' ||
        ((c == '*' || c == '_') && !(blank_before && blank_after)))
      o += '\\';
    o += c;
  }
  return o;
}

// A bit range as the docs write it: "7" or "15:0".
inline std::string Bits(unsigned msb, unsigned lsb) {
  return msb == lsb ? std::to_string(msb) : std::to_string(msb) + ":" + std::to_string(lsb);
}

}  // namespace tessera::archgen
