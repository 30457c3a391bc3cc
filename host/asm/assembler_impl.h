// Inside the assembler (asm/assembler.h): the types its stages share and the Assembler class, whose
// member functions are defined one stage per file. Read them in this order:
//
//   assembler.cpp  the driver: pass 1 over every line, the checks between the passes, pass 2
//                  over every statement, and the object it builds.
//   parse.cpp      pass 1: a line's labels, then its statement (an instruction or a directive),
//                  recorded as a Stmt with its section, offset and size; symbols get defined.
//   expand.cpp     pass 1, for pseudo-instructions: the instructions they stand for, each parsed
//                  again as if written (the macros of .macro are the preprocessor's, asm/source.h).
//   encode.cpp     pass 2: each Stmt's bytes, its operands encoded into instruction words, data
//                  and descriptors, and the relocations for what only the linker knows.
//   bank_note.cpp  pass 2, a warning only: DSD operations whose two sources read one SRAM bank.
//   symbols.cpp    what names mean, in both passes: the symbol table, the values expressions see
//                  (SymbolContext), "did you mean".
//
// Not an interface for other components: they use asm/assembler.h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/expr.h"
#include "asm/lexer.h"
#include "asm/listing.h"
#include "asm/object.h"
#include "asm/operands.h"
#include "asm/source.h"

