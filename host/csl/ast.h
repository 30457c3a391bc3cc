// The syntax tree of a CSL file. One node type with a kind; the comment on each kind says what
// its fields and children hold (a child may be null where it says "optional"). Expressions,
// types and statements are all nodes: in CSL types are comptime values, so `[N]f32`, `*T` and
// `fn(i16) void` are expressions the compile-time interpreter evaluates.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "csl/source.h"

namespace tessera::csl {

enum class NodeKind : uint8_t {
  // Expressions
  kIntLit,        // ival
  kFloatLit,      // fval
  kStringLit,     // text
  kBoolLit,       // ival 0/1
  kUndefined,     // `undefined`
  kIdent,         // text
  kEnumLit,       // `.name`: text
  kBuiltinCall,   // text = name without '@'; kids = arguments
  kCall,          // kids[0] = callee, kids[1..] = arguments
  kField,         // kids[0].text
  kIndex,         // kids[0][kids[1], ...]
  kDeref,         // kids[0].*
  kUnary,         // text = "-", "!", "~", "&"; kids[0]
  kBinary,        // text = operator ("+", "<<", "and", "==", ...); kids[0], kids[1]
  kInitList,      // `.{...}` (kids[0] null) or `T{...}` (kids[0] = T); kids[1..] = kFieldInit or
                  // plain expressions (a tuple or array elements)
  kFieldInit,     // `.name = kids[0]`
  kArrayType,     // `[d0, d1]T`: kids[0] = element type, kids[1..] = dimensions
  kPtrType,       // `*T` (ival 0) or `[*]T` (ival 1); flags kConst; kids[0] = pointee
  kFnType,        // `fn(T0, T1) R`: kids = parameter types, then the return type
  kStructType,    // `struct { a: T = d, ... }`: kids = kParam (name, type, default optional)
  kEnumType,      // `enum(T) { a, b = 3 }`: kids[0] = tag type (optional), kids[1..] = kParam
                  // (name, kids[0] null, kids[1] = value optional)
  kIfExpr,        // kids: condition, then, else (optional)
  kSwitch,        // kids[0] = subject, kids[1..] = kSwitchCase
  kSwitchCase,    // kids = values..., body (last); flags kElse for `else =>`
  kTensorAccess,  // `|i, j|{M, N} -> A[i, j]`: names = indices, kids = extents..., access last
  kComptimeExpr,  // `comptime e`: kids[0]
  kBlock,         // `{ ... }` or `label: { ... }`: text = label; kids = statements

  // Statements and declarations
  kVarDecl,        // text = name; flags kConst/kVar/kParam, kComptime, kExport, kExtern;
                   // kids: type, initializer, align, linksection (each optional)
  kParam,          // a function parameter or struct field: text = name; flags kComptime;
                   // kids[0] = type, kids[1] = default (optional)
  kFnDecl,         // text = name; flags kTask, kInline, kExport, kExtern; ival = parameter count;
                   // kids = kParam..., return type, body (kBlock; null when extern)
  kComptimeBlock,  // kids[0] = kBlock
  kLayoutBlock,    // kids[0] = kBlock
  kAssign,         // text = "=", "+=", ...; kids[0] = target, kids[1] = value
  kExprStmt,       // kids[0]
  kIf,             // kids: condition, then, else (optional)
  kWhile,          // text = label; flags kInline; kids: condition, continue statement
                   // (optional), body
  kFor,            // text = label; flags kInline; names = captures; kids: iterable, body
  kReturn,         // kids[0] optional
  kBreak,          // text = label; kids[0] = value (optional)
  kContinue,       // text = label
  kFile,           // the whole file: kids = top-level declarations and blocks
};

enum NodeFlag : uint32_t {
  kFlagConst = 1u << 0,
  kFlagVar = 1u << 1,
  kFlagParam = 1u << 2,
  kFlagComptime = 1u << 3,
  kFlagExport = 1u << 4,
  kFlagExtern = 1u << 5,
  kFlagInline = 1u << 6,
  kFlagTask = 1u << 7,
  kFlagElse = 1u << 8,
};

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Node {
  NodeKind kind;
  Loc loc;
  std::string text;
  int64_t ival = 0;
  double fval = 0;
  uint32_t flags = 0;
  std::vector<std::string> names;
  std::vector<NodePtr> kids;

  Node(NodeKind k, Loc l) : kind(k), loc(l) {}
  const Node* kid(size_t i) const { return i < kids.size() ? kids[i].get() : nullptr; }
  bool has(uint32_t f) const { return (flags & f) != 0; }
};

const char* NodeKindName(NodeKind k);
// An S-expression of the tree, for tests and `cslc --dump-ast`.
std::string Dump(const Node& n);

}  // namespace tessera::csl
