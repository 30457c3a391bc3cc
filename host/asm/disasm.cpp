#include "asm/disasm.h"

#include <fmt/core.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "arch/isa_table.h"
#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/lexer.h"
#include "asm/operands.h"
#include "asm/predefined.h"
#include "isa/decode.h"

namespace tessera::assembler {
namespace {

using K = arch::OperandKind;

constexpr const char* kIndent = "        ";
constexpr size_t kWordsPerDataLine = 4;

std::string Line(const std::string& mnemonic, const std::string& operands) {
  std::string s = kIndent + mnemonic;
  if (operands.empty()) return s;
  if (s.size() < 16)
    s.resize(16, ' ');
  else
    s += ' ';
  return s + operands;
}

std::string Hex(uint64_t v) { return v < 10 ? std::to_string(v) : fmt::format("0x{:x}", v); }

std::string Ref(const SymRef& r) {
  if (r.sym.empty()) return std::to_string(r.addend);
  if (r.addend == 0) return r.sym;
  return r.ToString();
}

std::string RelocText(const ObjReloc& r) {
  const std::string s = Ref(r.target);
  if (r.kind == RelocKind::kHI16) return "hi(" + s + ")";
  if (r.kind == RelocKind::kLO16) return "lo(" + s + ")";
  return s;
}

std::string Offset(int64_t delta) {
  return delta < 0 ? fmt::format(".-{}", -delta) : fmt::format(".+{}", delta);
}

bool IsDataReloc(RelocKind k) {
  return k == RelocKind::kW32 || k == RelocKind::kH16 || k == RelocKind::kB8;
}

// Whether `text`, assembled alone in .text, gives exactly these words and no relocation.
bool AssemblesTo(const std::string& text, const std::vector<uint32_t>& words) {
  try {
    const Object o = AssembleText("<disasm>", "        .text\n" + text + "\n").object;
    const Section& t = o.section(SectionId::kText);
    if (!o.relocs.empty() || t.bytes.size() != words.size() * 4) return false;
    for (size_t k = 0; k < words.size(); ++k) {
      const uint32_t w = uint32_t(t.bytes[4 * k]) | uint32_t(t.bytes[4 * k + 1]) << 8 |
                         uint32_t(t.bytes[4 * k + 2]) << 16 | uint32_t(t.bytes[4 * k + 3]) << 24;
      if (w != words[k]) return false;
    }
    return true;
  } catch (const Error&) {
    return false;
  }
}

// What the printer needs to know around one word.
struct WordContext {
  uint32_t pc = 0;                                 // the word's offset (or address)
  const ObjReloc* reloc = nullptr;                 // an instruction relocation at the word
  std::function<std::string(int64_t)> label;       // the label at an offset, or ""
  std::function<std::string(uint32_t)> task_name;  // the entry of a task ID, or ""
};

struct Operand {
  std::string shown;       // with labels, task names and relocations
  std::string verify;      // numbers only, to check a pseudo by assembling it
  bool relocated = false;  // shows a relocation: a pseudo must not hide it
};

class Printer {
 public:
  // The instruction text of a legal word; nullopt for an illegal one.
  static std::optional<std::string> Instruction(uint32_t word, const WordContext& c) {
    const arch::InsnInfo* info = isa::Decode(word);
    if (!info) return std::nullopt;
    std::vector<Operand> ops;
    std::vector<K> kinds;
    for (int k = 0; k < info->num_operands; ++k) {
      const K kind = info->operands[k];
      std::optional<Operand> op = Format(*info, kind, word, c);
      if (!op) continue;  // an omitted completion clause
      op->relocated = c.reloc && op->shown != op->verify &&
                      op->shown.find(RelocText(*c.reloc)) != std::string::npos;
      ops.push_back(*op);
      kinds.push_back(kind);
    }
    if (auto p = AsPseudo(*info, word, ops, kinds, c)) return p;
    const std::string text = Line(info->mnemonic, Join(ops, false));
    // A constant color 24..31 is a legal word that can only fault; the assembler refuses it, so
    // it is shown as the word, to assemble back to itself.
    for (int k = 0; k < info->num_operands; ++k) {
      if (info->operands[k] != K::kCol || c.reloc || GetField(word, info->format, "Z") == 0)
        continue;
      if (GetField(word, info->format, "Imm") >= arch::kNumColors) {
        return Line(".word", fmt::format("0x{:08x} ; {} (a reserved color)", word,
                                         text.substr(text.find_first_not_of(' '))));
      }
    }
    return text;
  }

