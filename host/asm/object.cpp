#include "asm/object.h"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "asm/diagnostics.h"
#include "asm/lexer.h"
#include "util/enum_names.h"

namespace tessera::assembler {
namespace {

constexpr const char* kMagic = "tessera-object";
constexpr int kVersion = 1;
constexpr size_t kBytesPerLine = 32;

constexpr util::EnumName<RelocKind> kRelocNames[] = {
    {RelocKind::kU16, "U16"},         {RelocKind::kS16, "S16"},       {RelocKind::kPC16, "PC16"},
    {RelocKind::kHI16, "HI16"},       {RelocKind::kLO16, "LO16"},     {RelocKind::kU5, "U5"},
    {RelocKind::kTID5, "TID5"},       {RelocKind::kW32, "W32"},       {RelocKind::kH16, "H16"},
    {RelocKind::kB8, "B8"},           {RelocKind::kDBase, "DBASE"},   {RelocKind::kDLen, "DLEN"},
    {RelocKind::kDStride, "DSTRIDE"}, {RelocKind::kDColor, "DCOLOR"},
};

// The words of one object line: quoted strings (decoded) and runs of non-blank characters.
struct Word {
  std::string text;
  bool quoted = false;
};

class Reader {
 public:
  Reader(const std::string& text, const std::string& name) : text_(text), name_(name) {}

  Object Read() {
    obj_.name = name_;
    std::istringstream in(text_);
    std::string raw;
    bool header = false;
    while (std::getline(in, raw)) {
      ++line_;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      const std::vector<Word> w = Split(raw);
      if (w.empty() || w[0].text[0] == '#') continue;
      if (!header) {
        if (w.size() != 2 || w[0].text != kMagic) {
          Fail(fmt::format("not a Tessera object: the first line must be '{} {}'", kMagic,
                           kVersion));
        }
        if (w[1].text != std::to_string(kVersion)) {
          Fail(fmt::format("object format version {} is not supported (this tool reads {})",
                           w[1].text, kVersion));
        }
        header = true;
        continue;
      }
      Dispatch(w);
    }
    if (!header) Fail(fmt::format("empty file: not a Tessera object (no '{}' line)", kMagic));
    for (int s = 0; s < kNumSections; ++s) {
      const Section& sec = obj_.sections[s];
      if (s != static_cast<int>(SectionId::kBss) && sec.bytes.size() != sec.size) {
        line_ = section_line_[s];
        Fail(fmt::format("section {} declares size 0x{:04x} but has 0x{:04x} bytes of data",
                         SectionName(SectionId(s)), sec.size, sec.bytes.size()));
      }
    }
    return obj_;
  }

 private:
  [[noreturn]] void Fail(const std::string& message) {
    throw Error(Location{name_, line_, 0}, "malformed object: " + message);
  }

  std::vector<Word> Split(const std::string& raw) {
    std::vector<Word> words;
    size_t i = 0;
    while (i < raw.size()) {
      if (raw[i] == ' ' || raw[i] == '\t') {
        ++i;
        continue;
      }
      if (raw[i] == ';') break;  // a comment
      if (raw[i] == '"') {
        size_t j = i + 1;
        while (j < raw.size() && raw[j] != '"') j += raw[j] == '\\' ? 2 : 1;
        if (j >= raw.size()) Fail("a quoted string has no closing quote");
        std::vector<Token> t;
        try {
          t = Lex(raw.substr(i, j + 1 - i));
        } catch (const LineError& e) {
          Fail(std::string("bad quoted string: ") + e.what());
        }
        words.push_back(Word{t.at(0).text, true});
        i = j + 1;
        continue;
      }
      size_t j = i;
      while (j < raw.size() && raw[j] != ' ' && raw[j] != '\t') ++j;
      words.push_back(Word{raw.substr(i, j - i), false});
      i = j;
    }
    return words;
  }

  void Need(const std::vector<Word>& w, size_t min, size_t max, const char* form) {
    if (w.size() < min || w.size() > max) Fail(fmt::format("expected '{}'", form));
  }

  uint64_t Hex(const std::string& s, const char* what) {
    std::string digits = s;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
      digits = digits.substr(2);
    }
    if (digits.empty() || digits.size() > 16) Fail(fmt::format("bad {} '{}'", what, s));
    uint64_t v = 0;
    for (const char c : digits) {
      int d;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        d = c - 'A' + 10;
      } else {
        Fail(fmt::format("bad {} '{}' (hexadecimal expected)", what, s));
      }
      v = v * 16 + d;
    }
    return v;
  }

