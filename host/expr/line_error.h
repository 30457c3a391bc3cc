// An error at a byte offset of the line being parsed: what lexers, the expression parser, the
// arithmetic of expressions (expr/arith.h) and operand parsers throw. The code that owns the line
// turns it into a message with the line's file:line:column (the assembler through
// SourceLine::Error, the layout through its statement's Location).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace tessera::expr {

class LineError : public std::runtime_error {
 public:
  LineError(size_t pos, const std::string& message) : std::runtime_error(message), pos_(pos) {}
  size_t pos() const { return pos_; }

 private:
  size_t pos_;
};

}  // namespace tessera::expr
