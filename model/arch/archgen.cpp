// tessera_archgen: reads the architecture description (model/arch/tessera.def) and the instruction
// table (model/arch/isa.def) and writes what is generated from them, so RTL, model and docs never
// drift: the SystemVerilog package and its module-scope aliases, the instruction and register
// decoders' bodies, and the C++ headers (constants, register table, tables of the consts and enum
// items by name, instruction table).
//
//   tessera_archgen ROOT           write every output under the repository root ROOT
//   tessera_archgen --check ROOT   exit 1 (naming the file) if any output is stale
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gen_common.h"
#include "isagen.h"

namespace tessera::archgen {

std::string EmitSvEnum(const Enum& e) {
  std::ostringstream o;
  if (!e.doc.empty()) o << "  // " << e.doc << "\n";
  o << "  typedef enum logic [" << e.width - 1 << ":0] {\n";
  for (size_t i = 0; i < e.items.size(); ++i) {
    o << "    " << e.name << e.items[i].name << " = " << e.width << "'d" << e.items[i].value
      << (i + 1 < e.items.size() ? "," : "") << "\n";
  }
  o << "  } " << Snake(e.name) << "_e;\n";
  for (const auto& s : e.sets) {
    // Bit v is 1 when the item of value v is in the set: index it with the enum.
    const unsigned n = 1u << e.width;
    std::string bits(n, '0');
    for (const auto& it : e.items)
      for (const auto& m : s.items)
        if (m == it.name) bits[n - 1 - it.value] = '1';
    if (!s.doc.empty()) o << "  // " << s.doc << "\n";
    o << "  localparam logic [" << n - 1 << ":0] " << e.name << s.name << " = " << n << "'b" << bits
      << ";\n";
  }
  for (const auto& m : e.maps) {
    // Entry v (target width bits at [v*W +: W]) is the target item of the item of value v.
    if (!m.doc.empty()) o << "  // " << m.doc << "\n";
    o << "  // (" << e.name << m.name << "[v*" << m.target_width << " +: " << m.target_width
      << "] for item v)\n";
    const size_t n = m.target_items.size();
    o << "  localparam logic [" << n * m.target_width - 1 << ":0] " << e.name << m.name << " = {";
    for (size_t v = n; v-- > 0;)
      o << m.target_width << "'(" << m.target << m.target_items[v] << ")" << (v ? ", " : "");
    o << "};\n";
  }
  o << "\n";
  return o.str();
}

std::string EmitSvEnumUse(const Enum& e) {
  std::ostringstream o;
  o << "typedef tessera_pkg::" << Snake(e.name) << "_e " << Snake(e.name) << "_e;\n";
  for (const auto& it : e.items)
    o << "localparam " << Snake(e.name) << "_e " << e.name << it.name
      << " = tessera_pkg::" << e.name << it.name << ";\n";
  for (const auto& s : e.sets)
    o << "localparam logic [" << (1u << e.width) - 1 << ":0] " << e.name << s.name
      << " = tessera_pkg::" << e.name << s.name << ";\n";
  for (const auto& m : e.maps)
    o << "localparam logic [" << m.target_items.size() * m.target_width - 1 << ":0] " << e.name
      << m.name << " = tessera_pkg::" << e.name << m.name << ";\n";
  return o.str();
}

std::string EmitHppEnum(const Enum& e) {
  std::ostringstream o;
  if (!e.doc.empty()) o << "// " << e.doc << "\n";
  o << "enum class " << e.name << " : uint8_t {\n";
  for (const auto& it : e.items) o << "  k" << it.name << " = " << it.value << ",\n";
  o << "};\n";
  o << "inline constexpr unsigned k" << e.name << "Width = " << e.width << ";\n";
  // One spelling per item: the `names` line's, else the item's name. Tools, messages and the
  // languages (assembly, layouts) print and parse items this way only.
  auto spelling = [&e](size_t i) { return e.texts.empty() ? e.items[i].name : e.texts[i]; };
  o << "// How tools, messages and the languages spell " << e.name << " items.\n";
  o << "inline const char* ToString(" << e.name << " v) {\n  switch (v) {\n";
  for (size_t i = 0; i < e.items.size(); ++i)
    o << "    case " << e.name << "::k" << e.items[i].name << ": return \"" << spelling(i)
      << "\";\n";
  o << "  }\n  return \"?\";\n}\n";
  o << "// The item spelled `s` (as ToString spells it, ignoring case); false if there is none.\n";
  o << "inline bool FromString(std::string_view s, " << e.name << "* out) {\n";
  o << "  auto eq = [s](std::string_view t) {\n"
       "    if (s.size() != t.size()) return false;\n"
       "    for (size_t i = 0; i < s.size(); ++i) {\n"
       "      const char a = s[i] >= 'A' && s[i] <= 'Z' ? char(s[i] - 'A' + 'a') : s[i];\n"
       "      const char b = t[i] >= 'A' && t[i] <= 'Z' ? char(t[i] - 'A' + 'a') : t[i];\n"
       "      if (a != b) return false;\n"
       "    }\n"
       "    return true;\n"
       "  };\n";
  for (size_t i = 0; i < e.items.size(); ++i)
    o << "  if (eq(\"" << spelling(i) << "\")) {\n    *out = " << e.name << "::k" << e.items[i].name
      << ";\n    return true;\n  }\n";
  o << "  return false;\n}\n";
  for (const auto& s : e.sets) {
    if (!s.doc.empty()) o << "// " << s.doc << "\n";
    o << "inline constexpr bool " << s.name << "(" << e.name << " v) {\n  switch (v) {\n";
    for (const auto& m : s.items) o << "    case " << e.name << "::k" << m << ":\n";
    if (!s.items.empty()) o << "      return true;\n";
    o << "    default:\n      return false;\n  }\n}\n";
  }
  for (const auto& m : e.maps) {
    if (!m.doc.empty()) o << "// " << m.doc << "\n";
    o << "inline constexpr " << m.target << " " << m.name << "(" << e.name << " v) {\n";
    o << "  switch (v) {\n";
    for (const auto& it : e.items)
      o << "    case " << e.name << "::k" << it.name << ": return " << m.target << "::k"
        << m.target_items[it.value] << ";\n";
    o << "  }\n  return " << m.target << "::k" << m.target_items[0] << ";\n}\n";
  }
  o << "\n";
  return o.str();
}

}  // namespace tessera::archgen