namespace tessera::assembler::internal {

using arch::InsnFormat;
using arch::InsnInfo;
using K = arch::OperandKind;

constexpr int kText = static_cast<int>(SectionId::kText);
constexpr int kData = static_cast<int>(SectionId::kData);
constexpr int kBss = static_cast<int>(SectionId::kBss);

inline uint32_t ElemBytes(arch::ElemType t) {
  return t == arch::ElemType::kF16 || t == arch::ElemType::kI16 || t == arch::ElemType::kU16 ? 2
                                                                                             : 4;
}

// " (did you mean 'x'?)" for the closest candidate within two edits (of equals, the one sharing
// the longest prefix with the word), else "".
std::string Suggest(const std::string& word, const std::vector<std::string>& candidates);

// One statement, as pass 1 records it and pass 2 encodes it: where it goes (section, offset,
// size) and what pass 2 needs to produce its bytes (its tokens, or the bytes themselves).
struct Stmt {
  enum class Op : uint8_t {
    kNone,   // nothing to emit (a label alone, .text, .task, ...); still a listing line
    kInsn,   // an instruction: info and the operand tokens
    kData,   // .word, .half, .byte: width and the item tokens
    kReal,   // .f32, .f16: width and the item tokens
    kBytes,  // .ascii, .space, .align padding: the bytes
    kDsd,    // a .dsd record: its kind, type and key=value tokens
    kEqu,    // NAME = value: evaluated again in pass 2 (a later redefinition may change it)
    kReg,    // .reg NAME, rN: applied again in pass 2 (aliases hold from their line on)
  };
  Op op = Op::kNone;
  std::shared_ptr<const SourceLine> line;    // the text the statement is parsed from
  std::shared_ptr<const SourceLine> source;  // the line as written (listing)
  bool first = true;                         // first statement of its source line
  int seq = 0;                               // the source line's number in program order
  int section = kText;
  uint32_t offset = 0, size = 0;
  std::vector<Token> toks;
  size_t args = 0, end = 0;  // operand tokens [args, end)
  const InsnInfo* info = nullptr;
  std::string mnemonic;  // as the user wrote it, for messages
  int width = 0;         // kData, kReal: bytes per item
  std::vector<uint8_t> bytes;
  std::string name;  // kEqu, kReg, kDsd
  int reg = 0;       // kReg
  bool dsr = false;  // kReg
  arch::DsdKind dsd_kind = arch::DsdKind::kNone;
  arch::ElemType dsd_type = arch::ElemType::kF32;
  std::map<std::string, std::pair<size_t, size_t>> keys;  // kDsd: key -> value tokens
  // The source this statement was generated from, set by `.loc` (a compiler's source file and
  // line): line records name it instead of the assembly line.
  std::optional<Location> loc;
};

// A name of the file's symbol table.
struct Sym {
  enum class Kind : uint8_t { kLabel, kEqu, kParam, kDefine, kGlobalDecl };
  Kind kind = Kind::kLabel;
  Location where;
  int section = kText;      // kLabel
  uint32_t offset = 0;      // kLabel
  Value value;              // kEqu, kDefine
  bool known = false;       // value is computed
  bool failed = false;      // its definition failed (reported once; uses go on with 0)
  bool evaluating = false;  // being computed: a use now is a circular definition
  std::shared_ptr<const SourceLine> pending_line;  // an .equ not yet computable in pass 1
  std::vector<Token> pending_toks;
  size_t pending_b = 0, pending_e = 0;
  int pending_seq = 0;
  bool global = false, exported = false;
  std::optional<arch::ElemType> type;  // .export NAME, TYPE, COUNT
  uint32_t count = 0;
  std::optional<int64_t> param_default;
};

// "a label", "a param", ... for messages.
const char* KindWord(Sym::Kind k);

// A .task line, bound once every label is known (between the passes).
struct TaskDecl {
  std::string entry;
  arch::TaskKind kind = arch::TaskKind::kLocal;
  bool active = false, blocked = false;  // its state when loaded
  std::shared_ptr<const SourceLine> line;
  std::vector<Token> toks;
  size_t b = 0, e = 0;  // the ID's tokens
  size_t entry_pos = 0;
  int seq = 0;
  Value id;
  bool ok = false;  // id is known
};

// An .export line, checked once every label is known (between the passes).
struct ExportDecl {
  std::string name;
  int seq = 0;
  std::shared_ptr<const SourceLine> line;
  std::vector<Token> toks;
  size_t pos = 0;
  std::optional<arch::ElemType> type;
  size_t count_b = 0, count_e = 0;  // the count's tokens
};

// Where a numeric local label (`1:`) is defined.
struct LocalDef {
  int seq;
  int section;
  uint32_t offset;
};

// A name pass 1 needed but could not know yet: reported between the passes.
struct PendingUse {
  std::shared_ptr<const SourceLine> line;
  size_t pos;
  std::string name;
  int seq;
};

// The ranges of immediates (and how a link-time value is relocated in each).
enum class ImmRule : uint8_t {
  kSigned,    // simm: -32768..32767
  kUnsigned,  // uimm: 0..65535
  kOffset,    // the offset of offset(rN): -32768..32767
  kAbsolute,  // an absolute address: 0..0xFFFF
  kShift,     // 0..31
  kMask,      // a microthread mask: 0..255
  kWord,      // a descriptor word: 0 or 1
  kTask,      // a task ID: 0..31
  kColor,     // a color: 0..kNumColors-1
  kBranch,    // a label: (label - pc) / 4
};

class Assembler : public SymbolContext {
 public:
  explicit Assembler(const AssembleOptions& opt) : opt_(opt) {}

  // Assembles the file `name`, or `text` under that name when given (assembler.cpp).
  AssembleResult Run(const std::string& name, const std::string* text);

  // ---- SymbolContext: the values of names in expressions (symbols.cpp) ----

  Value Lookup(const Token& t, bool task_context) override;
  Value LocalLabel(const Token& ref) override;
  Value TaskId(const Token& t) override;
  std::optional<std::pair<int, int64_t>> Position(const std::string& sym) override;
  int Column(size_t pos) const override { return line_->At(pos).column; }

 private:
  enum class Pass : uint8_t { kFirst, kFinish, kSecond };

  // ---- the symbol table and values (symbols.cpp) ----

