// Compile-time values: what the comptime interpreter computes and what the code generator knows
// about an expression whose value is fixed before the program runs (docs/csl.md, "Comptime").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "csl/types.h"

namespace tessera::csl {

struct Node;
class ModuleInst;
struct DsdValue;

struct Value {
  enum class K : uint8_t {
    kVoid,
    kBool,    // i
    kInt,     // i; type: an integer, comptime_int, color, queue, task ID, direction, enum
    kFloat,   // f; type f16, f32 or comptime_float
    kString,  // s
    kType,    // t
    kAgg,     // elems (names: field names, empty for tuples and arrays); type: comptime_struct,
              // a struct or an array
    kFn,      // node: the kFnDecl; mod: its module instance. Native library functions: s = name
    kModule,  // mod
    kPtr,     // s = symbol, i = byte offset; type: the pointer type
    kDsd,     // dsd
    kTensor,  // node: the kTensorAccess (evaluated where it is used)
    kUndefined,
  };
  K k = K::kVoid;
  TypeP type;
  int64_t i = 0;
  double f = 0;
  std::string s;
  TypeP t;
  std::vector<std::string> names;
  std::vector<Value> elems;
  const Node* node = nullptr;
  ModuleInst* mod = nullptr;
  std::shared_ptr<const DsdValue> dsd;

  static Value Void();
  static Value Bool(bool b);
  static Value Int(int64_t v, TypeP t);
  static Value CInt(int64_t v);
  static Value Float(double v, TypeP t);
  static Value String(std::string s);
  static Value TypeV(TypeP t);

  // The field `name` of a struct value, or null.
  const Value* Field(const std::string& name) const;
};

// A DSD known at compile time: everything the assembler's `.dsd` directive needs.
struct DsdValue {
  DsdKind kind = DsdKind::kMem1d;
  TypeP elem;                 // element type
  std::string base_symbol;    // memory DSDs: the array
  int64_t base_offset = 0;    // bytes from the symbol
  int64_t length = 0;         // elements; 0x7FFF unbounded
  int64_t stride = 1;         // mem1d: elements
  std::vector<int64_t> lens;  // mem4d: dimensions 1..3
  std::vector<int64_t> strides;
  int color = -1;  // fabric DSDs
  int queue = -1;  // fabin: the input queue, fabout: the output queue
  bool control = false;
  bool index = false;  // fabout: wavelet_index_offset
  int dsr = -1;        // @get_dsr: the descriptor register it names (the rest is unused)
};

// A canonical text of a value, for keys (the specialisation of a program by its params) and
// messages.
std::string ValueText(const Value& v);

}  // namespace tessera::csl