namespace {

using namespace tessera::archgen;

struct Const {
  std::string name, doc;
  uint64_t value;
};
struct Field {
  std::string name, doc;
  unsigned msb, lsb;
};
struct Reg {
  std::string name, doc;
  uint64_t addr, count = 1, stride = 4;
  std::vector<Field> fields;
  unsigned width = 32;  // structs: their width; registers: 32
  int line = 0;         // where it is declared
  // Registers only (docs/isa.md 3.2):
  std::string access = "rw";  // ro, rw, w1s, w1c, host
  bool router = false;        // the router holds it (ColorCfg, ...)
  bool compared = true;       // co-simulation compares it at the end of a run
  bool last_ro = false;       // its last element reads zero and is read only
};

// The access words of a `reg` line and the names the C++ enum gives them.
struct AccessWord {
  const char* word;
  const char* cpp;
  const char* doc;
};
constexpr AccessWord kAccessWords[] = {
    {"ro", "kRO", "a CE store faults (ReadOnly); host writes go to the owner"},
    {"rw", "kRW", "the CE and the host read and write it"},
    {"w1s", "kW1S", "a write sets the bits written as 1; reads return the target register"},
    {"w1c", "kW1C", "a write clears the bits written as 1; reads return the target register"},
    {"host", "kHost", "host only: any CE access faults (MmioAccess)"},
};

const AccessWord* FindAccess(const std::string& w) {
  for (const AccessWord& a : kAccessWords)
    if (w == a.word) return &a;
  return nullptr;
}
struct Desc {
  std::vector<Const> consts;
  std::vector<Enum> enums;
  std::vector<Reg> regs;
  std::vector<Reg> structs;
};

Desc Parse(const std::string& file) {
  std::ifstream in(file);
  if (!in) Fail(file, 0, "cannot open the architecture description");
  Desc d;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string doc;
    std::vector<std::string> tok = Tokenize(raw, doc);
    if (tok.empty()) continue;
    const std::string& kind = tok[0];
    if (kind == "const") {
      if (tok.size() != 3) Fail(file, line, "expected: const NAME VALUE");
      d.consts.push_back({tok[1], doc, ParseNum(tok[2], file, line)});
    } else if (kind == "enum") {
      d.enums.push_back(ParseEnum(tok, doc, file, line));
    } else if (kind == "set") {
      ParseSet(tok, doc, d.enums, file, line);
    } else if (kind == "names") {
      Enum* e = nullptr;
      for (auto& x : d.enums)
        if (tok.size() > 1 && x.name == tok[1]) e = &x;
      if (!e) Fail(file, line, "expected: names ENUM TEXT... after `enum ENUM`");
      if (tok.size() - 2 != e->items.size())
        Fail(file, line,
             "names " + e->name + ": " + std::to_string(e->items.size()) +
                 " items need as many texts");
      e->texts.assign(tok.begin() + 2, tok.end());
    } else if (kind == "reg") {
      const char* usage =
          "expected: reg NAME ADDR [COUNT STRIDE] ro|rw|w1s|w1c|host "
          "[router] [no-cosim] [last-ro]";
      if (tok.size() < 4) Fail(file, line, usage);
      Reg r{tok[1], doc, ParseNum(tok[2], file, line)};
      r.line = line;
      size_t k = 3;
      if (std::isdigit(static_cast<unsigned char>(tok[3][0]))) {
        if (tok.size() < 6) Fail(file, line, usage);
        r.count = ParseNum(tok[3], file, line);
        r.stride = ParseNum(tok[4], file, line);
        if (r.count < 2 || r.count > 32) Fail(file, line, "a register array has 2..32 elements");
        if (r.stride != 4) Fail(file, line, "a register array's stride must be 4");
        k = 5;
      }
      if (r.addr % 4 != 0 || r.addr < 0xC000 || r.addr + r.count * r.stride > 0x10000)
        Fail(file, line, "a register lies word aligned in 0xC000..0xFFFF");
      if (!FindAccess(tok[k]))
        Fail(file, line, "unknown access '" + tok[k] + "' (ro, rw, w1s, w1c, host)");
      r.access = tok[k];
      for (++k; k < tok.size(); ++k) {
        if (tok[k] == "router") {
          r.router = true;
        } else if (tok[k] == "no-cosim") {
          r.compared = false;
        } else if (tok[k] == "last-ro") {
          if (r.count < 2) Fail(file, line, "last-ro needs a register array");
          r.last_ro = true;
        } else {
          Fail(file, line,
               "unknown register attribute '" + tok[k] + "' (router, no-cosim, last-ro)");
        }
      }
      for (const Reg& o : d.regs) {
        if (o.name == r.name) Fail(file, line, "register " + r.name + " is declared twice");
        if (r.addr < o.addr + o.count * o.stride && o.addr < r.addr + r.count * r.stride)
          Fail(file, line, "register " + r.name + " overlaps " + o.name);
      }
      d.regs.push_back(r);
    } else if (kind == "struct") {
      if (tok.size() != 3) Fail(file, line, "expected: struct NAME WIDTH");
      Reg r{tok[1], doc, 0};
      r.line = line;
      r.width = static_cast<unsigned>(ParseNum(tok[2], file, line));
      if (r.width == 0 || r.width > 64) Fail(file, line, "struct width must be 1..64");
      d.structs.push_back(r);
    } else if (kind == "field") {
      if (tok.size() != 4) Fail(file, line, "expected: field REG NAME MSB:LSB");
      Reg* reg = nullptr;
      for (auto& r : d.regs)
        if (r.name == tok[1]) reg = &r;
      for (auto& r : d.structs)
        if (r.name == tok[1]) reg = &r;
      if (!reg) Fail(file, line, "field of unknown register or struct '" + tok[1] + "'");
      auto colon = tok[3].find(':');
      if (colon == std::string::npos) Fail(file, line, "bit range '" + tok[3] + "' needs MSB:LSB");
      unsigned msb = ParseNum(tok[3].substr(0, colon), file, line);
      unsigned lsb = ParseNum(tok[3].substr(colon + 1), file, line);
      if (msb < lsb || msb >= reg->width) Fail(file, line, "bad bit range '" + tok[3] + "'");
      reg->fields.push_back({tok[2], doc, msb, lsb});
    } else {
      Fail(file, line, "unknown line kind '" + kind + "' (const, enum, names, struct, reg, field)");
    }
  }
  for (const auto& st : d.structs) {  // fields must tile [WIDTH-1:0], MSB first
    unsigned next = st.width;
    for (const auto& f : st.fields) {
      if (f.msb + 1 != next)
        Fail(file, line,
             "struct " + st.name + ": field " + f.name + " must start at bit " +
                 std::to_string(next - 1));
      next = f.lsb;
    }
    if (next != 0) Fail(file, st.line, "struct " + st.name + ": fields do not reach bit 0");
  }
  return d;
}

