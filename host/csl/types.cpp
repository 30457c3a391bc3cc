#include "csl/types.h"

#include <fmt/format.h>

#include <map>

namespace tessera::csl {

bool Type::IsComptimeOnly() const {
  switch (kind) {
    case TypeKind::kCInt:
    case TypeKind::kCFloat:
    case TypeKind::kCString:
    case TypeKind::kCStruct:
    case TypeKind::kType:
    case TypeKind::kModule:
    case TypeKind::kUndefined:
      return true;
    case TypeKind::kArray:
      return elem->IsComptimeOnly();
    default:
      return false;
  }
}

int64_t Type::Count() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

namespace types {
namespace {
std::shared_ptr<Type> Make(TypeKind k) {
  auto t = std::make_shared<Type>();
  t->kind = k;
  return t;
}
}  // namespace

#define TESSERA_CSL_SINGLETON(Fn, K) \
  TypeP Fn() {                       \
    static const TypeP t = Make(K);  \
    return t;                        \
  }
TESSERA_CSL_SINGLETON(Void, TypeKind::kVoid)
TESSERA_CSL_SINGLETON(Bool, TypeKind::kBool)
TESSERA_CSL_SINGLETON(CInt, TypeKind::kCInt)
TESSERA_CSL_SINGLETON(CFloat, TypeKind::kCFloat)
TESSERA_CSL_SINGLETON(CString, TypeKind::kCString)
TESSERA_CSL_SINGLETON(CStruct, TypeKind::kCStruct)
TESSERA_CSL_SINGLETON(TypeT, TypeKind::kType)
TESSERA_CSL_SINGLETON(Undefined, TypeKind::kUndefined)
TESSERA_CSL_SINGLETON(NoReturn, TypeKind::kNoReturn)
TESSERA_CSL_SINGLETON(Module, TypeKind::kModule)
#undef TESSERA_CSL_SINGLETON

TypeP Int(int bits, bool is_signed) {
  static std::map<std::pair<int, bool>, TypeP> cache;
  TypeP& t = cache[{bits, is_signed}];
  if (!t) {
    auto n = Make(TypeKind::kInt);
    n->bits = bits;
    n->is_signed = is_signed;
    t = n;
  }
  return t;
}

TypeP Float(int bits) {
  static const TypeP f16 = [] {
    auto n = Make(TypeKind::kFloat);
    n->bits = 16;
    return TypeP(n);
  }();
  static const TypeP f32 = [] {
    auto n = Make(TypeKind::kFloat);
    n->bits = 32;
    return TypeP(n);
  }();
  return bits == 16 ? f16 : f32;
}

TypeP Simple(TypeKind k) {
  static std::map<TypeKind, TypeP> cache;
  TypeP& t = cache[k];
  if (!t) t = Make(k);
  return t;
}

TypeP Dsd(DsdKind k) {
  static std::map<DsdKind, TypeP> cache;
  TypeP& t = cache[k];
  if (!t) {
    auto n = std::make_shared<Type>();
    n->kind = TypeKind::kDsd;
    n->dsd = k;
    t = n;
  }
  return t;
}

TypeP Array(TypeP elem, std::vector<int64_t> dims) {
  auto n = std::make_shared<Type>();
  n->kind = TypeKind::kArray;
  n->elem = std::move(elem);
  n->dims = std::move(dims);
  return n;
}

TypeP Ptr(TypeP elem, bool many, bool is_const) {
  auto n = std::make_shared<Type>();
  n->kind = TypeKind::kPtr;
  n->elem = std::move(elem);
  n->many = many;
  n->is_const = is_const;
  return n;
}

TypeP Fn(std::vector<TypeP> params, TypeP ret, bool task) {
  auto n = std::make_shared<Type>();
  n->kind = TypeKind::kFn;
  n->params = std::move(params);
  n->ret = std::move(ret);
  n->task = task;
  return n;
}

TypeP Named(const std::string& s) {
  static const std::map<std::string, TypeP> m = {
      {"void", Void()},
      {"bool", Bool()},
      {"i8", Int(8, true)},
      {"u8", Int(8, false)},
      {"i16", Int(16, true)},
      {"u16", Int(16, false)},
      {"i32", Int(32, true)},
      {"u32", Int(32, false)},
      {"i64", Int(64, true)},
      {"u64", Int(64, false)},
      {"f16", Float(16)},
      {"f32", Float(32)},
      {"comptime_int", CInt()},
      {"comptime_float", CFloat()},
      {"comptime_string", CString()},
      {"comptime_struct", CStruct()},
      {"type", TypeT()},
      {"color", Simple(TypeKind::kColor)},
      {"input_queue", Simple(TypeKind::kInQueue)},
      {"output_queue", Simple(TypeKind::kOutQueue)},
      {"local_task_id", Simple(TypeKind::kLocalTask)},
      {"data_task_id", Simple(TypeKind::kDataTask)},
      {"control_task_id", Simple(TypeKind::kControlTask)},
      {"direction", Simple(TypeKind::kDirection)},
      {"mem1d_dsd", Dsd(DsdKind::kMem1d)},
      {"mem4d_dsd", Dsd(DsdKind::kMem4d)},
      {"fabin_dsd", Dsd(DsdKind::kFabin)},
      {"fabout_dsd", Dsd(DsdKind::kFabout)},
      {"imported_module", Module()},
  };
  const auto it = m.find(s);
  return it == m.end() ? nullptr : it->second;
}

}  // namespace types

bool SameType(const TypeP& a, const TypeP& b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return a->bits == b->bits && a->is_signed == b->is_signed;
    case TypeKind::kArray:
      return a->dims == b->dims && SameType(a->elem, b->elem);
    case TypeKind::kPtr:
      return a->many == b->many && a->is_const == b->is_const && SameType(a->elem, b->elem);
    case TypeKind::kFn:
      if (a->params.size() != b->params.size() || a->task != b->task) return false;
      for (size_t i = 0; i < a->params.size(); ++i)
        if (!SameType(a->params[i], b->params[i])) return false;
      return SameType(a->ret, b->ret);
    case TypeKind::kDsd:
      return a->dsd == b->dsd;
    case TypeKind::kStruct:
    case TypeKind::kEnum:
      return a->id == b->id;
    default:
      return true;
  }
}