  static std::string Join(const std::vector<Operand>& ops, bool verify) {
    std::string s;
    for (const Operand& o : ops) s += (s.empty() ? "" : ", ") + (verify ? o.verify : o.shown);
    return s;
  }

 private:
  static std::optional<Operand> Format(const arch::InsnInfo& info, K kind, uint32_t w,
                                       const WordContext& c) {
    const arch::InsnFormat f = info.format;
    auto field = [&](const char* name) { return GetField(w, f, name); };
    auto same = [](const std::string& s) { return Operand{s, s}; };
    const bool reloc = c.reloc && c.reloc->kind != RelocKind::kTID5;
    if (IsGprKind(kind)) return same(fmt::format("r{}", field(RegisterField(kind))));
    if (IsDsrKind(kind)) return same(fmt::format("d{}", field(RegisterField(kind))));
    const uint32_t imm = f == arch::InsnFormat::kD ? 0 : field("Imm");
    const int32_t simm = static_cast<int16_t>(imm);
    const bool z = f != arch::InsnFormat::kD && field("Z");
    const uint32_t b = f == arch::InsnFormat::kD ? 0 : field("B");
    auto imm_text = [&](const std::string& number) {
      return reloc ? Operand{RelocText(*c.reloc), number} : same(number);
    };
    switch (kind) {
      case K::kRb:
        return same(z ? "0" : fmt::format("r{}", b));
      case K::kSimm:
        return imm_text(std::to_string(simm));
      case K::kUimm:
        return imm_text(Hex(imm));
      case K::kSh:
      case K::kW:
        return same(std::to_string(imm));
      case K::kMsk:
        return same(Hex(imm));
      case K::kOff: {
        const std::string rel = Offset(int64_t(simm) * 4);
        if (reloc) return Operand{RelocText(*c.reloc), rel};
        const std::string l = c.label ? c.label(int64_t(c.pc) + int64_t(simm) * 4) : "";
        return Operand{l.empty() ? rel : l, rel};
      }
      case K::kMem:
      case K::kTgt: {
        if (!z) {
          const std::string base = fmt::format("(r{})", b);
          if (reloc) return Operand{RelocText(*c.reloc) + base, std::to_string(simm) + base};
          return same(std::to_string(simm) + base);
        }
        const std::string number = fmt::format("0x{:04x}", imm);
        if (reloc) return Operand{RelocText(*c.reloc), number};
        const std::string reg = RegisterName(imm);
        return Operand{reg.empty() ? number : reg, number};
      }
      case K::kTid:
      case K::kCol: {
        if (!z) return same(fmt::format("r{}", b));
        if (reloc) return Operand{RelocText(*c.reloc), std::to_string(imm)};
        const std::string name = kind == K::kTid && c.task_name ? c.task_name(imm) : std::string();
        return Operand{name.empty() ? std::to_string(imm) : name, std::to_string(imm)};
      }
      case K::kBval: {
        if (z) return imm_text(std::to_string(simm));
        const std::string reg = fmt::format("r{}", b);
        if (reloc) {
          return Operand{reg + ", " + RelocText(*c.reloc), reg + ", " + std::to_string(simm)};
        }
        return same(imm == 0 ? reg : fmt::format("{}, {}", reg, simm));
      }
      case K::kDone: {
        const uint32_t ut = field("Ut"), u = field("U"), tid = field("Tid");
        if (ut == 0 && u == 1 && tid == arch::kNoTask) return std::nullopt;
        const std::string head = fmt::format("ut{}", ut);
        if (tid == arch::kNoTask && !(c.reloc && c.reloc->kind == RelocKind::kTID5)) {
          return same(u ? head : head + " async");
        }
        const std::string action = head + (u ? " unblock " : " activate ");
        if (c.reloc && c.reloc->kind == RelocKind::kTID5) {
          return Operand{action + RelocText(*c.reloc), action + std::to_string(tid)};
        }
        const std::string name = c.task_name ? c.task_name(tid) : "";
        return Operand{action + (name.empty() ? std::to_string(tid) : name),
                       action + std::to_string(tid)};
      }
      default:
        return same("?");
    }
  }