  // A register name or .reg alias.
  std::optional<int> Gpr(const std::string& name) const;
  std::optional<int> Dsr(const std::string& name) const;
  Value Here() const;  // "."
  std::string UndefinedMessage(const std::string& name) const;
  // The ID of the task(s) bound to entry `name` in this file, if any.
  std::optional<Value> BoundTaskId(const std::string& name, size_t pos);
  // Computes an .equ that pass 1 had to leave for later, at its own line.
  void ComputePending(const std::string& name, Sym& s, size_t pos);
  // An assembly-time constant; `what` names it in messages.
  int64_t Const(const std::vector<Token>& toks, size_t b, size_t e, const std::string& what);
  // The preprocessor's .if and .rept values (a Preprocessor::ConstEval).
  int64_t EvalPp(const SourceLine& l, size_t begin, size_t end);
  // An expression of a statement in pass 2.
  Value Eval(const Stmt& s, size_t b, size_t e, bool task = false);
  // Checks that `name` may be defined as a new symbol of this kind.
  void CheckNewName(const std::string& name, size_t pos, Sym::Kind kind);
  void Define(const std::string& name, int64_t v);  // -D NAME=VALUE
  void DefineLabel(const Token& t);                 // a label (or local label) here

  // ---- pass 1: statements and directives (parse.cpp) ----

  void Pass1(const SourceLine& l);
  void Statement(const std::vector<Token>& toks);
  // An instruction (depth 0) or one of a pseudo's expansion (depth 1).
  void Instruction(const std::vector<Token>& toks, size_t i, int depth);
  // The form of an instruction whose operands match, or an error saying why none does.
  const InsnInfo* Choose(const std::vector<const InsnInfo*>& cands, const std::vector<Item>& items,
                         const Token& w);
  // The comma-separated operands of toks[start, stop), each with its shape.
  std::vector<Item> Items(const std::vector<Token>& toks, size_t start, size_t stop) const;
  Item Classify(const std::vector<Token>& toks, size_t b, size_t e) const;
  std::string ItemText(const Item& it) const { return line_->text.substr(it.pos, it.end - it.pos); }
  std::string Describe(const Item& it) const;  // "the register 'r3'", for messages
  // Records a statement of `size` bytes at the current offset and advances it.
  Stmt& Add(Stmt::Op op, uint32_t size);
  void NoOperands(const std::vector<Token>& toks, size_t i);
  std::string Ident(const std::vector<Token>& toks, const Item& it, const char* what);
  void Directive(const std::string& d, const std::vector<Token>& toks, size_t i);
  void NotInBss(const std::string& d, const Token& w);
  void Data(const std::string& d, const std::vector<Token>& toks, size_t i,
            const std::vector<Item>& items, int width, Stmt::Op op);
  void Pad(uint32_t align);
  void Equ(const Token& name, const std::vector<Token>& toks, size_t b, size_t e);
  void Param(const std::vector<Token>& toks, size_t i);
  void Global(const std::string& name, size_t pos);
  void ApplyReg(const Stmt& s);
  void Dsd(const std::vector<Token>& toks, size_t i, const std::vector<Item>& items);

  // ---- pass 1: pseudo-instructions (expand.cpp) ----

  void Pseudo(const std::string& mn, const std::vector<Token>& toks, size_t i,
              const std::vector<Item>& items);
  // The value-dependent choice of `li` (docs/isa.md 4.12): one addi if the value fits simm, one
  // lui if its low half is zero, else lui + ori; always lui + ori for a link-time value.
  std::vector<std::string> ChooseLi(const std::vector<Token>& toks, const std::vector<Item>& items,
                                    const arch::InsnPseudo** chosen,
                                    std::vector<std::string>* names);
  // One instruction of a pseudo's expansion, with the operands written substituted for its
  // operand names. Substituted text keeps its columns; the rest points at the mnemonic.
  SourceLine Substitute(const std::string& part, const std::vector<std::string>& names,
                        const std::vector<Bound>& bound, const std::vector<Item>& items,
                        const Token& w);

  // ---- between the passes (assembler.cpp) ----

  void FinishPass1();
  void FinishTask(TaskDecl& t);

  // ---- pass 2 (assembler.cpp), its encoding (encode.cpp) and its bank note (bank_note.cpp) ----

