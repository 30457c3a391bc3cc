#include "asm/link.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <set>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/operands.h"

namespace tessera::assembler {
namespace {

struct Resolved {
  bool ok = false;
  int64_t value = 0;
};

class Linker {
 public:
  Linker(const std::vector<Object>& objects, const std::map<std::string, int64_t>& params)
      : objs_(objects), given_(params), base_(objects.size()) {}

  PeProgram Run() {
    prog_.sram.assign(arch::kSramBytes, 0);
    Place();
    diags_.ThrowIfAny();
    CollectGlobals();
    CollectParams();
    BindTasks();
    for (size_t o = 0; o < objs_.size(); ++o) Copy(o);
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjReloc& r : objs_[o].relocs) Apply(o, r);
    }
    Symbols();
    Lines();
    diags_.ThrowIfAny();
    return prog_;
  }

 private:
  static uint32_t AlignUp(uint32_t a, uint32_t align) { return (a + align - 1) / align * align; }

  // A location for a problem at a section offset of an object: its source line if known.
  Diagnostic At(size_t o, SectionId s, uint32_t offset, const std::string& message) const {
    const Object& obj = objs_[o];
    const ObjLine* l = obj.LineAt(s, offset);
    const std::string where =
        fmt::format(" (object {}, {}+0x{:04x})", obj.name, SectionName(s), offset);
    if (l) return Diagnostic{Location{l->file, l->line, 0}, message + where, {}};
    return Diagnostic{Location{obj.name, 0, 0}, message + where, {}};
  }
  Diagnostic AtObject(size_t o, const std::string& message) const {
    return Diagnostic{Location{objs_[o].name, 0, 0}, message, {}};
  }

  void Place() {
    uint32_t addr = 0;
    std::array<uint32_t, kNumSections> totals{};
    for (int s = 0; s < kNumSections; ++s) {
      for (size_t o = 0; o < objs_.size(); ++o) {
        const Section& sec = objs_[o].sections[s];
        addr = AlignUp(addr, std::max<uint32_t>(sec.align, 1));
        base_[o][s] = addr;
        addr += sec.size;
        totals[s] += sec.size;
      }
    }
    if (addr > arch::kSramBytes) {
      diags_.Add(
          Diagnostic{Location{},
                     fmt::format("the program does not fit in SRAM: it needs 0x{:x} bytes, the "
                                 "SRAM holds 0x{:x} below the registers (.text 0x{:x}, .data "
                                 "0x{:x}, .bss 0x{:x})",
                                 addr, arch::kSramBytes, totals[0], totals[1], totals[2]),
                     {}});
    }
    prog_.end = static_cast<uint16_t>(std::min<uint32_t>(addr, arch::kSramBytes));
  }

  uint32_t Address(size_t o, SectionId s, uint32_t offset) const {
    return base_[o][static_cast<int>(s)] + offset;
  }

