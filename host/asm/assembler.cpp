// The assembler's driver (asm/assembler.h, asm/assembler_impl.h): pass 1 over every line the
// preprocessor hands on (parse.cpp), the checks that need every label (pending .equ, uses before
// definition, .task and .export), pass 2 over every statement (the bank note, then encode.cpp),
// and the object: sections, symbols, params, tasks, descriptors, relocations, line records, and
// the listing.
#include "asm/assembler.h"

#include <fmt/core.h>

#include <algorithm>
#include <set>

#include "asm/assembler_impl.h"

namespace tessera::assembler {
namespace internal {

AssembleResult Assembler::Run(const std::string& name, const std::string* text) {
  source_name_ = name;
  Preprocessor pp(opt_.include_dirs, diags_,
                  [this](const SourceLine& l, size_t b, size_t e) { return EvalPp(l, b, e); });
  if (text) {
    pp.OpenText(name, *text);
  } else {
    pp.OpenFile(name);
  }
  for (const auto& [dname, v] : opt_.defines) Define(dname, v);
  // Pass 1 reads each line as the preprocessor expands it (includes, macros, .rept, .if).
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

// Between the passes every label is known: what pass 1 had to leave is settled here.
void Assembler::FinishPass1() {
  pass_ = Pass::kFinish;
  // An .equ whose value used a later label or constant.
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
  // A statement that needed a value in pass 1 (the size of .space, an alignment, a param's
  // default) from a name not defined by then: each such use is an error, saying why.
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
  // The .task lines: entries and IDs, each ID bound once.
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
  // The .export lines: each names a label of this file once.
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

void Assembler::FinishTask(TaskDecl& t) {
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

void Assembler::Pass2() {
  pass_ = Pass::kSecond;
  // .reg aliases hold from their line on: pass 2 applies them again as it meets them.
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
        // So does Encode (an undefined symbol).
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

void Assembler::Emit(const Stmt& s, const std::vector<uint8_t>& bytes) {
  // The bytes, at the statement's offset (.bss has none).
  if (s.section != kBss && !bytes.empty()) {
    std::vector<uint8_t>& sec = obj_.sections[s.section].bytes;
    sec.resize(s.offset);
    sec.insert(sec.end(), bytes.begin(), bytes.end());
  }
  // A line record where the source line changes within a section (for fault messages and the
  // disassembler); padding and .space make none.
  if (s.size > 0 && s.op != Stmt::Op::kBytes) {
    const Location o = s.loc ? *s.loc : s.line->Origin();
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
  // One listing entry per source line: a line's further statements (a pseudo's instructions, the
  // items after a label) add their bytes to it.
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

Object Assembler::BuildObject() {
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
    o.tasks.push_back(ObjTask{t.entry, t.kind, SymRef{t.id.sym, t.id.num}, t.active, t.blocked});
  }
  o.dsds = dsds_;
  o.relocs = relocs_;
  // Canonical order: by section, then offset (definition order among equals).
  std::stable_sort(o.symbols.begin(), o.symbols.end(), [](const ObjSymbol& a, const ObjSymbol& b) {
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

}  // namespace internal

AssembleResult Assemble(const std::string& path, const AssembleOptions& options) {
  return internal::Assembler(options).Run(path, nullptr);
}

AssembleResult AssembleText(const std::string& name, const std::string& text,
                            const AssembleOptions& options) {
  return internal::Assembler(options).Run(name, &text);
}

}  // namespace tessera::assembler
