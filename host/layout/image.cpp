#include "layout/image.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "asm/diagnostics.h"
#include "asm/object.h"
#include "fabric/fabric.h"

namespace tessera::layout {

using assembler::Error;
using assembler::Location;
using assembler::PeProgram;
using assembler::SymbolInfo;

namespace {

constexpr int kVersion = 1;
constexpr int kWordsPerLine = 8;

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

uint32_t WordAt(const std::vector<uint8_t>& b, uint32_t a) {
  return uint32_t(b[a]) | uint32_t(b[a + 1]) << 8 | uint32_t(b[a + 2]) << 16 |
         uint32_t(b[a + 3]) << 24;
}

void WriteProgram(std::string* out, int index, const ImageProgram& ip) {
  const PeProgram& p = ip.program;
  *out += fmt::format("program {} sources", index);
  for (const std::string& s : ip.sources) *out += " " + Quote(s);
  *out += " params";
  for (const auto& [name, value] : ip.params) *out += fmt::format(" {}={}", name, value);
  *out += fmt::format("\n  end 0x{:04x}\n", p.end);
  for (const assembler::TaskBinding& t : p.tasks) {
    *out += fmt::format("  task {} {} 0x{:04x}{}{}\n", t.id, assembler::TaskKindName(t.kind),
                        t.entry, t.active ? " active" : "", t.blocked ? " blocked" : "");
  }
  for (const auto& [name, s] : p.symbols) {
    *out += fmt::format("  symbol {} 0x{:04x} {} {}", Quote(name), s.address,
                        s.section.empty() ? "-" : s.section, s.global ? "global" : "local");
    if (s.exported) *out += " export";
    if (s.type) *out += fmt::format(" {} {}", assembler::ElemTypeName(*s.type), s.count);
    *out += '\n';
  }
  for (const assembler::LineInfo& l : p.lines) {
    *out += fmt::format("  line 0x{:04x} {} {}\n", l.address, Quote(l.file), l.line);
  }
  const uint32_t end = std::min<uint32_t>((p.end + 3u) & ~3u, uint32_t(p.sram.size()));
  for (uint32_t a = 0; a < end; a += 4 * kWordsPerLine) {
    const uint32_t n = std::min<uint32_t>(kWordsPerLine, (end - a) / 4);
    bool zero = true;
    for (uint32_t i = 0; i < n; ++i) zero = zero && WordAt(p.sram, a + 4 * i) == 0;
    if (zero) continue;
    *out += fmt::format("  data 0x{:04x}:", a);
    for (uint32_t i = 0; i < n; ++i) *out += fmt::format(" {:08x}", WordAt(p.sram, a + 4 * i));
    *out += '\n';
  }
  *out += "endprogram\n";
}

// One record of an image file split into words, with the column of each.
struct Token {
  std::string text;
  int column = 0;
  bool quoted = false;
};

class Reader {
 public:
  Reader(const std::string& text, const std::string& name) : name_(name) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines_.push_back(line);
  }

  Image Run() {
    if (!Next()) Fail(0, "the file is empty (expected 'tessera-image 1' on the first line)");
    if (tok_[0].text != "tessera-image" || tok_.size() != 2) {
      Fail(0, "not a tessera image (expected 'tessera-image 1' on the first line)");
    }
    if (tok_[1].text != std::to_string(kVersion)) {
      Fail(1, fmt::format("image version {} is not supported (this tessera reads version {})",
                          tok_[1].text, kVersion));
    }
    if (!Next() || tok_[0].text != "fabric" || tok_.size() != 3) {
      Fail(0, "expected 'fabric W H' after the header");
    }
    image_.fabric_w = static_cast<int>(Num(1, 1, 0xFFFF, "fabric width"));
    image_.fabric_h = static_cast<int>(Num(2, 1, 0xFFFF, "fabric height"));
    if (int64_t(image_.fabric_w) * image_.fabric_h > kMaxFabricPes) {
      Fail(1,
           fmt::format("fabric {}x{} has {} PEs; an image may have up to {}", image_.fabric_w,
                       image_.fabric_h, int64_t(image_.fabric_w) * image_.fabric_h, kMaxFabricPes));
    }
    for (;;) {
      if (!Next()) Fail(-1, "the image ends without its 'end' record (is it truncated?)");
      const std::string& k = tok_[0].text;
      if (k == "program") {
        ReadProgram();
      } else if (k == "pe") {
        ReadPe();
      } else if (k == "end") {
        Want(5);
        if (tok_[1].text != "programs" || tok_[3].text != "pes") {
          Fail(0, "expected 'end programs P pes Q'");
        }
        if (Num(2, 0, 1 << 30, "count") != int64_t(image_.programs.size()) ||
            Num(4, 0, 1 << 30, "count") != int64_t(image_.pes.size())) {
          Fail(0,
               fmt::format("the end record counts {} programs and {} PEs, the file has {} and "
                           "{} (is it damaged?)",
                           tok_[2].text, tok_[4].text, image_.programs.size(), image_.pes.size()));
        }
        if (Next()) Fail(0, "text after the 'end' record");
        return std::move(image_);
      } else {
        Fail(0, fmt::format("unknown record '{}' (expected program, pe or end)", k));
      }
    }
  }