  // A pseudo-instruction that expands to exactly this word, if one hides a fixed operand.
  static std::optional<std::string> AsPseudo(const arch::InsnInfo& info, uint32_t word,
                                             const std::vector<Operand>& ops,
                                             const std::vector<K>& kinds, const WordContext& c) {
    for (const auto& p : arch::kInsnPseudos) {
      const std::string expansion = p.expansion;
      if (expansion.find(';') != std::string::npos) continue;
      if (c.reloc && std::string(p.mnemonic) == "li") continue;  // li of a link-time value: 2 words
      const size_t sp = expansion.find(' ');
      if (expansion.substr(0, sp) != info.mnemonic) continue;
      std::vector<std::string> tmpl;
      if (sp != std::string::npos) {
        std::string rest = expansion.substr(sp + 1);
        size_t start = 0;
        while (start <= rest.size()) {
          size_t comma = rest.find(',', start);
          if (comma == std::string::npos) comma = rest.size();
          tmpl.push_back(rest.substr(start, comma - start));
          start = comma + 1;
        }
      }
      if (tmpl.size() != ops.size()) continue;
      std::vector<std::string> names;
      const std::string operands = p.operands;
      if (operands != "-") {
        size_t start = 0;
        while (start <= operands.size()) {
          size_t comma = operands.find(',', start);
          if (comma == std::string::npos) comma = operands.size();
          names.push_back(operands.substr(start, comma - start));
          start = comma + 1;
        }
      }
      std::vector<Operand> chosen;
      bool ok = true;
      for (const std::string& n : names) {
        const auto it = std::find(tmpl.begin(), tmpl.end(), n);
        if (it == tmpl.end()) {
          ok = false;
          break;
        }
        chosen.push_back(ops[static_cast<size_t>(it - tmpl.begin())]);
      }
      if (!ok || names.size() >= tmpl.size()) continue;  // no fixed operand: keep the real name
      bool hides_reloc = false;
      for (const Operand& o : ops) {
        if (o.relocated && std::find_if(chosen.begin(), chosen.end(), [&](const Operand& x) {
                             return x.shown == o.shown;
                           }) == chosen.end()) {
          hides_reloc = true;
        }
      }
      if (hides_reloc) continue;
      const std::string verify =
          std::string(p.mnemonic) + (chosen.empty() ? "" : " " + Join(chosen, true));
      if (AssemblesTo(verify, {word})) return Line(p.mnemonic, Join(chosen, false));
    }
    // `li rd, v` as one lui (docs/isa.md 4.12): v has a zero low half.
    if (std::string(info.mnemonic) == "lui" && !c.reloc && kinds.size() == 2) {
      const uint32_t hi = GetField(word, info.format, "Imm");
      if (hi != 0) {
        const std::string text = fmt::format("{}, 0x{:x}", ops[0].shown, uint64_t(hi) << 16);
        if (AssemblesTo("li " + text, {word})) return Line("li", text);
      }
    }
    return std::nullopt;
  }
};

// The lui + ori pair of `li rd, v` (docs/isa.md 4.12), if these two words are one: same rd,
// and either both relocated to the same symbol (HI16, LO16) or a constant li would split so.
std::optional<std::string> LiPair(uint32_t w0, uint32_t w1, const ObjReloc* r0,
                                  const ObjReloc* r1) {
  const arch::InsnInfo* a = isa::Decode(w0);
  const arch::InsnInfo* b = isa::Decode(w1);
  if (!a || !b || std::string(a->mnemonic) != "lui" || std::string(b->mnemonic) != "ori") {
    return std::nullopt;
  }
  const auto fa = isa::SplitFields(w0), fb = isa::SplitFields(w1);
  if (fb.a != fa.a || fb.b != fa.a || fb.z) return std::nullopt;
  const std::string rd = fmt::format("r{}", fa.a);
  if (r0 || r1) {
    if (!r0 || !r1 || r0->kind != RelocKind::kHI16 || r1->kind != RelocKind::kLO16 ||
        !(r0->target == r1->target) || fa.imm != 0 || fb.imm != 0) {
      return std::nullopt;
    }
    return Line("li", rd + ", " + Ref(r0->target));
  }
  const std::string text = fmt::format("{}, 0x{:x}", rd, uint32_t(fa.imm) << 16 | fb.imm);
  if (AssemblesTo("li " + text, {w0, w1})) return Line("li", text);
  return std::nullopt;
}

// One section of an object (or the raw words) as lines of assembly.
class SectionPrinter {
 public:
  SectionPrinter(SectionId id, const Section& sec, uint32_t base)
      : id_(id), sec_(sec), base_(base) {}