  void Pass2();
  std::vector<uint8_t> Encode(const Stmt& s);
  void AddReloc(const Stmt& s, uint32_t offset, RelocKind kind, const Value& v);
  uint32_t EncodeInsn(const Stmt& s);
  void EncodeOperand(const Stmt& s, uint32_t& w, const Bound& b, const std::vector<Item>& items);
  void Imm(const Stmt& s, uint32_t& w, const Value& v, ImmRule rule, const Item& it);
  // The completion clause `utN [async | activate T | unblock T]` (docs/isa.md 4.11).
  void Done(const Stmt& s, uint32_t& w, const Item* it);
  std::vector<uint8_t> EncodeData(const Stmt& s);
  std::vector<uint8_t> EncodeDsd(const Stmt& s);
  // mem4d (docs/isa.md 2.3): the lengths and strides of dimensions 1..3, assembly-time constants.
  // The length of dimension 3 goes in the descriptor's Color field (d), the rest in the extension.
  uint64_t Mem4dExtension(const Stmt& s, uint64_t& d);
  // Follows which .dsd record each descriptor register holds through straight-line code (`ldd dN,
  // record`; any other write forgets it) and notes a two-source DSD operation whose mem1d sources
  // read one SRAM bank in every step: equal strides and element sizes, bases a nonzero multiple
  // of 16 bytes apart. Every such step splits over two cycles (docs/isa.md 6.7).
  void TrackDescriptors(const Stmt& s, const std::map<std::string, const Stmt*>& dsd_stmts,
                        std::array<const Stmt*, 16>& loaded);
  // Where a .dsd record's base lies: (section name or "" for an absolute address, offset), when
  // this file knows it.
  std::optional<std::pair<std::string, int64_t>> DsdPlace(const Stmt& d);
  std::optional<int64_t> DsdStride(const Stmt& d);

  // ---- the object (assembler.cpp) ----

  // Appends a statement's bytes to its section, its line record and its listing line.
  void Emit(const Stmt& s, const std::vector<uint8_t>& bytes);
  Object BuildObject();

  void Report(const SourceLine& line, const LineError& e) {
    diags_.Add(line.Error(e.pos(), e.what()));
  }

  AssembleOptions opt_;
  Diagnostics diags_;
  std::string source_name_;
  Pass pass_ = Pass::kFirst;
  // Pass 1's position: the current section and the offset reached in each.
  int section_ = kText;
  std::array<uint32_t, kNumSections> offset_{};
  std::array<uint32_t, kNumSections> align_{4, 4, 4};
  std::array<bool, kNumSections> overflowed_{};  // "grows beyond the SRAM" was reported
  // Pass 2's position: the statement being encoded ('.' in its expressions).
  int cur_section_ = kText;
  uint32_t cur_offset_ = 0;
  int seq_ = 0;                               // the current source line's number
  std::shared_ptr<const SourceLine> line_;    // the line being parsed or encoded
  std::shared_ptr<const SourceLine> source_;  // pass 1: the line as written
  bool first_ = true;                         // no statement of the line recorded yet
  std::optional<Location> loc_;               // the last `.loc`: the statements' source
  std::string display_;                       // the mnemonic as written, for messages
  std::map<std::string, Sym> syms_;
  std::vector<std::string> label_order_;
  std::vector<std::string> param_order_;
  std::map<std::string, int> gpr_alias_, dsr_alias_;  // .reg
  std::map<int64_t, std::vector<LocalDef>> locals_;   // numeric local labels, in order
  std::vector<Stmt> stmts_;
  std::vector<TaskDecl> tasks_;
  std::vector<ExportDecl> exports_;
  std::vector<ObjDsd> dsds_;
  std::vector<Diagnostic> warnings_;
  std::vector<ObjReloc> relocs_;
  std::vector<PendingUse> pending_uses_;
  std::vector<ListingEntry> listing_;
  Object obj_;
};

}  // namespace tessera::assembler::internal
