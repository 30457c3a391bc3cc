#include "asm/assembler.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <optional>
#include <set>

#include "arch/arch.h"
#include "arch/isa_table.h"
#include "asm/diagnostics.h"
#include "asm/expr.h"
#include "asm/lexer.h"
#include "asm/operands.h"
#include "asm/predefined.h"
#include "asm/source.h"
#include "util/enum_names.h"

namespace tessera::assembler {
namespace {

using arch::InsnFormat;
using arch::InsnInfo;
using K = arch::OperandKind;

constexpr int kText = static_cast<int>(SectionId::kText);
constexpr int kData = static_cast<int>(SectionId::kData);
constexpr int kBss = static_cast<int>(SectionId::kBss);

int EditDistance(const std::string& a, const std::string& b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// " (did you mean 'x'?)" for the closest candidate within two edits (of equals, the one sharing
// the longest prefix with the word), else "".
std::string Suggest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string w = ToLower(word);
  std::string best;
  int best_d = 3;
  size_t best_prefix = 0;
  for (const std::string& c : candidates) {
    const std::string l = ToLower(c);
    const int d = EditDistance(w, l);
    size_t prefix = 0;
    while (prefix < w.size() && prefix < l.size() && w[prefix] == l[prefix]) ++prefix;
    if (d < best_d || (d == best_d && !best.empty() && prefix > best_prefix)) {
      best_d = d;
      best = c;
      best_prefix = prefix;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best);
}

const std::vector<std::string>& DirectiveNames() {
  static const std::vector<std::string> names = {
      ".text",   ".data",   ".bss",     ".word",  ".half", ".byte",  ".f32",  ".float",
      ".f16",    ".ascii",  ".space",   ".align", ".equ",  ".param", ".task", ".dsd",
      ".global", ".export", ".macro",   ".endm",  ".rept", ".endr",  ".if",   ".elif",
      ".else",   ".endif",  ".include", ".error", ".reg"};
  return names;
}

std::vector<std::string> MnemonicNames() {
  std::vector<std::string> names;
  for (const auto& n : arch::kInsns) names.push_back(n.mnemonic);
  for (const auto& a : arch::kInsnAliases) names.push_back(a.name);
  for (const auto& p : arch::kInsnPseudos) names.push_back(p.mnemonic);
  return names;
}

uint32_t ElemBytes(arch::ElemType t) {
  return t == arch::ElemType::kF16 || t == arch::ElemType::kI16 || t == arch::ElemType::kU16 ? 2
                                                                                             : 4;
}

// ---- statements and symbols ----

struct Stmt {
  enum class Op : uint8_t { kNone, kInsn, kData, kReal, kBytes, kDsd, kEqu, kReg };
  Op op = Op::kNone;
  std::shared_ptr<const SourceLine> line;    // the text the statement is parsed from
  std::shared_ptr<const SourceLine> source;  // the line as written (listing)
  bool first = true;                         // first statement of its source line
  int seq = 0;
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
};

struct Sym {
  enum class Kind : uint8_t { kLabel, kEqu, kParam, kDefine, kGlobalDecl };
  Kind kind = Kind::kLabel;
  Location where;
  int section = kText;
  uint32_t offset = 0;
  Value value;
  bool known = false;
  bool failed = false;
  bool evaluating = false;
  std::shared_ptr<const SourceLine> pending_line;  // an .equ not yet computable in pass 1
  std::vector<Token> pending_toks;
  size_t pending_b = 0, pending_e = 0;
  int pending_seq = 0;
  bool global = false, exported = false;
  std::optional<arch::ElemType> type;
  uint32_t count = 0;
  std::optional<int64_t> param_default;
};

constexpr util::EnumName<Sym::Kind> kKindWordTable[] = {
    {Sym::Kind::kLabel, "a label"},
    {Sym::Kind::kEqu, "a constant (.equ)"},
    {Sym::Kind::kParam, "a param"},
    {Sym::Kind::kDefine, "a constant given with -D"},
    {Sym::Kind::kGlobalDecl, "a .global symbol"},
};

const char* KindWord(Sym::Kind k) { return util::NameOf(kKindWordTable, k); }

struct TaskDecl {
  std::string entry;
  arch::TaskKind kind = arch::TaskKind::kLocal;
  std::shared_ptr<const SourceLine> line;
  std::vector<Token> toks;
  size_t b = 0, e = 0;
  size_t entry_pos = 0;
  int seq = 0;
  Value id;
  bool ok = false;
};

struct ExportDecl {
  std::string name;
  int seq = 0;
  std::shared_ptr<const SourceLine> line;
  std::vector<Token> toks;
  size_t pos = 0;
  std::optional<arch::ElemType> type;
  size_t count_b = 0, count_e = 0;
};

struct LocalDef {
  int seq;
  int section;
  uint32_t offset;
};

struct PendingUse {
  std::shared_ptr<const SourceLine> line;
  size_t pos;
  std::string name;
  int seq;
};

enum class ImmRule : uint8_t {
  kSigned,
  kUnsigned,
  kOffset,
  kAbsolute,
  kShift,
  kMask,
  kWord,
  kTask,
  kColor,
  kBranch
};

class Assembler : public SymbolContext {
 public:
  explicit Assembler(const AssembleOptions& opt) : opt_(opt) {}

  AssembleResult Run(const std::string& name, const std::string* text) {
    source_name_ = name;
    Preprocessor pp(opt_.include_dirs, diags_,
                    [this](const SourceLine& l, size_t b, size_t e) { return EvalPp(l, b, e); });
    if (text) {
      pp.OpenText(name, *text);
    } else {
      pp.OpenFile(name);
    }
    for (const auto& [dname, v] : opt_.defines) Define(dname, v);
    SourceLine line;
    diags_.SetOrder(seq_ + 1);  // a preprocessor error belongs before the next statement
    while (pp.Next(line)) {
      Pass1(line);
      diags_.SetOrder(seq_ + 1);
    }
    FinishPass1();
    Pass2();
    diags_.ThrowIfAny();
    return AssembleResult{BuildObject(), std::move(listing_), std::move(warnings_)};
  }

  // ---- SymbolContext ----

  Value Lookup(const Token& t, bool task_context) override {
    const std::string& name = t.text;
    if (name == ".") return Here();
    if (Gpr(name) || Dsr(name) || ParseUt(name)) {
      throw LineError(t.pos, fmt::format("'{}' is a register; an expression cannot use it", name));
    }
    if (ParseSectionName(name)) return Value{0, name};
    if (task_context) {
      std::optional<Value> id = BoundTaskId(name, t.pos);
      if (id) return *id;
    }
    const auto it = syms_.find(name);
    if (it != syms_.end()) {
      Sym& s = it->second;
      switch (s.kind) {
        case Sym::Kind::kLabel:
          if (task_context) {
            throw LineError(t.pos, fmt::format("'{}' is a label, not a task: bind it with "
                                               "'.task {}, KIND, ID' or write the task ID",
                                               name, name));
          }
          return Value{0, name};
        case Sym::Kind::kEqu:
          if (!s.known) {
            if (s.evaluating) {
              throw LineError(t.pos,
                              fmt::format("circular definition: '{}' depends on itself", name));
            }
            if (!s.pending_line) throw NotYetDefined{name, t.pos};
            ComputePending(name, s, t.pos);
          }
          return s.value;
        case Sym::Kind::kParam:
          return Value{0, name};
        case Sym::Kind::kDefine:
          return s.value;
        case Sym::Kind::kGlobalDecl:
          if (pass_ == Pass::kFirst) throw NotYetDefined{name, t.pos};
          return task_context ? Value{0, "id(" + name + ")"} : Value{0, name};
      }
    }
    const auto& pre = PredefinedSymbols();
    const auto p = pre.find(name);
    if (p != pre.end()) return Value{p->second.value, ""};
    if (name == "__end" || name == "__sram_end") return Value{0, name};
    if (pass_ == Pass::kFirst) throw NotYetDefined{name, t.pos};
    throw LineError(t.pos, UndefinedMessage(name));
  }

  Value LocalLabel(const Token& ref) override {
    const auto it = locals_.find(ref.value);
    if (it != locals_.end()) {
      if (ref.forward) {
        for (const LocalDef& d : it->second) {
          if (d.seq > seq_) return Value{d.offset, SectionName(SectionId(d.section))};
        }
      } else {
        for (auto d = it->second.rbegin(); d != it->second.rend(); ++d) {
          if (d->seq <= seq_) return Value{d->offset, SectionName(SectionId(d->section))};
        }
      }
    }
    if (ref.forward && pass_ == Pass::kFirst) throw NotYetDefined{ref.text, ref.pos};
    throw LineError(ref.pos, fmt::format("no local label '{}:' {} this line", ref.value,
                                         ref.forward ? "after" : "before"));
  }

  Value TaskId(const Token& t) override {
    std::optional<Value> id = BoundTaskId(t.text, t.pos);
    if (id) return *id;
    const auto it = syms_.find(t.text);
    if (it != syms_.end() && it->second.kind == Sym::Kind::kGlobalDecl) {
      if (pass_ == Pass::kFirst) throw NotYetDefined{t.text, t.pos};
      return Value{0, "id(" + t.text + ")"};
    }
    if (pass_ == Pass::kFirst && it == syms_.end()) throw NotYetDefined{t.text, t.pos};
    throw LineError(t.pos, fmt::format("id({}): '{}' is not the entry label of a task (.task)",
                                       t.text, t.text));
  }

  std::optional<std::pair<int, int64_t>> Position(const std::string& sym) override {
    if (const auto s = ParseSectionName(sym)) return std::make_pair(static_cast<int>(*s), 0);
    const auto it = syms_.find(sym);
    if (it != syms_.end() && it->second.kind == Sym::Kind::kLabel) {
      return std::make_pair(it->second.section, int64_t(it->second.offset));
    }
    return std::nullopt;
  }

  int Column(size_t pos) const override { return line_->At(pos).column; }

 private:
  enum class Pass : uint8_t { kFirst, kFinish, kSecond };

  // ---- helpers ----

  std::optional<int> Gpr(const std::string& name) const {
    if (auto r = ParseGpr(name)) return r;
    const auto it = gpr_alias_.find(name);
    if (it != gpr_alias_.end()) return it->second;
    return std::nullopt;
  }
  std::optional<int> Dsr(const std::string& name) const {
    if (auto r = ParseDsr(name)) return r;
    const auto it = dsr_alias_.find(name);
    if (it != dsr_alias_.end()) return it->second;
    return std::nullopt;
  }

  static bool LooksLikeUt(const std::string& name) {
    const std::string l = ToLower(name);
    return l.size() > 2 && l.compare(0, 2, "ut") == 0 &&
           l.find_first_not_of("0123456789", 2) == std::string::npos;
  }

  Value Here() const {
    if (pass_ == Pass::kSecond) return Value{cur_offset_, SectionName(SectionId(cur_section_))};
    return Value{offset_[section_], SectionName(SectionId(section_))};
  }

  std::string UndefinedMessage(const std::string& name) const {
    // r16, d20, ut9: meant as a register, but out of range.
    const std::string l = ToLower(name);
    const size_t digits = l.find_first_of("0123456789");
    if (digits != std::string::npos && digits > 0 &&
        l.find_first_not_of("0123456789", digits) == std::string::npos) {
      const std::string prefix = l.substr(0, digits);
      if (prefix == "r") {
        return fmt::format("'{}' is not a register: the general registers are r0..r15", name);
      }
      if (prefix == "d") {
        return fmt::format("'{}' is not a register: the descriptor registers are d0..d15", name);
      }
      if (prefix == "ut") {
        return fmt::format("'{}' is not a microthread: they are ut0..ut7", name);
      }
    }
    std::vector<std::string> known;
    for (const auto& [n, s] : syms_) known.push_back(n);
    std::string hint = Suggest(name, known);
    if (hint.empty()) hint = " (declare it with .global if another object defines it)";
    return fmt::format("undefined symbol '{}'{}", name, hint);
  }

  void Report(const SourceLine& line, const LineError& e) {
    diags_.Add(line.Error(e.pos(), e.what()));
  }

  std::string ItemText(const Item& it) const { return line_->text.substr(it.pos, it.end - it.pos); }

  // The ID of the task(s) bound to entry `name` in this file, if any.
  std::optional<Value> BoundTaskId(const std::string& name, size_t pos) {
    std::optional<Value> found;
    for (const TaskDecl& t : tasks_) {
      if (t.entry != name) continue;
      if (!t.ok) {
        if (pass_ == Pass::kFirst) throw NotYetDefined{name, pos};
        throw LineError(pos, fmt::format("the ID of task '{}' is not known (see the error at "
                                         "its .task)",
                                         name));
      }
      if (found && (found->sym != t.id.sym || found->num != t.id.num)) {
        throw LineError(pos,
                        fmt::format("'{}' is the entry of several tasks: write the task ID", name));
      }
      found = t.id;
    }
    return found;
  }

  void ComputePending(const std::string& name, Sym& s, size_t pos) {
    if (s.evaluating) {
      throw LineError(pos, fmt::format("circular definition: '{}' depends on itself", name));
    }
    const auto saved_line = line_;
    const int saved_seq = seq_;
    s.evaluating = true;
    line_ = s.pending_line;
    seq_ = s.pending_seq;
    try {
      s.value = Evaluate(s.pending_toks, s.pending_b, s.pending_e, *this);
      s.known = true;
    } catch (const LineError& e) {
      // Reported at the definition, once; uses go on with 0.
      Report(*s.pending_line, e);
      s.value = Value{};
      s.known = true;
      s.failed = true;
    } catch (...) {
      s.evaluating = false;
      line_ = saved_line;
      seq_ = saved_seq;
      throw;
    }
    s.evaluating = false;
    line_ = saved_line;
    seq_ = saved_seq;
  }

  int64_t Const(const std::vector<Token>& toks, size_t b, size_t e, const std::string& what) {
    if (b >= e) {
      throw LineError(b < toks.size() ? toks[b].pos : line_->text.size(),
                      fmt::format("{} is missing", what));
    }
    return EvaluateConst(toks, b, e, *this, what);
  }

  int64_t EvalPp(const SourceLine& l, size_t begin, size_t end) {
    const std::vector<Token> toks = Lex(l.text.substr(0, end));
    size_t b = 0;
    while (b < toks.size() && toks[b].pos < begin) ++b;
    const auto saved = line_;
    line_ = std::make_shared<const SourceLine>(l);
    try {
      const int64_t v = Const(toks, b, toks.size(), "the condition or count");
      line_ = saved;
      return v;
    } catch (const NotYetDefined& u) {
      line_ = saved;
      throw LineError(u.pos, fmt::format("'{}' is not defined here: .if and .rept need "
                                         "assembly-time constants defined before them",
                                         u.name));
    } catch (...) {
      line_ = saved;
      throw;
    }
  }

  std::vector<Item> Items(const std::vector<Token>& toks, size_t start, size_t stop) const {
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

  Item Classify(const std::vector<Token>& toks, size_t b, size_t e) const {
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

  std::string Describe(const Item& it) const {
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

  Stmt& Add(Stmt::Op op, uint32_t size) {
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
    if (uint64_t(offset_[section_]) + size > arch::kSramBytes && !overflowed_[section_]) {
      overflowed_[section_] = true;
      diags_.Add(line_->Error(0, fmt::format("section {} grows beyond the SRAM (0x{:x} bytes)",
                                             SectionName(SectionId(section_)), arch::kSramBytes)));
    }
    offset_[section_] += size;
    stmts_.push_back(std::move(s));
    return stmts_.back();
  }

  // Checks that `name` may be defined as a new symbol of this kind.
  void CheckNewName(const std::string& name, size_t pos, Sym::Kind kind) {
    if (IsRegisterName(name) || gpr_alias_.count(name) || dsr_alias_.count(name)) {
      throw LineError(pos, fmt::format("'{}' is a register name; it cannot name a symbol", name));
    }
    if (name == "." || ParseSectionName(name) || name == "__end" || name == "__sram_end") {
      throw LineError(pos, fmt::format("'{}' is reserved; it cannot name a symbol", name));
    }
    const auto& pre = PredefinedSymbols();
    const auto p = pre.find(name);
    if (p != pre.end()) {
      throw LineError(pos, fmt::format("'{}' is predefined ({} 0x{:X}); choose another name", name,
                                       p->second.what, p->second.value));
    }
    const auto it = syms_.find(name);
    if (it == syms_.end()) return;
    const Sym& s = it->second;
    if (kind == Sym::Kind::kEqu && s.kind == Sym::Kind::kEqu) return;  // redefinition
    if (kind == Sym::Kind::kLabel && s.kind == Sym::Kind::kGlobalDecl) return;
    throw LineError(pos, fmt::format("'{}' is already defined as {}{}", name, KindWord(s.kind),
                                     s.where.file.empty() ? "" : " at " + s.where.ToString()));
  }

  void Define(const std::string& name, int64_t v) {
    bool valid = !name.empty() && IsIdentStart(name[0]) && name[0] != '.';
    for (const char c : name) valid = valid && IsIdentChar(c);
    if (!valid || IsRegisterName(name) || PredefinedSymbols().count(name)) {
      throw Error(Location{}, fmt::format("-D {}: not a name that can be defined", name));
    }
    Sym s;
    s.kind = Sym::Kind::kDefine;
    s.where = Location{"<command line>", 0, 0};
    s.value = Value{v, ""};
    s.known = true;
    syms_[name] = s;
  }

  void DefineLabel(const Token& t) {
    if (t.kind == TokKind::kInt) {
      if (t.text.find_first_not_of("0123456789") != std::string::npos) {
        throw LineError(t.pos, fmt::format("'{}' cannot be a label: a local label is a decimal "
                                           "number",
                                           t.text));
      }
      locals_[t.value].push_back(LocalDef{seq_, section_, offset_[section_]});
      return;
    }
    CheckNewName(t.text, t.pos, Sym::Kind::kLabel);
    Sym& s = syms_[t.text];
    s.kind = Sym::Kind::kLabel;
    s.where = line_->At(t.pos);
    s.section = section_;
    s.offset = offset_[section_];
    label_order_.push_back(t.text);
  }

  // ---- pass 1 ----

  void Pass1(const SourceLine& l) {
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

  void Statement(const std::vector<Token>& toks) {
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
                      fmt::format("expected an instruction or a directive, got '{}'",
                                  w.kind == TokKind::kString ? "\"" + w.text + "\"" : w.text));
    }
    if (w.text[0] == '.') {
      Directive(ToLower(w.text), toks, i);
    } else {
      Instruction(toks, i, 0);
    }
  }

  void Instruction(const std::vector<Token>& toks, size_t i, int depth) {
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
    std::vector<const InsnInfo*> cands;
    for (const auto& n : arch::kInsns) {
      if (mn == n.mnemonic) cands.push_back(&n);
    }
    if (cands.empty()) {
      throw LineError(w.pos, fmt::format("unknown instruction '{}'{}", w.text,
                                         Suggest(w.text, MnemonicNames())));
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

  const InsnInfo* Choose(const std::vector<const InsnInfo*>& cands, const std::vector<Item>& items,
                         const Token& w) {
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
    throw LineError(w.pos, fmt::format("no form of '{}' takes these operands; its forms are {}'",
                                       shown, forms));
  }

  void Pseudo(const std::string& mn, const std::vector<Token>& toks, size_t i,
              const std::vector<Item>& items) {
    const Token& w = toks[i];
    const arch::InsnPseudo* chosen = nullptr;
    std::vector<std::string> names;
    std::vector<Bound> bound;
    std::string forms;
    for (const auto& p : arch::kInsnPseudos) {
      if (mn != p.mnemonic) continue;
      forms += (forms.empty() ? "'" : "' or '") + PseudoSyntax(p);
      std::vector<K> kinds;
      std::vector<std::string> n;
      PseudoOperands(p, &kinds, &n);
      BindFailure f;
      if (auto b = Bind(kinds, items, &f); b && !chosen) {
        chosen = &p;
        names = n;
        bound = *b;
      }
    }
    if (!chosen) {
      throw LineError(w.pos, fmt::format("wrong operands for '{}' (the form is {}')", mn, forms));
    }
    std::vector<std::string> parts = SplitExpansion(chosen->expansion);
    if (mn == "li") parts = ChooseLi(toks, items, &chosen, &names);
    const auto original = line_;
    for (size_t k = 0; k < parts.size(); ++k) {
      line_ = std::make_shared<const SourceLine>(Substitute(parts[k], names, bound, items, w));
      Instruction(Lex(line_->text), 0, 1);
      line_ = original;
    }
  }

  // The value-dependent choice of `li` (docs/isa.md 4.12): one addi if the value fits simm, one
  // lui if its low half is zero, else lui + ori; always lui + ori for a link-time value.
  std::vector<std::string> ChooseLi(const std::vector<Token>& toks, const std::vector<Item>& items,
                                    const arch::InsnPseudo** chosen,
                                    std::vector<std::string>* names) {
    const arch::InsnPseudo* short_form = nullptr;
    const arch::InsnPseudo* long_form = nullptr;
    for (const auto& p : arch::kInsnPseudos) {
      if (std::string(p.mnemonic) != "li") continue;
      const std::string ops = p.operands;
      if (ops.find("simm") != std::string::npos) short_form = &p;
      if (ops.find("imm32") != std::string::npos) long_form = &p;
    }
    const Item& it = items[1];
    std::optional<Value> v;
    try {
      v = Evaluate(toks, it.b, it.e, *this);
    } catch (const NotYetDefined&) {
      // Not known yet: two words, as for a link-time value.
    }
    const arch::InsnPseudo* use = long_form;
    size_t parts = SplitExpansion(long_form->expansion).size();
    if (v && v->wrap != Wrap::kNone) {
      throw LineError(it.pos, "li takes a value; lo() and hi() belong to lui and ori");
    }
    if (v && v->IsConst()) {
      if (v->num < INT32_MIN || v->num > int64_t(UINT32_MAX)) {
        throw LineError(it.pos, fmt::format("li value {} does not fit in 32 bits "
                                            "(-2147483648..4294967295)",
                                            v->num));
      }
      if (v->num >= -32768 && v->num <= 32767) {
        use = short_form;
        parts = SplitExpansion(short_form->expansion).size();
      } else if ((v->num & 0xFFFF) == 0) {
        parts = 1;  // lui alone
      }
    }
    *chosen = use;
    names->clear();
    std::vector<K> kinds;
    PseudoOperands(*use, &kinds, names);
    std::vector<std::string> all = SplitExpansion(use->expansion);
    all.resize(parts);
    return all;
  }

  // One instruction of a pseudo's expansion, with the operands written substituted for its
  // operand names. Substituted text keeps its columns; the rest points at the mnemonic.
  SourceLine Substitute(const std::string& part, const std::vector<std::string>& names,
                        const std::vector<Bound>& bound, const std::vector<Item>& items,
                        const Token& w) {
    SourceLine out;
    out.file = line_->file;
    out.line = line_->line;
    out.expansion = line_->expansion;
    const int mcol = line_->At(w.pos).column;
    auto put = [&](const std::string& text, int col) {
      out.text += text;
      out.columns.insert(out.columns.end(), text.size(), col);
    };
    for (size_t c = 0; c < part.size();) {
      if (IsIdentStart(part[c])) {
        size_t j = c;
        while (j < part.size() && IsIdentChar(part[j])) ++j;
        const std::string name = part.substr(c, j - c);
        size_t k = 0;
        while (k < names.size() && names[k] != name) ++k;
        if (k < names.size() && k < bound.size() && bound[k].count > 0) {
          const Item& first = items[bound[k].item];
          const Item& last = items[bound[k].item + bound[k].count - 1];
          const bool wrap = first.shape == Shape::kExpr;
          if (wrap) put("(", line_->At(first.pos).column);
          for (size_t p = first.pos; p < last.end; ++p) {
            out.text += line_->text[p];
            out.columns.push_back(line_->At(p).column);
          }
          if (wrap) put(")", line_->At(first.pos).column);
        } else {
          put(name, mcol);
        }
        c = j;
        continue;
      }
      put(std::string(1, part[c]), mcol);
      ++c;
    }
    out.columns.push_back(mcol);
    return out;
  }

  void NoOperands(const std::vector<Token>& toks, size_t i) {
    if (i + 1 < toks.size()) {
      throw LineError(toks[i + 1].pos, fmt::format("{} takes no operands", toks[i].text));
    }
  }

  std::string Ident(const std::vector<Token>& toks, const Item& it, const char* what) {
    if (it.e - it.b != 1 || !toks[it.b].IsIdent()) {
      throw LineError(it.pos, fmt::format("expected {}, got '{}'", what, ItemText(it)));
    }
    return toks[it.b].text;
  }

  void Directive(const std::string& d, const std::vector<Token>& toks, size_t i) {
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
      if (items.size() != 2)
        throw LineError(w.pos, "wrong operands: the form is '.equ NAME, VALUE'");
      const std::string name = Ident(toks, items[0], "a name");
      Equ(toks[items[0].b], toks, items[1].b, items[1].e);
      (void)name;
    } else if (d == ".param") {
      Param(toks, i);
    } else if (d == ".task") {
      count(3, 3, ".task ENTRY, KIND, ID");
      TaskDecl t;
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
    } else if (d == ".error") {
      std::string text = "error directive";
      if (items.size() == 1 && toks[items[0].b].kind == TokKind::kString) {
        text = toks[items[0].b].text;
      }
      throw LineError(w.pos, text);
    } else {
      throw LineError(
          w.pos, fmt::format("unknown directive '{}'{}", w.text, Suggest(d, DirectiveNames())));
    }
  }

  void NotInBss(const std::string& d, const Token& w) {
    if (section_ == kBss) {
      throw LineError(w.pos, fmt::format("{} in .bss: .bss holds no data (use .space there, or "
                                         "put initialized data in .data)",
                                         d));
    }
  }

  void Data(const std::string& d, const std::vector<Token>& toks, size_t i,
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

  void Pad(uint32_t align) {
    const uint32_t off = offset_[section_];
    const uint32_t pad = (align - off % align) % align;
    align_[section_] = std::max(align_[section_], align);
    Stmt& s = Add(Stmt::Op::kBytes, pad);
    if (section_ != kBss) s.bytes.assign(pad, 0);
  }

  void Equ(const Token& name, const std::vector<Token>& toks, size_t b, size_t e) {
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

  void Param(const std::vector<Token>& toks, size_t i) {
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

  void Global(const std::string& name, size_t pos) {
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

  void ApplyReg(const Stmt& s) {
    gpr_alias_.erase(s.name);
    dsr_alias_.erase(s.name);
    (s.dsr ? dsr_alias_ : gpr_alias_)[s.name] = s.reg;
  }

  void Dsd(const std::vector<Token>& toks, size_t i, const std::vector<Item>& items) {
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
                                                "fabin or fabout",
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
        allowed = {"base", "len",     "stride", "len1",   "stride1",
                   "len2", "stride2", "len3",   "stride3"};
        break;
      case arch::DsdKind::kFabIn:
        allowed = {"len", "color"};
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
      static const std::set<std::string> kAll = {"base", "len",     "stride", "color",
                                                 "ctrl", "idx",     "len1",   "stride1",
                                                 "len2", "stride2", "len3",   "stride3"};
      if (!kAll.count(key)) {
        throw LineError(it.pos, fmt::format("unknown descriptor key '{}' (keys: base, len, stride, "
                                            "color, ctrl, idx; mem4d: len1..len3, "
                                            "stride1..stride3)",
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
    if (mem) require("base");
    if (!mem) require("color");
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

  // ---- between the passes ----

  void FinishPass1() {
    pass_ = Pass::kFinish;
    for (auto& [name, s] : syms_) {
      if (s.kind == Sym::Kind::kEqu && !s.known && s.pending_line) {
        diags_.SetOrder(s.pending_seq);
        try {
          ComputePending(name, s, 0);
        } catch (const LineError& e) {
          Report(*s.pending_line, e);
          s.known = true;
          s.failed = true;
        }
      }
    }
    for (const PendingUse& u : pending_uses_) {
      line_ = u.line;
      seq_ = u.seq;
      diags_.SetOrder(u.seq);
      const auto it = syms_.find(u.name);
      std::string msg;
      if (it != syms_.end() && it->second.kind != Sym::Kind::kGlobalDecl) {
        msg = fmt::format(
            "'{}' is used before its definition (at {}); this statement needs its "
            "value here",
            u.name, it->second.where.ToString());
      } else if (!u.name.empty() && u.name[0] >= '0' && u.name[0] <= '9') {
        msg = fmt::format(
            "local label '{}' is used before its definition; this statement needs "
            "its value here",
            u.name);
      } else if (it != syms_.end()) {
        msg = fmt::format(
            "'{}' is defined in another object: this statement needs an "
            "assembly-time value",
            u.name);
      } else {
        msg = UndefinedMessage(u.name);
      }
      diags_.Add(u.line->Error(u.pos, msg));
    }
    std::map<int64_t, const TaskDecl*> ids;
    for (TaskDecl& t : tasks_) {
      line_ = t.line;
      diags_.SetOrder(t.seq);
      try {
        FinishTask(t);
        if (t.ok && t.id.IsConst()) {
          const auto [it, fresh] = ids.emplace(t.id.num, &t);
          if (!fresh) {
            throw LineError(t.toks[t.b].pos,
                            fmt::format("task ID {} is already bound to '{}' at {}", t.id.num,
                                        it->second->entry, it->second->line->At(0).ToString()));
          }
        }
      } catch (const LineError& e) {
        Report(*t.line, e);
      }
    }
    for (const ExportDecl& e : exports_) {
      line_ = e.line;
      diags_.SetOrder(e.seq);
      try {
        const auto it = syms_.find(e.name);
        if (it == syms_.end() || it->second.kind != Sym::Kind::kLabel) {
          throw LineError(e.pos,
                          fmt::format("'{}' is exported but not a label of this file", e.name));
        }
        Sym& s = it->second;
        if (s.exported) throw LineError(e.pos, fmt::format("'{}' is exported twice", e.name));
        s.exported = true;
        s.global = true;
        if (e.type) {
          const int64_t n = Const(e.toks, e.count_b, e.count_e, "the count of .export");
          if (n < 1 || n > 0xFFFF) {
            throw LineError(e.toks[e.count_b].pos,
                            fmt::format(".export count {} is out of range (1..65535)", n));
          }
          s.type = e.type;
          s.count = static_cast<uint32_t>(n);
        }
      } catch (const LineError& err) {
        Report(*e.line, err);
      }
    }
  }

  void FinishTask(TaskDecl& t) {
    const auto it = syms_.find(t.entry);
    if (it == syms_.end()) {
      throw LineError(t.entry_pos, fmt::format("task entry '{}' is not defined (declare it with "
                                               ".global if another object defines it)",
                                               t.entry));
    }
    const Sym& entry = it->second;
    if (entry.kind == Sym::Kind::kLabel) {
      if (entry.section != kText) {
        throw LineError(t.entry_pos, fmt::format("task entry '{}' is in {}: a task starts at "
                                                 "code in .text",
                                                 t.entry, SectionName(SectionId(entry.section))));
      }
    } else if (entry.kind != Sym::Kind::kGlobalDecl) {
      throw LineError(t.entry_pos, fmt::format("task entry '{}' is {}, not a label", t.entry,
                                               KindWord(entry.kind)));
    }
    const Value v = Evaluate(t.toks, t.b, t.e, *this);
    if (v.wrap != Wrap::kNone ||
        (!v.IsConst() && !(syms_.count(v.sym) && syms_[v.sym].kind == Sym::Kind::kParam))) {
      throw LineError(t.toks[t.b].pos, "a task ID is a constant or a param (plus a constant)");
    }
    if (v.IsConst()) {
      if (v.num == arch::kNoTask) {
        throw LineError(t.toks[t.b].pos, "task ID 31 means 'no task' and cannot be bound");
      }
      if (v.num < 0 || v.num >= arch::kNumTasks) {
        throw LineError(t.toks[t.b].pos, fmt::format("task ID {} is out of range (0..30)", v.num));
      }
      if (t.kind == arch::TaskKind::kData && v.num >= arch::kNumColors) {
        throw LineError(t.toks[t.b].pos,
                        fmt::format("a data task's ID is its color: {} is not a color a PE can "
                                    "receive (0..23)",
                                    v.num));
      }
    }
    t.id = v;
    t.ok = true;
  }

  // ---- pass 2 ----

  void Pass2() {
    pass_ = Pass::kSecond;
    gpr_alias_.clear();
    dsr_alias_.clear();
    std::set<uint32_t> text_labels;  // where straight-line code may be entered
    for (const auto& [name, sym] : syms_)
      if (sym.kind == Sym::Kind::kLabel && sym.section == kText) text_labels.insert(sym.offset);
    std::map<std::string, const Stmt*> dsd_stmts;
    for (const Stmt& s : stmts_)
      if (s.op == Stmt::Op::kDsd) dsd_stmts[s.name] = &s;
    std::array<const Stmt*, 16> loaded{};  // the .dsd record each DSR holds, if known
    for (const Stmt& s : stmts_) {
      // The statement's own line first: the bank note below encodes it, and an encoding error
      // quotes the line's text at the statement's positions.
      line_ = s.line;
      seq_ = s.seq;
      diags_.SetOrder(s.seq);
      cur_section_ = s.section;
      cur_offset_ = s.offset;
      display_ = s.mnemonic;
      if (s.section == kText && s.op == Stmt::Op::kInsn) {
        if (text_labels.count(s.offset)) loaded.fill(nullptr);
        try {
          TrackDescriptors(s, dsd_stmts, loaded);
        } catch (const LineError&) {
          // Encode reports it.
        } catch (const NotYetDefined&) {
        }
      }
      std::vector<uint8_t> bytes;
      try {
        bytes = Encode(s);
      } catch (const LineError& e) {
        Report(*s.line, e);
      } catch (const NotYetDefined& u) {
        diags_.Add(s.line->Error(u.pos, UndefinedMessage(u.name)));
      }
      if (s.section != kBss) bytes.resize(s.size, 0);
      Emit(s, bytes);
    }
  }

  // ---- the bank note (docs/isa.md 6.7) ----

  // Follows which .dsd record each descriptor register holds through straight-line code (`ldd dN,
  // record`; any other write forgets it) and notes a two-source DSD operation whose mem1d sources
  // read one SRAM bank in every step: equal strides and element sizes, bases a nonzero multiple
  // of 16 bytes apart. Every such step splits over two cycles (docs/isa.md 6.7).
  void TrackDescriptors(const Stmt& s, const std::map<std::string, const Stmt*>& dsd_stmts,
                        std::array<const Stmt*, 16>& loaded) {
    const InsnInfo& n = *s.info;
    if (n.cls == arch::InsnClass::kJump) {  // a call may change them; a jump leaves this code
      loaded.fill(nullptr);
      return;
    }
    if (n.cls == arch::InsnClass::kDsr) {
      const std::vector<Item> items = Items(s.toks, s.args, s.end);
      const auto op = static_cast<arch::DsrOp>(n.subop);
      if (op == arch::DsrOp::kStd || op == arch::DsrOp::kDrd || items.empty()) return;
      const std::optional<int> reg = Dsr(s.toks[items[0].b].text);
      if (!reg) return;
      loaded[*reg] = nullptr;
      if (op == arch::DsrOp::kLdd && items.size() == 2) {
        const Value v = Eval(s, items[1].b, items[1].e);
        const auto it = dsd_stmts.find(v.sym);
        if (v.num == 0 && v.wrap == Wrap::kNone && it != dsd_stmts.end()) loaded[*reg] = it->second;
      }
      return;
    }
    if (n.cls != arch::InsnClass::kDsd || !arch::HasSrc0(n.form) || !arch::HasSrc1(n.form)) return;
    const uint32_t word = EncodeInsn(s);
    const unsigned r0 = (word >> 12) & 0xF, r1 = (word >> 16) & 0xF;
    const Stmt* a = loaded[r0];
    const Stmt* b = loaded[r1];
    if (!a || !b || a == b || a->dsd_kind != arch::DsdKind::kMem1d ||
        b->dsd_kind != arch::DsdKind::kMem1d || ElemBytes(a->dsd_type) != ElemBytes(b->dsd_type))
      return;
    const auto base_a = DsdPlace(*a), base_b = DsdPlace(*b);
    const auto stride_a = DsdStride(*a), stride_b = DsdStride(*b);
    if (!base_a || !base_b || !stride_a || !stride_b || *stride_a != *stride_b) return;
    if (base_a->first != base_b->first) return;
    const int64_t diff = base_b->second - base_a->second;
    if (diff == 0 || diff % 16 != 0) return;
    Diagnostic d = s.line->Error(
        s.toks[s.args ? s.args - 1 : 0].pos,
        fmt::format(
            "{}: src0 (d{}, {}) and src1 (d{}, {}) start {} bytes apart, a multiple of 16, with "
            "equal strides: both read the same SRAM bank in every step, so every step splits over "
            "two cycles (half throughput; docs/isa.md 6.7). Move one array by 4 bytes (for example "
            "`.space 4` before it) so that the bases differ by 16k + 4..12",
            s.mnemonic, r0, a->name, r1, b->name, diff < 0 ? -diff : diff));
    d.warning = true;
    d.order = s.seq;
    warnings_.push_back(d);
  }

  // Where a .dsd record's base lies: (section name or "" for an absolute address, offset), when
  // this file knows it.
  std::optional<std::pair<std::string, int64_t>> DsdPlace(const Stmt& d) {
    const auto k = d.keys.find("base");
    if (k == d.keys.end()) return std::nullopt;
    const Value v = Eval(d, k->second.first, k->second.second);
    if (v.wrap != Wrap::kNone) return std::nullopt;
    if (v.IsConst()) return std::make_pair(std::string(), v.num);
    const auto it = syms_.find(v.sym);
    if (it == syms_.end() || it->second.kind != Sym::Kind::kLabel) return std::nullopt;
    return std::make_pair(SectionName(SectionId(it->second.section)),
                          v.num + static_cast<int64_t>(it->second.offset));
  }

  std::optional<int64_t> DsdStride(const Stmt& d) {
    const auto k = d.keys.find("stride");
    if (k == d.keys.end()) return 1;
    const Value v = Eval(d, k->second.first, k->second.second);
    if (!v.IsConst()) return std::nullopt;
    return v.num;
  }

  std::vector<uint8_t> Encode(const Stmt& s) {
    switch (s.op) {
      case Stmt::Op::kNone:
        return {};
      case Stmt::Op::kBytes:
        return s.bytes;
      case Stmt::Op::kReg:
        ApplyReg(s);
        return {};
      case Stmt::Op::kEqu: {
        Sym& sym = syms_[s.name];
        if (!sym.failed) {
          try {
            sym.value = Evaluate(s.toks, s.args, s.end, *this);
          } catch (const LineError&) {
            // Reported when it was first computed.
          }
        }
        return {};
      }
      case Stmt::Op::kInsn:
        return Le32(EncodeInsn(s));
      case Stmt::Op::kData:
        return EncodeData(s);
      case Stmt::Op::kReal: {
        std::vector<uint8_t> out;
        const RealFormat f = s.width == 4 ? RealFormat::kF32 : RealFormat::kF16;
        for (const Item& it : Items(s.toks, s.args, s.end)) {
          const uint32_t bits = EvaluateReal(s.toks, it.b, it.e, *this, f);
          for (int k = 0; k < s.width; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
        }
        return out;
      }
      case Stmt::Op::kDsd:
        return EncodeDsd(s);
    }
    return {};
  }

  static std::vector<uint8_t> Le32(uint32_t w) {
    return {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
  }

  void AddReloc(const Stmt& s, uint32_t offset, RelocKind kind, const Value& v) {
    relocs_.push_back(ObjReloc{SectionId(s.section), offset, kind, SymRef{v.sym, v.num}});
  }

  uint32_t EncodeInsn(const Stmt& s) {
    const std::vector<Item> items = Items(s.toks, s.args, s.end);
    BindFailure f;
    const auto bound = Bind(KindsOf(*s.info), items, &f);
    if (!bound) throw LineError(0, "internal error: the operands no longer match");
    uint32_t word = s.info->fixed_bits;
    for (const Bound& b : *bound) EncodeOperand(s, word, b, items);
    return word;
  }

  Value Eval(const Stmt& s, size_t b, size_t e, bool task = false) {
    return Evaluate(s.toks, b, e, *this, task);
  }

  void EncodeOperand(const Stmt& s, uint32_t& w, const Bound& b, const std::vector<Item>& items) {
    const InsnFormat f = s.info->format;
    const Item* it = b.count ? &items[b.item] : nullptr;
    auto set = [&](const char* field, uint32_t v) { w = SetField(w, f, field, v); };
    if (IsGprKind(b.kind) || IsDsrKind(b.kind)) {
      set(RegisterField(b.kind), static_cast<uint32_t>(it->reg));
      return;
    }
    switch (b.kind) {
      case K::kRb:
        if (it->shape == Shape::kGpr) {
          set("B", static_cast<uint32_t>(it->reg));
        } else {
          const Value v = Eval(s, it->b, it->e);
          if (!v.IsConst() || v.num != 0) {
            throw LineError(it->pos, fmt::format("operand {} of '{}' (rb) must be a register or "
                                                 "0, not '{}'",
                                                 b.item + 1, s.mnemonic, ItemText(*it)));
          }
          set("Z", 1);
        }
        return;
      case K::kSimm:
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kSigned, *it);
        return;
      case K::kUimm:
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kUnsigned, *it);
        return;
      case K::kSh:
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kShift, *it);
        return;
      case K::kW:
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kWord, *it);
        return;
      case K::kOff:
        Imm(s, w, Eval(s, it->b, it->e), ImmRule::kBranch, *it);
        return;
      case K::kMsk:
        if (it) {
          Imm(s, w, Eval(s, it->b, it->e), ImmRule::kMask, *it);
        } else {
          set("Imm", (1u << arch::kNumMicrothreads) - 1);  // `utwait` alone: every microthread
        }
        return;
      case K::kMem:
      case K::kTgt:
        if (it->shape == Shape::kMem) {
          set("B", static_cast<uint32_t>(it->reg));
          if (it->e - it->b > 3) Imm(s, w, Eval(s, it->b, it->e - 3), ImmRule::kOffset, *it);
        } else {
          set("Z", 1);
          Imm(s, w, Eval(s, it->b, it->e), ImmRule::kAbsolute, *it);
        }
        return;
      case K::kTid:
      case K::kCol:
        if (it->shape == Shape::kGpr) {
          set("B", static_cast<uint32_t>(it->reg));
        } else {
          set("Z", 1);
          const bool task = b.kind == K::kTid;
          Imm(s, w, Eval(s, it->b, it->e, task), task ? ImmRule::kTask : ImmRule::kColor, *it);
        }
        return;
      case K::kBval:
        if (it->shape == Shape::kGpr) {
          set("B", static_cast<uint32_t>(it->reg));
          if (b.count == 2) {
            const Item& c = items[b.item + 1];
            Imm(s, w, Eval(s, c.b, c.e), ImmRule::kSigned, c);
          }
        } else {
          set("Z", 1);
          Imm(s, w, Eval(s, it->b, it->e), ImmRule::kSigned, *it);
        }
        return;
      case K::kDone:
        Done(s, w, it);
        return;
      default:
        return;
    }
  }

  void Imm(const Stmt& s, uint32_t& w, const Value& v, ImmRule rule, const Item& it) {
    const InsnFormat f = s.info->format;
    const std::string& mn = s.mnemonic;
    if (rule == ImmRule::kBranch) {
      if (v.IsConst()) {
        throw LineError(it.pos, fmt::format("branch target {} is a constant: a branch needs a "
                                            "label (or '.' plus an offset); jr takes an absolute "
                                            "address",
                                            v.num));
      }
      if (v.wrap != Wrap::kNone) throw LineError(it.pos, "lo() or hi() is not a branch target");
      const auto p = Position(v.sym);
      if (p && p->first == s.section) {
        const int64_t delta = p->second + v.num - int64_t(s.offset);
        if (delta % 4 != 0) {
          throw LineError(it.pos, fmt::format("branch target is {} bytes away, not a multiple of "
                                              "4",
                                              delta));
        }
        if (delta / 4 < -32768 || delta / 4 > 32767) {
          throw LineError(it.pos, fmt::format("branch target is {} bytes away; '{}' reaches "
                                              "-131072..+131068",
                                              delta, mn));
        }
        w = SetField(w, f, "Imm", static_cast<uint32_t>(delta / 4) & 0xFFFF);
        return;
      }
      AddReloc(s, s.offset, RelocKind::kPC16, v);
      return;
    }
    if (!v.IsConst()) {
      const bool sixteen = rule == ImmRule::kSigned || rule == ImmRule::kUnsigned ||
                           rule == ImmRule::kOffset || rule == ImmRule::kAbsolute;
      if (v.wrap != Wrap::kNone) {
        if (!sixteen) {
          throw LineError(it.pos, fmt::format("lo() and hi() fill a 16-bit immediate; '{}' has "
                                              "none here",
                                              mn));
        }
        Value base = v;
        base.wrap = Wrap::kNone;
        AddReloc(s, s.offset, v.wrap == Wrap::kLo ? RelocKind::kLO16 : RelocKind::kHI16, base);
        return;
      }
      switch (rule) {
        case ImmRule::kSigned:
        case ImmRule::kOffset:
          AddReloc(s, s.offset, RelocKind::kS16, v);
          return;
        case ImmRule::kUnsigned:
        case ImmRule::kAbsolute:
          AddReloc(s, s.offset, RelocKind::kU16, v);
          return;
        case ImmRule::kTask:
        case ImmRule::kColor:
          AddReloc(s, s.offset, RelocKind::kU5, v);
          return;
        default:
          throw LineError(it.pos, fmt::format("this operand of '{}' must be an assembly-time "
                                              "constant, but '{}' is a link-time value",
                                              mn, v.sym));
      }
    }
    const int64_t n = v.num;
    auto check = [&](int64_t lo, int64_t hi, const std::string& msg) {
      if (n < lo || n > hi) throw LineError(it.pos, msg);
    };
    switch (rule) {
      case ImmRule::kSigned:
        check(-32768, 32767,
              fmt::format("immediate {} does not fit in 16 bits ({} takes "
                          "-32768..32767)",
                          n, mn));
        break;
      case ImmRule::kUnsigned:
        check(0, 65535,
              fmt::format("immediate {} does not fit in 16 bits ({} takes 0..65535)", n, mn));
        break;
      case ImmRule::kOffset:
        check(-32768, 32767,
              fmt::format("offset {} does not fit in 16 bits ({} takes "
                          "-32768..32767 from a base register)",
                          n, mn));
        break;
      case ImmRule::kAbsolute:
        check(0, 0xFFFF,
              fmt::format("absolute address {} is out of range ({} takes 0..0xFFFF; "
                          "an offset from a register is written offset(rN))",
                          n, mn));
        break;
      case ImmRule::kShift:
        check(0, 31, fmt::format("shift amount {} is out of range ({} takes 0..31)", n, mn));
        break;
      case ImmRule::kMask:
        check(0, 255, fmt::format("microthread mask {} is out of range ({} takes 0..255)", n, mn));
        break;
      case ImmRule::kWord:
        check(0, 1, fmt::format("descriptor word {} is out of range ({} takes 0 or 1)", n, mn));
        break;
      case ImmRule::kTask:
        check(0, 31,
              fmt::format("task ID {} is out of range ({} takes 0..31; 31 names no task)", n, mn));
        break;
      case ImmRule::kColor:
        // Colors 24..31 are reserved: a wavelet of one faults where it enters a router, and a
        // send or a fabric descriptor naming one faults (BadColor), so a constant one is an error.
        check(0, arch::kNumColors - 1,
              fmt::format("color {} is out of range ({} takes 0..{}; colors {}..31 are reserved "
                          "and a send on one can only fault)",
                          n, mn, arch::kNumColors - 1, arch::kNumColors));
        break;
      case ImmRule::kBranch:
        break;
    }
    w = SetField(w, f, "Imm", static_cast<uint32_t>(n) & 0xFFFF);
  }

  // The completion clause `utN [async | activate T | unblock T]` (docs/isa.md 4.11).
  void Done(const Stmt& s, uint32_t& w, const Item* it) {
    const InsnFormat f = s.info->format;
    uint32_t ut = 0, u = 1, tid = arch::kNoTask;
    if (it) {
      const std::vector<Token>& t = s.toks;
      const auto parsed = ParseUt(t[it->b].text);
      if (!parsed) {
        throw LineError(it->pos, fmt::format("'{}' is not a microthread: they are ut0..ut{}",
                                             t[it->b].text, arch::kNumMicrothreads - 1));
      }
      ut = static_cast<uint32_t>(*parsed);
      if (it->e > it->b + 1) {
        const Token& word = t[it->b + 1];
        const std::string action = ToLower(word.text);
        if (action == "async" && it->e == it->b + 2) {
          u = 0;
        } else if ((action == "activate" || action == "unblock") && word.IsIdent()) {
          u = action == "unblock" ? 1 : 0;
          if (it->e == it->b + 2) {
            throw LineError(word.end, fmt::format("{} needs a task: {} T", action, action));
          }
          const Value v = Eval(s, it->b + 2, it->e, true);
          const size_t pos = t[it->b + 2].pos;
          if (v.IsConst()) {
            if (v.num == arch::kNoTask) {
              throw LineError(pos, action == "unblock"
                                       ? "'unblock 31' would be the synchronous code; name a "
                                         "task 0..30"
                                       : "task 31 names no task; write 'async' for no "
                                         "completion action");
            }
            if (v.num < 0 || v.num > 30) {
              throw LineError(
                  pos, fmt::format("task ID {} is out of range ({} takes 0..30)", v.num, action));
            }
            tid = static_cast<uint32_t>(v.num);
          } else {
            if (v.wrap != Wrap::kNone) throw LineError(pos, "lo() and hi() are not task IDs");
            AddReloc(s, s.offset, RelocKind::kTID5, v);
            tid = 0;
          }
        } else {
          throw LineError(word.pos,
                          fmt::format("expected 'async', 'activate T' or 'unblock T' "
                                      "after {}, got '{}'",
                                      t[it->b].text, ItemText(*it).substr(word.pos - it->pos)));
        }
      }
    }
    w = SetField(w, f, "Ut", ut);
    w = SetField(w, f, "U", u);
    w = SetField(w, f, "Tid", tid);
  }

  std::vector<uint8_t> EncodeData(const Stmt& s) {
    std::vector<uint8_t> out;
    const std::vector<Item> items = Items(s.toks, s.args, s.end);
    const int w = s.width;
    const RelocKind kind = w == 4 ? RelocKind::kW32 : w == 2 ? RelocKind::kH16 : RelocKind::kB8;
    const int64_t lo = w == 4 ? INT32_MIN : w == 2 ? -32768 : -128;
    const int64_t hi = w == 4 ? int64_t(UINT32_MAX) : w == 2 ? 65535 : 255;
    for (size_t k = 0; k < items.size(); ++k) {
      const Item& it = items[k];
      cur_offset_ = s.offset + static_cast<uint32_t>(k * w);  // '.' is the item's location
      const Value v = Eval(s, it.b, it.e);
      uint64_t bits = 0;
      if (v.IsConst()) {
        if (v.num < lo || v.num > hi) {
          throw LineError(it.pos,
                          fmt::format("value {} does not fit in {} ({} takes {}..{})", v.num,
                                      w == 4   ? "32 bits"
                                      : w == 2 ? "16 bits"
                                               : "8 bits",
                                      s.name, lo, hi));
        }
        bits = static_cast<uint64_t>(v.num);
      } else {
        if (v.wrap != Wrap::kNone) {
          throw LineError(it.pos,
                          "lo() and hi() of a link-time value can only be an "
                          "instruction's immediate");
        }
        AddReloc(s, s.offset + static_cast<uint32_t>(k * w), kind, v);
      }
      for (int b = 0; b < w; ++b) out.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    }
    return out;
  }

  std::vector<uint8_t> EncodeDsd(const Stmt& s) {
    using D = arch::Dsd;
    uint64_t d = 0;
    d = D::WithKind(d, static_cast<uint64_t>(s.dsd_kind));
    d = D::WithElem(d, static_cast<uint64_t>(s.dsd_type));
    auto value = [&](const char* key) -> std::optional<std::pair<Value, size_t>> {
      const auto it = s.keys.find(key);
      if (it == s.keys.end()) return std::nullopt;
      const auto [b, e] = it->second;
      if (std::string(key) == "len" && e == b + 1 && s.toks[b].IsIdent() &&
          ToLower(s.toks[b].text) == "inf") {
        return std::make_pair(Value{arch::kUnboundedLength, ""}, s.toks[b].pos);
      }
      return std::make_pair(Eval(s, b, e), s.toks[b].pos);
    };
    struct FieldRule {
      const char* key;
      int64_t lo, hi;
      RelocKind reloc;
    };
    static const FieldRule kRules[] = {
        {"base", 0, 0xFFFF, RelocKind::kDBase},
        {"len", 0, arch::kUnboundedLength, RelocKind::kDLen},
        {"stride", -32768, 32767, RelocKind::kDStride},
        {"color", 0, arch::kNumColors - 1, RelocKind::kDColor},
    };
    for (const FieldRule& r : kRules) {
      auto v = value(r.key);
      const bool mem = s.dsd_kind == arch::DsdKind::kMem1d || s.dsd_kind == arch::DsdKind::kMem4d;
      if (!v && std::string(r.key) == "stride" && mem) {
        v = std::make_pair(Value{1, ""}, size_t(0));  // default stride
      }
      if (!v) continue;
      const auto& [val, pos] = *v;
      if (!val.IsConst()) {
        if (val.wrap != Wrap::kNone)
          throw LineError(pos, "lo() and hi() are not descriptor fields");
        AddReloc(s, s.offset, r.reloc, val);
        continue;
      }
      if (val.num < r.lo || val.num > r.hi) {
        throw LineError(pos,
                        fmt::format("{}={} is out of range ({}..{}{})", r.key, val.num, r.lo, r.hi,
                                    std::string(r.key) == "len" ? ", or inf = 0x7FFF" : ""));
      }
      const uint64_t n = static_cast<uint64_t>(val.num);
      const std::string key = r.key;
      if (key == "base") {
        if (mem && n % ElemBytes(s.dsd_type) != 0) {
          throw LineError(pos, fmt::format("base=0x{:04x} is not aligned to the {}-byte {} "
                                           "elements",
                                           n, ElemBytes(s.dsd_type), ElemTypeName(s.dsd_type)));
        }
        d = D::WithBase(d, n);
      } else if (key == "len") {
        d = D::WithLength(d, n);
      } else if (key == "stride") {
        d = D::WithStride(d, n);
      } else {
        d = D::WithColor(d, n);
      }
    }
    for (const char* flag : {"ctrl", "idx"}) {
      const auto v = value(flag);
      if (!v) continue;
      const uint64_t n = static_cast<uint64_t>(v->first.num);
      d = std::string(flag) == "ctrl" ? D::WithCtrl(d, n) : D::WithIdx(d, n);
    }
    const uint64_t x = s.dsd_kind == arch::DsdKind::kMem4d ? Mem4dExtension(s, d) : 0;
    std::vector<uint8_t> out;
    for (int b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(d >> (8 * b)));
    if (s.dsd_kind == arch::DsdKind::kMem4d)
      for (int b = 0; b < 8; ++b) out.push_back(static_cast<uint8_t>(x >> (8 * b)));
    return out;
  }

  // mem4d (docs/isa.md 2.3): the lengths and strides of dimensions 1..3, assembly-time constants.
  // The length of dimension 3 goes in the descriptor's Color field (d), the rest in the extension.
  uint64_t Mem4dExtension(const Stmt& s, uint64_t& d) {
    using X = arch::Dsd4x;
    struct Dim {
      const char* key;
      int64_t lo, hi, dflt;
    };
    static const Dim kDims[] = {{"len1", 0, 2047, 1},
                                {"len2", 0, 31, 1},
                                {"len3", 0, 31, 1},
                                {"stride1", -32768, 32767, 0},
                                {"stride2", -32768, 32767, 0},
                                {"stride3", -32768, 32767, 0}};
    int64_t v[6];
    for (int k = 0; k < 6; ++k) {
      const auto it = s.keys.find(kDims[k].key);
      if (it == s.keys.end()) {
        v[k] = kDims[k].dflt;
        continue;
      }
      const auto [b, e] = it->second;
      const Value val = Eval(s, b, e);
      if (!val.IsConst()) {
        throw LineError(s.toks[b].pos, fmt::format("{}= must be an assembly-time constant (only "
                                                   "base, len and stride may be link-time)",
                                                   kDims[k].key));
      }
      if (val.num < kDims[k].lo || val.num > kDims[k].hi) {
        throw LineError(s.toks[b].pos, fmt::format("{}={} is out of range ({}..{})", kDims[k].key,
                                                   val.num, kDims[k].lo, kDims[k].hi));
      }
      v[k] = val.num;
    }
    d = arch::Dsd::WithColor(d, static_cast<uint64_t>(v[2]));
    uint64_t x = 0;
    x = X::WithLen1(x, static_cast<uint64_t>(v[0]));
    x = X::WithLen2(x, static_cast<uint64_t>(v[1]));
    x = X::WithStride1(x, static_cast<uint16_t>(v[3]));
    x = X::WithStride2(x, static_cast<uint16_t>(v[4]));
    x = X::WithStride3(x, static_cast<uint16_t>(v[5]));
    return x;
  }

  void Emit(const Stmt& s, const std::vector<uint8_t>& bytes) {
    if (s.section != kBss && !bytes.empty()) {
      std::vector<uint8_t>& sec = obj_.sections[s.section].bytes;
      sec.resize(s.offset);
      sec.insert(sec.end(), bytes.begin(), bytes.end());
    }
    if (s.size > 0 && s.op != Stmt::Op::kBytes) {
      const Location o = s.line->Origin();
      const ObjLine* last = nullptr;
      for (auto it = obj_.lines.rbegin(); it != obj_.lines.rend(); ++it) {
        if (static_cast<int>(it->section) == s.section) {
          last = &*it;
          break;
        }
      }
      if (!last || last->file != o.file || last->line != o.line) {
        obj_.lines.push_back(ObjLine{SectionId(s.section), s.offset, o.file, o.line});
      }
    }
    if (s.first || listing_.empty()) {
      ListingEntry e;
      e.origin = s.source->Origin();
      e.text = s.source->text;
      e.expanded = s.source->expansion != nullptr;
      e.section = s.section;
      e.offset = s.offset;
      listing_.push_back(e);
    }
    ListingEntry& e = listing_.back();
    if (s.size > 0 && e.size == 0) {
      e.section = s.section;
      e.offset = s.offset;
    }
    e.size += s.size;
    e.bytes.insert(e.bytes.end(), bytes.begin(), bytes.end());
  }

  Object BuildObject() {
    Object& o = obj_;
    o.name = source_name_;
    o.source = source_name_;
    for (int sec = 0; sec < kNumSections; ++sec) {
      o.sections[sec].align = align_[sec];
      o.sections[sec].size = offset_[sec];
      if (sec == kBss) {
        o.sections[sec].bytes.clear();
      } else {
        o.sections[sec].bytes.resize(offset_[sec], 0);
      }
    }
    for (const std::string& name : label_order_) {
      const Sym& s = syms_.at(name);
      ObjSymbol os;
      os.name = name;
      os.section = SectionId(s.section);
      os.offset = s.offset;
      os.global = s.global || s.exported;
      os.exported = s.exported;
      os.type = s.type;
      os.count = s.count;
      o.symbols.push_back(os);
    }
    for (const std::string& name : param_order_) {
      o.params.push_back(ObjParam{name, syms_.at(name).param_default});
    }
    for (const TaskDecl& t : tasks_) {
      o.tasks.push_back(ObjTask{t.entry, t.kind, SymRef{t.id.sym, t.id.num}});
    }
    o.dsds = dsds_;
    o.relocs = relocs_;
    // Canonical order: by section, then offset (definition order among equals).
    std::stable_sort(
        o.symbols.begin(), o.symbols.end(), [](const ObjSymbol& a, const ObjSymbol& b) {
          return std::make_pair(a.section, a.offset) < std::make_pair(b.section, b.offset);
        });
    std::stable_sort(o.relocs.begin(), o.relocs.end(), [](const ObjReloc& a, const ObjReloc& b) {
      return std::make_pair(a.section, a.offset) < std::make_pair(b.section, b.offset);
    });
    std::stable_sort(o.lines.begin(), o.lines.end(), [](const ObjLine& a, const ObjLine& b) {
      return std::make_pair(a.section, a.offset) < std::make_pair(b.section, b.offset);
    });
    std::stable_sort(o.dsds.begin(), o.dsds.end(), [](const ObjDsd& a, const ObjDsd& b) {
      return std::make_pair(a.section, a.offset) < std::make_pair(b.section, b.offset);
    });
    return o;
  }

  AssembleOptions opt_;
  Diagnostics diags_;
  std::string source_name_;
  Pass pass_ = Pass::kFirst;
  int section_ = kText;
  std::array<uint32_t, kNumSections> offset_{};
  std::array<uint32_t, kNumSections> align_{4, 4, 4};
  std::array<bool, kNumSections> overflowed_{};
  int cur_section_ = kText;
  uint32_t cur_offset_ = 0;
  int seq_ = 0;
  std::shared_ptr<const SourceLine> line_;
  std::shared_ptr<const SourceLine> source_;
  bool first_ = true;
  std::string display_;  // the mnemonic as written, for messages
  std::map<std::string, Sym> syms_;
  std::vector<std::string> label_order_;
  std::vector<std::string> param_order_;
  std::map<std::string, int> gpr_alias_, dsr_alias_;
  std::map<int64_t, std::vector<LocalDef>> locals_;
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

}  // namespace

AssembleResult Assemble(const std::string& path, const AssembleOptions& options) {
  return Assembler(options).Run(path, nullptr);
}

AssembleResult AssembleText(const std::string& name, const std::string& text,
                            const AssembleOptions& options) {
  return Assembler(options).Run(name, &text);
}

}  // namespace tessera::assembler