 private:
  [[noreturn]] void Fail(int token, const std::string& message) const {
    Location at{name_, line_, 0};
    if (token >= 0 && size_t(token) < tok_.size()) at.column = tok_[token].column;
    if (token < 0) at.line = static_cast<int>(lines_.size());
    throw Error(at, "malformed image: " + message);
  }

  // The next non-empty line, split; false at the end of the file.
  bool Next() {
    while (next_ < lines_.size()) {
      line_ = static_cast<int>(++next_);
      const std::string& s = lines_[next_ - 1];
      tok_.clear();
      size_t i = 0;
      while (i < s.size()) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
          ++i;
          continue;
        }
        Token t;
        t.column = static_cast<int>(i) + 1;
        if (s[i] == '"') {
          t.quoted = true;
          ++i;
          bool closed = false;
          while (i < s.size()) {
            if (s[i] == '\\' && i + 1 < s.size()) {
              t.text += s[i + 1];
              i += 2;
            } else if (s[i] == '"') {
              ++i;
              closed = true;
              break;
            } else {
              t.text += s[i++];
            }
          }
          if (!closed) {
            tok_.push_back(t);
            Fail(static_cast<int>(tok_.size()) - 1, "unterminated '\"'");
          }
        } else {
          while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') t.text += s[i++];
        }
        tok_.push_back(std::move(t));
      }
      if (!tok_.empty()) return true;
    }
    tok_.clear();
    return false;
  }

  void Want(size_t n) const {
    if (tok_.size() != n) {
      Fail(tok_.size() > n ? static_cast<int>(n) : 0,
           fmt::format("'{}' takes {} field{}, this one has {}", tok_[0].text, n - 1,
                       n == 2 ? "" : "s", tok_.size() - 1));
    }
  }

  int64_t Num(size_t i, int64_t lo, int64_t hi, const std::string& what) const {
    if (i >= tok_.size()) Fail(0, fmt::format("the {} is missing", what));
    const std::string& t = tok_[i].text;
    int64_t v = 0;
    bool ok = !t.empty();
    size_t used = 0;
    // Decimal, or hex with 0x; never octal (a leading 0 is still decimal).
    const bool neg = !t.empty() && t[0] == '-';
    const bool hex = t.compare(neg ? 1 : 0, 2, "0x") == 0;
    try {
      v = std::stoll(t, &used, hex ? 16 : 10);
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok || used != t.size()) Fail(static_cast<int>(i), fmt::format("bad {} '{}'", what, t));
    if (v < lo || v > hi) {
      Fail(static_cast<int>(i), fmt::format("{} {} is out of range ({}..{})", what, t, lo, hi));
    }
    return v;
  }

  void ReadProgram() {
    if (!image_.pes.empty()) Fail(0, "a program after the first pe record (programs come first)");
    if (tok_.size() < 4 || tok_[2].text != "sources") {
      Fail(0, "expected 'program N sources \"FILE\"... params NAME=VALUE...'");
    }
    if (Num(1, 0, 1 << 30, "program number") != int64_t(image_.programs.size())) {
      Fail(1, fmt::format("program {} out of order (expected {})", tok_[1].text,
                          image_.programs.size()));
    }
    ImageProgram ip;
    size_t i = 3;
    for (; i < tok_.size() && tok_[i].quoted; ++i) ip.sources.push_back(tok_[i].text);
    if (i >= tok_.size() || tok_[i].text != "params")
      Fail(std::min(i, tok_.size() - 1), "expected 'params'");
    for (++i; i < tok_.size(); ++i) {
      const size_t eq = tok_[i].text.find('=');
      if (eq == std::string::npos || eq == 0) Fail(static_cast<int>(i), "expected NAME=VALUE");
      Token value = tok_[i];
      const std::string pname = value.text.substr(0, eq);
      std::vector<Token> saved = tok_;
      tok_ = {Token{value.text.substr(eq + 1), value.column + static_cast<int>(eq) + 1, false}};
      const int64_t v = Num(0, INT64_MIN, INT64_MAX, "param value");
      tok_ = std::move(saved);
      if (!ip.params.emplace(pname, v).second) {
        Fail(static_cast<int>(i), fmt::format("param {} given twice", pname));
      }
    }
    PeProgram& p = ip.program;
    p.sram.assign(arch::kSramBytes, 0);
    bool have_end = false;
    uint32_t data_next = 0;
    std::set<int> task_ids;
    for (;;) {
      if (!Next()) Fail(-1, "the image ends inside a program (no 'endprogram')");
      const std::string& k = tok_[0].text;
      if (k == "endprogram") {
        Want(1);
        break;
      }
      if (k == "end") {
        Want(2);
        if (have_end) Fail(0, "the program's end is given twice");
        p.end = static_cast<uint16_t>(Num(1, 0, arch::kSramBytes, "end address"));
        if (data_next > p.end) Fail(1, "the program's data extends past its end");
        have_end = true;
      } else if (k == "task") {
        if (tok_.size() < 4 || tok_.size() > 6)
          Fail(0, "expected 'task ID KIND ENTRY [active] [blocked]'");
        assembler::TaskBinding t;
        for (size_t f = 4; f < tok_.size(); ++f) {
          if (tok_[f].text == "active" && !t.active) {
            t.active = true;
          } else if (tok_[f].text == "blocked" && !t.blocked) {
            t.blocked = true;
          } else {
            Fail(static_cast<int>(f), fmt::format("task state '{}' is not active or blocked "
                                                  "(each once)",
                                                  tok_[f].text));
          }
        }
        t.id = static_cast<int>(Num(1, 0, arch::kNumTasks - 2, "task ID"));
        const std::optional<arch::TaskKind> kind = assembler::ParseTaskKind(tok_[2].text);
        if (!kind)
          Fail(2, fmt::format("unknown task kind '{}' (data, local, control)", tok_[2].text));
        t.kind = *kind;
        if (t.kind == arch::TaskKind::kData && t.id >= int(arch::kNumColors)) {
          Fail(1,
               fmt::format("data task ID {} is not a color (0..{})", t.id, arch::kNumColors - 1));
        }
        t.entry = static_cast<uint16_t>(Num(3, 0, arch::kSramBytes - 4, "task entry"));
        if (t.entry % 4) Fail(3, "a task entry must be a multiple of 4");
        if (!task_ids.insert(t.id).second) Fail(1, fmt::format("task {} bound twice", t.id));
        p.tasks.push_back(t);
      } else if (k == "symbol") {
        if (tok_.size() < 5 || tok_.size() > 8 || !tok_[1].quoted) {
          Fail(0, "expected 'symbol \"NAME\" ADDRESS SECTION global|local [export] [TYPE COUNT]'");
        }
        SymbolInfo s;
        s.address = static_cast<uint16_t>(Num(2, 0, arch::kSramBytes, "symbol address"));
        const std::string& sec = tok_[3].text;
        if (sec != ".text" && sec != ".data" && sec != ".bss" && sec != "-") {
          Fail(3, fmt::format("unknown section '{}' (.text, .data, .bss or -)", sec));
        }
        s.section = sec == "-" ? "" : sec;
        if (tok_[4].text != "global" && tok_[4].text != "local")
          Fail(4, "expected global or local");
        s.global = tok_[4].text == "global";
        size_t j = 5;
        if (j < tok_.size() && tok_[j].text == "export") {
          s.exported = true;
          ++j;
        }
        if (j < tok_.size()) {
          if (j + 2 != tok_.size()) Fail(static_cast<int>(j), "expected TYPE COUNT");
          s.type = assembler::ParseElemType(tok_[j].text);
          if (!s.type)
            Fail(static_cast<int>(j), fmt::format("unknown element type '{}'", tok_[j].text));
          s.count = static_cast<uint32_t>(Num(j + 1, 0, arch::kSramBytes, "element count"));
        }
        if (!p.symbols.emplace(tok_[1].text, s).second) {
          Fail(1, fmt::format("symbol '{}' given twice", tok_[1].text));
        }
      } else if (k == "line") {
        Want(4);
        assembler::LineInfo l;
        l.address = static_cast<uint16_t>(Num(1, 0, arch::kSramBytes - 1, "line address"));
        if (!tok_[2].quoted) Fail(2, "expected a quoted file name");
        l.file = tok_[2].text;
        l.line = static_cast<int>(Num(3, 1, INT32_MAX, "line number"));
        if (!p.lines.empty() && p.lines.back().address > l.address) {
          Fail(1, "line records must be in address order");
        }
        p.lines.push_back(l);
      } else if (k == "data") {
        if (tok_.size() < 3 || tok_.size() > 2 + kWordsPerLine || tok_[1].text.back() != ':') {
          Fail(0, fmt::format("expected 'data ADDRESS: WORD...' with 1..{} words", kWordsPerLine));
        }
        tok_[1].text.pop_back();
        const uint32_t a = static_cast<uint32_t>(Num(1, 0, arch::kSramBytes - 4, "data address"));
        if (a % 4) Fail(1, "a data address must be a multiple of 4");
        if (a < data_next) Fail(1, "data lines overlap or are out of address order");
        const uint32_t n = static_cast<uint32_t>(tok_.size() - 2);
        if (a + 4 * n > arch::kSramBytes) Fail(1, "the data runs past the end of SRAM (0xc000)");
        for (uint32_t w = 0; w < n; ++w) {
          const std::string& t = tok_[2 + w].text;
          if (t.size() != 8 || !std::all_of(t.begin(), t.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c)) != 0;
              })) {
            Fail(static_cast<int>(2 + w), fmt::format("bad data word '{}' (8 hex digits)", t));
          }
          const uint32_t v = static_cast<uint32_t>(std::stoul(t, nullptr, 16));
          for (int b = 0; b < 4; ++b) p.sram[a + 4 * w + b] = static_cast<uint8_t>(v >> (8 * b));
        }
        data_next = a + 4 * n;
        if (have_end && data_next > ((p.end + 3u) & ~3u)) {
          Fail(1, "the data extends past the program's end");
        }
      } else {
        Fail(0, fmt::format("unknown program record '{}' (end, task, symbol, line, data, "
                            "endprogram)",
                            k));
      }
    }
    if (!have_end) Fail(0, "the program has no 'end' record");
    image_.programs.push_back(std::move(ip));
  }

  uint32_t Dirs(size_t i) const {
    const std::string& t = tok_[i].text;
    if (t == "none") return 0;
    uint32_t mask = 0;
    size_t start = 0;
    for (;;) {
      const size_t comma = t.find(',', start);
      const std::string d =
          t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      int bit = -1;
      for (unsigned k = 0; k < arch::kNumDirs; ++k) {
        if (d == DirMaskName(1u << k)) bit = static_cast<int>(k);
      }
      if (bit < 0 || (mask >> bit & 1)) {
        Fail(static_cast<int>(i), fmt::format("bad direction set '{}' (W, E, S, N, RAMP)", t));
      }
      mask |= 1u << bit;
      if (comma == std::string::npos) return mask;
      start = comma + 1;
    }
  }

  void ReadPe() {
    if (tok_.size() != 3 && tok_.size() != 5) Fail(0, "expected 'pe X Y [program N]'");
    ImagePe pe;
    pe.x = static_cast<int>(Num(1, 0, image_.fabric_w - 1, "x"));
    pe.y = static_cast<int>(Num(2, 0, image_.fabric_h - 1, "y"));
    if (!image_.pes.empty()) {
      const ImagePe& last = image_.pes.back();
      if (std::make_pair(pe.y, pe.x) <= std::make_pair(last.y, last.x)) {
        Fail(1,
             fmt::format("PE({},{}) out of order or given twice (PEs go row by row)", pe.x, pe.y));
      }
    }
    if (tok_.size() == 5) {
      if (tok_[3].text != "program") Fail(3, "expected 'program N'");
      pe.program = static_cast<int>(
          Num(4, 0, static_cast<int64_t>(image_.programs.size()) - 1, "program number"));
    }
    for (;;) {
      if (!Next()) Fail(-1, "the image ends inside a pe (no 'endpe')");
      if (tok_[0].text == "endpe") {
        Want(1);
        break;
      }
      if (tok_[0].text != "route")
        Fail(0, fmt::format("unknown pe record '{}' (route, endpe)", tok_[0].text));
      // A trailing swap_x sets ColorCfg.SwapX.
      const bool swap_x = tok_.size() > 8 && tok_.back().text == "swap_x";
      if (swap_x) tok_.pop_back();
      if (tok_.size() != 11 && tok_.size() != 14) Want(8);
      if (tok_[2].text != "rx" || tok_[4].text != "tx" || tok_[6].text != "switch" ||
          (tok_.size() >= 11 && tok_[8].text != "filter") ||
          (tok_.size() == 14 && tok_[11].text != "count")) {
        Fail(0,
             "expected 'route COLOR rx DIRS tx DIRS switch VALUE [filter MIN MAX [count COUNT "
             "LIMIT]] [swap_x]'");
      }
      RouteCfg r;
      r.color = static_cast<int>(Num(1, 0, arch::kNumColors - 1, "color"));
      if (!pe.routes.empty() && pe.routes.back().color >= r.color) {
        Fail(1, "routes must be in ascending color order, each color once");
      }
      r.color_cfg = arch::ColorCfg::WithSwapX(ColorCfgValue(Dirs(3), Dirs(5)), swap_x ? 1 : 0);
      using SC = arch::SwitchCfg;
      r.switch_cfg = static_cast<uint32_t>(
          Num(7, 0, (1u << (SC::kCountCtrlLsb + SC::kCountCtrlWidth)) - 1, "switch value"));
      if (tok_.size() >= 11) {
        if (!SC::Filter(r.switch_cfg)) Fail(8, "a filter needs the switch value's Filter bit (15)");
        const auto lo = static_cast<uint32_t>(Num(9, 0, 0xFFFF, "filter minimum"));
        const auto hi = static_cast<uint32_t>(Num(10, 0, 0xFFFF, "filter maximum"));
        r.filter_range = arch::FilterRange::WithMax(arch::FilterRange::WithMin(0, lo), hi);
      } else if (SC::Filter(r.switch_cfg)) {
        Fail(7, "the switch value's Filter bit (15) needs 'filter MIN MAX' after it");
      }
      if (tok_.size() == 14) {
        if (!SC::Counter(r.switch_cfg))
          Fail(11, "a count needs the switch value's Counter bit (16)");
        const auto n = static_cast<uint32_t>(Num(12, 0, 0xFFFF, "filter count"));
        const auto lim = static_cast<uint32_t>(Num(13, 0, 0xFFFF, "filter count limit"));
        r.filter_count = arch::FilterCount::WithLimit(arch::FilterCount::WithCount(0, n), lim);
      } else if (SC::Counter(r.switch_cfg)) {
        Fail(7, "the switch value's Counter bit (16) needs 'filter MIN MAX count COUNT LIMIT'");
      }
      pe.routes.push_back(r);
    }
    image_.pes.push_back(std::move(pe));
  }

  std::string name_;
  std::vector<std::string> lines_;
  size_t next_ = 0;
  int line_ = 0;
  std::vector<Token> tok_;
  Image image_;
};

}  // namespace