  std::map<uint32_t, std::vector<std::string>> labels;  // offset -> names
  std::map<uint32_t, const ObjReloc*> relocs;           // offset -> relocation
  std::map<uint32_t, std::string> dsds;                 // offset -> descriptor name
  std::function<std::string(uint32_t)> task_name;
  std::function<std::string(int64_t)> label_at;  // for branch targets

  std::string Print() {
    std::string out;
    if (id_ == SectionId::kBss) {
      uint32_t off = 0;
      while (off <= sec_.size) {
        PrintLabels(out, off, "");
        if (off == sec_.size) break;
        const auto next = labels.upper_bound(off);
        const uint32_t stop = next == labels.end() ? sec_.size : std::min(next->first, sec_.size);
        out += Line(".space", std::to_string(stop - off)) + "\n";
        off = stop;
      }
      return out;
    }
    uint32_t off = 0;
    while (off < sec_.size) {
      const auto d = dsds.find(off);
      const std::string dsd = d != dsds.end() ? Dsd(off, d->second) : "";
      PrintLabels(out, off, dsd.empty() ? "" : d->second);
      if (!dsd.empty()) {
        out += dsd + "\n";
        off += DsdSize(off);
        continue;
      }
      if (id_ == SectionId::kText && off % 4 == 0 && Free(off, 4)) {
        const auto r = relocs.find(off);
        if (r == relocs.end() || !IsDataReloc(r->second->kind)) {
          off += Instruction(out, off);
          continue;
        }
      }
      off += Data(out, off);
    }
    PrintLabels(out, sec_.size, "");
    return out;
  }

 private:
  void PrintLabels(std::string& out, uint32_t off, const std::string& skip) {
    const auto it = labels.find(off);
    if (it == labels.end()) return;
    for (const std::string& n : it->second) {
      if (n != skip) out += n + ":\n";
    }
  }

  // No label strictly inside [off, off + n), and no relocation starting inside it.
  bool Free(uint32_t off, uint32_t n) const {
    if (off + n > sec_.size) return false;
    const auto l = labels.upper_bound(off);
    if (l != labels.end() && l->first < off + n) return false;
    const auto r = relocs.upper_bound(off);
    if (r != relocs.end() && r->first < off + n) return false;
    const auto d = dsds.upper_bound(off);
    if (d != dsds.end() && d->first < off + n) return false;
    return true;
  }

  uint32_t WordAt(uint32_t off) const {
    return uint32_t(sec_.bytes[off]) | uint32_t(sec_.bytes[off + 1]) << 8 |
           uint32_t(sec_.bytes[off + 2]) << 16 | uint32_t(sec_.bytes[off + 3]) << 24;
  }

  const ObjReloc* RelocAt(uint32_t off) const {
    const auto r = relocs.find(off);
    return r == relocs.end() ? nullptr : r->second;
  }

  uint32_t Instruction(std::string& out, uint32_t off) {
    const uint32_t w = WordAt(off);
    if (off + 8 <= sec_.size && labels.find(off + 4) == labels.end() &&
        dsds.find(off + 4) == dsds.end() && Free(off + 4, 4)) {
      const ObjReloc* r1 = RelocAt(off + 4);
      if (!r1 || !IsDataReloc(r1->kind)) {
        if (auto li = LiPair(w, WordAt(off + 4), RelocAt(off), r1)) {
          out += *li + "\n";
          return 8;
        }
      }
    }
    WordContext c;
    c.pc = base_ + off;
    c.reloc = RelocAt(off);
    c.label = label_at;
    c.task_name = task_name;
    const auto text = Printer::Instruction(w, c);
    out += (text ? *text : Line(".word", fmt::format("0x{:08x} ; illegal", w))) + "\n";
    return 4;
  }

