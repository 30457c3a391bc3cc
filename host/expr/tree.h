// A parsed expression (expr/parser.h): a flat array of nodes that name their tokens by index,
// so that a tree is cheap to keep (the layout evaluates one per PE) and to walk (expr/eval.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "expr/ops.h"

namespace tessera::expr {

enum class NodeKind : uint8_t {
  kOperand,  // one token that is not punctuation: a number, a name, or a token only its user knows
  kCall,     // NAME(arguments...)
  kUnary,    // OP operand
  kBinary,   // operand OP operand
  kCond,     // c ? a : b
};

struct Node {
  NodeKind kind = NodeKind::kOperand;
  Op op = Op::kAdd;           // kUnary, kBinary
  size_t tok = 0;             // the operand, the function's name, the operator, or the '?'
  size_t begin = 0, end = 0;  // the tokens the node spans, [begin, end)
  uint32_t first = 0;         // its operands (a call's arguments) are Tree::operands[first ...
  uint32_t count = 0;         // ... first + count)
};

struct Tree {
  std::vector<Node> nodes;         // each after its operands, so the root is the last
  std::vector<uint32_t> operands;  // indices into nodes

  const Node& root() const { return nodes.back(); }
  const Node& operand(const Node& n, size_t i) const { return nodes[operands[n.first + i]]; }
};

}  // namespace tessera::expr