std::string TypeName(const TypeP& t) {
  if (!t) return "?";
  switch (t->kind) {
    case TypeKind::kVoid:
      return "void";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt:
      return fmt::format("{}{}", t->is_signed ? 'i' : 'u', t->bits);
    case TypeKind::kFloat:
      return fmt::format("f{}", t->bits);
    case TypeKind::kCInt:
      return "comptime_int";
    case TypeKind::kCFloat:
      return "comptime_float";
    case TypeKind::kCString:
      return "comptime_string";
    case TypeKind::kCStruct:
      return "comptime_struct";
    case TypeKind::kType:
      return "type";
    case TypeKind::kArray: {
      std::string d;
      for (size_t i = 0; i < t->dims.size(); ++i) d += (i ? ", " : "") + std::to_string(t->dims[i]);
      return fmt::format("[{}]{}", d, TypeName(t->elem));
    }
    case TypeKind::kPtr:
      return fmt::format("{}{}{}", t->many ? "[*]" : "*", t->is_const ? "const " : "",
                         TypeName(t->elem));
    case TypeKind::kFn: {
      std::string p;
      for (size_t i = 0; i < t->params.size(); ++i) p += (i ? ", " : "") + TypeName(t->params[i]);
      return fmt::format("{}({}) {}", t->task ? "task" : "fn", p, TypeName(t->ret));
    }
    case TypeKind::kStruct:
    case TypeKind::kEnum:
      return t->name;
    case TypeKind::kColor:
      return "color";
    case TypeKind::kInQueue:
      return "input_queue";
    case TypeKind::kOutQueue:
      return "output_queue";
    case TypeKind::kLocalTask:
      return "local_task_id";
    case TypeKind::kDataTask:
      return "data_task_id";
    case TypeKind::kControlTask:
      return "control_task_id";
    case TypeKind::kDirection:
      return "direction";
    case TypeKind::kDsd: {
      static const char* const n[] = {"mem1d_dsd", "mem4d_dsd", "fabin_dsd", "fabout_dsd",
                                      "fifo (of @allocate_fifo)"};
      return n[static_cast<int>(t->dsd)];
    }
    case TypeKind::kModule:
      return "imported_module";
    case TypeKind::kUndefined:
      return "@TypeOf(undefined)";
    case TypeKind::kNoReturn:
      return "noreturn";
  }
  return "?";
}

