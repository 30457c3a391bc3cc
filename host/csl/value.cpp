#include "csl/value.h"

#include <fmt/format.h>

#include "csl/ast.h"

namespace tessera::csl {

Value Value::Void() {
  Value v;
  v.type = types::Void();
  return v;
}
Value Value::Bool(bool b) {
  Value v;
  v.k = K::kBool;
  v.i = b;
  v.type = types::Bool();
  return v;
}
Value Value::Int(int64_t x, TypeP t) {
  Value v;
  v.k = K::kInt;
  v.i = x;
  v.type = std::move(t);
  return v;
}
Value Value::CInt(int64_t x) { return Int(x, types::CInt()); }
Value Value::Float(double x, TypeP t) {
  Value v;
  v.k = K::kFloat;
  v.f = x;
  v.type = std::move(t);
  return v;
}
Value Value::String(std::string s) {
  Value v;
  v.k = K::kString;
  v.s = std::move(s);
  v.type = types::CString();
  return v;
}
Value Value::TypeV(TypeP t) {
  Value v;
  v.k = K::kType;
  v.t = std::move(t);
  v.type = types::TypeT();
  return v;
}

const Value* Value::Field(const std::string& name) const {
  if (k != K::kAgg) return nullptr;
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return &elems[i];
  return nullptr;
}

std::string ValueText(const Value& v) {
  switch (v.k) {
    case Value::K::kVoid:
      return "{}";
    case Value::K::kBool:
      return v.i ? "true" : "false";
    case Value::K::kInt:
      if (v.type && v.type->kind != TypeKind::kCInt && v.type->kind != TypeKind::kInt)
        return fmt::format("{}({})", TypeName(v.type), v.i);
      return std::to_string(v.i);
    case Value::K::kFloat:
      return fmt::format("{}", v.f);
    case Value::K::kString:
      return fmt::format("\"{}\"", v.s);
    case Value::K::kType:
      return TypeName(v.t);
    case Value::K::kAgg: {
      std::string s = ".{";
      for (size_t i = 0; i < v.elems.size(); ++i) {
        if (i) s += ", ";
        if (i < v.names.size()) s += "." + v.names[i] + " = ";
        s += ValueText(v.elems[i]);
      }
      return s + "}";
    }
    case Value::K::kFn:
      return v.node ? "fn " + v.node->text : "fn " + v.s;
    case Value::K::kModule:
      return "module";
    case Value::K::kPtr:
      return fmt::format("&{}+{}", v.s, v.i);
    case Value::K::kDsd:
      return "dsd";
    case Value::K::kTensor:
      return "tensor access";
    case Value::K::kUndefined:
      return "undefined";
  }
  return "?";
}

}  // namespace tessera::csl
