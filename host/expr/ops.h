// The operators of Tessera's integer expressions (assembly, docs/assembler.md; layouts,
// docs/layout.md), written once: their spellings and C's precedence. The lexers take the
// spellings from here (PunctLength), the parser the precedence, the arithmetic (expr/arith.h)
// gives them their meaning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessera::expr {

enum class Op : uint8_t {
  // Binary.
  kMul,
  kDiv,
  kMod,
  kAdd,
  kSub,
  kShl,
  kShr,
  kLt,
  kLe,
  kGt,
  kGe,
  kEq,
  kNe,
  kAnd,
  kXor,
  kOr,
  kLAnd,
  kLOr,
  // Unary.
  kNeg,
  kPlus,
  kNot,
  kBitNot,
};

struct OpInfo {
  Op op;
  const char* text;
  int prec;  // binary operators: C's precedence, higher binds tighter; unary: 0
};

// Every binary operator is left associative; `c ? a : b` (the parser's) binds loosest of all and
// groups to the right.
inline constexpr OpInfo kBinaryOps[] = {
    {Op::kMul, "*", 10},  {Op::kDiv, "/", 10}, {Op::kMod, "%", 10}, {Op::kAdd, "+", 9},
    {Op::kSub, "-", 9},   {Op::kShl, "<<", 8}, {Op::kShr, ">>", 8}, {Op::kLt, "<", 7},
    {Op::kLe, "<=", 7},   {Op::kGt, ">", 7},   {Op::kGe, ">=", 7},  {Op::kEq, "==", 6},
    {Op::kNe, "!=", 6},   {Op::kAnd, "&", 5},  {Op::kXor, "^", 4},  {Op::kOr, "|", 3},
    {Op::kLAnd, "&&", 2}, {Op::kLOr, "||", 1},
};

inline constexpr OpInfo kUnaryOps[] = {
    {Op::kNeg, "-", 0},
    {Op::kPlus, "+", 0},
    {Op::kNot, "!", 0},
    {Op::kBitNot, "~", 0},
};

// The rest of an expression's punctuation: grouping, a call's arguments, the conditional.
inline constexpr const char* kPunctuation[] = {"(", ")", ",", "?", ":"};

// The binary (unary) operator spelled `text`, or nullptr.
const OpInfo* FindBinary(std::string_view text);
const OpInfo* FindUnary(std::string_view text);

// How `op` is written ("<<").
const char* Spelling(Op op);

// The length of the longest operator or punctuation spelled at text[i], 0 if none: a lexer reads
// "<<=" as "<<" then whatever '=' is to it.
size_t PunctLength(std::string_view text, size_t i);

}  // namespace tessera::expr
