// tessera_archgen: reads the architecture description (model/arch/tessera.def) and writes the
// SystemVerilog package, its module-scope aliases and the C++ header generated from it, so RTL
// and model never drift.
//
//   tessera_archgen DEF SV_PKG SV_USE HPP           write the three outputs
//   tessera_archgen --check DEF SV_PKG SV_USE HPP   exit 1 (naming the file) if any is stale
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
  o << "  } " << Snake(e.name) << "_e;\n\n";
  return o.str();
}

std::string EmitSvEnumUse(const Enum& e) {
  std::ostringstream o;
  o << "typedef tessera_pkg::" << Snake(e.name) << "_e " << Snake(e.name) << "_e;\n";
  for (const auto& it : e.items)
    o << "localparam " << Snake(e.name) << "_e " << e.name << it.name
      << " = tessera_pkg::" << e.name << it.name << ";\n";
  return o.str();
}

std::string EmitHppEnum(const Enum& e) {
  std::ostringstream o;
  if (!e.doc.empty()) o << "// " << e.doc << "\n";
  o << "enum class " << e.name << " : uint8_t {\n";
  for (const auto& it : e.items) o << "  k" << it.name << " = " << it.value << ",\n";
  o << "};\n";
  o << "inline constexpr unsigned k" << e.name << "Width = " << e.width << ";\n";
  o << "inline const char* ToString(" << e.name << " v) {\n  switch (v) {\n";
  for (const auto& it : e.items)
    o << "    case " << e.name << "::k" << it.name << ": return \"" << it.name << "\";\n";
  o << "  }\n  return \"?\";\n}\n\n";
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
};
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
    } else if (kind == "reg") {
      if (tok.size() != 3 && tok.size() != 5)
        Fail(file, line, "expected: reg NAME ADDR [COUNT STRIDE]");
      Reg r{tok[1], doc, ParseNum(tok[2], file, line)};
      if (tok.size() == 5) {
        r.count = ParseNum(tok[3], file, line);
        r.stride = ParseNum(tok[4], file, line);
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
      Fail(file, line, "unknown line kind '" + kind + "' (const, enum, struct, reg, field)");
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
  o << isa;
  o << "endpackage\n";
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
  o << isa;
  o << "/* verilator lint_on UNUSEDPARAM */\n";
  return o.str();
}

std::string EmitHpp(const Desc& d) {
  std::ostringstream o;
  o << "// " << kBanner << "\n";
  o << "// Shared constants of the Tessera PE; see docs/architecture-constants.md.\n";
  o << "#pragma once\n\n#include <cstdint>\n\nnamespace tessera::arch {\n\n";
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
  o << "}  // namespace tessera::arch\n";
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
  constexpr int kIns = 2, kOuts = 5;
  bool check = argc == 2 + kIns + kOuts && std::string(argv[1]) == "--check";
  if (!check && argc != 1 + kIns + kOuts) {
    std::fprintf(stderr,
                 "usage: tessera_archgen [--check] DEF_FILE ISA_FILE SV_PKG_OUT SV_USE_OUT HPP_OUT "
                 "ISA_HPP_OUT ISA_SVH_OUT\n");
    return 2;
  }
  int a = check ? 2 : 1;
  Desc d = Parse(argv[a]);
  IsaDesc isa = ParseIsa(argv[a + 1], d.enums);
  const std::string outs[kOuts] = {EmitSv(d, EmitIsaSvPkg(isa)), EmitSvUse(d, EmitIsaSvUse(isa)),
                                   EmitHpp(d), EmitIsaHpp(isa), EmitIsaDecodeSvh(isa)};
  int stale = 0;
  for (int i = 0; i < kOuts; ++i) {
    const char* path = argv[a + kIns + i];
    if (check) {
      if (Slurp(path) != outs[i]) {
        std::fprintf(stderr, "%s is stale: run `make gen`\n", path);
        stale = 1;
      }
    } else {
      std::ofstream(path) << outs[i];
    }
  }
  return stale;
}