  void CollectGlobals() {
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjSymbol& s : objs_[o].symbols) {
        if (!s.global) continue;
        const auto [it, fresh] = globals_.emplace(s.name, std::make_pair(o, &s));
        if (!fresh) {
          diags_.Add(AtObject(o, fmt::format("global symbol '{}' is also defined in {}", s.name,
                                             objs_[it->second.first].name)));
        }
      }
    }
  }

  void CollectParams() {
    std::map<std::string, std::pair<size_t, std::optional<int64_t>>> declared;
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjParam& p : objs_[o].params) {
        const auto [it, fresh] = declared.emplace(p.name, std::make_pair(o, p.default_value));
        if (!fresh && it->second.second && p.default_value &&
            *it->second.second != *p.default_value) {
          diags_.Add(AtObject(
              o, fmt::format("param '{}' has default {} here but {} in {}", p.name,
                             *p.default_value, *it->second.second, objs_[it->second.first].name)));
        }
        if (!it->second.second) it->second.second = p.default_value;
      }
    }
    for (const auto& [name, v] : given_) {
      if (!declared.count(name)) {
        diags_.Add(Diagnostic{Location{},
                              fmt::format("a value is given for param '{}', but no object "
                                          "declares '.param {}'",
                                          name, name),
                              {}});
      }
    }
    for (const auto& [name, decl] : declared) {
      const auto g = given_.find(name);
      if (g != given_.end()) {
        params_[name] = g->second;
      } else if (decl.second) {
        params_[name] = *decl.second;
      } else {
        diags_.Add(AtObject(decl.first,
                            fmt::format("param '{}' has no value: give one (tessera asm -D {}=N, "
                                        "or the layout) or a default (.param {} = N)",
                                        name, name, name)));
      }
    }
  }

  // The address of a symbol as the object sees it: its own symbols, then the globals.
  std::optional<uint32_t> SymbolAddress(size_t o, const std::string& name) const {
    if (const ObjSymbol* s = objs_[o].FindSymbol(name)) return Address(o, s->section, s->offset);
    const auto g = globals_.find(name);
    if (g != globals_.end()) {
      return Address(g->second.first, g->second.second->section, g->second.second->offset);
    }
    return std::nullopt;
  }

  // SYMBOL+ADDEND in object o; an error message when it has no value.
  std::optional<int64_t> Resolve(size_t o, const SymRef& r, std::string* why) const {
    if (r.sym.empty()) return r.addend;
    if (const auto s = ParseSectionName(r.sym)) {
      return int64_t(base_[o][static_cast<int>(*s)]) + r.addend;
    }
    if (r.sym.size() > 4 && r.sym.compare(0, 3, "id(") == 0 && r.sym.back() == ')') {
      const std::string name = r.sym.substr(3, r.sym.size() - 4);
      const auto addr = SymbolAddress(o, name);
      std::set<int> ids;
      for (const TaskBinding& t : prog_.tasks) {
        if (addr && t.entry == *addr) ids.insert(t.id);
      }
      if (ids.size() == 1) return *ids.begin() + r.addend;
      *why = ids.empty() ? fmt::format("id({}): no task has the entry '{}'", name, name)
                         : fmt::format("id({}): '{}' is the entry of several tasks", name, name);
      return std::nullopt;
    }
    if (const auto a = SymbolAddress(o, r.sym)) return int64_t(*a) + r.addend;
    const auto p = params_.find(r.sym);
    if (p != params_.end()) return p->second + r.addend;
    if (r.sym == "__end") return int64_t(prog_.end) + r.addend;
    if (r.sym == "__sram_end") return int64_t(arch::kSramBytes) + r.addend;
    bool declared = false;
    for (const Object& obj : objs_) {
      for (const ObjParam& q : obj.params) declared = declared || q.name == r.sym;
    }
    *why = declared ? fmt::format("param '{}' has no value", r.sym)
                    : fmt::format("undefined symbol '{}'", r.sym);
    return std::nullopt;
  }

  void BindTasks() {
    std::map<int, std::pair<size_t, std::string>> seen;
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjTask& t : objs_[o].tasks) {
        std::string why;
        const auto entry = SymbolAddress(o, t.entry);
        const auto id = Resolve(o, t.id, &why);
        const std::string what =
            fmt::format("task '{}' ({}, ID {})", t.entry, TaskKindName(t.kind), t.id.ToString());
        if (!entry) {
          diags_.Add(AtObject(o, fmt::format("{}: its entry '{}' is not defined", what, t.entry)));
          continue;
        }
        if (!id) {
          diags_.Add(AtObject(o, fmt::format("{}: {}", what, why)));
          continue;
        }
        if (*id == arch::kNoTask || *id < 0 || *id >= arch::kNumTasks) {
          diags_.Add(AtObject(o, fmt::format("{}: ID {} is out of range (0..30; 31 means no "
                                             "task)",
                                             what, *id)));
          continue;
        }
        if (t.kind == arch::TaskKind::kData && *id >= arch::kNumColors) {
          diags_.Add(AtObject(o, fmt::format("{}: a data task's ID is its color, and {} is not a "
                                             "color a PE can receive (0..23)",
                                             what, *id)));
          continue;
        }
        if (*entry % arch::kInsnBytes != 0 || *entry >= arch::kSramBytes) {
          diags_.Add(AtObject(
              o, fmt::format("{}: entry 0x{:04x} is not an instruction address", what, *entry)));
          continue;
        }
        const auto [it, fresh] = seen.emplace(static_cast<int>(*id), std::make_pair(o, t.entry));
        if (!fresh) {
          diags_.Add(
              AtObject(o, fmt::format("{}: task ID {} is already bound to '{}' in {}", what, *id,
                                      it->second.second, objs_[it->second.first].name)));
          continue;
        }
        prog_.tasks.push_back(TaskBinding{static_cast<int>(*id), t.kind,
                                          static_cast<uint16_t>(*entry), t.active, t.blocked});
      }
    }
    std::sort(prog_.tasks.begin(), prog_.tasks.end(),
              [](const TaskBinding& a, const TaskBinding& b) { return a.id < b.id; });
  }

  void Copy(size_t o) {
    for (int s = 0; s < kNumSections; ++s) {
      const Section& sec = objs_[o].sections[s];
      const uint32_t base = base_[o][s];
      for (size_t k = 0; k < sec.bytes.size() && base + k < prog_.sram.size(); ++k) {
        prog_.sram[base + k] = sec.bytes[k];
      }
    }
  }

  uint32_t Read32(uint32_t a) const {
    return uint32_t(prog_.sram[a]) | uint32_t(prog_.sram[a + 1]) << 8 |
           uint32_t(prog_.sram[a + 2]) << 16 | uint32_t(prog_.sram[a + 3]) << 24;
  }
  void Write(uint32_t a, uint64_t v, int bytes) {
    for (int k = 0; k < bytes; ++k) prog_.sram[a + k] = static_cast<uint8_t>(v >> (8 * k));
  }
  uint64_t Read64(uint32_t a) const { return Read32(a) | uint64_t(Read32(a + 4)) << 32; }

  void Apply(size_t o, const ObjReloc& r) {
    const uint32_t p = Address(o, r.section, r.offset);
    std::string why;
    const auto v = Resolve(o, r.target, &why);
    auto fail = [&](const std::string& m) {
      diags_.Add(At(
          o, r.section, r.offset,
          fmt::format("{} ({} relocation to {})", m, RelocKindName(r.kind), r.target.ToString())));
    };
    if (!v) return fail(why);
    const int64_t x = *v;
    auto range = [&](int64_t lo, int64_t hi, const char* what) {
      if (x >= lo && x <= hi) return true;
      fail(fmt::format("{} {} is out of range ({}..{})", what, x, lo, hi));
      return false;
    };
    auto set_insn = [&](arch::InsnFormat f, const char* field, uint32_t value) {
      Write(p, SetField(Read32(p), f, field, value), 4);
    };
    using D = arch::Dsd;
    switch (r.kind) {
      case RelocKind::kU16:
        if (range(0, 0xFFFF, "value")) set_insn(arch::InsnFormat::kI, "Imm", uint32_t(x));
        break;
      case RelocKind::kS16:
        if (range(-32768, 32767, "value")) set_insn(arch::InsnFormat::kI, "Imm", uint32_t(x));
        break;
      case RelocKind::kPC16: {
        const int64_t d = x - int64_t(p);
        if (d % 4 != 0) {
          fail(fmt::format("branch target 0x{:04x} is not a multiple of 4 bytes away", x));
        } else if (d / 4 < -32768 || d / 4 > 32767) {
          fail(fmt::format("branch target 0x{:04x} is out of reach", x));
        } else {
          set_insn(arch::InsnFormat::kI, "Imm", uint32_t(d / 4));
        }
        break;
      }
      case RelocKind::kHI16:
      case RelocKind::kLO16:
        if (range(INT32_MIN, int64_t(UINT32_MAX), "value")) {
          const uint32_t half = r.kind == RelocKind::kHI16 ? uint32_t(x) >> 16 : uint32_t(x);
          set_insn(arch::InsnFormat::kI, "Imm", half & 0xFFFF);
        }
        break;
      case RelocKind::kU5:
        if (range(0, 31, "task ID or color")) set_insn(arch::InsnFormat::kI, "Imm", uint32_t(x));
        break;
      case RelocKind::kTID5:
        if (range(0, 30, "completion task")) set_insn(arch::InsnFormat::kD, "Tid", uint32_t(x));
        break;
      case RelocKind::kW32:
        if (range(INT32_MIN, int64_t(UINT32_MAX), "value")) Write(p, uint64_t(x), 4);
        break;
      case RelocKind::kH16:
        if (range(-32768, 65535, "value")) Write(p, uint64_t(x), 2);
        break;
      case RelocKind::kB8:
        if (range(-128, 255, "value")) Write(p, uint64_t(x), 1);
        break;
      case RelocKind::kDBase: {
        if (!range(0, 0xFFFF, "descriptor base")) break;
        const uint64_t d = Read64(p);
        const auto elem = static_cast<arch::ElemType>(D::Elem(d));
        const uint32_t size = elem == arch::ElemType::kF16 || elem == arch::ElemType::kI16 ||
                                      elem == arch::ElemType::kU16
                                  ? 2
                                  : 4;
        const bool mem = D::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kMem1d) ||
                         D::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kMem4d) ||
                         D::Kind(d) == static_cast<uint64_t>(arch::DsdKind::kFifo);
        if (mem && x % size != 0) {
          fail(fmt::format("descriptor base 0x{:04x} is not aligned to its {}-byte elements", x,
                           size));
          break;
        }
        Write(p, D::WithBase(d, uint64_t(x)), 8);
        break;
      }
      case RelocKind::kDLen:
        if (range(0, arch::kUnboundedLength, "descriptor length")) {
          Write(p, D::WithLength(Read64(p), uint64_t(x)), 8);
        }
        break;
      case RelocKind::kDStride:
        if (range(-32768, 32767, "descriptor stride")) {
          Write(p, D::WithStride(Read64(p), uint64_t(x)), 8);
        }
        break;
      case RelocKind::kDColor:
        if (range(0, arch::kNumColors - 1, "descriptor color")) {
          Write(p, D::WithColor(Read64(p), uint64_t(x)), 8);
        }
        break;
    }
  }

  void Symbols() {
    std::map<std::string, int> uses;
    for (const Object& obj : objs_) {
      for (const ObjSymbol& s : obj.symbols) ++uses[s.name];
    }
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjSymbol& s : objs_[o].symbols) {
        SymbolInfo info;
        info.address = static_cast<uint16_t>(Address(o, s.section, s.offset));
        info.section = SectionName(s.section);
        info.global = s.global;
        info.exported = s.exported;
        info.type = s.type;
        info.count = s.count;
        const bool plain = s.global || uses[s.name] == 1;
        prog_.symbols[plain ? s.name : objs_[o].source + ":" + s.name] = info;
      }
    }
    SymbolInfo end;
    end.address = prog_.end;
    end.global = true;
    prog_.symbols["__end"] = end;
    SymbolInfo sram_end;
    sram_end.address = static_cast<uint16_t>(arch::kSramBytes);
    sram_end.global = true;
    prog_.symbols["__sram_end"] = sram_end;
  }

  void Lines() {
    for (size_t o = 0; o < objs_.size(); ++o) {
      for (const ObjLine& l : objs_[o].lines) {
        prog_.lines.push_back(
            LineInfo{static_cast<uint16_t>(Address(o, l.section, l.offset)), l.file, l.line});
      }
    }
    std::stable_sort(prog_.lines.begin(), prog_.lines.end(),
                     [](const LineInfo& a, const LineInfo& b) { return a.address < b.address; });
  }

  const std::vector<Object>& objs_;
  const std::map<std::string, int64_t>& given_;
  std::vector<std::array<uint32_t, kNumSections>> base_;
  std::map<std::string, std::pair<size_t, const ObjSymbol*>> globals_;
  std::map<std::string, int64_t> params_;
  Diagnostics diags_;
  PeProgram prog_;
};

}  // namespace