unsigned RegIdBits(const Desc& d) {
  unsigned b = 1;
  while ((1u << b) < d.regs.size()) ++b;
  return b;
}

const char* kBanner = "Generated by tessera_archgen from model/arch/tessera.def. Do not edit.";

std::string EmitSv(const Desc& d, const std::string& isa) {
  std::ostringstream o;
  o << "// " << kBanner << "\n";
  o << "// Shared types and constants of the Tessera PE; see docs/architecture-constants.md.\n";
  o << "package tessera_pkg;\n\n";
  for (const auto& c : d.consts) {
    if (!c.doc.empty()) o << "  // " << c.doc << "\n";
    o << "  localparam int unsigned " << c.name << " = "
      << (c.value < 4096 ? std::to_string(c.value) : "32'h" + Hex(c.value)) << ";\n";
  }
  o << "\n";
  for (const auto& e : d.enums) o << EmitSvEnum(e);
  for (const auto& st : d.structs) {
    if (!st.doc.empty()) o << "  // " << st.doc << "\n";
    o << "  localparam int unsigned " << st.name << "Bits = " << st.width << ";\n";
    o << "  typedef struct packed {\n";
    for (const auto& f : st.fields) {
      o << "    logic ";
      if (f.msb != f.lsb) o << "[" << f.msb - f.lsb << ":0] ";
      o << Snake(f.name) << ";";
      if (!f.doc.empty()) o << "  // " << f.doc;
      o << "\n";
    }
    o << "  } " << Snake(st.name) << "_t;\n";
    for (const auto& f : st.fields) {
      o << "  localparam int unsigned " << st.name << f.name << "Lsb = " << f.lsb << ";";
      o << "  localparam int unsigned " << st.name << f.name << "Width = " << f.msb - f.lsb + 1
        << ";\n";
    }
    o << "\n";
  }
  for (const auto& r : d.regs) {
    if (!r.doc.empty()) o << "  // " << r.doc << "\n";
    o << "  localparam logic [15:0] " << r.name << "Addr = 16'h" << Hex(r.addr) << ";\n";
    if (r.count > 1) {
      o << "  localparam int unsigned " << r.name << "Count = " << r.count << ";\n";
      o << "  localparam int unsigned " << r.name << "Stride = " << r.stride << ";\n";
    }
    for (const auto& f : r.fields) {
      o << "  localparam int unsigned " << r.name << f.name << "Lsb = " << f.lsb << ";";
      o << "  localparam int unsigned " << r.name << f.name << "Width = " << f.msb - f.lsb + 1
        << ";";
      if (!f.doc.empty()) o << "  // " << f.doc;
      o << "\n";
    }
    o << "\n";
  }
  o << "  // The memory-mapped registers (docs/isa.md 3.2), as tessera_ce_mmio names them.\n";
  o << "  typedef enum logic [" << RegIdBits(d) - 1 << ":0] {\n";
  for (size_t i = 0; i < d.regs.size(); ++i)
    o << "    Mmio" << d.regs[i].name << " = " << RegIdBits(d) << "'d" << i
      << (i + 1 < d.regs.size() ? "," : "") << "\n";
  o << "  } mmio_reg_e;\n\n";
  o << isa;
  o << "  // The compute engine's hand-written types, here so that they may hold this package's "
       "enums\n";
  o << "  // (Yosys 0.23 reads no type of one package inside another).\n";
  o << "  `include \"tessera_ce_types.svh\"\n\n";
  o << "endpackage\n";
  return o.str();
}

