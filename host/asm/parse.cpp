// Pass 1 (asm/assembler_impl.h): each line from the preprocessor (asm/source.h) is lexed, its
// labels defined, and its statement parsed: an instruction (its form chosen by its operands'
// shapes, through the generated table), a pseudo-instruction (handed to expand.cpp) or a
// directive. Each becomes a Stmt with its section, offset and size, so that every label's
// address is known at the end of the pass; the symbols are defined on the way (symbols.cpp).
// Pass 2 (encode.cpp) gets the list of Stmts and encodes each one.
#include <fmt/core.h>

#include <algorithm>
#include <set>

#include "asm/assembler_impl.h"

namespace tessera::assembler::internal {
namespace {

const std::vector<std::string>& DirectiveNames() {
  static const std::vector<std::string> names = {
      ".text",   ".data",   ".bss",     ".word",  ".half", ".byte",  ".f32",  ".float",
      ".f16",    ".ascii",  ".space",   ".align", ".equ",  ".param", ".task", ".dsd",
      ".global", ".export", ".macro",   ".endm",  ".rept", ".endr",  ".if",   ".elif",
      ".else",   ".endif",  ".include", ".error", ".reg",  ".loc"};
  return names;
}

// Every mnemonic, alias and pseudo of the generated table, for "did you mean".
std::vector<std::string> MnemonicNames() {
  std::vector<std::string> names;
  for (const auto& n : arch::kInsns) names.push_back(n.mnemonic);
  for (const auto& a : arch::kInsnAliases) names.push_back(a.name);
  for (const auto& p : arch::kInsnPseudos) names.push_back(p.mnemonic);
  return names;
}

// ut0..ut99 and the like: meant as a completion clause (a wrong one is reported by Done).
bool LooksLikeUt(const std::string& name) {
  const std::string l = ToLower(name);
  return l.size() > 2 && l.compare(0, 2, "ut") == 0 &&
         l.find_first_not_of("0123456789", 2) == std::string::npos;
}

}  // namespace

// One line: its statement is recorded, or its error reported; a name it needed but that is not
// defined yet is remembered as a pending use (reported between the passes).
void Assembler::Pass1(const SourceLine& l) {
  ++seq_;
  diags_.SetOrder(seq_);
  source_ = std::make_shared<const SourceLine>(l);
  line_ = source_;
  first_ = true;
  display_.clear();
  try {
    const std::vector<Token> toks = Lex(l.text);
    Statement(toks);
  } catch (const LineError& e) {
    Report(*line_, e);
  } catch (const NotYetDefined& u) {
    pending_uses_.push_back(PendingUse{line_, u.pos, u.name, seq_});
  }
  line_ = source_;
  display_.clear();
  if (first_) Add(Stmt::Op::kNone, 0);  // every line appears in the listing
}

// [labels:] then `NAME = value`, a directive (.word) or an instruction.
void Assembler::Statement(const std::vector<Token>& toks) {
  size_t i = 0;
  while (i + 1 < toks.size() && toks[i + 1].Is(":") &&
         (toks[i].IsIdent() || toks[i].kind == TokKind::kInt)) {
    DefineLabel(toks[i]);
    i += 2;
  }
  if (i >= toks.size()) return;
  const Token& w = toks[i];
  if (w.IsIdent() && i + 1 < toks.size() && toks[i + 1].Is("=")) {
    Equ(w, toks, i + 2, toks.size());
    return;
  }
  if (!w.IsIdent()) {
    throw LineError(w.pos,
                    fmt::format("expected an instruction or a directive, got '{}'", w.Shown()));
  }
  if (w.text[0] == '.') {
    Directive(ToLower(w.text), toks, i);
  } else {
    Instruction(toks, i, 0);
  }
}

// The mnemonic toks[i] (an alias stands for its target), its operands after it. A pseudo expands
// (expand.cpp) unless this is already one of an expansion's instructions (depth 1).
void Assembler::Instruction(const std::vector<Token>& toks, size_t i, int depth) {
  const Token& w = toks[i];
  const std::string written = ToLower(w.text);
  std::string mn = written;
  for (const auto& a : arch::kInsnAliases) {
    if (mn == a.name) mn = a.target;
  }
  if (display_.empty()) display_ = written;
  const std::vector<Item> items = Items(toks, i + 1, toks.size());
  if (depth == 0) {
    for (const auto& p : arch::kInsnPseudos) {
      if (mn == p.mnemonic) {
        Pseudo(mn, toks, i, items);
        return;
      }
    }
  }
  // The table's forms of the mnemonic; the operands' shapes choose one.
  std::vector<const InsnInfo*> cands;
  for (const auto& n : arch::kInsns) {
    if (mn == n.mnemonic) cands.push_back(&n);
  }
  if (cands.empty()) {
    throw LineError(
        w.pos, fmt::format("unknown instruction '{}'{}", w.text, Suggest(w.text, MnemonicNames())));
  }
  if (section_ != kText) {
    throw LineError(w.pos, fmt::format("instruction '{}' in {}: code belongs in .text", w.text,
                                       SectionName(SectionId(section_))));
  }
  if (offset_[kText] % arch::kInsnBytes != 0) {
    throw LineError(w.pos, fmt::format("instruction at offset 0x{:04x} of .text is not 4-byte "
                                       "aligned (add .align 4 before it)",
                                       offset_[kText]));
  }
  const InsnInfo* chosen = Choose(cands, items, w);
  Stmt& s = Add(Stmt::Op::kInsn, arch::kInsnBytes);
  s.toks = toks;
  s.args = i + 1;
  s.end = toks.size();
  s.info = chosen;
}

// The first form whose operand kinds accept the items. If none does, the message says what is
// wrong: for a single form, which operand (or their number); for several, what the forms are.
const InsnInfo* Assembler::Choose(const std::vector<const InsnInfo*>& cands,
                                  const std::vector<Item>& items, const Token& w) {
  for (const InsnInfo* c : cands) {
    BindFailure f;
    if (Bind(KindsOf(*c), items, &f)) return c;
  }
  const std::string shown = display_;
  auto syntax = [&](const InsnInfo& info) {
    return shown + Syntax(info).substr(std::string(info.mnemonic).size());
  };
  if (cands.size() == 1) {
    BindFailure f;
    Bind(KindsOf(*cands[0]), items, &f);
    if (f.count) {
      throw LineError(w.pos, fmt::format("wrong number of operands for '{}' (the form is '{}')",
                                         shown, syntax(*cands[0])));
    }
    const K kind = cands[0]->operands[f.kind_index];
    const Item& it = items[f.item];
    throw LineError(it.pos,
                    fmt::format("operand {} of '{}' ({}) must be {}, not {}", f.item + 1, shown,
                                KindName(kind), KindExpectation(kind), Describe(it)));
  }
  std::string forms;
  for (const InsnInfo* c : cands) forms += (forms.empty() ? "'" : "' or '") + syntax(*c);
  throw LineError(
      w.pos, fmt::format("no form of '{}' takes these operands; its forms are {}'", shown, forms));
}

// Split at the commas outside parentheses (`lo(x, y)` is one item).
std::vector<Item> Assembler::Items(const std::vector<Token>& toks, size_t start,
                                   size_t stop) const {
  std::vector<Item> items;
  if (start >= stop) return items;
  size_t b = start;
  int depth = 0;
  for (size_t k = start; k <= stop; ++k) {
    if (k == stop || (depth == 0 && toks[k].Is(","))) {
      if (k == b) {
        throw LineError(k < stop ? toks[k].pos : toks[stop - 1].end,
                        "missing operand (two commas in a row, or a comma at the end)");
      }
      items.push_back(Classify(toks, b, k));
      b = k + 1;
      continue;
    }
    if (toks[k].Is("(")) ++depth;
    if (toks[k].Is(")")) --depth;
  }
  return items;
}

// The shape from the tokens alone: a register (or .reg alias), a descriptor register, a completion
// clause `utN ...`, a memory operand `offset(rN)`, else an expression.
Item Assembler::Classify(const std::vector<Token>& toks, size_t b, size_t e) const {
  Item it;
  it.b = b;
  it.e = e;
  it.pos = toks[b].pos;
  it.end = toks[e - 1].end;
  if (e - b == 1 && toks[b].IsIdent()) {
    if (auto r = Gpr(toks[b].text)) {
      it.shape = Shape::kGpr;
      it.reg = *r;
      return it;
    }
    if (auto r = Dsr(toks[b].text)) {
      it.shape = Shape::kDsr;
      it.reg = *r;
      return it;
    }
  }
  if (toks[b].IsIdent() && LooksLikeUt(toks[b].text)) {
    it.shape = Shape::kDone;
    return it;
  }
  if (e - b >= 3 && toks[e - 1].Is(")") && toks[e - 3].Is("(") && toks[e - 2].IsIdent()) {
    if (auto r = Gpr(toks[e - 2].text)) {
      it.shape = Shape::kMem;
      it.reg = *r;
      return it;
    }
  }
  return it;
}

std::string Assembler::Describe(const Item& it) const {
  const std::string text = ItemText(it);
  switch (it.shape) {
    case Shape::kGpr:
      return fmt::format("the register '{}'", text);
    case Shape::kDsr:
      return fmt::format("the descriptor register '{}'", text);
    case Shape::kMem:
      return fmt::format("the memory operand '{}'", text);
    case Shape::kDone:
      return fmt::format("the completion clause '{}'", text);
    case Shape::kExpr:
      return fmt::format("'{}'", text);
  }
  return "?";
}

Stmt& Assembler::Add(Stmt::Op op, uint32_t size) {
  Stmt s;
  s.op = op;
  s.line = line_;
  s.source = source_;
  s.first = first_;
  first_ = false;
  s.seq = seq_;
  s.section = section_;
  s.offset = offset_[section_];
  s.size = size;
  s.mnemonic = display_;
  s.loc = loc_;
  // Reported once per section: every later statement would be beyond it too.
  if (uint64_t(offset_[section_]) + size > arch::kSramBytes && !overflowed_[section_]) {
    overflowed_[section_] = true;
    diags_.Add(line_->Error(0, fmt::format("section {} grows beyond the SRAM (0x{:x} bytes)",
                                           SectionName(SectionId(section_)), arch::kSramBytes)));
  }
  offset_[section_] += size;
  stmts_.push_back(std::move(s));
  return stmts_.back();
}

void Assembler::NoOperands(const std::vector<Token>& toks, size_t i) {
  if (i + 1 < toks.size()) {
    throw LineError(toks[i + 1].pos, fmt::format("{} takes no operands", toks[i].text));
  }
}

std::string Assembler::Ident(const std::vector<Token>& toks, const Item& it, const char* what) {
  if (it.e - it.b != 1 || !toks[it.b].IsIdent()) {
    throw LineError(it.pos, fmt::format("expected {}, got '{}'", what, ItemText(it)));
  }
  return toks[it.b].text;
}

// A directive (docs/isa.md 8.3) in lower case, d; toks[i] is its word. Directives that only
// declare (.task, .global, .export, .param) record an empty statement, for the listing; .task and
// .export are checked between the passes, when every label is known.
void Assembler::Directive(const std::string& d, const std::vector<Token>& toks, size_t i) {
  const Token& w = toks[i];
  const std::vector<Item> items = Items(toks, i + 1, toks.size());
  auto count = [&](size_t lo, size_t hi, const char* form) {
    if (items.size() < lo || items.size() > hi) {
      throw LineError(w.pos, fmt::format("wrong number of operands: the form is '{}'", form));
    }
  };
  if (d == ".text" || d == ".data" || d == ".bss") {
    NoOperands(toks, i);
    section_ = static_cast<int>(*ParseSectionName(d));
    Add(Stmt::Op::kNone, 0);
  } else if (d == ".word" || d == ".half" || d == ".byte") {
    Data(d, toks, i, items, d == ".word" ? 4 : d == ".half" ? 2 : 1, Stmt::Op::kData);
  } else if (d == ".f32" || d == ".float" || d == ".f16") {
    Data(d, toks, i, items, d == ".f16" ? 2 : 4, Stmt::Op::kReal);
  } else if (d == ".ascii") {
    NotInBss(d, w);
    if (items.empty()) throw LineError(w.pos, ".ascii needs a string: .ascii \"text\"");
    std::vector<uint8_t> bytes;
    for (const Item& it : items) {
      if (it.e - it.b != 1 || toks[it.b].kind != TokKind::kString) {
        throw LineError(it.pos,
                        fmt::format(".ascii takes strings in quotes, not '{}'", ItemText(it)));
      }
      for (const char c : toks[it.b].text) bytes.push_back(static_cast<uint8_t>(c));
    }
    Add(Stmt::Op::kBytes, static_cast<uint32_t>(bytes.size())).bytes = bytes;
  } else if (d == ".space") {
    count(1, 2, ".space SIZE [, FILL]");
    const int64_t n = Const(toks, items[0].b, items[0].e, "the size of .space");
    if (n < 0 || n > arch::kSramBytes) {
      throw LineError(items[0].pos, fmt::format(".space size {} is out of range (0..0x{:X})", n,
                                                arch::kSramBytes));
    }
    int64_t fill = 0;
    if (items.size() == 2) {
      fill = Const(toks, items[1].b, items[1].e, "the fill byte of .space");
      if (fill < -128 || fill > 255) {
        throw LineError(items[1].pos,
                        fmt::format(".space fill {} is not a byte (-128..255)", fill));
      }
      if (fill != 0 && section_ == kBss) {
        throw LineError(items[1].pos, ".bss is zero-filled: its .space cannot have a fill");
      }
    }
    Stmt& s = Add(Stmt::Op::kBytes, static_cast<uint32_t>(n));
    if (section_ != kBss) s.bytes.assign(static_cast<size_t>(n), static_cast<uint8_t>(fill));
  } else if (d == ".align") {
    count(1, 1, ".align N");
    const int64_t n = Const(toks, items[0].b, items[0].e, "the alignment");
    if (n < 1 || n > 0x4000 || (n & (n - 1)) != 0) {
      throw LineError(items[0].pos,
                      fmt::format(".align {}: the alignment must be a power of two 1..16384", n));
    }
    Pad(static_cast<uint32_t>(n));
  } else if (d == ".equ") {
    if (items.size() != 2) throw LineError(w.pos, "wrong operands: the form is '.equ NAME, VALUE'");
    Ident(toks, items[0], "a name");  // one name, not an expression
    Equ(toks[items[0].b], toks, items[1].b, items[1].e);
  } else if (d == ".param") {
    Param(toks, i);
  } else if (d == ".task") {
    count(3, 5, ".task ENTRY, KIND, ID [, active] [, blocked]");
    TaskDecl t;
    for (size_t k = 3; k < items.size(); ++k) {
      const std::string state = Ident(toks, items[k], "a task state (active or blocked)");
      if (state == "active" && !t.active) {
        t.active = true;
      } else if (state == "blocked" && !t.blocked) {
        t.blocked = true;
      } else {
        throw LineError(
            items[k].pos,
            fmt::format("task state '{}' is not active or blocked (each at most once)", state));
      }
    }
    t.entry = Ident(toks, items[0], "the task's entry label");
    t.entry_pos = items[0].pos;
    const std::string kind = Ident(toks, items[1], "a task kind (data, local or control)");
    const auto k = ParseTaskKind(kind);
    if (!k) {
      throw LineError(items[1].pos,
                      fmt::format("task kind '{}' is not data, local or control", kind));
    }
    t.kind = *k;
    t.line = line_;
    t.seq = seq_;
    t.toks = toks;
    t.b = items[2].b;
    t.e = items[2].e;
    tasks_.push_back(t);
    Add(Stmt::Op::kNone, 0);
  } else if (d == ".dsd") {
    Dsd(toks, i, items);
  } else if (d == ".global") {
    if (items.empty()) throw LineError(w.pos, ".global needs a name: .global NAME[, NAME...]");
    for (const Item& it : items) Global(Ident(toks, it, "a name"), it.pos);
    Add(Stmt::Op::kNone, 0);
  } else if (d == ".export") {
    if (items.size() != 1 && items.size() != 3) {
      throw LineError(w.pos, "wrong operands: the form is '.export NAME [, TYPE, COUNT]'");
    }
    ExportDecl e;
    e.name = Ident(toks, items[0], "a name");
    e.pos = items[0].pos;
    e.line = line_;
    e.seq = seq_;
    e.toks = toks;
    if (items.size() == 3) {
      const std::string type = Ident(toks, items[1], "an element type");
      e.type = ParseElemType(type);
      if (!e.type) {
        throw LineError(items[1].pos, fmt::format("unknown element type '{}' (f32, f16, i32, "
                                                  "i16, u32, u16)",
                                                  type));
      }
      e.count_b = items[2].b;
      e.count_e = items[2].e;
    }
    Global(e.name, e.pos);
    exports_.push_back(e);
    Add(Stmt::Op::kNone, 0);
  } else if (d == ".reg") {
    count(2, 2, ".reg NAME, rN  or  .reg NAME, dN");
    const std::string name = Ident(toks, items[0], "a name");
    if (IsRegisterName(name)) {
      throw LineError(items[0].pos, fmt::format("'{}' is already a register name", name));
    }
    if (syms_.count(name)) {
      throw LineError(items[0].pos, fmt::format("'{}' is already a symbol; a register alias "
                                                "needs a name of its own",
                                                name));
    }
    if (items[1].shape != Shape::kGpr && items[1].shape != Shape::kDsr) {
      throw LineError(items[1].pos, fmt::format(".reg needs a register r0..r15 or d0..d15, not "
                                                "'{}'",
                                                ItemText(items[1])));
    }
    Stmt& s = Add(Stmt::Op::kReg, 0);
    s.name = name;
    s.reg = items[1].reg;
    s.dsr = items[1].shape == Shape::kDsr;
    ApplyReg(s);
  } else if (d == ".loc") {
    // .loc "FILE", LINE: the statements after it were generated from that source line (a
    // compiler's), which line records, traces and fault messages name.
    count(2, 2, ".loc \"FILE\", LINE");
    const Token& f = toks[items[0].b];
    if (items[0].e - items[0].b != 1 || f.kind != expr::TokKind::kString)
      throw LineError(items[0].pos, ".loc needs a file name in quotes: .loc \"FILE\", LINE");
    const int64_t line = EvaluateConst(toks, items[1].b, items[1].e, *this, ".loc line");
    if (line < 1 || line > 0x7FFFFFFF)
      throw LineError(items[1].pos, fmt::format(".loc line {} is not a line number", line));
    loc_ = Location{f.text, static_cast<int>(line), 1};
    Add(Stmt::Op::kNone, 0);
  } else if (d == ".error") {
    std::string text = "error directive";
    if (items.size() == 1 && toks[items[0].b].kind == TokKind::kString) {
      text = toks[items[0].b].text;
    }
    throw LineError(w.pos, text);
  } else {
    throw LineError(w.pos,
                    fmt::format("unknown directive '{}'{}", w.text, Suggest(d, DirectiveNames())));
  }
}

void Assembler::NotInBss(const std::string& d, const Token& w) {
  if (section_ == kBss) {
    throw LineError(w.pos, fmt::format("{} in .bss: .bss holds no data (use .space there, or "
                                       "put initialized data in .data)",
                                       d));
  }
}

// .word, .half, .byte (op kData) and .f32, .f16 (kReal): sized now, evaluated in pass 2.
void Assembler::Data(const std::string& d, const std::vector<Token>& toks, size_t i,
                     const std::vector<Item>& items, int width, Stmt::Op op) {
  const Token& w = toks[i];
  NotInBss(d, w);
  if (items.empty()) throw LineError(w.pos, fmt::format("{} needs at least one value", d));
  if (offset_[section_] % width != 0) {
    throw LineError(
        w.pos, fmt::format("misaligned {}: offset 0x{:04x} of {} is not a multiple "
                           "of {} (add .align {} before it)",
                           d, offset_[section_], SectionName(SectionId(section_)), width, width));
  }
  Stmt& s = Add(op, static_cast<uint32_t>(width * items.size()));
  s.toks = toks;
  s.args = i + 1;
  s.end = toks.size();
  s.width = width;
  s.name = d;
}

// Zero bytes up to a multiple of align; the section's alignment becomes at least align.
void Assembler::Pad(uint32_t align) {
  const uint32_t off = offset_[section_];
  const uint32_t pad = (align - off % align) % align;
  align_[section_] = std::max(align_[section_], align);
  Stmt& s = Add(Stmt::Op::kBytes, pad);
  if (section_ != kBss) s.bytes.assign(pad, 0);
}

// NAME = value (.equ): evaluated now if it can be; a value that uses a name defined later waits
// (Sym::pending_line) until its first use or FinishPass1. Pass 2 evaluates it again at its line,
// so that a redefinition (`i = i + 1`) gives each use the value before it.
void Assembler::Equ(const Token& name, const std::vector<Token>& toks, size_t b, size_t e) {
  if (!name.IsIdent()) throw LineError(name.pos, "expected a name");
  CheckNewName(name.text, name.pos, Sym::Kind::kEqu);
  if (b >= e) {
    throw LineError(name.end, fmt::format("'{}' needs a value: NAME = VALUE", name.text));
  }
  const bool is_new = !syms_.count(name.text);
  Sym& s = syms_[name.text];
  if (is_new) s.where = line_->At(name.pos);
  s.kind = Sym::Kind::kEqu;
  try {
    s.evaluating = is_new;  // a use of the name in its own first definition is circular
    const Value v = Evaluate(toks, b, e, *this);
    s.evaluating = false;
    s.value = v;
    s.known = true;
    s.pending_line.reset();
  } catch (const LineError&) {
    // Reported at this line; uses go on with 0 and report nothing more.
    s.evaluating = false;
    s.value = Value{};
    s.known = true;
    s.failed = true;
    throw;
  } catch (const NotYetDefined&) {
    s.evaluating = false;
    s.known = false;
    s.pending_line = line_;
    s.pending_toks = toks;
    s.pending_b = b;
    s.pending_e = e;
    s.pending_seq = seq_;
  }
  Stmt& st = Add(Stmt::Op::kEqu, 0);
  st.toks = toks;
  st.args = b;
  st.end = e;
  st.name = name.text;
}

// .param NAME [= DEFAULT]: a link-time value the layout gives per PE, or the -D value if any.
void Assembler::Param(const std::vector<Token>& toks, size_t i) {
  if (i + 1 >= toks.size() || !toks[i + 1].IsIdent()) {
    throw LineError(toks[i].pos, "wrong operands: the form is '.param NAME [= DEFAULT]'");
  }
  const Token& name = toks[i + 1];
  std::optional<int64_t> def;
  if (i + 2 < toks.size()) {
    if (!toks[i + 2].Is("=")) {
      throw LineError(toks[i + 2].pos, "wrong operands: the form is '.param NAME [= DEFAULT]'");
    }
    def = Const(toks, i + 3, toks.size(), "the default of a param");
  }
  const auto it = syms_.find(name.text);
  if (it != syms_.end() && it->second.kind == Sym::Kind::kDefine) {
    // Its value was given with -D: the param is an assembly-time constant.
    Add(Stmt::Op::kNone, 0);
    return;
  }
  CheckNewName(name.text, name.pos, Sym::Kind::kParam);
  Sym& s = syms_[name.text];
  s.kind = Sym::Kind::kParam;
  s.where = line_->At(name.pos);
  s.param_default = def;
  param_order_.push_back(name.text);
  Add(Stmt::Op::kNone, 0);
}

// .global NAME: a label of this file made visible, or (if the file never defines it) an import.
void Assembler::Global(const std::string& name, size_t pos) {
  const auto it = syms_.find(name);
  if (it == syms_.end()) {
    CheckNewName(name, pos, Sym::Kind::kGlobalDecl);
    Sym& s = syms_[name];
    s.kind = Sym::Kind::kGlobalDecl;
    s.where = line_->At(pos);
    s.global = true;
    return;
  }
  Sym& s = it->second;
  if (s.kind != Sym::Kind::kLabel && s.kind != Sym::Kind::kGlobalDecl) {
    throw LineError(pos,
                    fmt::format("only labels can be global; '{}' is {}", name, KindWord(s.kind)));
  }
  s.global = true;
}

void Assembler::ApplyReg(const Stmt& s) {
  gpr_alias_.erase(s.name);
  dsr_alias_.erase(s.name);
  (s.dsr ? dsr_alias_ : gpr_alias_)[s.name] = s.reg;
}

// .dsd NAME, KIND, TYPE, key=value...: a descriptor record (docs/isa.md 2.3), 8-byte aligned and
// labelled NAME. Its keys are checked now; their values are encoded in pass 2 (EncodeDsd), all
// but ctrl and idx, which decide what is allowed.
void Assembler::Dsd(const std::vector<Token>& toks, size_t i, const std::vector<Item>& items) {
  const Token& w = toks[i];
  static const char* const kForm = ".dsd NAME, KIND, TYPE, key=value, ...";
  if (items.size() < 3) {
    throw LineError(w.pos, fmt::format("wrong operands: the form is '{}'", kForm));
  }
  NotInBss(".dsd", w);
  const Token& name = toks[items[0].b];
  Ident(toks, items[0], "the descriptor's name");
  const std::string kind = ToLower(Ident(toks, items[1], "a descriptor kind"));
  const auto parsed_kind = ParseDsdKind(kind);
  if (!parsed_kind) {
    throw LineError(items[1].pos, fmt::format("descriptor kind '{}' is not mem1d, mem4d, "
                                              "fabin, fabout or fifo",
                                              ItemText(items[1])));
  }
  const arch::DsdKind dk = *parsed_kind;
  // The fields each kind uses (docs/isa.md 2.3).
  std::vector<std::string> allowed;
  switch (dk) {
    case arch::DsdKind::kMem1d:
      allowed = {"base", "len", "stride"};
      break;
    case arch::DsdKind::kMem4d:
      allowed = {"base", "len", "stride", "len1", "stride1", "len2", "stride2", "len3", "stride3"};
      break;
    case arch::DsdKind::kFabIn:
      allowed = {"len", "color"};
      break;
    case arch::DsdKind::kFifo:  // its buffer, its capacity and its number
      allowed = {"base", "len", "fifo"};
      break;
    default:
      allowed = {"len", "color", "ctrl", "idx", "base"};
      break;
  }
  const std::string type = Ident(toks, items[2], "an element type");
  const auto et = ParseElemType(type);
  if (!et) {
    throw LineError(items[2].pos, fmt::format("unknown element type '{}' (f32, f16, i32, i16, "
                                              "u32, u16)",
                                              type));
  }
  std::map<std::string, std::pair<size_t, size_t>> keys;
  std::string allowed_text;
  for (const std::string& a : allowed) allowed_text += (allowed_text.empty() ? "" : ", ") + a;
  for (size_t k = 3; k < items.size(); ++k) {
    const Item& it = items[k];
    if (it.e - it.b < 3 || !toks[it.b].IsIdent() || !toks[it.b + 1].Is("=")) {
      throw LineError(it.pos, fmt::format("expected key=value, got '{}'", ItemText(it)));
    }
    const std::string key = ToLower(toks[it.b].text);
    static const std::set<std::string> kAll = {"base", "len",     "stride",  "color", "ctrl",
                                               "idx",  "len1",    "stride1", "len2",  "stride2",
                                               "len3", "stride3", "fifo"};
    if (!kAll.count(key)) {
      throw LineError(it.pos, fmt::format("unknown descriptor key '{}' (keys: base, len, stride, "
                                          "color, ctrl, idx; mem4d: len1..len3, "
                                          "stride1..stride3; fifo: fifo)",
                                          toks[it.b].text));
    }
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      throw LineError(it.pos, fmt::format("{} descriptors have no '{}' (they use: {})", kind, key,
                                          allowed_text));
    }
    if (keys.count(key)) throw LineError(it.pos, fmt::format("'{}' is given twice", key));
    keys[key] = {it.b + 2, it.e};
  }
  auto require = [&](const char* key) {
    if (!keys.count(key)) {
      throw LineError(w.pos, fmt::format("{} descriptors need {}=", kind, key));
    }
  };
  require("len");
  const bool mem = dk == arch::DsdKind::kMem1d || dk == arch::DsdKind::kMem4d;
  const bool fifo = dk == arch::DsdKind::kFifo;
  if (mem || fifo) require("base");
  if (fifo) require("fifo");
  if (!mem && !fifo) require("color");
  int64_t idx = 0;
  for (const char* flag : {"ctrl", "idx"}) {
    const auto it = keys.find(flag);
    if (it == keys.end()) continue;
    const int64_t v = Const(toks, it->second.first, it->second.second, flag);
    if (v != 0 && v != 1) {
      throw LineError(toks[it->second.first].pos, fmt::format("{} is 0 or 1, not {}", flag, v));
    }
    if (std::string(flag) == "idx") idx = v;
  }
  if (idx && ElemBytes(*et) != 2) {
    throw LineError(w.pos,
                    "idx=1 needs a 16-bit element type (f16, i16 or u16): the index "
                    "goes in data[31:16]");
  }
  if (dk == arch::DsdKind::kFabOut && keys.count("base") && !idx) {
    throw LineError(toks[keys["base"].first].pos,
                    "a fabout descriptor uses base only with idx=1 (the index of element 0)");
  }
  Pad(arch::kDsdBytes);
  DefineLabel(name);
  // mem4d: the descriptor and its extension, loaded into an even register and the next.
  Stmt& s = Add(Stmt::Op::kDsd, (dk == arch::DsdKind::kMem4d ? 2 : 1) * arch::kDsdBytes);
  s.toks = toks;
  s.name = name.text;
  s.dsd_kind = dk;
  s.dsd_type = *et;
  s.keys = keys;
  dsds_.push_back(ObjDsd{name.text, SectionId(s.section), s.offset});
}

}  // namespace tessera::assembler::internal
