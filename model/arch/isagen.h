// The instruction-set part of tessera_archgen: reads model/arch/isa.def (docs/isa.md section 9)
// and writes the C++ instruction table and the RTL decoder from it.
#pragma once

#include <string>
#include <vector>

#include "gen_common.h"

namespace tessera::archgen {

struct IsaField {
  std::string name;
  unsigned msb, lsb;
};
struct IsaFormat {
  std::string name;
  std::vector<IsaField> fields;
};
struct IsaClass {
  std::string name;             // lower case, as written in insn lines (alu)
  const Enum* subop = nullptr;  // its sub-operation enum
  const Enum* fmt = nullptr;    // its format enum, if any
};
struct IsaInsn {
  std::string mnemonic, doc;
  int format = 0;  // index into formats
  unsigned op = 0;
  int funct = -1;             // -1: the format has no funct
  std::vector<int> operands;  // indices into the operand-kind table
  int cls = 0;
  unsigned subop = 0, fmt = 0, form = 0;
  unsigned types[3] = {0, 0, 0};  // ElemClass of dst, src0, src1
  std::string cycles;             // a number, br, fp, dsd or wait
  uint32_t fixed_mask = 0, fixed_bits = 0, field_mask = 0;
  bool zeroable = false;   // has a B operand that Z may replace by 0
  bool tid_like = false;   // tid/col: Z ? Imm < 32 : Imm == 0
  unsigned imm_limit = 0;  // nonzero: Imm must be below it
  bool imm_sx = false, z_abs = false;
  int line = 0;
};
struct IsaAlias {
  std::string name, target;
};
struct IsaPseudo {
  std::string mnemonic, operands, expansion;
};
struct IsaDesc {
  std::vector<IsaFormat> formats;
  std::vector<Enum> enums;       // declared in isa.def
  std::vector<Enum> arch_enums;  // from tessera.def (FpOp, FpFmt, ...)
  std::vector<IsaClass> classes;
  std::vector<IsaInsn> insns;
  std::vector<IsaAlias> aliases;
  std::vector<IsaPseudo> pseudos;
};

IsaDesc ParseIsa(const std::string& file, const std::vector<Enum>& arch_enums);
std::string EmitIsaSvPkg(const IsaDesc& d);      // enums and isa_dec_t, inside tessera_pkg
std::string EmitIsaSvUse(const IsaDesc& d);      // their module-scope aliases
std::string EmitIsaDecodeSvh(const IsaDesc& d);  // function isa_decode, included in the decoder
std::string EmitIsaHpp(const IsaDesc& d);        // model/arch/isa_table.h

}  // namespace tessera::archgen
