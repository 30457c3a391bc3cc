// tessera_archgen, instruction-set part: parses model/arch/isa.def and emits the C++ table
// (model/arch/isa_table.h), the decoder types of tessera_pkg, the RTL decoder's statements
// (rtl/pkg/tessera_isa.svh) and the Markdown table of docs/isa.md section 9.2. Both decoders
// apply the same three legality rules, computed here per instruction: unnamed fields are zero,
// Z = 1 only with B = 0, and immediates in range.
#include "isagen.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace tessera::archgen {
namespace {

struct OperandKindDef {
  const char* name;
  std::vector<std::string> fields;    // format fields the operand occupies
  bool zeroable = false;              // B operand that Z replaces by 0
  bool tid_like = false;              // Z ? Imm (0..31) : R[B] with Imm == 0
  unsigned imm_limit = 0;             // Imm < limit (0: any)
  bool imm_sx = false;                // Imm is sign-extended
  bool z_abs = false;                 // Z = 1: Imm is an absolute address, zero-extended
  const char* decode_flag = nullptr;  // isa_dec_t flag set by the operand
  const char* doc = "";
};

const std::vector<OperandKindDef>& Kinds() {
  static const std::vector<OperandKindDef> k = {
      {"rd", {"A"}, false, false, 0, false, false, "wr_a", "GPR written (A)"},
      {"ra", {"A"}, false, false, 0, false, false, "rd_a", "GPR read (A)"},
      {"rb", {"B", "Z"}, true, false, 0, false, false, "rd_b", "GPR read (B), or 0 with Z"},
      {"rc", {"C"}, false, false, 0, false, false, "rd_c", "GPR read (C)"},
      {"re", {"D"}, false, false, 0, false, false, "rd_d", "GPR read (D)"},
      {"simm", {"Imm"}, false, false, 0, true, false, nullptr, "signed 16-bit immediate"},
      {"uimm", {"Imm"}, false, false, 0, false, false, nullptr, "unsigned 16-bit immediate"},
      {"sh", {"Imm"}, false, false, 32, false, false, nullptr, "shift amount 0..31"},
      {"off", {"Imm"}, false, false, 0, true, false, nullptr, "branch offset in words"},
      {"mem", {"B", "Z", "Imm"}, true, false, 0, true, true, "rd_b", "simm(rB) or absolute"},
      {"tgt", {"B", "Z", "Imm"}, true, false, 0, true, true, "rd_b", "jump target, as mem"},
      {"tid", {"B", "Z", "Imm"}, true, true, 0, false, false, "rd_b", "task ID: rB or 0..31"},
      {"col", {"B", "Z", "Imm"}, true, true, 0, false, false, "rd_b", "color: rB or 0..31"},
      {"msk", {"Imm"}, false, false, 256, false, false, nullptr, "microthread mask 0..255"},
      {"w", {"Imm"}, false, false, 2, false, false, nullptr, "descriptor word 0 or 1"},
      {"bval", {"B", "Z", "Imm"}, true, false, 0, true, false, "rd_b", "rB + simm, or simm"},
      {"da", {"A"}, false, false, 0, false, false, "dsr_a", "descriptor register (A)"},
      {"db", {"B"}, false, false, 0, false, false, "dsr_b", "descriptor register (B)"},
      {"dst", {"Dst"}, false, false, 0, false, false, nullptr, "destination descriptor"},
      {"src0", {"Src0"}, false, false, 0, false, false, nullptr, "first source descriptor"},
      {"src1", {"Src1"}, false, false, 0, false, false, nullptr, "second source descriptor"},
      {"s", {"S"}, false, false, 0, false, false, "rd_s", "scalar GPR, read at issue"},
      {"acc", {"S"}, false, false, 0, false, false, "rd_s", "accumulator GPR (fdot)"},
      {"done",
       {"U", "Tid", "Ut"},
       false,
       false,
       0,
       false,
       false,
       nullptr,
       "microthread and completion"},
  };
  return k;
}

const char* kFlags[] = {"wr_a", "rd_a", "rd_b", "rd_c", "rd_d", "rd_s", "dsr_a", "dsr_b"};

std::string Camel(const std::string& s) {  // alu -> Alu
  std::string o = s;
  if (!o.empty()) o[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(o[0])));
  return o;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

const Enum* FindEnum(const IsaDesc& d, const std::string& name) {
  for (const auto& e : d.enums)
    if (e.name == name) return &e;
  for (const auto& e : d.arch_enums)
    if (e.name == name) return &e;
  return nullptr;
}

unsigned ItemValue(const Enum& e, const std::string& item, const std::string& file, int line) {
  for (const auto& it : e.items)
    if (it.name == item) return static_cast<unsigned>(it.value);
  Fail(file, line, "'" + item + "' is not an item of enum " + e.name);
}

uint32_t FieldMask(const IsaField& f) {
  unsigned w = f.msb - f.lsb + 1;
  return static_cast<uint32_t>(((w >= 32 ? 0xFFFFFFFFull : ((1ull << w) - 1))) << f.lsb);
}

const IsaField* FindField(const IsaFormat& fmt, const std::string& name) {
  for (const auto& f : fmt.fields)
    if (f.name == name) return &f;
  return nullptr;
}

// The name of the field of a format that starts at bit lsb.
std::string FieldAt(const IsaFormat& fmt, int lsb) {
  for (const auto& f : fmt.fields)
    if (static_cast<int>(f.lsb) == lsb) return f.name;
  return "?";
}

std::string SvHex(unsigned bits, uint64_t v) { return std::to_string(bits) + "'h" + Hex(v); }

}  // namespace