// The body of tessera_ce_mmio's always_comb: which register addr_i names and what a CE access may
// do with it, from the register lines.
std::string EmitMmioSvh(const Desc& d) {
  std::ostringstream o;
  o << "// " << kBanner << "\n";
  o << "// The body of tessera_ce_mmio's always_comb: reads addr_i, writes every output and off.\n";
  o << "valid_o     = 1'b0;\nro_o        = 1'b0;\nhost_only_o = 1'b0;\nrouter_o    = 1'b0;\n";
  o << "reg_o       = Mmio" << d.regs.front().name << ";\noff         = '0;\n";
  o << "if (addr_i[1:0] == 2'b00) begin\n";
  for (const auto& r : d.regs) {
    const std::string base = "16'h" + Hex(r.addr);
    if (r.count == 1) {
      o << "  if (addr_i == " << base << ") begin  // " << r.name << "\n";
    } else {
      o << "  if (addr_i >= " << base << " && addr_i < 16'h" << Hex(r.addr + r.count * r.stride)
        << ") begin  // " << r.name << "[" << r.count << "]\n";
      o << "    off = addr_i - " << base << ";\n";
    }
    o << "    valid_o = 1'b1;\n    reg_o = Mmio" << r.name << ";\n";
    if (r.access == "ro") o << "    ro_o = 1'b1;\n";
    if (r.last_ro) o << "    ro_o = off[6:2] == 5'd" << r.count - 1 << ";\n";
    if (r.access == "host") o << "    host_only_o = 1'b1;\n";
    if (r.router) o << "    router_o = 1'b1;\n";
    o << "  end\n";
  }
  o << "end\n";
  return o.str();
}

