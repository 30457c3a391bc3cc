// CSL's types (docs/csl.md, "Types"). A type is a comptime value; one shared, immutable object
// per distinct type where identity matters (structs, enums), structural equality otherwise.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera::csl {

struct Node;
struct Type;
using TypeP = std::shared_ptr<const Type>;

enum class TypeKind : uint8_t {
  kVoid,
  kBool,
  kInt,      // bits 8/16/32/64, is_signed
  kFloat,    // bits 16/32
  kCInt,     // comptime_int
  kCFloat,   // comptime_float
  kCString,  // comptime_string
  kCStruct,  // comptime_struct: anonymous struct and tuple values `.{...}`
  kType,
  kArray,  // elem, dims (row major)
  kPtr,    // elem = pointee; many (`[*]T`), is_const
  kFn,     // params, ret, task
  kStruct,
  kEnum,
  kColor,
  kInQueue,
  kOutQueue,
  kLocalTask,
  kDataTask,
  kControlTask,
  kDirection,
  kDsd,  // dsd: mem1d, mem4d, fabin, fabout
  kModule,
  kUndefined,  // the type of `undefined`
  kNoReturn,   // what return, break and continue evaluate to
};

enum class DsdKind : uint8_t { kMem1d, kMem4d, kFabin, kFabout, kFifo };

struct Type {
  TypeKind kind = TypeKind::kVoid;
  int bits = 0;
  bool is_signed = false;
  TypeP elem;
  std::vector<int64_t> dims;
  bool many = false;
  bool is_const = false;
  std::vector<TypeP> params;
  TypeP ret;
  bool task = false;
  DsdKind dsd = DsdKind::kMem1d;
  // kStruct, kEnum: a name for messages, and what identifies the type.
  std::string name;
  int id = 0;
  std::vector<std::string> field_names;  // kStruct fields, kEnum items
  std::vector<TypeP> field_types;        // kStruct
  std::vector<const Node*> field_defaults;
  std::vector<int64_t> item_values;  // kEnum
  TypeP tag;                         // kEnum

  bool IsInt() const { return kind == TypeKind::kInt; }
  bool IsFloat() const { return kind == TypeKind::kFloat; }
  bool IsNumeric() const {
    return kind == TypeKind::kInt || kind == TypeKind::kFloat || kind == TypeKind::kCInt ||
           kind == TypeKind::kCFloat;
  }
  bool IsComptimeOnly() const;
  int64_t Count() const;  // kArray: elements
};

namespace types {
TypeP Void();
TypeP Bool();
TypeP Int(int bits, bool is_signed);
TypeP Float(int bits);
TypeP CInt();
TypeP CFloat();
TypeP CString();
TypeP CStruct();
TypeP TypeT();
TypeP Undefined();
TypeP NoReturn();
TypeP Module();
TypeP Simple(TypeKind k);  // color, queues, task ids, direction
TypeP Dsd(DsdKind k);
TypeP Array(TypeP elem, std::vector<int64_t> dims);
TypeP Ptr(TypeP elem, bool many, bool is_const);
TypeP Fn(std::vector<TypeP> params, TypeP ret, bool task);
// The type a builtin type name stands for (i16, f32, color, mem1d_dsd, ...), or null.
TypeP Named(const std::string& name);
}  // namespace types

bool SameType(const TypeP& a, const TypeP& b);
std::string TypeName(const TypeP& t);
// A value a general register holds: bool, integers and floats up to 32 bits, pointers, enums,
// colors, queues, task IDs, directions.
bool IsRegisterScalar(const TypeP& t);
// Bytes in memory; 0 for comptime-only types and void.
int64_t SizeOf(const TypeP& t);
int64_t AlignOf(const TypeP& t);
// The byte offset of field i of a struct (each field aligned to its type).
int64_t FieldOffset(const TypeP& t, size_t i);
// The element type class of a DSD over `t` (the assembler's f32, f16, i32, u32, i16, u16), or "".
std::string DsdElemName(const TypeP& t);

}  // namespace tessera::csl