uint32_t ColorCfgValue(uint32_t rx_mask, uint32_t tx_mask) {
  return arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, tx_mask), rx_mask);
}

std::string DirMaskName(uint32_t mask) { return fabric::DirMaskText(mask, ",", "none"); }

const ImagePe* Image::Pe(int x, int y) const {
  auto it = std::lower_bound(
      pes.begin(), pes.end(), std::make_pair(y, x),
      [](const ImagePe& p, const std::pair<int, int>& k) { return std::make_pair(p.y, p.x) < k; });
  return it != pes.end() && it->x == x && it->y == y ? &*it : nullptr;
}

const PeProgram* Image::ProgramAt(int x, int y) const {
  const ImagePe* pe = Pe(x, y);
  if (!pe || pe->program < 0 || size_t(pe->program) >= programs.size()) return nullptr;
  return &programs[pe->program].program;
}

const SymbolInfo* Image::Symbol(int x, int y, const std::string& name) const {
  const PeProgram* p = ProgramAt(x, y);
  if (!p) return nullptr;
  auto it = p->symbols.find(name);
  return it == p->symbols.end() ? nullptr : &it->second;
}

void Image::ForEachWrite(const WriteFn& fn) const {
  const uint32_t dim = arch::FabricDim::WithH(arch::FabricDim::WithW(0, fabric_w), fabric_h);
  size_t next = 0;
  for (int y = 0; y < fabric_h; ++y) {
    for (int x = 0; x < fabric_w; ++x) {
      fn(x, y, arch::FabricDim::kAddr, dim);
      if (next >= pes.size() || pes[next].x != x || pes[next].y != y) continue;
      const ImagePe& pe = pes[next++];
      const PeProgram* p = ProgramAt(x, y);
      if (p) {
        const uint32_t end = std::min<uint32_t>((p->end + 3u) & ~3u, uint32_t(p->sram.size()));
        for (uint32_t a = 0; a < end; a += 4)
          fn(x, y, static_cast<uint16_t>(a), WordAt(p->sram, a));
        for (const assembler::TaskBinding& t : p->tasks) {
          const uint32_t v = arch::TaskCfg::WithKind(arch::TaskCfg::WithEntry(0, t.entry),
                                                     static_cast<uint32_t>(t.kind));
          fn(x, y, arch::TaskCfg::Addr(t.id), v);
        }
      }
      for (const RouteCfg& r : pe.routes) {
        fn(x, y, arch::ColorCfg::Addr(r.color), r.color_cfg);
        fn(x, y, arch::SwitchCfg::Addr(r.color), r.switch_cfg);
        if (arch::SwitchCfg::Filter(r.switch_cfg))
          fn(x, y, arch::FilterRange::Addr(r.color), r.filter_range);
        if (arch::SwitchCfg::Counter(r.switch_cfg))
          fn(x, y, arch::FilterCount::Addr(r.color), r.filter_count);
      }
      // Tasks active or blocked from the start (a program's `.task ..., active, blocked`), last.
      if (p && p->BlockedAtLoad()) fn(x, y, arch::TaskBlockSet::kAddr, p->BlockedAtLoad());
      if (p && p->ActiveAtLoad()) fn(x, y, arch::TaskActiveSet::kAddr, p->ActiveAtLoad());
    }
  }
}