// Module-scope aliases of the package's names, for `include inside a module body: Yosys 0.23
// accepts neither `import pkg::*` nor package references inside other packages.
std::string EmitSvUse(const Desc& d, const std::string& isa) {
  std::ostringstream o;
  o << "// " << kBanner << "\n";
  o << "// Include inside a module body: aliases every tessera_pkg name into module scope.\n";
  o << "// A module uses only some of them: lint for unused parameters is off in here.\n";
  o << "/* verilator lint_off UNUSEDPARAM */\n";
  for (const auto& c : d.consts)
    o << "localparam int unsigned " << c.name << " = tessera_pkg::" << c.name << ";\n";
  for (const auto& e : d.enums) o << EmitSvEnumUse(e);
  for (const auto& st : d.structs) {
    o << "localparam int unsigned " << st.name << "Bits = tessera_pkg::" << st.name << "Bits;\n";
    o << "typedef tessera_pkg::" << Snake(st.name) << "_t " << Snake(st.name) << "_t;\n";
    for (const auto& f : st.fields) {
      for (const char* suf : {"Lsb", "Width"})
        o << "localparam int unsigned " << st.name << f.name << suf << " = tessera_pkg::" << st.name
          << f.name << suf << ";\n";
    }
  }
  for (const auto& r : d.regs) {
    o << "localparam logic [15:0] " << r.name << "Addr = tessera_pkg::" << r.name << "Addr;\n";
    if (r.count > 1) {
      o << "localparam int unsigned " << r.name << "Count = tessera_pkg::" << r.name << "Count;\n";
      o << "localparam int unsigned " << r.name << "Stride = tessera_pkg::" << r.name
        << "Stride;\n";
    }
    for (const auto& f : r.fields) {
      for (const char* suf : {"Lsb", "Width"})
        o << "localparam int unsigned " << r.name << f.name << suf << " = tessera_pkg::" << r.name
          << f.name << suf << ";\n";
    }
  }
  o << "typedef tessera_pkg::mmio_reg_e mmio_reg_e;\n";
  for (const auto& r : d.regs)
    o << "localparam mmio_reg_e Mmio" << r.name << " = tessera_pkg::Mmio" << r.name << ";\n";
  o << isa;
  o << "/* verilator lint_on UNUSEDPARAM */\n";
  return o.str();
}