  int64_t Decimal(const std::string& s, const char* what) {
    size_t i = s[0] == '-' ? 1 : 0;
    if (i >= s.size()) Fail(fmt::format("bad {} '{}'", what, s));
    uint64_t v = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10) {
        Fail(fmt::format("bad {} '{}' (a decimal number expected)", what, s));
      }
      v = v * 10 + (s[i] - '0');
    }
    return s[0] == '-' ? int64_t(0 - v) : int64_t(v);
  }

  SectionId Sec(const Word& w) {
    const auto s = ParseSectionName(w.text);
    if (!s) Fail(fmt::format("unknown section '{}' (.text, .data or .bss)", w.text));
    return *s;
  }

  uint32_t Offset(const Word& w, SectionId s, uint32_t span) {
    const uint64_t off = Hex(w.text, "offset");
    if (off + span > obj_.section(s).size) {
      Fail(fmt::format("offset {} is outside section {} (size 0x{:04x})", w.text, SectionName(s),
                       obj_.section(s).size));
    }
    return static_cast<uint32_t>(off);
  }

  SymRef Ref(const std::string& s) {
    SymRef r;
    if (s.empty()) Fail("empty symbol reference");
    if ((s[0] >= '0' && s[0] <= '9') || s[0] == '-') {
      r.addend = Decimal(s, "constant");
      return r;
    }
    const size_t op = s.find_last_of("+-");
    if (op != std::string::npos && op > 0 && op + 1 < s.size() &&
        s.find_first_not_of("0123456789", op + 1) == std::string::npos) {
      r.sym = s.substr(0, op);
      r.addend = Decimal(s.substr(op + 1), "addend");
      if (s[op] == '-') r.addend = -r.addend;
    } else {
      r.sym = s;
    }
    return r;
  }

  void Dispatch(const std::vector<Word>& w) {
    const std::string& key = w[0].text;
    if (key == "source") {
      Need(w, 2, 2, "source \"FILE\"");
      obj_.source = w[1].text;
    } else if (key == "section") {
      Need(w, 6, 6, "section NAME align N size 0xSIZE");
      const SectionId s = Sec(w[1]);
      if (seen_.count(s)) Fail(fmt::format("section {} appears twice", SectionName(s)));
      seen_.insert(s);
      if (w[2].text != "align" || w[4].text != "size") {
        Fail("expected 'section NAME align N size 0xSIZE'");
      }
      const int64_t align = Decimal(w[3].text, "alignment");
      if (align < 1 || align > 0x4000 || (align & (align - 1))) {
        Fail(fmt::format("alignment {} is not a power of two 1..16384", align));
      }
      const uint64_t size = Hex(w[5].text, "size");
      if (size > arch::kSramBytes) Fail(fmt::format("section size {} exceeds SRAM", w[5].text));
      Section& sec = obj_.section(s);
      sec.align = static_cast<uint32_t>(align);
      sec.size = static_cast<uint32_t>(size);
      current_ = s;
      has_current_ = true;
      section_line_[static_cast<int>(s)] = line_;
    } else if (key.size() >= 2 && key.back() == ':') {
      if (!has_current_ || current_ == SectionId::kBss) Fail("data line outside .text or .data");
      Section& sec = obj_.section(current_);
      const uint64_t off = Hex(key.substr(0, key.size() - 1), "offset");
      if (off != sec.bytes.size()) {
        Fail(
            fmt::format("data at offset 0x{:04x}, expected 0x{:04x} (lines must be in order "
                        "without gaps)",
                        off, sec.bytes.size()));
      }
      for (size_t k = 1; k < w.size(); ++k) {
        const std::string& h = w[k].text;
        if (h.size() != 8 && h.size() != 4 && h.size() != 2) {
          Fail(fmt::format("bad data '{}': 8 hex digits a word, 4 a half, 2 a byte", h));
        }
        const uint64_t v = Hex(h, "data");
        for (size_t b = 0; b < h.size() / 2; ++b) sec.bytes.push_back(uint8_t(v >> (8 * b)));
      }
      if (sec.bytes.size() > sec.size) {
        Fail(fmt::format("more data than the size 0x{:04x} of section {}", sec.size,
                         SectionName(current_)));
      }
    } else if (key == "symbol") {
      Need(w, 5, 8, "symbol NAME SECTION 0xOFFSET local|global [export [TYPE COUNT]]");
      ObjSymbol s;
      s.name = w[1].text;
      s.section = Sec(w[2]);
      s.offset = Offset(w[3], s.section, 0);
      if (w[4].text != "local" && w[4].text != "global") {
        Fail(fmt::format("symbol visibility '{}' is not local or global", w[4].text));
      }
      s.global = w[4].text == "global";
      if (w.size() > 5) {
        if (w[5].text != "export" || !s.global) Fail("expected 'global export' after the offset");
        s.exported = true;
        if (w.size() == 7) Fail("an exported symbol's type needs a count: TYPE COUNT");
        if (w.size() == 8) {
          s.type = ParseElemType(w[6].text);
          if (!s.type) Fail(fmt::format("unknown element type '{}'", w[6].text));
          const int64_t count = Decimal(w[7].text, "count");
          if (count < 1 || count > 0xFFFF) Fail(fmt::format("bad count {}", count));
          s.count = static_cast<uint32_t>(count);
        }
      }
      if (!names_.insert(s.name).second) Fail(fmt::format("symbol '{}' appears twice", s.name));
      obj_.symbols.push_back(s);
    } else if (key == "param") {
      Need(w, 2, 3, "param NAME [DEFAULT]");
      ObjParam p;
      p.name = w[1].text;
      if (w.size() == 3) p.default_value = Decimal(w[2].text, "default");
      obj_.params.push_back(p);
    } else if (key == "task") {
      Need(w, 4, 6, "task ENTRY KIND ID [active] [blocked]");
      ObjTask t;
      t.entry = w[1].text;
      const auto kind = ParseTaskKind(w[2].text);
      if (!kind) Fail(fmt::format("task kind '{}' is not data, local or control", w[2].text));
      t.kind = *kind;
      t.id = Ref(w[3].text);
      for (size_t k = 4; k < w.size(); ++k) {
        if (w[k].text == "active" && !t.active) {
          t.active = true;
        } else if (w[k].text == "blocked" && !t.blocked) {
          t.blocked = true;
        } else {
          Fail(fmt::format("task state '{}' is not active or blocked (each once)", w[k].text));
        }
      }
      obj_.tasks.push_back(t);
    } else if (key == "dsd") {
      Need(w, 4, 4, "dsd NAME SECTION 0xOFFSET");
      ObjDsd d;
      d.name = w[1].text;
      d.section = Sec(w[2]);
      d.offset = Offset(w[3], d.section, arch::kDsdBytes);
      obj_.dsds.push_back(d);
    } else if (key == "reloc") {
      Need(w, 5, 5, "reloc SECTION 0xOFFSET KIND SYMBOL+ADDEND");
      ObjReloc r;
      r.section = Sec(w[1]);
      const auto kind = ParseRelocKind(w[3].text);
      if (!kind) Fail(fmt::format("unknown relocation kind '{}'", w[3].text));
      r.kind = *kind;
      r.offset = Offset(w[2], r.section, RelocSpan(r.kind));
      if (r.section == SectionId::kBss) Fail("a relocation in .bss (which has no bytes)");
      r.target = Ref(w[4].text);
      obj_.relocs.push_back(r);
    } else if (key == "line") {
      Need(w, 5, 5, "line SECTION 0xOFFSET \"FILE\" LINE");
      ObjLine l;
      l.section = Sec(w[1]);
      l.offset = Offset(w[2], l.section, 0);
      l.file = w[3].text;
      l.line = static_cast<int>(Decimal(w[4].text, "line number"));
      obj_.lines.push_back(l);
    } else {
      Fail(
          fmt::format("unknown record '{}' (expected source, section, symbol, param, task, "
                      "dsd, reloc, line or offset: data)",
                      key));
    }
  }

  const std::string& text_;
  const std::string& name_;
  int line_ = 0;
  Object obj_;
  SectionId current_ = SectionId::kText;
  bool has_current_ = false;
  std::set<SectionId> seen_;
  std::array<int, kNumSections> section_line_{};
  std::set<std::string> names_;
};

}  // namespace

