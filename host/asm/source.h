// Source text as the assembler reads it: files and their lines, `.include`, and the expansion of
// `.macro`, `.rept` and `.if` (docs/isa.md 8.3). Every line handed on keeps the file, line and
// column of the text it came from, so that errors point at what the user wrote; a line produced
// by a macro also knows the chain of invocations that produced it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "asm/diagnostics.h"

namespace tessera::assembler {

// A macro expansion in progress: the macro and where it was invoked.
struct ExpansionFrame {
  std::string macro;
  Location call;
  std::shared_ptr<const ExpansionFrame> parent;
};

struct SourceLine {
  std::string text;
  std::vector<int> columns;  // per byte of text (and one past the end): its 1-based column
  std::string file;          // where the text was written (a macro body's file for expansions)
  int line = 0;
  std::shared_ptr<const ExpansionFrame> expansion;  // null outside macros

  static SourceLine Plain(const std::string& file, int line, const std::string& text);
  Location At(size_t offset) const;
  // Where the statement is in the program as written: the outermost macro invocation, or the
  // line itself. Listings, line records and fault messages use it.
  Location Origin() const;
  // "file:line:col: note: in expansion of macro 'm'" lines, innermost first.
  std::vector<std::string> Notes() const;
  Diagnostic Error(size_t offset, const std::string& message) const;
};

class Preprocessor {
 public:
  // Evaluates the assembly-time constant line.text[begin, end) (for .if and .rept); throws
  // LineError when it cannot.
  using ConstEval = std::function<int64_t(const SourceLine& line, size_t begin, size_t end)>;

  Preprocessor(std::vector<std::string> include_dirs, Diagnostics& diags, ConstEval eval);

  void OpenFile(const std::string& path);  // throws Error when the file cannot be read
  void OpenText(const std::string& name, const std::string& text);

  // The next line for the assembler; false at the end of the input.
  bool Next(SourceLine& line);

  static constexpr int kMaxDepth = 64;         // nested includes and macro expansions
  static constexpr int64_t kMaxRept = 100000;  // .rept count

 private:
  struct Macro {
    std::string name;
    std::vector<std::string> params;
    std::vector<std::string> defaults;  // "" with has_default false: required
    std::vector<bool> has_default;
    std::vector<SourceLine> body;
    Location defined_at;
  };
  struct Frame {
    std::shared_ptr<const std::vector<SourceLine>> lines;
    size_t next = 0;
    int64_t repeats_left = 0;  // .rept: further passes over lines
    size_t cond_depth = 0;     // the conditional stack's size when the frame started
    std::string dir;           // directory for .include (files only)
    bool is_file = false;
    bool is_macro = false;
  };
  struct Cond {
    Location where;
    bool parent_active = true;
    bool active = false;  // this branch is being assembled
    bool taken = false;   // some branch has been assembled
    bool seen_else = false;
  };
  struct Head;  // the first word of a line, after its labels

  void PushFile(const std::string& path, const std::string& text, const Location& from);
  void PopFrame();
  bool Active() const;
  bool HandleConditional(const SourceLine& line, const Head& h);
  std::vector<SourceLine> CollectBody(const SourceLine& open, const std::string& open_word,
                                      const std::string& close_word);
  void DefineMacro(const SourceLine& line, const Head& h);
  void ExpandMacro(const SourceLine& line, const Head& h, const Macro& m);
  void Include(const SourceLine& line, const Head& h);
  void Rept(const SourceLine& line, const Head& h);
  int64_t Evaluate(const SourceLine& line, size_t begin, const char* directive);
  void Fail(const SourceLine& line, size_t offset, const std::string& message);

  std::vector<std::string> include_dirs_;
  Diagnostics& diags_;
  ConstEval eval_;
  std::vector<Frame> frames_;
  std::vector<Cond> conds_;
  std::map<std::string, Macro> macros_;
  int64_t expansions_ = 0;             // the \@ counter
  std::optional<SourceLine> pending_;  // the rest of a line whose labels were handed on
};

}  // namespace tessera::assembler