const LineInfo* PeProgram::LineAt(uint16_t address) const {
  const LineInfo* best = nullptr;
  for (const LineInfo& l : lines) {
    if (l.address > address) break;
    best = &l;
  }
  return best;
}

uint32_t PeProgram::ActiveAtLoad() const {
  uint32_t m = 0;
  for (const TaskBinding& t : tasks)
    if (t.active) m |= 1u << t.id;
  return m;
}

uint32_t PeProgram::BlockedAtLoad() const {
  uint32_t m = 0;
  for (const TaskBinding& t : tasks)
    if (t.blocked) m |= 1u << t.id;
  return m;
}

uint32_t PeProgram::Word(uint16_t a) const {
  return uint32_t(sram.at(a)) | uint32_t(sram.at(a + 1)) << 8 | uint32_t(sram.at(a + 2)) << 16 |
         uint32_t(sram.at(a + 3)) << 24;
}

PeProgram LinkSingle(const std::vector<Object>& objects,
                     const std::map<std::string, int64_t>& params) {
  return Linker(objects, params).Run();
}

PeProgram AssembleAndLink(const std::string& path, const std::vector<std::string>& include_dirs,
                          const std::map<std::string, int64_t>& params) {
  AssembleOptions opt;
  opt.include_dirs = include_dirs;
  return LinkSingle({Assemble(path, opt).object}, params);
}

}  // namespace tessera::assembler