IsaDesc ParseIsa(const std::string& file, const std::vector<Enum>& arch_enums) {
  std::ifstream in(file);
  if (!in) Fail(file, 0, "cannot open the instruction table");
  IsaDesc d;
  d.arch_enums = arch_enums;
  d.enums.reserve(64);  // classes keep pointers into it
  std::string raw, doc;
  int line = 0;
  std::set<std::pair<unsigned, int>> encodings;
  while (std::getline(in, raw)) {
    ++line;
    std::vector<std::string> tok = Tokenize(raw, doc);
    if (tok.empty()) continue;
    const std::string& kind = tok[0];
    if (kind == "format") {
      if (tok.size() < 3) Fail(file, line, "expected: format NAME FIELD=MSB:LSB ...");
      IsaFormat f{tok[1], {}};
      for (size_t i = 2; i < tok.size(); ++i) {
        auto eq = tok[i].find('='), colon = tok[i].find(':');
        if (eq == std::string::npos || colon == std::string::npos)
          Fail(file, line, "field '" + tok[i] + "' needs NAME=MSB:LSB");
        unsigned msb = ParseNum(tok[i].substr(eq + 1, colon - eq - 1), file, line);
        unsigned lsb = ParseNum(tok[i].substr(colon + 1), file, line);
        if (msb < lsb || msb > 31) Fail(file, line, "bad bit range in '" + tok[i] + "'");
        f.fields.push_back({tok[i].substr(0, eq), msb, lsb});
      }
      d.formats.push_back(f);
    } else if (kind == "enum") {
      d.enums.push_back(ParseEnum(tok, doc, file, line));
    } else if (kind == "set") {
      ParseSet(tok, doc, d.enums, file, line);
    } else if (kind == "map") {
      ParseMap(tok, doc, d.enums, d.arch_enums, file, line);
    } else if (kind == "class") {
      if (tok.size() != 3 && tok.size() != 4)
        Fail(file, line, "expected: class NAME SUBOP_ENUM [FMT_ENUM]");
      IsaClass c{tok[1], FindEnum(d, tok[2]), nullptr};
      if (!c.subop) Fail(file, line, "unknown enum '" + tok[2] + "'");
      if (tok.size() == 4 && !(c.fmt = FindEnum(d, tok[3])))
        Fail(file, line, "unknown enum '" + tok[3] + "'");
      d.classes.push_back(c);
    } else if (kind == "insn") {
      if (tok.size() != 9)
        Fail(file, line, "expected: insn MNEMONIC FMT OP FUNCT OPERANDS CLASS TYPES CYCLES");
      IsaInsn n;
      n.line = line;
      n.mnemonic = tok[1];
      n.doc = doc;
      auto fit = std::find_if(d.formats.begin(), d.formats.end(),
                              [&](const IsaFormat& f) { return f.name == tok[2]; });
      if (fit == d.formats.end()) Fail(file, line, "unknown format '" + tok[2] + "'");
      n.format = static_cast<int>(fit - d.formats.begin());
      const IsaFormat& fmt = *fit;
      n.op = static_cast<unsigned>(ParseNum(tok[3], file, line));
      const IsaField* opf = FindField(fmt, "Op");
      const IsaField* fnf = FindField(fmt, "Funct");
      if (!opf) Fail(file, line, "format " + fmt.name + " has no Op field");
      if (n.op >> (opf->msb - opf->lsb + 1)) Fail(file, line, "opcode does not fit its field");
      n.fixed_mask = FieldMask(*opf);
      n.fixed_bits = n.op << opf->lsb;
      const size_t eq = tok[4].find('=');
      if (eq != std::string::npos) {
        // A sub-operation in a field the operands leave unused (FIELD=value), for formats
        // without a Funct field: all lines of an opcode name the same field.
        const IsaField* sf = FindField(fmt, tok[4].substr(0, eq));
        if (!sf || fnf) Fail(file, line, "format " + fmt.name + " has no field " + tok[4]);
        n.funct = static_cast<int>(ParseNum(tok[4].substr(eq + 1), file, line));
        n.funct_lsb = sf->lsb;
        n.funct_bits = sf->msb - sf->lsb + 1;
        if (n.funct >> n.funct_bits) Fail(file, line, "the sub-operation does not fit its field");
        n.fixed_mask |= FieldMask(*sf);
        n.fixed_bits |= static_cast<uint32_t>(n.funct) << sf->lsb;
      } else if (tok[4] != "-") {
        if (!fnf) Fail(file, line, "format " + fmt.name + " has no Funct field; write -");
        n.funct = static_cast<int>(ParseNum(tok[4], file, line));
        n.funct_lsb = fnf->lsb;
        n.funct_bits = fnf->msb - fnf->lsb + 1;
        n.fixed_mask |= FieldMask(*fnf);
        n.fixed_bits |= static_cast<uint32_t>(n.funct) << fnf->lsb;
      } else if (fnf) {
        Fail(file, line, "format " + fmt.name + " needs a funct value");
      }
      if (!encodings.insert({n.op, n.funct}).second)
        Fail(file, line, "opcode/funct already used by another instruction");
      if (tok[5] != "-") {
        for (const auto& o : Split(tok[5], ',')) {
          const auto& kinds = Kinds();
          auto kit = std::find_if(kinds.begin(), kinds.end(),
                                  [&](const OperandKindDef& k) { return o == k.name; });
          if (kit == kinds.end()) Fail(file, line, "unknown operand kind '" + o + "'");
          n.operands.push_back(static_cast<int>(kit - kinds.begin()));
          for (const auto& fname : kit->fields) {
            const IsaField* f = FindField(fmt, fname);
            if (!f)
              Fail(file, line,
                   "operand " + o + " needs field " + fname + ", which format " + fmt.name +
                       " lacks");
            if (n.field_mask & FieldMask(*f)) Fail(file, line, "two operands use field " + fname);
            n.field_mask |= FieldMask(*f);
          }
          n.zeroable |= kit->zeroable;
          n.tid_like |= kit->tid_like;
          if (kit->imm_limit) n.imm_limit = kit->imm_limit;
          n.imm_sx |= kit->imm_sx;
          n.z_abs |= kit->z_abs;
        }
      }
      if (n.field_mask & n.fixed_mask)
        Fail(file, line, "an operand uses the field that holds the sub-operation");
      for (const IsaInsn& o : d.insns)
        if (o.op == n.op && (o.funct_lsb != n.funct_lsb || o.funct_bits != n.funct_bits))
          Fail(file, line, "lines of one opcode must hold their sub-operation in the same field");
      auto cparts = Split(tok[6], ':');
      auto cit = std::find_if(d.classes.begin(), d.classes.end(),
                              [&](const IsaClass& c) { return c.name == cparts[0]; });
      if (cit == d.classes.end()) Fail(file, line, "unknown class '" + cparts[0] + "'");
      n.cls = static_cast<int>(cit - d.classes.begin());
      if (cparts.size() < 2) Fail(file, line, "class needs a sub-operation: class:subop");
      n.subop = ItemValue(*cit->subop, cparts[1], file, line);
      if (cparts.size() >= 3) {
        if (!cit->fmt) Fail(file, line, "class " + cit->name + " takes no format");
        n.fmt = ItemValue(*cit->fmt, cparts[2], file, line);
      } else if (cit->fmt) {
        Fail(file, line, "class " + cit->name + " needs a format: class:subop:fmt");
      }
      if (cparts.size() >= 4) {
        const Enum* form = FindEnum(d, "DsdForm");
        if (!form) Fail(file, line, "enum DsdForm must be declared before forms are used");
        n.form = ItemValue(*form, cparts[3], file, line);
      }
      if (tok[7] != "-") {
        auto t = Split(tok[7], ',');
        const Enum* ec = FindEnum(d, "ElemClass");
        if (t.size() != 3 || !ec) Fail(file, line, "TYPES needs dst,src0,src1 (ElemClass items)");
        for (int i = 0; i < 3; ++i) {
          std::string u = t[i];
          for (auto& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
          n.types[i] = t[i] == "-" ? 0 : ItemValue(*ec, u, file, line);
        }
      }
      n.cycles = tok[8];
      if (n.cycles != "br" && n.cycles != "fp" && n.cycles != "dsd" && n.cycles != "wait")
        ParseNum(n.cycles, file, line);
      d.insns.push_back(n);
    } else if (kind == "alias") {
      if (tok.size() != 3) Fail(file, line, "expected: alias NEW OLD");
      bool found = false;
      for (const auto& n : d.insns) found |= n.mnemonic == tok[2];
      if (!found) Fail(file, line, "alias of unknown mnemonic '" + tok[2] + "'");
      d.aliases.push_back({tok[1], tok[2]});
    } else if (kind == "pseudo") {
      auto eq = raw.find('=');
      if (tok.size() < 5 || eq == std::string::npos)
        Fail(file, line, "expected: pseudo MNEMONIC OPERANDS = EXPANSION");
      std::string exp = raw.substr(eq + 1);
      exp.erase(0, exp.find_first_not_of(' '));
      exp.erase(exp.find_last_not_of(" \t\r") + 1);
      d.pseudos.push_back({tok[1], tok[2], exp});
    } else {
      Fail(file, line,
           "unknown line kind '" + kind + "' (format, enum, set, map, class, insn, alias, pseudo)");
    }
  }
  return d;
}

namespace {

// The typed isa_dec_t field that carries a class's sub-operation (one per distinct enum).
std::string SubopField(const Enum& e) { return Snake(e.name); }

std::vector<const Enum*> DecodedEnums(const IsaDesc& d) {
  std::vector<const Enum*> out;
  for (const auto& c : d.classes)
    for (const Enum* e : {c.subop, c.fmt})
      if (e && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  return out;
}

Enum ClassEnum(const IsaDesc& d) {
  Enum e{"InsnClass", "instruction class (model/arch/isa.def)", 4, {}};
  for (size_t i = 0; i < d.classes.size(); ++i) e.items.push_back({Camel(d.classes[i].name), i});
  return e;
}

}  // namespace

std::string EmitIsaSvPkg(const IsaDesc& d) {
  std::ostringstream o;
  o << "  // ---- Instruction set (generated from model/arch/isa.def; docs/isa.md) ----\n\n";
  for (const auto& e : d.enums) o << EmitSvEnum(e);
  o << EmitSvEnum(ClassEnum(d));
  o << "  // One decoded instruction (the decoder tessera_ce_decode, tessera_isa.svh).\n";
  o << "  typedef struct packed {\n";
  o << "    logic legal;         // a valid encoding: known opcode/funct, unused fields zero\n";
  o << "    insn_class_e cls;\n";
  for (const Enum* e : DecodedEnums(d))
    o << "    " << Snake(e->name) << "_e " << SubopField(*e) << ";\n";
  o << "    dsd_form_e dsd_form;\n";
  o << "    elem_class_e ty_dst;\n    elem_class_e ty_src0;\n    elem_class_e ty_src1;\n";
  for (const char* f : kFlags) o << "    logic " << f << ";\n";
  o << "    logic imm_sx;        // Imm sign-extended (unless z_abs and Z)\n";
  o << "    logic z_abs;         // Z = 1 makes Imm an absolute address\n";
  o << "  } isa_dec_t;\n\n";
  return o.str();
}

std::string EmitIsaSvUse(const IsaDesc& d) {
  std::ostringstream o;
  for (const auto& e : d.enums) o << EmitSvEnumUse(e);
  o << EmitSvEnumUse(ClassEnum(d));
  o << "typedef tessera_pkg::isa_dec_t isa_dec_t;\n";
  return o.str();
}

std::string EmitIsaDecodeSvh(const IsaDesc& d) {
  std::ostringstream o;
  o << "// Generated by tessera_archgen from model/arch/isa.def. Do not edit.\n";
  o << "// The body of the decoder's always_comb: reads insn_i, writes every field of dec_o.\n";
  o << "// (Statements, not a function: Yosys 0.23 mishandles struct-typed function locals.)\n";
  // Every field gets a default (Yosys infers latches from `d = '0` on a struct in a function).
  o << "  dec_o.legal = 1'b0;\n";
  o << "  dec_o.cls = InsnClass" << Camel(d.classes[0].name) << ";\n";
  for (const Enum* e : DecodedEnums(d))
    o << "  dec_o." << SubopField(*e) << " = " << e->name << e->items[0].name << ";\n";
  o << "  dec_o.dsd_form = DsdForm" << FindEnum(d, "DsdForm")->items[0].name << ";\n";
  for (const char* r : {"ty_dst", "ty_src0", "ty_src1"})
    o << "  dec_o." << r << " = ElemClass" << FindEnum(d, "ElemClass")->items[0].name << ";\n";
  for (const char* f : kFlags) o << "  dec_o." << f << " = 1'b0;\n";
  o << "  dec_o.imm_sx = 1'b0;\n  dec_o.z_abs = 1'b0;\n";
  o << "  unique case (insn_i[6:0])\n";
  std::map<unsigned, std::vector<const IsaInsn*>> by_op;
  for (const auto& n : d.insns) by_op[n.op].push_back(&n);
  const Enum cls = ClassEnum(d);
  auto body = [&](const IsaInsn& n, const std::string& ind) {
    std::ostringstream b;
    std::string cond =
        "(insn_i & " + SvHex(32, ~(n.fixed_mask | n.field_mask) & 0xFFFFFFFFu) + ") == 32'h0";
    if (n.zeroable) cond += " && !(insn_i[7] && insn_i[15:12] != 4'h0)";
    if (n.imm_limit) cond += " && insn_i[31:16] < 16'd" + std::to_string(n.imm_limit);
    if (n.tid_like) cond += " && (insn_i[7] ? insn_i[31:16] < 16'd32 : insn_i[31:16] == 16'h0)";
    b << ind << "dec_o.legal = " << cond << ";\n";
    const IsaClass& c = d.classes[n.cls];
    b << ind << "dec_o.cls = InsnClass" << cls.items[n.cls].name << ";\n";
    for (const auto& it : c.subop->items)
      if (it.value == n.subop)
        b << ind << "dec_o." << SubopField(*c.subop) << " = " << c.subop->name << it.name << ";\n";
    if (c.fmt)
      for (const auto& it : c.fmt->items)
        if (it.value == n.fmt)
          b << ind << "dec_o." << SubopField(*c.fmt) << " = " << c.fmt->name << it.name << ";\n";
    if (c.name == "dsd") {
      const Enum* form = FindEnum(d, "DsdForm");
      const Enum* ec = FindEnum(d, "ElemClass");
      for (const auto& it : form->items)
        if (it.value == n.form) b << ind << "dec_o.dsd_form = DsdForm" << it.name << ";\n";
      const char* role[3] = {"ty_dst", "ty_src0", "ty_src1"};
      for (int i = 0; i < 3; ++i)
        for (const auto& it : ec->items)
          if (it.value == n.types[i])
            b << ind << "dec_o." << role[i] << " = ElemClass" << it.name << ";\n";
    }
    for (int k : n.operands) {
      const auto& kd = Kinds()[k];
      if (kd.decode_flag) b << ind << "dec_o." << kd.decode_flag << " = 1'b1;\n";
    }
    if (n.imm_sx) b << ind << "dec_o.imm_sx = 1'b1;\n";
    if (n.z_abs) b << ind << "dec_o.z_abs = 1'b1;\n";
    return b.str();
  };
  for (const auto& [op, list] : by_op) {
    o << "    7'h" << Hex(op) << ": begin\n";
    if (list.front()->funct < 0) {
      o << body(*list.front(), "      ");
    } else {
      const IsaInsn& f = *list.front();
      o << "      unique case (insn_i[" << f.funct_lsb + f.funct_bits - 1 << ":" << f.funct_lsb
        << "])\n";
      for (const IsaInsn* n : list) {
        o << "        " << f.funct_bits << "'h" << Hex(static_cast<unsigned>(n->funct))
          << ": begin  // " << n->mnemonic << "\n";
        o << body(*n, "          ");
        o << "        end\n";
      }
      o << "        default: dec_o.legal = 1'b0;\n";
      o << "      endcase\n";
    }
    o << "    end\n";
  }
  o << "    default: dec_o.legal = 1'b0;\n";
  o << "  endcase\n";

  return o.str();
}

std::string EmitIsaHpp(const IsaDesc& d) {
  std::ostringstream o;
  o << "// Generated by tessera_archgen from model/arch/isa.def. Do not edit.\n";
  o << "// The instruction table (docs/isa.md section 9): the interpreter, the assembler and the\n";
  o << "// disassembler are driven by it; model/isa/decode.h decodes words against it.\n";
  o << "#pragma once\n\n#include <cstdint>\n\n#include \"arch/arch.h\"\n\n";
  o << "namespace tessera::arch {\n\n";
  for (const auto& e : d.enums) o << EmitHppEnum(e);
  o << EmitHppEnum(ClassEnum(d));
  o << "enum class InsnFormat : uint8_t {";
  for (size_t i = 0; i < d.formats.size(); ++i)
    o << (i ? ", " : " ") << "k" << d.formats[i].name << " = " << i;
  o << " };\n\n";
  o << "struct InsnField {\n  const char* name;\n  InsnFormat format;\n  uint8_t msb, lsb;\n};\n";
  o << "inline constexpr InsnField kInsnFields[] = {\n";
  for (size_t i = 0; i < d.formats.size(); ++i)
    for (const auto& f : d.formats[i].fields)
      o << "    {\"" << f.name << "\", InsnFormat::k" << d.formats[i].name << ", " << f.msb << ", "
        << f.lsb << "},\n";
  o << "};\n\n";
  o << "// Operand kinds (docs/isa.md 4.2), in assembly order within an instruction.\n";
  o << "enum class OperandKind : uint8_t {\n";
  for (size_t i = 0; i < Kinds().size(); ++i)
    o << "  k" << Camel(Kinds()[i].name) << " = " << i << ",  // " << Kinds()[i].doc << "\n";
  o << "};\n";
  o << "struct OperandKindInfo {\n  const char* name;\n  bool zeroable, tid_like;\n"
       "  uint32_t imm_limit;  // nonzero: Imm must be below it\n  bool imm_sx, z_abs;\n};\n";
  o << "inline constexpr OperandKindInfo kOperandKinds[] = {\n";
  for (const auto& k : Kinds())
    o << "    {\"" << k.name << "\", " << (k.zeroable ? "true" : "false") << ", "
      << (k.tid_like ? "true" : "false") << ", " << k.imm_limit << ", "
      << (k.imm_sx ? "true" : "false") << ", " << (k.z_abs ? "true" : "false") << "},\n";
  o << "};\n\n";
  o << "enum class CycleKind : uint8_t { kFixed, kBranch, kFp, kDsd, kWait };\n\n";
  o << "struct InsnInfo {\n"
       "  const char* mnemonic;\n"
       "  InsnFormat format;\n"
       "  uint8_t op;\n"
       "  int16_t funct;  // -1: the format has no funct\n"
       "  uint8_t funct_lsb, funct_bits;  // where it is: Funct, or an unused field (D)\n"
       "  uint8_t num_operands;\n"
       "  OperandKind operands[5];\n"
       "  InsnClass cls;\n"
       "  uint8_t subop;  // the class's sub-operation enum (AluOp, FpOp, DsdOp, ...)\n"
       "  uint8_t fmt;    // FpFmt or DsdFmt\n"
       "  DsdForm form;\n"
       "  ElemClass types[3];  // dst, src0, src1\n"
       "  CycleKind cycle_kind;\n"
       "  uint8_t cycles;  // kFixed\n"
       "  uint32_t fixed_mask, fixed_bits;  // opcode and funct\n"
       "  uint32_t field_mask;              // bits the operands occupy\n"
       "  bool zeroable, tid_like;\n"
       "  uint32_t imm_limit;\n"
       "  const char* doc;\n"
       "};\n\n";
  o << "inline constexpr InsnInfo kInsns[] = {\n";
  for (const auto& n : d.insns) {
    o << "    {\"" << n.mnemonic << "\", InsnFormat::k" << d.formats[n.format].name << ", 0x"
      << Hex(n.op) << ", " << n.funct << ", " << n.funct_lsb << ", " << n.funct_bits << ", "
      << n.operands.size() << ", {";
    for (size_t i = 0; i < n.operands.size(); ++i)
      o << (i ? ", " : "") << "OperandKind::k" << Camel(Kinds()[n.operands[i]].name);
    o << "}, InsnClass::k" << Camel(d.classes[n.cls].name) << ", " << n.subop << ", " << n.fmt
      << ", DsdForm(" << n.form << "), {ElemClass(" << n.types[0] << "), ElemClass(" << n.types[1]
      << "), ElemClass(" << n.types[2] << ")}, ";
    if (n.cycles == "br")
      o << "CycleKind::kBranch, 0";
    else if (n.cycles == "fp")
      o << "CycleKind::kFp, 0";
    else if (n.cycles == "dsd")
      o << "CycleKind::kDsd, 0";
    else if (n.cycles == "wait")
      o << "CycleKind::kWait, 1";
    else
      o << "CycleKind::kFixed, " << n.cycles;
    o << ", 0x" << Hex(n.fixed_mask) << ", 0x" << Hex(n.fixed_bits) << ", 0x" << Hex(n.field_mask)
      << ", " << (n.zeroable ? "true" : "false") << ", " << (n.tid_like ? "true" : "false") << ", "
      << n.imm_limit << ", \"";
    for (char c : n.doc) o << (c == '"' || c == '\\' ? "\\" : "") << c;
    o << "\"},\n";
  }
  o << "};\n";
  o << "inline constexpr int kNumInsns = " << d.insns.size() << ";\n\n";
  o << "struct InsnAlias {\n  const char* name;\n  const char* target;\n};\n";
  o << "inline constexpr InsnAlias kInsnAliases[] = {\n";
  for (const auto& a : d.aliases) o << "    {\"" << a.name << "\", \"" << a.target << "\"},\n";
  o << "};\n\n";
  o << "// Assembler pseudo-instructions: operand kinds and expansion, as written in isa.def.\n";
  o << "struct InsnPseudo {\n  const char* mnemonic;\n  const char* operands;\n"
       "  const char* expansion;\n};\n";
  o << "inline constexpr InsnPseudo kInsnPseudos[] = {\n";
  for (const auto& p : d.pseudos)
    o << "    {\"" << p.mnemonic << "\", \"" << p.operands << "\", \"" << p.expansion << "\"},\n";
  o << "};\n\n";
  o << "}  // namespace tessera::arch\n";
  return o.str();
}

namespace {

// A code span in a table cell: only `|` needs escaping (GFM splits the cells first).
std::string MdCode(const std::string& s) {
  std::string o = "`";
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o + "`";
}

std::string OpHex(unsigned v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%02X", v);
  return b;
}

std::string ItemName(const Enum& e, uint64_t v) {
  for (const auto& it : e.items)
    if (it.value == v) return it.name;
  return "?";
}

std::string Lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

std::string EmitIsaDocTable(const IsaDesc& d) {
  std::ostringstream o;
  o << "<!-- generated by tessera_archgen from model/arch/isa.def: do not edit; run make gen -->\n";

  o << "\n#### Formats\n\n";
  o << "| format | fields (bits) |\n|---|---|\n";
  for (const auto& f : d.formats) {
    std::vector<IsaField> by_msb = f.fields;
    std::stable_sort(by_msb.begin(), by_msb.end(),
                     [](const IsaField& a, const IsaField& b) { return a.msb > b.msb; });
    o << "| " << f.name << " |";
    for (size_t i = 0; i < by_msb.size(); ++i)
      o << (i ? ", " : " ") << by_msb[i].name << " " << Bits(by_msb[i].msb, by_msb[i].lsb);
    o << " |\n";
  }

  o << "\n#### Classes\n\n";
  o << "Each class is a value of the generated enum `InsnClass`. Its instructions select a\n"
       "sub-operation, and in some classes a format, from the enums named here.\n\n";
  o << "| class | `InsnClass` | sub-operation | format |\n|---|---|---|---|\n";
  for (size_t c = 0; c < d.classes.size(); ++c) {
    const IsaClass& cl = d.classes[c];
    o << "| `" << cl.name << "` | " << Camel(cl.name) << " = " << c << " | `" << cl.subop->name
      << "` | " << (cl.fmt ? "`" + cl.fmt->name + "`" : std::string("-")) << " |\n";
  }

  o << "\n#### Enumerations\n\n";
  o << "| enum | bits | items | doc |\n|---|---|---|---|\n";
  auto enum_row = [&](const Enum& e, const char* from) {
    o << "| `" << e.name << "`" << from << " | " << e.width << " |";
    for (size_t i = 0; i < e.items.size(); ++i)
      o << (i ? ", " : " ") << e.items[i].name << "=" << e.items[i].value;
    o << " |" << (e.doc.empty() ? "" : " " + MdText(e.doc) + " ") << "|\n";
  };
  for (const auto& e : d.enums) enum_row(e, "");
  for (const auto& e : d.arch_enums) {  // the ones classes use, from tessera.def
    bool used = false;
    for (const auto& c : d.classes)
      used |= c.subop->name == e.name || (c.fmt && c.fmt->name == e.name);
    bool shadowed = false;
    for (const auto& own : d.enums) shadowed |= own.name == e.name;
    if (used && !shadowed) enum_row(e, " (tessera.def)");
  }

  const Enum* form = FindEnum(d, "DsdForm");
  const Enum* ec = FindEnum(d, "ElemClass");
  for (size_t c = 0; c < d.classes.size(); ++c) {
    const IsaClass& cl = d.classes[c];
    bool any_funct = false, any_types = false;
    const bool dsd = cl.name == "dsd";  // the class whose lines carry a form (as EmitIsaDecodeSvh)
    for (const auto& n : d.insns) {
      if (n.cls != static_cast<int>(c)) continue;
      any_funct |= n.funct >= 0;
      any_types |= n.types[0] || n.types[1] || n.types[2];
    }
    o << "\n#### Class `" << cl.name << "`\n\n";
    o << "| mnemonic | operands | format | op | ";
    if (any_funct) o << "funct | ";
    o << cl.subop->name << " | ";
    if (cl.fmt) o << cl.fmt->name << " | ";
    if (dsd && form) o << "form | ";
    if (any_types && ec) o << "types (dst, src0, src1) | ";
    o << "cycles | meaning |\n|---|---|---|---|";
    if (any_funct) o << "---|";
    o << "---|";
    if (cl.fmt) o << "---|";
    if (dsd && form) o << "---|";
    if (any_types && ec) o << "---|";
    o << "---|---|\n";
    for (const auto& n : d.insns) {
      if (n.cls != static_cast<int>(c)) continue;
      std::string ops;
      for (size_t i = 0; i < n.operands.size(); ++i)
        ops += (i ? ", " : "") + std::string(Kinds()[n.operands[i]].name);
      o << "| " << MdCode(n.mnemonic) << " | " << (ops.empty() ? "-" : MdCode(ops)) << " | "
        << d.formats[n.format].name << " | " << OpHex(n.op) << " | ";
      if (any_funct)
        o << (n.funct < 0 ? std::string("-")
                          : (FindField(d.formats[n.format], "Funct")
                                 ? ""
                                 : FieldAt(d.formats[n.format], n.funct_lsb) + "=") +
                                OpHex(static_cast<unsigned>(n.funct)))
          << " | ";
      o << ItemName(*cl.subop, n.subop) << " | ";
      if (cl.fmt) o << ItemName(*cl.fmt, n.fmt) << " | ";
      if (dsd && form) o << ItemName(*form, n.form) << " | ";
      if (any_types && ec) {
        for (int i = 0; i < 3; ++i)
          o << (i ? ", " : "") << (n.types[i] ? Lower(ItemName(*ec, n.types[i])) : "-");
        o << " | ";
      }
      o << n.cycles << " |" << (n.doc.empty() ? "" : " " + MdText(n.doc) + " ") << "|\n";
    }
  }

  if (!d.aliases.empty()) {
    o << "\n#### Aliases\n\n";
    o << "| mnemonic | stands for |\n|---|---|\n";
    for (const auto& a : d.aliases)
      o << "| " << MdCode(a.name) << " | " << MdCode(a.target) << " |\n";
  }
  if (!d.pseudos.empty()) {
    o << "\n#### Pseudo-instructions\n\n";
    o << "| mnemonic | operands | expansion |\n|---|---|---|\n";
    for (const auto& p : d.pseudos)
      o << "| " << MdCode(p.mnemonic) << " | " << (p.operands == "-" ? "-" : MdCode(p.operands))
        << " | " << MdCode(p.expansion) << " |\n";
  }
  o << "\n<!-- end generated -->\n";
  return o.str();
}

}  // namespace tessera::archgen