  uint32_t Data(std::string& out, uint32_t off) {
    const ObjReloc* r = RelocAt(off);
    if (r && IsDataReloc(r->kind)) {
      const uint32_t n = RelocSpan(r->kind);
      out += Line(n == 4 ? ".word" : n == 2 ? ".half" : ".byte", Ref(r->target)) + "\n";
      return n;
    }
    // A run of zero bytes (8 or more) with nothing inside it: .space.
    uint32_t z = off;
    while (z < sec_.size && sec_.bytes[z] == 0 &&
           (z == off || (!labels.count(z) && !relocs.count(z) && !dsds.count(z)))) {
      ++z;
    }
    if (z - off >= 8) {
      out += Line(".space", std::to_string(z - off)) + "\n";
      return z - off;
    }
    for (const uint32_t n : {4u, 2u}) {
      if (off % n != 0 || !Free(off, n)) continue;
      if (n == 2) {
        out += Line(".half", fmt::format("0x{:04x}", sec_.bytes[off] | sec_.bytes[off + 1] << 8)) +
               "\n";
        return 2;
      }
      std::string words;
      uint32_t k = off;
      while (k == off || (k + 4 <= sec_.size && (k - off) / 4 < kWordsPerDataLine &&
                          labels.find(k) == labels.end() && dsds.find(k) == dsds.end() &&
                          relocs.find(k) == relocs.end() && Free(k, 4))) {
        words += (words.empty() ? "" : ", ") + fmt::format("0x{:08x}", WordAt(k));
        k += 4;
      }
      out += Line(".word", words) + "\n";
      return k - off;
    }
    out += Line(".byte", fmt::format("0x{:02x}", sec_.bytes[off])) + "\n";
    return 1;
  }

  // The bytes of a descriptor record: 16 for mem4d (the descriptor and its extension), else 8.
  uint32_t DsdSize(uint32_t off) const {
    const uint64_t d = WordAt(off) | uint64_t(WordAt(off + 4)) << 32;
    const bool mem4d = arch::Dsd::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kMem4d);
    return (mem4d ? 2 : 1) * arch::kDsdBytes;
  }

