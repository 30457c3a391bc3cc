// Expressions of assembly (docs/isa.md 8.1, docs/assembler.md): the shared expression library
// (host/expr: C's operators and precedence on 64-bit integers, `/` and `%` rounding toward minus
// infinity, overflow, division by zero and bad shift counts as errors; `&&`, `||` and `?:`
// evaluate only the side taken, though every name must be defined) over the assembler's tokens,
// with what only assembly has: the functions lo, hi, f32, f16 and id, local labels, "." and
// link-time values. A link-time value is a symbol whose address or value only the linker knows
// (a label, a param, a symbol of another object); an expression may use one only as `sym + c` or
// `sym - c`, optionally inside lo() or hi() (docs/isa.md 8.3). The difference of two labels of
// one section is a constant.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asm/lexer.h"
#include "asm/real.h"

namespace tessera::assembler {

enum class Wrap : uint8_t { kNone, kLo, kHi };

struct Value {
  int64_t num = 0;          // the constant, or the addend of sym
  std::string sym;          // empty: a constant
  Wrap wrap = Wrap::kNone;  // lo() or hi() of sym + num
  bool IsConst() const { return sym.empty(); }
  std::string ToString() const;  // "12", "y+4", "RX", "hi(x-8)"
};

// Thrown by a SymbolContext during the first pass for a symbol that is not defined yet.
struct NotYetDefined {
  std::string name;
  size_t pos = 0;
};

// What the expression evaluator asks the assembler. Lookup and friends throw LineError (or
// NotYetDefined) for names that have no value.
class SymbolContext {
 public:
  virtual ~SymbolContext() = default;
  // An identifier (never a register name); in a task context a task's entry label stands for
  // the task's ID. "." is the current location.
  virtual Value Lookup(const Token& ident, bool task_context) = 0;
  virtual Value LocalLabel(const Token& ref) = 0;  // 1b, 1f
  virtual Value TaskId(const Token& ident) = 0;    // id(NAME)
  // A link-time symbol defined in this file (label or section): its section and offset.
  virtual std::optional<std::pair<int, int64_t>> Position(const std::string& sym) = 0;
  // The column of a byte offset of the line the tokens come from, for a message that names a
  // second place ("the '(' at column 7").
  virtual int Column(size_t pos) const = 0;
};

Value Evaluate(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
               bool task_context = false);

// An assembly-time constant; `what` names the place for the message ("`.space` count").
int64_t EvaluateConst(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
                      const std::string& what);

// A .f32/.f16 item or the argument of f32()/f16(): a real or integer literal with an optional
// sign, inf or nan; or a constant integer expression, converted exactly. Rounded to nearest
// even; a finite value that rounds to infinity is an error.
uint32_t EvaluateReal(const std::vector<Token>& toks, size_t begin, size_t end, SymbolContext& ctx,
                      RealFormat format);

}  // namespace tessera::assembler
