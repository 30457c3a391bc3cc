// What the assembler and the disassembler share about operands (docs/isa.md 4.2): register
// names, the fields each operand kind occupies, and the words used in messages. The positions of
// the fields come from the generated table (arch::kInsnFields).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/isa_table.h"

namespace tessera::assembler {

std::optional<int> ParseGpr(const std::string& name);  // r0..r15, wv, sp, lr (any case)
std::optional<int> ParseDsr(const std::string& name);  // d0..d15
std::optional<int> ParseUt(const std::string& name);   // ut0..ut7
bool IsRegisterName(const std::string& name);          // any of the above

const char* KindName(arch::OperandKind k);  // "rd", "simm", ... as in isa.def
// What an operand of this kind must be, for messages: "a general register r0..r15".
std::string KindExpectation(arch::OperandKind k);
// One line's assembly syntax: "fadds dst, src0, src1[, done]".
std::string Syntax(const arch::InsnInfo& info);

// A field of an instruction format by its name in isa.def ("A", "Imm", "Tid", ...).
struct FieldPos {
  unsigned lsb = 0, width = 0;
};
FieldPos Field(arch::InsnFormat format, const char* name);
uint32_t SetField(uint32_t word, arch::InsnFormat format, const char* name, uint32_t value);
uint32_t GetField(uint32_t word, arch::InsnFormat format, const char* name);

// The register field an operand kind fills ("A", "B", "Dst", ...), or nullptr for the others.
const char* RegisterField(arch::OperandKind k);
bool IsGprKind(arch::OperandKind k);  // rd ra rc re s acc (and rb's register form)
bool IsDsrKind(arch::OperandKind k);  // da db dst src0 src1

// ---- matching written operands to the kinds of a table line ----

// The shape of one written operand (one comma-separated item of a statement).
enum class Shape : uint8_t {
  kGpr,   // a general register (or a .reg alias of one)
  kDsr,   // a descriptor register
  kMem,   // offset(rN) or (rN)
  kDone,  // a completion clause: utN ...
  kExpr,  // anything else: an expression
};

struct Item {
  size_t b = 0, e = 0;  // token range
  Shape shape = Shape::kExpr;
  int reg = 0;              // kGpr, kDsr; kMem: the base register
  size_t pos = 0, end = 0;  // byte range in the line
};

// One operand kind of a line and the items it takes.
struct Bound {
  arch::OperandKind kind;
  int item = -1;  // first item
  int count = 0;  // items used: 0 for an omitted optional operand, 2 for `rN, simm`
};

struct BindFailure {
  int item = -1;  // the item of the wrong shape, or -1
  int kind_index = -1;
  bool count = false;  // too few or too many items
};

bool Accepts(arch::OperandKind k, Shape s);
bool IsOptional(arch::OperandKind k);  // done (sync on ut0) and msk (every microthread)
// The items bound to the kinds in order, or nullopt with the reason in *fail.
std::optional<std::vector<Bound>> Bind(const std::vector<arch::OperandKind>& kinds,
                                       const std::vector<Item>& items, BindFailure* fail);
std::vector<arch::OperandKind> KindsOf(const arch::InsnInfo& info);

// A pseudo-instruction's operand list from isa.def ("rd,simm"): its kinds, and the names its
// expansion substitutes. `imm32` (li) is a 32-bit value: an expression, like uimm.
void PseudoOperands(const arch::InsnPseudo& p, std::vector<arch::OperandKind>* kinds,
                    std::vector<std::string>* names);
std::string PseudoSyntax(const arch::InsnPseudo& p);               // "li rd, simm"
std::vector<std::string> SplitExpansion(const std::string& text);  // at ';', trimmed

}  // namespace tessera::assembler