  // `.dsd NAME, ...` for a descriptor record, or "" when .dsd cannot give these bytes back.
  std::string Dsd(uint32_t off, const std::string& name) const {
    using D = arch::Dsd;
    if (off % 8 != 0 || off + 8 > sec_.size) return "";
    const uint64_t d = WordAt(off) | uint64_t(WordAt(off + 4)) << 32;
    std::map<RelocKind, const ObjReloc*> rel;
    for (auto it = relocs.lower_bound(off); it != relocs.end() && it->first < off + 8; ++it) {
      if (it->first != off || IsDataReloc(it->second->kind)) return "";
    }
    // Several relocations may share the descriptor's offset: look them all up.
    for (const ObjReloc* r : all_relocs_at(off)) rel[r->kind] = r;
    if (D::Rsvd0(d) || D::Rsvd1(d) || D::Elem(d) > 5) return "";
    const auto kind = static_cast<arch::DsdKind>(D::Kind(d));
    const auto type = static_cast<arch::ElemType>(D::Elem(d));
    auto val = [&](RelocKind k, const std::string& number) {
      const auto it = rel.find(k);
      return it == rel.end() ? number : Ref(it->second->target);
    };
    const uint64_t base = D::Base(d), len = D::Length(d), color = D::Color(d);
    const int16_t stride = static_cast<int16_t>(D::Stride(d));
    const std::string len_text =
        val(RelocKind::kDLen, len == arch::kUnboundedLength ? "inf" : std::to_string(len));
    const bool base_rel = rel.count(RelocKind::kDBase), stride_rel = rel.count(RelocKind::kDStride);
    const bool color_rel = rel.count(RelocKind::kDColor);
    if (color > 23 && kind != arch::DsdKind::kMem4d) return "";
    std::string keys;
    const uint32_t esize =
        type == arch::ElemType::kF16 || type == arch::ElemType::kI16 || type == arch::ElemType::kU16
            ? 2
            : 4;
    switch (kind) {
      case arch::DsdKind::kMem1d:
        if (color || color_rel || D::Ctrl(d) || D::Idx(d) || base % esize) return "";
        keys = fmt::format("base={}, len={}, stride={}", val(RelocKind::kDBase, Hex(base)),
                           len_text, val(RelocKind::kDStride, std::to_string(stride)));
        break;
      case arch::DsdKind::kMem4d: {
        using X = arch::Dsd4x;
        if (D::Ctrl(d) || D::Idx(d) || base % esize || color_rel || !Free(off + 1, 15)) return "";
        const uint64_t x = WordAt(off + 8) | uint64_t(WordAt(off + 12)) << 32;
        keys = fmt::format("base={}, len={}, stride={}", val(RelocKind::kDBase, Hex(base)),
                           len_text, val(RelocKind::kDStride, std::to_string(stride)));
        const uint64_t lens[3] = {X::Len1(x), X::Len2(x), color};
        const int16_t strides[3] = {static_cast<int16_t>(X::Stride1(x)),
                                    static_cast<int16_t>(X::Stride2(x)),
                                    static_cast<int16_t>(X::Stride3(x))};
        for (int k = 0; k < 3; ++k) {
          if (lens[k] != 1) keys += fmt::format(", len{}={}", k + 1, lens[k]);
          if (strides[k] != 0) keys += fmt::format(", stride{}={}", k + 1, strides[k]);
        }
        break;
      }
      case arch::DsdKind::kFifo:  // its buffer, its capacity and its number
        if (stride || stride_rel || color_rel || color >= arch::kNumFifos || D::Ctrl(d) ||
            D::Idx(d) || base % esize)
          return "";
        keys = fmt::format("base={}, len={}, fifo={}", val(RelocKind::kDBase, Hex(base)), len_text,
                           color);
        break;
      case arch::DsdKind::kFabIn:
        if (base || base_rel || stride || stride_rel || D::Ctrl(d) || D::Idx(d)) return "";
        keys = fmt::format("len={}, color={}", len_text,
                           val(RelocKind::kDColor, std::to_string(color)));
        break;
      case arch::DsdKind::kFabOut:
        if (stride || stride_rel || (!D::Idx(d) && (base || base_rel))) return "";
        if (D::Idx(d) && esize != 2) return "";
        keys = fmt::format("len={}, color={}", len_text,
                           val(RelocKind::kDColor, std::to_string(color)));
        if (D::Ctrl(d)) keys += ", ctrl=1";
        if (D::Idx(d)) keys += ", idx=1, base=" + val(RelocKind::kDBase, Hex(base));
        break;
      default:
        return "";
    }
    return Line(".dsd",
                fmt::format("{}, {}, {}, {}", name, DsdKindName(kind), ElemTypeName(type), keys));
  }

 public:
  std::function<std::vector<const ObjReloc*>(uint32_t)> all_relocs_at;

 private:
  SectionId id_;
  const Section& sec_;
  uint32_t base_;
};

}  // namespace

std::string DisassembleWord(uint32_t word) {
  WordContext c;
  const auto text = Printer::Instruction(word, c);
  std::string s = text ? *text : Line(".word", fmt::format("0x{:08x} ; illegal", word));
  return s.substr(s.find_first_not_of(' '));
}