// The memory-mapped registers as data: which address is which register, who may access it, and
// whether co-simulation compares it (docs/isa.md 3.2).
std::string EmitHppRegTable(const Desc& d) {
  std::ostringstream o;
  o << "// ---- The register table (docs/isa.md 3.2) ----\n";
  o << "enum class RegId : uint8_t {\n";
  for (const auto& r : d.regs) o << "  k" << r.name << ",\n";
  o << "};\n";
  o << "inline constexpr unsigned kNumRegIds = " << d.regs.size() << ";\n\n";
  o << "// What a CE access may do with a register.\n";
  o << "enum class RegAccess : uint8_t {\n";
  for (const AccessWord& a : kAccessWords) o << "  " << a.cpp << ",  // " << a.doc << "\n";
  o << "};\n\n";
  o << "struct RegInfo {\n"
       "  RegId id;\n"
       "  const char* name;\n"
       "  uint16_t addr;\n"
       "  uint32_t count, stride;  // count 1: a single register\n"
       "  RegAccess access;\n"
       "  bool router;    // held by the router, not the CE\n"
       "  bool compared;  // co-simulation compares it at the end of a run\n"
       "  bool last_ro;   // the last element of the array reads zero and is read only\n"
       "};\n\n";
  o << "inline constexpr RegInfo kRegisters[kNumRegIds] = {\n";
  for (const auto& r : d.regs) {
    o << "    {RegId::k" << r.name << ", \"" << r.name << "\", 0x" << Hex(r.addr) << ", " << r.count
      << ", " << r.stride << ", RegAccess::" << FindAccess(r.access)->cpp << ", "
      << (r.router ? "true" : "false") << ", " << (r.compared ? "true" : "false") << ", "
      << (r.last_ro ? "true" : "false") << "},\n";
  }
  o << "};\n\n";
  o << "inline const RegInfo& Info(RegId id) { return kRegisters[static_cast<unsigned>(id)]; }\n";
  o << "inline const char* ToString(RegId id) { return Info(id).name; }\n\n";
  return o.str();
}

// Every const and enum item by name, as data: what tools that accept the names take from (the
// assembler's predefined symbols, host/asm/predefined.cpp), so that a line added to tessera.def
// reaches them without a list to edit.
std::string EmitHppNameTables(const Desc& d) {
  std::ostringstream o;
  o << "// ---- Every const and enum item by name (the assembler predefines them) ----\n";
  o << "struct ConstInfo {\n"
       "  const char* name;\n"
       "  uint32_t value;\n"
       "};\n\n";
  o << "inline constexpr ConstInfo kConstants[] = {\n";
  for (const auto& c : d.consts) o << "    {\"" << c.name << "\", k" << c.name << "},\n";
  o << "};\n\n";
  o << "struct EnumItemInfo {\n"
       "  const char* type;  // the enum's name\n"
       "  const char* name;  // as ToString spells it\n"
       "  uint32_t value;\n"
       "};\n\n";
  o << "inline constexpr EnumItemInfo kEnumItems[] = {\n";
  for (const auto& e : d.enums) {
    for (size_t i = 0; i < e.items.size(); ++i) {
      const std::string& spelled = e.texts.empty() ? e.items[i].name : e.texts[i];
      o << "    {\"" << e.name << "\", \"" << spelled << "\", static_cast<uint32_t>(" << e.name
        << "::k" << e.items[i].name << ")},\n";
    }
  }
  o << "};\n\n";
  return o.str();
}