namespace {
// Colors, queues, task IDs and directions: 16-bit handles.
bool IsHandle(TypeKind k) {
  return k == TypeKind::kColor || k == TypeKind::kLocalTask || k == TypeKind::kDataTask ||
         k == TypeKind::kControlTask || k == TypeKind::kInQueue || k == TypeKind::kOutQueue ||
         k == TypeKind::kDirection;
}
}  // namespace

bool IsRegisterScalar(const TypeP& t) {
  const bool scalar = t->kind == TypeKind::kBool || t->kind == TypeKind::kInt ||
                      t->kind == TypeKind::kFloat || t->kind == TypeKind::kPtr ||
                      t->kind == TypeKind::kEnum || IsHandle(t->kind);
  return scalar && SizeOf(t) > 0 && SizeOf(t) <= 4;
}

int64_t SizeOf(const TypeP& t) {
  if (IsHandle(t->kind)) return 2;
  switch (t->kind) {
    case TypeKind::kBool:
      return 2;
    case TypeKind::kInt:
    case TypeKind::kFloat:
      return t->bits / 8;
    case TypeKind::kArray:
      return SizeOf(t->elem) * t->Count();
    case TypeKind::kPtr:
      return 2;
    case TypeKind::kStruct: {
      int64_t s = 0;
      for (const TypeP& f : t->field_types) {
        const int64_t a = AlignOf(f);
        s = (s + a - 1) / a * a + SizeOf(f);
      }
      const int64_t a = AlignOf(t);
      return (s + a - 1) / a * a;
    }
    case TypeKind::kEnum:
      return SizeOf(t->tag);
    case TypeKind::kDsd:
      return t->dsd == DsdKind::kMem4d ? 16 : 8;
    default:
      return 0;
  }
}

int64_t AlignOf(const TypeP& t) {
  switch (t->kind) {
    case TypeKind::kArray:
      return std::max<int64_t>(AlignOf(t->elem), 2);
    case TypeKind::kDsd:
      return 8;
    case TypeKind::kStruct: {
      int64_t a = 2;
      for (const TypeP& f : t->field_types) a = std::max(a, AlignOf(f));
      return a;
    }
    default:
      return std::max<int64_t>(SizeOf(t), 1);
  }
}

int64_t FieldOffset(const TypeP& t, size_t i) {
  int64_t off = 0;
  for (size_t k = 0; k <= i; ++k) {
    const int64_t a = AlignOf(t->field_types[k]);
    off = (off + a - 1) / a * a;
    if (k < i) off += SizeOf(t->field_types[k]);
  }
  return off;
}

std::string DsdElemName(const TypeP& t) {
  if (t->kind == TypeKind::kFloat) return t->bits == 32 ? "f32" : "f16";
  if (t->kind == TypeKind::kInt && (t->bits == 16 || t->bits == 32))
    return fmt::format("{}{}", t->is_signed ? 'i' : 'u', t->bits);
  return "";
}

}  // namespace tessera::csl