std::string DisassembleObject(const Object& obj) {
  std::string out =
      fmt::format("; tessera disasm of {} (source {})\n", obj.name, Quote(obj.source));
  // Declarations first: params, imported symbols, globals and exports, task bindings.
  std::set<std::string> defined;
  for (const ObjSymbol& s : obj.symbols) defined.insert(s.name);
  std::set<std::string> params;
  for (const ObjParam& p : obj.params) {
    params.insert(p.name);
    out += Line(".param",
                p.default_value ? fmt::format("{} = {}", p.name, *p.default_value) : p.name) +
           "\n";
  }
  std::set<std::string> imports;
  auto note_import = [&](std::string sym) {
    if (sym.empty() || ParseSectionName(sym) || sym == "__end" || sym == "__sram_end") return;
    if (sym.size() > 4 && sym.compare(0, 3, "id(") == 0) sym = sym.substr(3, sym.size() - 4);
    if (!defined.count(sym) && !params.count(sym)) imports.insert(sym);
  };
  for (const ObjReloc& r : obj.relocs) note_import(r.target.sym);
  for (const ObjTask& t : obj.tasks) {
    note_import(t.entry);
    note_import(t.id.sym);
  }
  for (const std::string& i : imports) out += Line(".global", i) + "\n";
  for (const ObjSymbol& s : obj.symbols) {
    if (s.exported) {
      out +=
          Line(".export", s.type ? fmt::format("{}, {}, {}", s.name, ElemTypeName(*s.type), s.count)
                                 : s.name) +
          "\n";
    } else if (s.global) {
      out += Line(".global", s.name) + "\n";
    }
  }
  std::map<uint32_t, int> id_uses;
  std::map<std::string, std::set<std::string>> entry_ids;
  for (const ObjTask& t : obj.tasks) {
    out +=
        Line(".task", fmt::format("{}, {}, {}", t.entry, TaskKindName(t.kind), Ref(t.id))) + "\n";
    entry_ids[t.entry].insert(t.id.ToString());
  }
  std::map<uint32_t, std::string> task_names;
  for (const ObjTask& t : obj.tasks) {
    if (t.id.sym.empty() && entry_ids[t.entry].size() == 1) {
      task_names[static_cast<uint32_t>(t.id.addend)] = t.entry;
    }
  }
  for (int s = 0; s < kNumSections; ++s) {
    const SectionId id = SectionId(s);
    const Section& sec = obj.section(id);
    out += "\n" + Line(SectionName(id), "") + "\n";
    if (sec.align > 4) out += Line(".align", std::to_string(sec.align)) + "\n";
    SectionPrinter p(id, sec, 0);
    for (const ObjSymbol& sym : obj.symbols) {
      if (sym.section == id) p.labels[sym.offset].push_back(sym.name);
    }
    for (const ObjReloc& r : obj.relocs) {
      if (r.section == id) p.relocs[r.offset] = &r;
    }
    for (const ObjDsd& d : obj.dsds) {
      if (d.section == id) p.dsds[d.offset] = d.name;
    }
    p.all_relocs_at = [&obj, id](uint32_t off) {
      std::vector<const ObjReloc*> v;
      for (const ObjReloc& r : obj.relocs) {
        if (r.section == id && r.offset == off) v.push_back(&r);
      }
      return v;
    };
    p.task_name = [&task_names](uint32_t tid) {
      const auto it = task_names.find(tid);
      return it == task_names.end() ? std::string() : it->second;
    };
    const auto labels = p.labels;
    p.label_at = [labels](int64_t off) {
      const auto it = off < 0 ? labels.end() : labels.find(static_cast<uint32_t>(off));
      return it == labels.end() ? std::string() : it->second.front();
    };
    out += p.Print();
  }
  return out;
}

std::string DisassembleRaw(const std::vector<uint8_t>& bytes, uint32_t base) {
  Section sec;
  sec.bytes = bytes;
  sec.size = static_cast<uint32_t>(bytes.size());
  SectionPrinter p(SectionId::kText, sec, base);
  // Labels for the branch targets inside the range.
  for (uint32_t off = 0; off + 4 <= sec.size; off += 4) {
    const uint32_t w = uint32_t(bytes[off]) | uint32_t(bytes[off + 1]) << 8 |
                       uint32_t(bytes[off + 2]) << 16 | uint32_t(bytes[off + 3]) << 24;
    const arch::InsnInfo* info = isa::Decode(w);
    if (!info) continue;
    for (int k = 0; k < info->num_operands; ++k) {
      if (info->operands[k] != K::kOff) continue;
      const int64_t target = int64_t(off) + int64_t(int16_t(w >> 16)) * 4;
      if (target >= 0 && target <= int64_t(sec.size)) {
        auto& names = p.labels[static_cast<uint32_t>(target)];
        if (names.empty()) names.push_back(fmt::format("L_{:04x}", base + target));
      }
    }
  }
  const auto labels = p.labels;
  p.label_at = [labels, base](int64_t addr) {
    const int64_t off = addr - base;
    const auto it = off < 0 ? labels.end() : labels.find(static_cast<uint32_t>(off));
    return it == labels.end() ? std::string() : it->second.front();
  };
  p.all_relocs_at = [](uint32_t) { return std::vector<const ObjReloc*>{}; };
  return fmt::format("; tessera disasm --raw, base 0x{:04x}\n", base) + Line(".text", "") + "\n" +
         p.Print();
}

}  // namespace tessera::assembler