std::string EmitHpp(const Desc& d) {
  std::ostringstream o;
  o << "// " << kBanner << "\n";
  o << "// Shared constants of the Tessera PE; see docs/architecture-constants.md.\n";
  o << "#pragma once\n\n#include <cstdint>\n#include <string_view>\n\nnamespace tessera::arch "
       "{\n\n";
  for (const auto& c : d.consts) {
    if (!c.doc.empty()) o << "// " << c.doc << "\n";
    o << "inline constexpr uint32_t k" << c.name << " = "
      << (c.value < 4096 ? std::to_string(c.value) : "0x" + Hex(c.value)) << ";\n";
  }
  o << "\n";
  for (const auto& e : d.enums) o << EmitHppEnum(e);
  for (const auto& st : d.structs) {
    if (!st.doc.empty()) o << "// " << st.doc << "\n";
    o << "struct " << st.name << " {\n";
    o << "  static constexpr unsigned kBits = " << st.width << ";\n";
    for (const auto& f : st.fields) {
      unsigned w = f.msb - f.lsb + 1;
      std::string mask = "0x" + Hex((1ull << w) - 1);
      if (!f.doc.empty()) o << "  // " << f.doc << "\n";
      o << "  static constexpr unsigned k" << f.name << "Lsb = " << f.lsb << ", k" << f.name
        << "Width = " << w << ";\n";
      o << "  static constexpr uint64_t " << f.name << "(uint64_t r) { return (r >> " << f.lsb
        << ") & " << mask << "ull; }\n";
      o << "  static constexpr uint64_t With" << f.name << "(uint64_t r, uint64_t v) {\n"
        << "    return (r & ~(" << mask << "ull << " << f.lsb << ")) | ((v & " << mask << "ull) << "
        << f.lsb << ");\n  }\n";
    }
    o << "};\n\n";
  }
  for (const auto& r : d.regs) {
    if (!r.doc.empty()) o << "// " << r.doc << "\n";
    o << "struct " << r.name << " {\n";
    o << "  static constexpr uint16_t kAddr = 0x" << Hex(r.addr) << ";\n";
    o << "  static constexpr uint32_t kCount = " << r.count << ";\n";
    o << "  static constexpr uint32_t kStride = " << r.stride << ";\n";
    o << "  static constexpr uint16_t Addr(uint32_t i) { return uint16_t(kAddr + i * kStride); }\n";
    for (const auto& f : r.fields) {
      unsigned w = f.msb - f.lsb + 1;
      std::string mask = "0x" + Hex((w >= 32 ? 0xFFFFFFFFull : ((1ull << w) - 1)));
      if (!f.doc.empty()) o << "  // " << f.doc << "\n";
      o << "  static constexpr unsigned k" << f.name << "Lsb = " << f.lsb << ", k" << f.name
        << "Width = " << w << ";\n";
      o << "  static constexpr uint32_t " << f.name << "(uint32_t r) { return (r >> " << f.lsb
        << ") & " << mask << "u; }\n";
      o << "  static constexpr uint32_t With" << f.name << "(uint32_t r, uint32_t v) {\n"
        << "    return (r & ~(" << mask << "u << " << f.lsb << ")) | ((v & " << mask << "u) << "
        << f.lsb << ");\n  }\n";
    }
    o << "};\n\n";
  }
  o << EmitHppRegTable(d);
  o << EmitHppNameTables(d);
  o << "}  // namespace tessera::arch\n";
  return o.str();
}