uint32_t RelocSpan(RelocKind k) {
  switch (k) {
    case RelocKind::kH16:
      return 2;
    case RelocKind::kB8:
      return 1;
    case RelocKind::kDBase:
    case RelocKind::kDLen:
    case RelocKind::kDStride:
    case RelocKind::kDColor:
      return 8;
    default:
      return 4;
  }
}

constexpr util::EnumName<SectionId> kSectionNameTable[] = {
    {SectionId::kText, ".text"},
    {SectionId::kData, ".data"},
    {SectionId::kBss, ".bss"},
};

const char* SectionName(SectionId s) { return util::NameOf(kSectionNameTable, s); }

std::optional<SectionId> ParseSectionName(const std::string& name) {
  return util::ParseName(kSectionNameTable, name, util::NameCase::kExact);
}

std::string SymRef::ToString() const {
  if (sym.empty()) return std::to_string(addend);
  if (addend < 0) return fmt::format("{}-{}", sym, 0 - static_cast<uint64_t>(addend));
  return fmt::format("{}+{}", sym, addend);
}

const char* RelocKindName(RelocKind k) { return util::NameOf(kRelocNames, k); }

std::optional<RelocKind> ParseRelocKind(const std::string& name) {
  return util::ParseName(kRelocNames, name, util::NameCase::kExact);
}

