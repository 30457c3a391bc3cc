// What names mean, in both passes (asm/assembler_impl.h): the symbol table of labels, constants,
// params and .global names, the values expressions get for them (the SymbolContext that
// asm/expr.h asks), local labels and task IDs, and the messages for names that have none. Pass 1
// defines symbols (parse.cpp calls DefineLabel, CheckNewName); an .equ whose value pass 1 cannot
// know yet waits as pending until FinishPass1; pass 2 reads the complete table.
#include <fmt/core.h>

#include <algorithm>

#include "asm/assembler_impl.h"
#include "asm/predefined.h"
#include "util/enum_names.h"

namespace tessera::assembler::internal {
namespace {

// Levenshtein distance, for "did you mean".
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

constexpr util::EnumName<Sym::Kind> kKindWordTable[] = {
    {Sym::Kind::kLabel, "a label"},
    {Sym::Kind::kEqu, "a constant (.equ)"},
    {Sym::Kind::kParam, "a param"},
    {Sym::Kind::kDefine, "a constant given with -D"},
    {Sym::Kind::kGlobalDecl, "a .global symbol"},
};

}  // namespace

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

const char* KindWord(Sym::Kind k) { return util::NameOf(kKindWordTable, k); }

// A name, looked up in this order: ".", registers (an error), section names, a task's entry label
// where a task is expected, the file's symbols, the predefined symbols, __end and __sram_end. In
// pass 1 a name not known yet throws NotYetDefined: the caller decides whether it can wait (an
// .equ, the size of li) or is an error (.space N before N is defined).
Value Assembler::Lookup(const Token& t, bool task_context) {
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
        // Not known yet: circular if it is being computed, computed now if pass 1 left it
        // pending, else defined later in the file.
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
        // Declared .global: a label of this file later in pass 1, or an import.
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

// `1f`: the first `1:` after this line; `1b`: the last `1:` at or before it.
Value Assembler::LocalLabel(const Token& ref) {
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

// id(NAME): the ID of the task whose entry is NAME; for an import, the linker's id(NAME).
Value Assembler::TaskId(const Token& t) {
  std::optional<Value> id = BoundTaskId(t.text, t.pos);
  if (id) return *id;
  const auto it = syms_.find(t.text);
  if (it != syms_.end() && it->second.kind == Sym::Kind::kGlobalDecl) {
    if (pass_ == Pass::kFirst) throw NotYetDefined{t.text, t.pos};
    return Value{0, "id(" + t.text + ")"};
  }
  if (pass_ == Pass::kFirst && it == syms_.end()) throw NotYetDefined{t.text, t.pos};
  throw LineError(
      t.pos, fmt::format("id({}): '{}' is not the entry label of a task (.task)", t.text, t.text));
}

std::optional<std::pair<int, int64_t>> Assembler::Position(const std::string& sym) {
  if (const auto s = ParseSectionName(sym)) return std::make_pair(static_cast<int>(*s), 0);
  const auto it = syms_.find(sym);
  if (it != syms_.end() && it->second.kind == Sym::Kind::kLabel) {
    return std::make_pair(it->second.section, int64_t(it->second.offset));
  }
  return std::nullopt;
}

std::optional<int> Assembler::Gpr(const std::string& name) const {
  if (auto r = ParseGpr(name)) return r;
  const auto it = gpr_alias_.find(name);
  if (it != gpr_alias_.end()) return it->second;
  return std::nullopt;
}

std::optional<int> Assembler::Dsr(const std::string& name) const {
  if (auto r = ParseDsr(name)) return r;
  const auto it = dsr_alias_.find(name);
  if (it != dsr_alias_.end()) return it->second;
  return std::nullopt;
}

Value Assembler::Here() const {
  if (pass_ == Pass::kSecond) return Value{cur_offset_, SectionName(SectionId(cur_section_))};
  return Value{offset_[section_], SectionName(SectionId(section_))};
}

std::string Assembler::UndefinedMessage(const std::string& name) const {
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

std::optional<Value> Assembler::BoundTaskId(const std::string& name, size_t pos) {
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

// Evaluates at the definition's own line and sequence number, so that "." and local labels mean
// what they meant there; restores the current ones after.
void Assembler::ComputePending(const std::string& name, Sym& s, size_t pos) {
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

int64_t Assembler::Const(const std::vector<Token>& toks, size_t b, size_t e,
                         const std::string& what) {
  if (b >= e) {
    throw LineError(b < toks.size() ? toks[b].pos : line_->text.size(),
                    fmt::format("{} is missing", what));
  }
  return EvaluateConst(toks, b, e, *this, what);
}

int64_t Assembler::EvalPp(const SourceLine& l, size_t begin, size_t end) {
  // Lexed from the line's start so that token positions are the line's columns.
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

Value Assembler::Eval(const Stmt& s, size_t b, size_t e, bool task) {
  return Evaluate(s.toks, b, e, *this, task);
}

void Assembler::CheckNewName(const std::string& name, size_t pos, Sym::Kind kind) {
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
  // A constant may be redefined; a label may be declared .global before it is defined.
  if (kind == Sym::Kind::kEqu && s.kind == Sym::Kind::kEqu) return;
  if (kind == Sym::Kind::kLabel && s.kind == Sym::Kind::kGlobalDecl) return;
  throw LineError(pos, fmt::format("'{}' is already defined as {}{}", name, KindWord(s.kind),
                                   s.where.file.empty() ? "" : " at " + s.where.ToString()));
}

void Assembler::Define(const std::string& name, int64_t v) {
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

void Assembler::DefineLabel(const Token& t) {
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

}  // namespace tessera::assembler::internal