// docs/isa.md section 3.2: the register table, one row per `reg` line of tessera.def.
std::string EmitRegDocTable(const Desc& d) {
  std::ostringstream o;
  o << "<!-- generated by tessera_archgen from model/arch/tessera.def (reg and field lines): do "
       "not "
       "edit; run make gen -->\n\n";
  o << "| address | register | access | fields (bits) | what it holds |\n|---|---|---|---|---|\n";
  std::vector<const Reg*> by_addr;
  for (const Reg& r : d.regs) by_addr.push_back(&r);
  std::stable_sort(by_addr.begin(), by_addr.end(),
                   [](const Reg* a, const Reg* b) { return a->addr < b->addr; });
  for (const Reg* r : by_addr) {
    const bool array = r->count > 1;
    o << "| `0x" << Hex(r->addr);
    if (array)
      o << " + " << r->stride << "i`, i = 0.." << r->count - 1;
    else
      o << "`";
    o << " | " << r->name << (array ? "[i]" : "") << " | ";
    std::string access = r->access == "host" ? "host" : r->access;
    if (access != "host")
      for (char& ch : access) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    o << access;
    if (r->last_ro) o << "; element " << r->count - 1 << " reads 0, read only";
    if (!r->compared) o << "; not compared by co-simulation";
    o << " |";
    for (size_t i = 0; i < r->fields.size(); ++i) {
      const Field& f = r->fields[i];
      o << (i ? ", " : " ") << f.name << " " << Bits(f.msb, f.lsb);
      if (!f.doc.empty()) o << " (" << MdText(f.doc) << ")";
    }
    if (r->fields.empty()) o << " bit t: task t (bit 31 reads 0)";
    o << " | " << MdText(r->doc) << " |\n";
  }
  o << "\n<!-- end generated -->\n";
  return o.str();
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc == 3 && std::string(argv[1]) == "--check";
  if (!check && argc != 2) {
    std::fprintf(stderr,
                 "usage: tessera_archgen [--check] ROOT\n"
                 "  reads ROOT/model/arch/{tessera,isa}.def and writes (or with --check compares)\n"
                 "  the generated RTL package, decoders and C++ headers under ROOT\n");
    return 2;
  }
  const std::string root = std::string(argv[check ? 2 : 1]) + "/";
  Desc d = Parse(root + "model/arch/tessera.def");
  IsaDesc isa = ParseIsa(root + "model/arch/isa.def", d.enums);
  const std::pair<const char*, std::string> outs[] = {
      {"rtl/pkg/tessera_pkg.sv", EmitSv(d, EmitIsaSvPkg(isa))},
      {"rtl/pkg/tessera_pkg_use.svh", EmitSvUse(d, EmitIsaSvUse(isa))},
      {"rtl/pkg/tessera_isa.svh", EmitIsaDecodeSvh(isa)},
      {"rtl/pkg/tessera_mmio.svh", EmitMmioSvh(d)},
      {"model/arch/arch.h", EmitHpp(d)},
      {"model/arch/isa_table.h", EmitIsaHpp(isa)},
  };
  int stale = 0;
  // docs/isa.md: the text between each generated block's marker lines (sections 3.2 and 9.2).
  {
    const std::string path = root + "docs/isa.md";
    const std::string doc = Slurp(path);
    std::string updated = doc;
    const std::pair<const char*, std::string> blocks[] = {
        {"<!-- generated by tessera_archgen from model/arch/tessera.def", EmitRegDocTable(d)},
        {"<!-- generated by tessera_archgen from model/arch/isa.def", EmitIsaDocTable(isa)},
    };
    const std::string end_mark = "<!-- end generated -->\n";
    for (const auto& [mark, table] : blocks) {
      const size_t begin = updated.find(mark);
      const size_t end = updated.find(end_mark, begin == std::string::npos ? 0 : begin);
      if (begin == std::string::npos || end == std::string::npos) {
        std::fprintf(stderr, "%s: the marker lines of the block \"%s\" are missing\n", path.c_str(),
                     mark);
        return 2;
      }
      updated = updated.substr(0, begin) + table + updated.substr(end + end_mark.size());
    }
    if (check && updated != doc) {
      std::fprintf(stderr, "%s (sections 3.2 and 9.2) is stale: run `make gen`\n", path.c_str());
      stale = 1;
    } else if (!check && updated != doc) {
      std::ofstream(path) << updated;
    }
  }
  for (const auto& [rel, text] : outs) {
    const std::string path = root + rel;
    if (check) {
      if (Slurp(path) != text) {
        std::fprintf(stderr, "%s is stale: run `make gen`\n", path.c_str());
        stale = 1;
      }
    } else {
      std::ofstream(path) << text;
    }
  }
  return stale;
}