std::string ElemTypeName(arch::ElemType t) { return arch::ToString(t); }

std::optional<arch::ElemType> ParseElemType(const std::string& name) {
  arch::ElemType t;
  if (arch::FromString(name, &t)) return t;
  return std::nullopt;
}

std::string DsdKindName(arch::DsdKind k) { return arch::ToString(k); }

std::optional<arch::DsdKind> ParseDsdKind(const std::string& name) {
  arch::DsdKind k;
  if (arch::FromString(name, &k) && k != arch::DsdKind::kNone) return k;
  return std::nullopt;
}

const char* TaskKindName(arch::TaskKind k) { return arch::ToString(k); }

std::optional<arch::TaskKind> ParseTaskKind(const std::string& name) {
  arch::TaskKind k;
  if (arch::FromString(name, &k) && k != arch::TaskKind::kNone) return k;
  return std::nullopt;
}

const ObjSymbol* Object::FindSymbol(const std::string& name) const {
  for (const ObjSymbol& s : symbols) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const ObjLine* Object::LineAt(SectionId s, uint32_t offset) const {
  const ObjLine* best = nullptr;
  for (const ObjLine& l : lines) {
    if (l.section == s && l.offset <= offset && (!best || l.offset >= best->offset)) best = &l;
  }
  return best;
}

std::string WriteObject(const Object& obj) {
  std::string out = fmt::format("{} {}\n", kMagic, kVersion);
  out += fmt::format("source {}\n", Quote(obj.source));
  for (int s = 0; s < kNumSections; ++s) {
    const Section& sec = obj.sections[s];
    out += fmt::format("section {} align {} size 0x{:04x}\n", SectionName(SectionId(s)), sec.align,
                       sec.size);
    for (size_t off = 0; off < sec.bytes.size(); off += kBytesPerLine) {
      out += fmt::format("  {:04x}:", off);
      const size_t end = std::min(sec.bytes.size(), off + kBytesPerLine);
      size_t k = off;
      for (; k + 4 <= end; k += 4) {
        out += fmt::format(" {:08x}", uint32_t(sec.bytes[k]) | uint32_t(sec.bytes[k + 1]) << 8 |
                                          uint32_t(sec.bytes[k + 2]) << 16 |
                                          uint32_t(sec.bytes[k + 3]) << 24);
      }
      for (; k < end; ++k) out += fmt::format(" {:02x}", sec.bytes[k]);
      out += '\n';
    }
  }
  for (const ObjSymbol& s : obj.symbols) {
    out += fmt::format("symbol {} {} 0x{:04x} {}", s.name, SectionName(s.section), s.offset,
                       s.global ? "global" : "local");
    if (s.exported) out += " export";
    if (s.exported && s.type) out += fmt::format(" {} {}", ElemTypeName(*s.type), s.count);
    out += '\n';
  }
  for (const ObjParam& p : obj.params) {
    out += "param " + p.name;
    if (p.default_value) out += fmt::format(" {}", *p.default_value);
    out += '\n';
  }
  for (const ObjTask& t : obj.tasks) {
    out += fmt::format("task {} {} {}{}{}\n", t.entry, TaskKindName(t.kind),
                       t.id.sym.empty() ? std::to_string(t.id.addend) : t.id.ToString(),
                       t.active ? " active" : "", t.blocked ? " blocked" : "");
  }
  for (const ObjDsd& d : obj.dsds) {
    out += fmt::format("dsd {} {} 0x{:04x}\n", d.name, SectionName(d.section), d.offset);
  }
  for (const ObjReloc& r : obj.relocs) {
    out += fmt::format("reloc {} 0x{:04x} {} {}\n", SectionName(r.section), r.offset,
                       RelocKindName(r.kind), r.target.ToString());
  }
  for (const ObjLine& l : obj.lines) {
    out += fmt::format("line {} 0x{:04x} {} {}\n", SectionName(l.section), l.offset, Quote(l.file),
                       l.line);
  }
  return out;
}

Object ReadObject(const std::string& text, const std::string& name) {
  return Reader(text, name).Read();
}

Object ReadObjectFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error(Location{path, 0, 0},
                fmt::format("cannot read object file: {}", std::strerror(errno)));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ReadObject(ss.str(), path);
}

void WriteObjectFile(const std::string& path, const Object& obj) {
  std::ofstream out(path, std::ios::binary);
  out << WriteObject(obj);
  if (!out) {
    throw Error(Location{path, 0, 0},
                fmt::format("cannot write object file: {}", std::strerror(errno)));
  }
}

}  // namespace tessera::assembler