std::string WriteImage(const Image& image) {
  std::string out =
      fmt::format("tessera-image {}\nfabric {} {}\n", kVersion, image.fabric_w, image.fabric_h);
  for (size_t i = 0; i < image.programs.size(); ++i) {
    WriteProgram(&out, static_cast<int>(i), image.programs[i]);
  }
  for (const ImagePe& pe : image.pes) {
    out += fmt::format("pe {} {}", pe.x, pe.y);
    if (pe.program >= 0) out += fmt::format(" program {}", pe.program);
    out += '\n';
    for (const RouteCfg& r : pe.routes) {
      out += fmt::format("  route {} rx {} tx {} switch 0x{:04x}", r.color,
                         DirMaskName(arch::ColorCfg::Rx(r.color_cfg)),
                         DirMaskName(arch::ColorCfg::Tx(r.color_cfg)), r.switch_cfg);
      if (arch::SwitchCfg::Filter(r.switch_cfg))
        out += fmt::format(" filter {} {}", arch::FilterRange::Min(r.filter_range),
                           arch::FilterRange::Max(r.filter_range));
      if (arch::SwitchCfg::Counter(r.switch_cfg))
        out += fmt::format(" count {} {}", arch::FilterCount::Count(r.filter_count),
                           arch::FilterCount::Limit(r.filter_count));
      if (arch::ColorCfg::SwapX(r.color_cfg)) out += " swap_x";
      out += '\n';
    }
    out += "endpe\n";
  }
  out += fmt::format("end programs {} pes {}\n", image.programs.size(), image.pes.size());
  return out;
}

Image ReadImage(const std::string& text, const std::string& name) {
  return Reader(text, name).Run();
}

Image ReadImageFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Location{path, 0, 0}, "cannot open the image file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ReadImage(ss.str(), path);
}

void WriteImageFile(const std::string& path, const Image& image) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(Location{path, 0, 0}, "cannot create the image file");
  out << WriteImage(image);
  if (!out.flush()) throw Error(Location{path, 0, 0}, "cannot write the image file");
}

}  // namespace tessera::layout
