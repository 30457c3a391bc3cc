// Errors of the assembler, the object reader and the linker, as the user sees them:
// `file:line:column: error: message`, one line per problem, with notes (macro expansions) after
// it. Everything user-facing is thrown as assembler::Error; the CLI prints what() and exits 2.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "expr/line_error.h"

namespace tessera::assembler {

// A place in a source or object file. line and column are 1-based; column 0 means "the whole
// line" and line 0 "the whole file" (then they are left out of the text).
struct Location {
  std::string file;
  int line = 0;
  int column = 0;
  std::string ToString() const;
};

struct Diagnostic {
  Location loc;
  std::string message;
  std::vector<std::string> notes;  // complete lines: "f.s:3:5: note: in expansion of macro 'm'"
  int order = 0;                   // where the problem is in the program, for sorting
  bool warning = false;            // a note that does not stop the tool ("warning:")
  std::string Format() const;      // the error line, then the notes, joined by newlines
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::vector<Diagnostic> diags);
  Error(const Location& loc, const std::string& message);
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }

 private:
  std::vector<Diagnostic> diags_;
};

// An error at a byte offset of the line being parsed (lexer, expressions, operands). The code
// that owns the line turns it into a Diagnostic with the line's file:line:column.
using expr::LineError;

// The errors of one run, so that several can be reported together, in program order (the
// order set when each was added; a multi-pass tool finds them out of order). Past kLimit
// errors, Add throws what it has.
class Diagnostics {
 public:
  static constexpr size_t kLimit = 50;
  void Add(Diagnostic d);
  void Add(const Location& loc, const std::string& message);
  void SetOrder(int order) { order_ = order; }
  bool empty() const { return diags_.empty(); }
  size_t size() const { return diags_.size(); }
  void ThrowIfAny() const;

 private:
  std::vector<Diagnostic> diags_;
  int order_ = 0;
};

}  // namespace tessera::assembler
