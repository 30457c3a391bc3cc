// Expressions: folding what is known at compile time, and generating code for the rest.
#include <cmath>
#include <limits>

#include "csl/compiler.h"
#include "csl/sema.h"

namespace tessera::csl {
namespace {

bool IsCompare(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=";
}

bool FitsIn(int64_t v, const TypeP& t) {
  if (t->bits >= 64) return t->is_signed || v >= 0;
  if (t->is_signed) {
    const int64_t lo = -(int64_t(1) << (t->bits - 1));
    return v >= lo && v < -lo;
  }
  return v >= 0 && v < (int64_t(1) << t->bits);
}

// The value of v's bits as an integer of type t (wrapping, as the machine does).
int64_t Wrap(int64_t v, const TypeP& t) {
  if (t->kind != TypeKind::kInt || t->bits >= 64) return v;
  const uint64_t mask = (uint64_t(1) << t->bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (t->is_signed && (u >> (t->bits - 1))) u |= ~mask;
  return static_cast<int64_t>(u);
}

double RoundFloat(double v, const TypeP& t) {
  if (t->kind != TypeKind::kFloat) return v;
  if (t->bits == 32) return static_cast<double>(static_cast<float>(v));
  // f16: round to 11 significant bits, nearest even, with f16's range and subnormals.
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  const double a = std::fabs(v);
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = std::max(e - 1, -14);
  const double quantum = std::ldexp(1.0, exp - 10);
  double r = std::nearbyint(a / quantum) * quantum;
  if (r > 65504.0) r = std::numeric_limits<double>::infinity();
  return std::copysign(r, v);
}

bool IsIntLike(const TypeP& t) {
  switch (t->kind) {
    case TypeKind::kInt:
    case TypeKind::kCInt:
      return true;
    default:
      return false;
  }
}

}  // namespace

RV Sema::Expr(const Node* e, const TypeP& want) {
  switch (e->kind) {
    case NodeKind::kIntLit:
      return Known(Value::CInt(e->ival));
    case NodeKind::kFloatLit:
      return Known(Value::Float(e->fval, types::CFloat()));
    case NodeKind::kStringLit:
      return Known(Value::String(e->text));
    case NodeKind::kBoolLit:
      return Known(Value::Bool(e->ival != 0));
    case NodeKind::kUndefined: {
      Value v;
      v.k = Value::K::kUndefined;
      v.type = types::Undefined();
      return Known(v);
    }
    case NodeKind::kIdent:
      return Ident(e, want);
    case NodeKind::kEnumLit: {
      if (want && want->kind == TypeKind::kEnum) {
        for (size_t i = 0; i < want->field_names.size(); ++i)
          if (want->field_names[i] == e->text) return Known(Value::Int(want->item_values[i], want));
        Fail(e, fmt::format("{} has no value '{}'", TypeName(want), e->text));
      }
      Fail(e, fmt::format("'.{}' needs an enum type to be known here", e->text));
    }
    case NodeKind::kBuiltinCall:
      return Builtin(e, want);
    case NodeKind::kCall:
      return Call(e, want);
    case NodeKind::kField:
      return Field(e);
    case NodeKind::kIndex:
    case NodeKind::kDeref: {
      Place p = PlaceOf(e);
      RV v = Load(p, e);
      FreePlace(p);
      return v;
    }
    case NodeKind::kUnary:
      return Unary(e, want);
    case NodeKind::kBinary:
      return Binary(e, want);
    case NodeKind::kInitList:
      return InitList(e, want);
    case NodeKind::kArrayType:
    case NodeKind::kPtrType:
    case NodeKind::kFnType:
    case NodeKind::kStructType:
    case NodeKind::kEnumType:
      return Known(TypeExpr(e));
    case NodeKind::kIfExpr:
      return IfExpr(e, want);
    case NodeKind::kSwitch:
      return SwitchExpr(e, want);
    case NodeKind::kTensorAccess: {
      Value v;
      v.k = Value::K::kTensor;
      v.node = e;
      v.type = types::CStruct();
      return Known(v);
    }
    case NodeKind::kComptimeExpr:
      return Known(Const(e->kid(0), "a comptime expression", want));
    case NodeKind::kBlock:
      return BlockExpr(e, want);
    default:
      Fail(e, fmt::format("expected an expression, found a {}", NodeKindName(e->kind)));
  }
}

Value Sema::Const(const Node* e, const std::string& what, const TypeP& want) {
  RV r = Expr(e, want);
  if (!r.known) {
    Free(r);
    Fail(e, fmt::format("{} must be known at compile time", what));
  }
  if (want) return CoerceValue(r.v, want, e, what.c_str());
  return r.v;
}

TypeP Sema::TypeOf(const Node* e, const std::string& what) {
  const Value v = Const(e, what);
  if (v.k != Value::K::kType)
    Fail(e, fmt::format("{} must be a type, found {}", what, ValueText(v)));
  return v.t;
}

Value Sema::TypeExpr(const Node* e) {
  switch (e->kind) {
    case NodeKind::kArrayType: {
      const TypeP elem = TypeOf(e->kid(0), "an array's element type");
      if (elem->kind == TypeKind::kArray)
        Fail(e->kid(0), "arrays of arrays are not allowed; write [M, N]T");
      std::vector<int64_t> dims;
      for (size_t i = 1; i < e->kids.size(); ++i) {
        const Value d = Const(e->kid(i), "an array's length");
        if (d.k != Value::K::kInt) Fail(e->kid(i), "an array's length must be an integer");
        if (d.i < 0 || d.i > 0xC000)
          Fail(e->kid(i), fmt::format("array length {} is out of range (0..49152)", d.i));
        dims.push_back(d.i);
      }
      return Value::TypeV(types::Array(elem, dims));
    }
    case NodeKind::kPtrType:
      return Value::TypeV(types::Ptr(TypeOf(e->kid(0), "a pointer's element type"), e->ival == 1,
                                     e->has(kFlagConst)));
    case NodeKind::kFnType: {
      std::vector<TypeP> ps;
      for (size_t i = 0; i + 1 < e->kids.size(); ++i)
        ps.push_back(TypeOf(e->kid(i), "a parameter type"));
      return Value::TypeV(
          types::Fn(ps, TypeOf(e->kids.back().get(), "a return type"), e->has(kFlagTask)));
    }
    case NodeKind::kStructType: {
      static int next_id = 1;
      auto t = std::make_shared<Type>();
      t->kind = TypeKind::kStruct;
      t->id = next_id++;
      t->name = fmt::format("struct#{}", t->id);
      for (const NodePtr& f : e->kids) {
        t->field_names.push_back(f->text);
        t->field_types.push_back(TypeOf(f->kid(0), "a field's type"));
        t->field_defaults.push_back(f->kid(1));
      }
      return Value::TypeV(t);
    }
    case NodeKind::kEnumType: {
      static int next_id = 1;
      auto t = std::make_shared<Type>();
      t->kind = TypeKind::kEnum;
      t->id = next_id++;
      t->name = fmt::format("enum#{}", t->id);
      t->tag = e->kid(0) ? TypeOf(e->kid(0), "an enum's tag type") : types::Int(16, false);
      int64_t next = 0;
      for (size_t i = 1; i < e->kids.size(); ++i) {
        const Node* item = e->kid(i);
        if (item->kid(1)) next = Const(item->kid(1), "an enum value", t->tag).i;
        t->field_names.push_back(item->text);
        t->item_values.push_back(next++);
      }
      return Value::TypeV(t);
    }
    default:
      Fail(e, "expected a type");
  }
}

RV Sema::Ident(const Node* e, const TypeP& want) {
  (void)want;
  if (Lookup(e->text) || mod_->decls.count(e->text)) {
    Place p = PlaceOf(e);
    return Load(p, e);
  }
  if (TypeP t = types::Named(e->text)) return Known(Value::TypeV(t));
  static const char* const kDirs[] = {"WEST", "EAST", "SOUTH", "NORTH", "RAMP"};
  for (int i = 0; i < 5; ++i)
    if (e->text == kDirs[i]) return Known(Value::Int(i, types::Simple(TypeKind::kDirection)));
  Fail(e, fmt::format("no variable, constant or function named '{}' here", e->text));
}

RV Sema::Field(const Node* e) {
  Place p = PlaceOf(e);
  RV v = Load(p, e);
  FreePlace(p);
  return v;
}

RV Sema::Unary(const Node* e, const TypeP& want) {
  const std::string& op = e->text;
  if (op == "&") return AddressOf(e->kid(0));
  RV a = Expr(e->kid(0), want);
  if (a.known) {
    const Value& v = a.v;
    if (op == "!") {
      if (v.k != Value::K::kBool)
        Fail(e, fmt::format("'!' needs a bool, found {}", TypeName(v.type)));
      return Known(Value::Bool(!v.i));
    }
    if (op == "-") {
      if (v.k == Value::K::kFloat) return Known(Value::Float(-v.f, v.type));
      if (v.k == Value::K::kInt && IsIntLike(v.type)) {
        if (v.i == std::numeric_limits<int64_t>::min()) Fail(e, "overflow in negation");
        return Known(Value::Int(Wrap(-v.i, v.type), v.type));
      }
      Fail(e, fmt::format("'-' needs a number, found {}", TypeName(v.type)));
    }
    if (op == "~") {
      if (v.k != Value::K::kInt || v.type->kind != TypeKind::kInt)
        Fail(e, fmt::format("'~' needs a fixed-width integer, found {}", TypeName(v.type)));
      return Known(Value::Int(Wrap(~v.i, v.type), v.type));
    }
  }
  const TypeP t = a.type;
  const int r = ToReg(a, e);
  const int d = a.temp ? r : Temp(e);
  if (op == "!") {
    if (t->kind != TypeKind::kBool) Fail(e, fmt::format("'!' needs a bool, found {}", TypeName(t)));
    Emit("xori    r{}, r{}, 1", d, r);
  } else if (op == "-") {
    if (t->kind == TypeKind::kFloat) {
      Emit("fneg.{}  r{}, r{}", t->bits == 32 ? 's' : 'h', d, r);
    } else if (t->kind == TypeKind::kInt) {
      Emit("neg     r{}, r{}", d, r);
      Normalize(d, t);
    } else {
      Fail(e, fmt::format("'-' needs a number, found {}", TypeName(t)));
    }
  } else {
    if (t->kind != TypeKind::kInt)
      Fail(e, fmt::format("'~' needs a fixed-width integer, found {}", TypeName(t)));
    Emit("not     r{}, r{}", d, r);
    Normalize(d, t);
  }
  RV out;
  out.type = t;
  out.reg = d;
  out.temp = true;
  return out;
}

Value Sema::FoldBinary(const std::string& op, const Value& a, const Value& b, const TypeP& t,
                       const Node* at) {
  if (a.k == Value::K::kFloat || b.k == Value::K::kFloat || t->kind == TypeKind::kFloat ||
      t->kind == TypeKind::kCFloat) {
    const double x = a.k == Value::K::kFloat ? a.f : static_cast<double>(a.i);
    const double y = b.k == Value::K::kFloat ? b.f : static_cast<double>(b.i);
    double r = 0;
    if (op == "+")
      r = x + y;
    else if (op == "-")
      r = x - y;
    else if (op == "*")
      r = x * y;
    else if (op == "/")
      r = x / y;
    else
      Fail(at, fmt::format("'{}' does not apply to floating-point numbers", op));
    return Value::Float(RoundFloat(r, t), t);
  }
  const int64_t x = a.i, y = b.i;
  int64_t r = 0;
  bool overflow = false;
  if (op == "+")
    overflow = __builtin_add_overflow(x, y, &r);
  else if (op == "-")
    overflow = __builtin_sub_overflow(x, y, &r);
  else if (op == "*")
    overflow = __builtin_mul_overflow(x, y, &r);
  else if (op == "/" || op == "%") {
    if (y == 0) Fail(at, "division by zero");
    if (x == std::numeric_limits<int64_t>::min() && y == -1)
      overflow = true;
    else
      r = op == "/" ? x / y : x % y;
  } else if (op == "&")
    r = x & y;
  else if (op == "|")
    r = x | y;
  else if (op == "^")
    r = x ^ y;
  else if (op == "<<") {
    if (y < 0 || y > 63) Fail(at, fmt::format("shift by {} is out of range", y));
    r = static_cast<int64_t>(static_cast<uint64_t>(x) << y);
    if (t->kind == TypeKind::kCInt && (r >> y) != x) overflow = true;
  } else if (op == ">>") {
    if (y < 0 || y > 63) Fail(at, fmt::format("shift by {} is out of range", y));
    if (t->kind == TypeKind::kInt && !t->is_signed && t->bits < 64)
      r = static_cast<int64_t>(static_cast<uint64_t>(Wrap(x, t)) >> y);
    else
      r = x >> y;
  } else {
    Fail(at, fmt::format("unknown operator '{}'", op));
  }
  if (overflow) Fail(at, fmt::format("overflow in {} {} {}", x, op, y));
  if (t->kind == TypeKind::kInt) r = Wrap(r, t);
  return Value::Int(r, t);
}

RV Sema::Binary(const Node* e, const TypeP& want) {
  const std::string& op = e->text;
  if (op == "and" || op == "or") return Logical(e);
  if (IsCompare(op)) return Compare(e);
  RV a = Expr(e->kid(0), want);
  RV b = Expr(
      e->kid(1),
      op == "<<" || op == ">>"
          ? nullptr
          : (a.type->kind == TypeKind::kCInt || a.type->kind == TypeKind::kCFloat ? want : a.type));
  return Arith(op, a, b, e, want);
}

RV Sema::Arith(const std::string& op, RV a, RV b, const Node* e, const TypeP& want) {
  (void)want;
  // The result type: the operands' common type (a comptime operand takes the other's type).
  TypeP t;
  if (op == "<<" || op == ">>") {
    t = a.type;
    if (!IsIntLike(a.type))
      Fail(e, fmt::format("'{}' needs an integer, found {}", op, TypeName(a.type)));
    if (b.type->kind == TypeKind::kInt && b.type->is_signed)
      Fail(e, fmt::format("the shift amount must be unsigned, found {}", TypeName(b.type)));
    if (!IsIntLike(b.type)) Fail(e, "the shift amount must be an integer");
  } else {
    const bool ac = a.type->kind == TypeKind::kCInt || a.type->kind == TypeKind::kCFloat;
    const bool bc = b.type->kind == TypeKind::kCInt || b.type->kind == TypeKind::kCFloat;
    if (ac && bc) {
      t = (a.type->kind == TypeKind::kCFloat || b.type->kind == TypeKind::kCFloat) ? types::CFloat()
                                                                                   : types::CInt();
    } else if (ac) {
      t = b.type;
    } else if (bc) {
      t = a.type;
    } else if (SameType(a.type, b.type)) {
      t = a.type;
    } else {
      Fail(e, fmt::format("the operands of '{}' have different types, {} and {}; convert one "
                          "with @as",
                          op, TypeName(a.type), TypeName(b.type)));
    }
    if (!t->IsNumeric()) Fail(e, fmt::format("'{}' needs numbers, found {}", op, TypeName(t)));
    if ((op == "&" || op == "|" || op == "^" || op == "%") && !IsIntLike(t))
      Fail(e, fmt::format("'{}' needs integers, found {}", op, TypeName(t)));
    a = Coerce(a, t, e, "an operand");
    b = Coerce(b, t, e, "an operand");
  }
  if (a.known && b.known) return Known(FoldBinary(op, a.v, b.v, t, e));
  if (t->kind == TypeKind::kCInt || t->kind == TypeKind::kCFloat) {
    Fail(e, "internal: comptime operand with runtime value");
  }
  // Integer immediates: the assembler's I forms take 16 bits.
  const bool small_b = b.known && b.v.k == Value::K::kInt && b.v.i >= -32768 && b.v.i <= 32767;
  const int ra = ToReg(a, e);
  const int d = a.temp ? ra : Temp(e);
  auto result = [&]() {
    Free(b);
    RV out;
    out.type = t;
    out.reg = d;
    out.temp = true;
    return out;
  };
  if (t->kind == TypeKind::kFloat) {
    const char s = t->bits == 32 ? 's' : 'h';
    const int rb = ToReg(b, e);
    const char* m = op == "+"   ? "fadd"
                    : op == "-" ? "fsub"
                    : op == "*" ? "fmul"
                    : op == "/" ? "fdiv"
                                : nullptr;
    if (!m) Fail(e, fmt::format("'{}' does not apply to floating-point numbers", op));
    Emit("{}.{}  r{}, r{}, r{}", m, s, d, ra, rb);
    return result();
  }
  if (op == "/" || op == "%") {
    const int rb = ToReg(b, e);
    // The division routine takes r1, r2 and clobbers r1..r7: spill what lives there.
    const std::string sa = FrameSlot(4, 4), sb = FrameSlot(4, 4), sr = FrameSlot(4, 4);
    Emit("sw      r{}, {}", ra, sa);
    Emit("sw      r{}, {}", rb, sb);
    Free(b);
    if (d != ra) FreeReg(d);
    FreeReg(ra);
    std::vector<std::pair<int, std::string>> saved;
    SpillTemps(saved);
    Emit("lw      r1, {}", sa);
    Emit("lw      r2, {}", sb);
    if (t->bits < 32 && !t->is_signed) {
      Emit("call    __csl_udiv");
    } else {
      Emit("call    __csl_sdiv");
    }
    fn_->calls = true;
    fn_->mod->program->uses_div = true;
    Emit("sw      r{}, {}", op == "/" ? 1 : 2, sr);
    RestoreTemps(saved);
    RV out;
    out.type = t;
    out.reg = Temp(e);
    out.temp = true;
    Emit("lw      r{}, {}", out.reg, sr);
    Normalize(out.reg, t);
    return out;
  }
  if (small_b && (op == "+" || op == "-")) {
    Emit("addi    r{}, r{}, {}", d, ra, op == "+" ? b.v.i : -b.v.i);
  } else if (small_b && b.v.i >= 0 && (op == "&" || op == "|")) {
    Emit("{:<8}r{}, r{}, {}", op == "&" ? "andi" : "ori", d, ra, b.v.i);
  } else if (b.known && (op == "<<" || op == ">>")) {
    const int64_t n = b.v.i;
    if (n >= t->bits) {
      Emit("li      r{}, 0", d);
      if (op == ">>" && t->is_signed) Emit("srai    r{}, r{}, 31", d, ra);
    } else {
      Emit("{}    r{}, r{}, {}", op == "<<" ? "shli" : (t->is_signed ? "srai" : "shri"), d, ra, n);
    }
  } else {
    const int rb = ToReg(b, e);
    if (op == "+")
      Emit("add     r{}, r{}, r{}", d, ra, rb);
    else if (op == "-")
      Emit("sub     r{}, r{}, r{}", d, ra, rb);
    else if (op == "&")
      Emit("and     r{}, r{}, r{}", d, ra, rb);
    else if (op == "|")
      Emit("or      r{}, r{}, r{}", d, ra, rb);
    else if (op == "^")
      Emit("xor     r{}, r{}, r{}", d, ra, rb);
    else if (op == "<<")
      Emit("shl     r{}, r{}, r{}", d, ra, rb);
    else if (op == ">>")
      Emit("{}     r{}, r{}, r{}", t->is_signed ? "sra" : "shr", d, ra, rb);
    else if (op == "*") {
      if (t->bits <= 16) {
        Emit("{}    r{}, r{}, r{}", t->is_signed ? "mul " : "mulu", d, ra, rb);
      } else {
        // 32 bits from 16x16 products: lo*lo + ((hi_a*lo_b + lo_a*hi_b) << 16).
        const int t1 = Temp(e), t2 = Temp(e);
        Emit("shri    r{}, r{}, 16", t1, ra);
        Emit("mulu    r{}, r{}, r{}", t1, t1, rb);
        Emit("shri    r{}, r{}, 16", t2, rb);
        Emit("mulu    r{}, r{}, r{}", t2, ra, t2);
        Emit("add     r{}, r{}, r{}", t1, t1, t2);
        Emit("shli    r{}, r{}, 16", t1, t1);
        Emit("mulu    r{}, r{}, r{}", d, ra, rb);
        Emit("add     r{}, r{}, r{}", d, d, t1);
        FreeReg(t1);
        FreeReg(t2);
      }
    }
  }
  Normalize(d, t);
  return result();
}

RV Sema::Compare(const Node* e, const std::string* branch_if_false) {
  const std::string& op = e->text;
  RV a = Expr(e->kid(0));
  RV b = Expr(e->kid(1), a.type->kind == TypeKind::kCInt ? nullptr : a.type);
  TypeP t;
  const bool ac = a.type->kind == TypeKind::kCInt || a.type->kind == TypeKind::kCFloat;
  const bool bc = b.type->kind == TypeKind::kCInt || b.type->kind == TypeKind::kCFloat;
  if (ac && !bc)
    t = b.type;
  else if (bc && !ac)
    t = a.type;
  else if (ac && bc)
    t = a.type->kind == TypeKind::kCFloat ? a.type : b.type;
  else if (SameType(a.type, b.type))
    t = a.type;
  else
    Fail(e, fmt::format("cannot compare {} with {}; convert one with @as", TypeName(a.type),
                        TypeName(b.type)));
  if (!(ac && bc)) {
    a = Coerce(a, t, e->kid(0), "an operand");
    b = Coerce(b, t, e->kid(1), "an operand");
  }
  const bool ordered = op != "==" && op != "!=";
  if (a.known && b.known) {
    const Value &x = a.v, &y = b.v;
    int c = 0;
    if (x.k == Value::K::kFloat || y.k == Value::K::kFloat) {
      const double p = x.k == Value::K::kFloat ? x.f : double(x.i);
      const double q = y.k == Value::K::kFloat ? y.f : double(y.i);
      if (std::isnan(p) || std::isnan(q)) return Known(Value::Bool(op == "!="));
      c = p < q ? -1 : p > q ? 1 : 0;
    } else if (x.k == Value::K::kString && y.k == Value::K::kString) {
      if (ordered) Fail(e, "strings compare only with == and !=");
      c = x.s == y.s ? 0 : 1;
    } else if (x.k == Value::K::kType && y.k == Value::K::kType) {
      if (ordered) Fail(e, "types compare only with == and !=");
      c = SameType(x.t, y.t) ? 0 : 1;
    } else if ((x.k == Value::K::kInt || x.k == Value::K::kBool) &&
               (y.k == Value::K::kInt || y.k == Value::K::kBool)) {
      c = x.i < y.i ? -1 : x.i > y.i ? 1 : 0;
    } else {
      Fail(e, fmt::format("cannot compare {} with {}", ValueText(x), ValueText(y)));
    }
    bool r = op == "=="   ? c == 0
             : op == "!=" ? c != 0
             : op == "<"  ? c < 0
             : op == ">"  ? c > 0
             : op == "<=" ? c <= 0
                          : c >= 0;
    return Known(Value::Bool(r));
  }
  if (ordered && !t->IsNumeric())
    Fail(e, fmt::format("'{}' needs numbers, found {}", op, TypeName(t)));
  const int ra = ToReg(a, e->kid(0));
  const int rb = ToReg(b, e->kid(1));
  if (branch_if_false && t->kind != TypeKind::kFloat) {
    // A condition: one branch on the opposite comparison, no bool in a register.
    const bool sign = t->kind == TypeKind::kInt && t->is_signed;
    const char* lt = sign ? "blt " : "bltu";
    const char* ge = sign ? "bge " : "bgeu";
    const std::string& l = *branch_if_false;
    if (op == "<")
      Emit("{}    r{}, r{}, {}", ge, ra, rb, l);
    else if (op == ">")
      Emit("{}    r{}, r{}, {}", ge, rb, ra, l);
    else if (op == "<=")
      Emit("{}    r{}, r{}, {}", lt, rb, ra, l);
    else if (op == ">=")
      Emit("{}    r{}, r{}, {}", lt, ra, rb, l);
    else if (op == "==")
      Emit("bne     r{}, r{}, {}", ra, rb, l);
    else
      Emit("beq     r{}, r{}, {}", ra, rb, l);
    Free(a);
    Free(b);
    RV done;
    done.type = types::NoReturn();
    done.known = true;
    return done;
  }
  const int d = a.temp ? ra : Temp(e);
  if (t->kind == TypeKind::kFloat) {
    const char s = t->bits == 32 ? 's' : 'h';
    if (op == "<")
      Emit("flt.{}   r{}, r{}, r{}", s, d, ra, rb);
    else if (op == ">")
      Emit("flt.{}   r{}, r{}, r{}", s, d, rb, ra);
    else if (op == "<=")
      Emit("fle.{}   r{}, r{}, r{}", s, d, ra, rb);
    else if (op == ">=")
      Emit("fle.{}   r{}, r{}, r{}", s, d, rb, ra);
    else {
      Emit("feq.{}   r{}, r{}, r{}", s, d, ra, rb);
      if (op == "!=") Emit("xori    r{0}, r{0}, 1", d);
    }
  } else {
    const char* slt = (t->kind == TypeKind::kInt && t->is_signed) ? "slt " : "sltu";
    if (op == "<")
      Emit("{}    r{}, r{}, r{}", slt, d, ra, rb);
    else if (op == ">")
      Emit("{}    r{}, r{}, r{}", slt, d, rb, ra);
    else if (op == "<=") {
      Emit("{}    r{}, r{}, r{}", slt, d, rb, ra);
      Emit("xori    r{0}, r{0}, 1", d);
    } else if (op == ">=") {
      Emit("{}    r{}, r{}, r{}", slt, d, ra, rb);
      Emit("xori    r{0}, r{0}, 1", d);
    } else {
      Emit("sub     r{}, r{}, r{}", d, ra, rb);
      Emit("sltiu   r{0}, r{0}, 1", d);
      if (op == "!=") Emit("xori    r{0}, r{0}, 1", d);
    }
  }
  Free(b);
  RV out;
  out.type = types::Bool();
  out.reg = d;
  out.temp = true;
  return out;
}

RV Sema::Logical(const Node* e) {
  const bool is_and = e->text == "and";
  RV a = Expr(e->kid(0));
  if (a.type->kind != TypeKind::kBool)
    Fail(e->kid(0), fmt::format("'{}' needs bool operands, found {}", e->text, TypeName(a.type)));
  if (a.known) {
    if (is_and != (a.v.i != 0)) return Known(Value::Bool(!is_and));
    RV b = Expr(e->kid(1));
    if (b.type->kind != TypeKind::kBool)
      Fail(e->kid(1), fmt::format("'{}' needs bool operands, found {}", e->text, TypeName(b.type)));
    return b;
  }
  // At run time: d = a; if it decides, skip b.
  const int ra = ToReg(a, e->kid(0));
  const int d = a.temp ? ra : Temp(e);
  if (d != ra) Emit("mov     r{}, r{}", d, ra);
  const std::string lend = NewLabel();
  Emit("{}    r{}, {}", is_and ? "beqz" : "bnez", d, lend);
  RV b = Expr(e->kid(1));
  if (b.type->kind != TypeKind::kBool)
    Fail(e->kid(1), fmt::format("'{}' needs bool operands, found {}", e->text, TypeName(b.type)));
  Emit("mov     r{}, r{}", d, ToReg(b, e->kid(1)));
  Free(b);
  EmitLabel(lend);
  RV out;
  out.type = types::Bool();
  out.reg = d;
  out.temp = true;
  return out;
}

RV Sema::InitList(const Node* e, const TypeP& want) {
  TypeP t = e->kid(0) ? TypeOf(e->kid(0), "an initializer's type") : nullptr;
  if (!t && want && (want->kind == TypeKind::kArray || want->kind == TypeKind::kStruct)) t = want;
  Value v;
  v.k = Value::K::kAgg;
  std::vector<const Node*> items;
  for (size_t i = 1; i < e->kids.size(); ++i) items.push_back(e->kid(i));
  if (t && t->kind == TypeKind::kArray) {
    if (static_cast<int64_t>(items.size()) != t->Count())
      Fail(e, fmt::format("{} needs {} values, found {}", TypeName(t), t->Count(), items.size()));
    v.type = t;
    for (const Node* it : items) {
      if (it->kind == NodeKind::kFieldInit) Fail(it, "an array's initializer has no field names");
      v.elems.push_back(Const(it, "an array element", t->elem));
    }
    return Known(v);
  }
  if (t && t->kind == TypeKind::kStruct) {
    v.type = t;
    v.names = t->field_names;
    v.elems.resize(t->field_names.size());
    std::vector<bool> set(t->field_names.size());
    for (const Node* it : items) {
      if (it->kind != NodeKind::kFieldInit)
        Fail(it, "a struct's initializer names its fields: .x = ...");
      size_t k = 0;
      while (k < v.names.size() && v.names[k] != it->text) ++k;
      if (k == v.names.size()) Fail(it, fmt::format("{} has no field '{}'", TypeName(t), it->text));
      v.elems[k] = Const(it->kid(0), fmt::format("field '{}'", it->text), t->field_types[k]);
      set[k] = true;
    }
    for (size_t k = 0; k < set.size(); ++k) {
      if (set[k]) continue;
      if (!t->field_defaults[k])
        Fail(e, fmt::format("field '{}' of {} is not given", v.names[k], TypeName(t)));
      v.elems[k] = Const(t->field_defaults[k], "a field's default", t->field_types[k]);
    }
    return Known(v);
  }
  if (t) Fail(e, fmt::format("{} cannot be initialized with {{...}}", TypeName(t)));
  v.type = types::CStruct();
  bool named = !items.empty() && items[0]->kind == NodeKind::kFieldInit;
  for (const Node* it : items) {
    if ((it->kind == NodeKind::kFieldInit) != named)
      Fail(it, "an initializer either names every field (.a = 1) or none (a tuple)");
    const Node* val = named ? it->kid(0) : it;
    RV r = Expr(val);
    if (!r.known) {
      Free(r);
      Fail(val, "the values of an anonymous struct or tuple must be known at compile time here");
    }
    if (named) {
      for (const std::string& n : v.names)
        if (n == it->text) Fail(it, fmt::format("field '{}' is given twice", it->text));
      v.names.push_back(it->text);
    }
    v.elems.push_back(r.v);
  }
  return Known(v);
}

RV Sema::IfExpr(const Node* e, const TypeP& want) {
  RV c = Expr(e->kid(0));
  if (c.type->kind != TypeKind::kBool)
    Fail(e->kid(0), fmt::format("an if's condition must be a bool, found {}", TypeName(c.type)));
  if (c.known) {
    if (c.v.i) return Expr(e->kid(1), want);
    if (e->kid(2)) return Expr(e->kid(2), want);
    return Known(Value::Void());
  }
  Free(c);
  if (!e->kid(2)) Fail(e, "an if expression with a runtime condition needs an else");
  const std::string lelse = NewLabel(), lend = NewLabel();
  BranchIfFalse(e->kid(0), lelse);
  RV a = Expr(e->kid(1), want);
  TypeP t = want ? want : a.type;
  if (t->kind == TypeKind::kCInt || t->kind == TypeKind::kCFloat)
    Fail(e, "the if expression needs a type here: give the variable one");
  a = Coerce(a, t, e->kid(1), "the if's value");
  const int d = Temp(e);
  const int ra = ToReg(a, e->kid(1));
  Emit("mov     r{}, r{}", d, ra);
  Free(a);
  Emit("j       {}", lend);
  EmitLabel(lelse);
  RV b = Coerce(Expr(e->kid(2), t), t, e->kid(2), "the else's value");
  const int rb = ToReg(b, e->kid(2));
  Emit("mov     r{}, r{}", d, rb);
  Free(b);
  EmitLabel(lend);
  RV out;
  out.type = t;
  out.reg = d;
  out.temp = true;
  return out;
}

RV Sema::SwitchExpr(const Node* e, const TypeP& want) {
  RV s = Expr(e->kid(0));
  if (s.known) {
    const Node* chosen = nullptr;
    for (size_t i = 1; i < e->kids.size() && !chosen; ++i) {
      const Node* c = e->kid(i);
      if (c->has(kFlagElse)) continue;
      for (size_t k = 0; k + 1 < c->kids.size(); ++k) {
        const Value v = Const(c->kid(k), "a case value", s.type);
        if (v.i == s.v.i) chosen = c->kids.back().get();
      }
    }
    for (size_t i = 1; i < e->kids.size() && !chosen; ++i)
      if (e->kid(i)->has(kFlagElse)) chosen = e->kid(i)->kids.back().get();
    if (!chosen) Fail(e, fmt::format("no case of the switch matches {}", ValueText(s.v)));
    if (chosen->kind == NodeKind::kBlock) {
      const Flow f = Block(chosen);
      if (f.k != Flow::K::kNext)
        Fail(chosen, "break, continue and return inside a switch case are not supported");
      return Known(Value::Void());
    }
    return Expr(chosen, want);
  }
  // At run time: compare and branch, case by case; the result (if any) in a register.
  const int rs = ToReg(s, e->kid(0));
  const std::string lend = NewLabel();
  int d = -1;
  TypeP t = want;
  bool has_else = false;
  for (size_t i = 1; i < e->kids.size(); ++i) {
    const Node* c = e->kid(i);
    const std::string lnext = NewLabel(), lbody = NewLabel();
    if (c->has(kFlagElse)) {
      has_else = true;
    } else {
      for (size_t k = 0; k + 1 < c->kids.size(); ++k) {
        RV v = Known(Const(c->kid(k), "a case value", s.type));
        const int rv = ToReg(v, c->kid(k));
        Emit("beq     r{}, r{}, {}", rs, rv, lbody);
        Free(v);
      }
      Emit("j       {}", lnext);
    }
    EmitLabel(lbody);
    const Node* body = c->kids.back().get();
    if (body->kind == NodeKind::kBlock) {
      Block(body);
    } else {
      RV r = Expr(body, t);
      if (r.type->kind != TypeKind::kVoid) {
        if (!t) t = r.type;
        r = Coerce(r, t, body, "a case's value");
        if (d < 0) d = Temp(e);
        Emit("mov     r{}, r{}", d, ToReg(r, body));
      }
      Free(r);
    }
    Emit("j       {}", lend);
    EmitLabel(lnext);
  }
  if (!has_else && d >= 0) Emit("trap    1");
  EmitLabel(lend);
  Free(s);
  if (d < 0) return Known(Value::Void());
  RV out;
  out.type = t;
  out.reg = d;
  out.temp = true;
  return out;
}

RV Sema::BlockExpr(const Node* e, const TypeP& want) {
  (void)want;
  // `{}` is the void value (as in Zig), used for a payload argument that is not there.
  if (e->text.empty() && e->kids.empty()) return Known(Value::Void());
  if (e->text.empty()) Fail(e, "a block used as a value needs a label: blk: { ... break :blk v; }");
  FnState* saved = fn_;
  const Flow f = Block(e);
  fn_ = saved;
  if (f.k == Flow::K::kBreak && f.label == e->text) return Known(f.value);
  if (f.k != Flow::K::kNext) Fail(e, "a labeled block's break must name its label");
  return Known(Value::Void());
}

RV Sema::Call(const Node* e, const TypeP& want) {
  (void)want;
  RV callee = Expr(e->kid(0));
  if (!callee.known || callee.v.k != Value::K::kFn)
    Fail(e->kid(0), fmt::format("this is not a function (it is {})", TypeName(callee.type)));
  std::vector<const Node*> args;
  for (size_t i = 1; i < e->kids.size(); ++i) args.push_back(e->kid(i));
  return CallFunction(e, callee.v, args);
}

Value Sema::CoerceValue(const Value& v, const TypeP& to, const Node* at, const char* context) {
  RV r = Coerce(Known(v), to, at, context);
  return r.v;
}

RV Sema::Coerce(RV v, const TypeP& to, const Node* at, const char* context) {
  if (!to || SameType(v.type, to)) return v;
  const TypeP& from = v.type;
  auto mismatch = [&]() -> RV {
    Fail(at, fmt::format("{} must be {}, found {}{}", context, TypeName(to), TypeName(from),
                         (to->IsNumeric() && from->IsNumeric()) ? " (convert with @as)" : ""));
  };
  if (v.known) {
    Value x = v.v;
    if (x.k == Value::K::kUndefined) {
      x.type = to;
      return Known(x);
    }
    if (to->kind == TypeKind::kInt && x.k == Value::K::kInt &&
        (from->kind == TypeKind::kCInt || from->kind == TypeKind::kInt)) {
      if (!FitsIn(x.i, to))
        Fail(at, fmt::format("{}: {} does not fit in {}", context, x.i, TypeName(to)));
      return Known(Value::Int(x.i, to));
    }
    if (to->kind == TypeKind::kFloat &&
        (from->kind == TypeKind::kCFloat || from->kind == TypeKind::kCInt)) {
      const double d = x.k == Value::K::kFloat ? x.f : double(x.i);
      return Known(Value::Float(RoundFloat(d, to), to));
    }
    if (to->kind == TypeKind::kCFloat && from->kind == TypeKind::kCInt)
      return Known(Value::Float(double(x.i), to));
    if (to->kind == TypeKind::kPtr && x.k == Value::K::kPtr && from->kind == TypeKind::kPtr) {
      const TypeP& fe = from->elem;
      const bool arr_to_many =
          to->many && !from->many && fe->kind == TypeKind::kArray && SameType(fe->elem, to->elem);
      const bool same = SameType(fe, to->elem) && from->many == to->many;
      if ((arr_to_many || same) && (to->is_const || !from->is_const)) {
        x.type = to;
        return Known(x);
      }
    }
    if (to->kind == TypeKind::kFn && x.k == Value::K::kFn) {
      x.type = to;
      return Known(x);
    }
    if (to->kind == TypeKind::kPtr && !to->many && to->elem->kind == TypeKind::kFn &&
        x.k == Value::K::kFn)
      return Known(x);
    if (x.k == Value::K::kAgg && from->kind == TypeKind::kCStruct &&
        (to->kind == TypeKind::kStruct || to->kind == TypeKind::kArray)) {
      // An anonymous initializer given where a struct or array is expected.
      Value out;
      out.k = Value::K::kAgg;
      out.type = to;
      if (to->kind == TypeKind::kArray) {
        if (static_cast<int64_t>(x.elems.size()) != to->Count() || !x.names.empty()) mismatch();
        for (const Value& el : x.elems) out.elems.push_back(CoerceValue(el, to->elem, at, context));
        return Known(out);
      }
      out.names = to->field_names;
      for (size_t k = 0; k < to->field_names.size(); ++k) {
        const Value* f = x.Field(to->field_names[k]);
        if (!f) Fail(at, fmt::format("{}: field '{}' is missing", context, to->field_names[k]));
        out.elems.push_back(CoerceValue(*f, to->field_types[k], at, context));
      }
      return Known(out);
    }
    if (to->kind == TypeKind::kCStruct && x.k == Value::K::kAgg) return Known(x);
    if (x.k == Value::K::kInt && from->kind == to->kind &&
        (to->kind == TypeKind::kColor || to->kind == TypeKind::kLocalTask ||
         to->kind == TypeKind::kDataTask))
      return Known(x);
    return mismatch();
  }
  // Runtime: widening of integers (registers hold 8- and 16-bit values extended), and array
  // pointers to many-item pointers.
  if (to->kind == TypeKind::kInt && from->kind == TypeKind::kInt) {
    const bool widen = to->bits > from->bits && (to->is_signed || !from->is_signed);
    if (widen) {
      v.type = to;
      return v;
    }
    return mismatch();
  }
  if (to->kind == TypeKind::kPtr && from->kind == TypeKind::kPtr) {
    const bool arr_to_many = to->many && !from->many && from->elem->kind == TypeKind::kArray &&
                             SameType(from->elem->elem, to->elem);
    if (arr_to_many || (SameType(from->elem, to->elem) && from->many == to->many)) {
      v.type = to;
      return v;
    }
  }
  return mismatch();
}

RV Sema::Convert(RV v, const TypeP& to, const Node* at) {
  const TypeP from = v.type;
  if (SameType(from, to)) return v;
  if (v.known) {
    const Value& x = v.v;
    if (to->kind == TypeKind::kInt) {
      if (x.k == Value::K::kInt || x.k == Value::K::kBool) {
        if (!FitsIn(x.i, to))
          Fail(at, fmt::format("@as: {} does not fit in {}", x.i, TypeName(to)));
        return Known(Value::Int(x.i, to));
      }
      if (x.k == Value::K::kFloat) {
        if (std::isnan(x.f)) Fail(at, "@as: NaN has no integer value");
        const double tr = std::trunc(x.f);
        if (tr < -9.2e18 || tr > 9.2e18 || !FitsIn(static_cast<int64_t>(tr), to))
          Fail(at, fmt::format("@as: {} does not fit in {}", x.f, TypeName(to)));
        return Known(Value::Int(static_cast<int64_t>(tr), to));
      }
    }
    if (to->kind == TypeKind::kFloat || to->kind == TypeKind::kCFloat) {
      if (x.k == Value::K::kInt) return Known(Value::Float(RoundFloat(double(x.i), to), to));
      if (x.k == Value::K::kFloat) return Known(Value::Float(RoundFloat(x.f, to), to));
    }
    if (to->kind == TypeKind::kCInt && x.k == Value::K::kInt) return Known(Value::CInt(x.i));
    if (to->kind == TypeKind::kCInt && x.k == Value::K::kFloat)
      return Known(Value::CInt(static_cast<int64_t>(std::trunc(x.f))));
    if (to->kind == TypeKind::kBool && (x.k == Value::K::kInt || x.k == Value::K::kFloat))
      return Known(Value::Bool(x.k == Value::K::kInt ? x.i != 0 : x.f != 0 || std::isnan(x.f)));
    if (to->kind == TypeKind::kEnum && x.k == Value::K::kInt) return Known(Value::Int(x.i, to));
    if (to->kind == TypeKind::kInt && from->kind == TypeKind::kEnum)
      return Known(Value::Int(x.i, to));
    return Coerce(v, to, at, "@as's value");
  }
  const int r = ToReg(v, at);
  const int d = v.temp ? r : Temp(at);
  RV out;
  out.type = to;
  out.reg = d;
  out.temp = true;
  if (to->kind == TypeKind::kInt &&
      (from->kind == TypeKind::kInt || from->kind == TypeKind::kBool ||
       from->kind == TypeKind::kEnum)) {
    if (d != r) Emit("mov     r{}, r{}", d, r);
    Normalize(d, to);
    return out;
  }
  if (to->kind == TypeKind::kFloat && from->kind == TypeKind::kInt) {
    const char s = to->bits == 32 ? 's' : 'h';
    if (from->bits == 32 && !from->is_signed) {
      // u32 above 2^31: halve (keeping the lowest bit for rounding), convert, double.
      const std::string big = NewLabel(), done = NewLabel();
      const int t = Temp(at);
      Emit("bltz    r{}, {}", r, big);
      Emit("fcvt.{}.w r{}, r{}", s, d, r);
      Emit("j       {}", done);
      EmitLabel(big);
      Emit("andi    r{}, r{}, 1", t, r);
      Emit("shri    r{}, r{}, 1", d, r);
      Emit("or      r{}, r{}, r{}", d, d, t);
      Emit("fcvt.{}.w r{}, r{}", s, d, d);
      Emit("fadd.{}  r{}, r{}, r{}", s, d, d, d);
      EmitLabel(done);
      FreeReg(t);
    } else {
      Emit("fcvt.{}.w r{}, r{}", s, d, r);
    }
    return out;
  }
  if (to->kind == TypeKind::kInt && from->kind == TypeKind::kFloat) {
    Emit("fcvt.w.{} r{}, r{}", from->bits == 32 ? 's' : 'h', d, r);
    Normalize(d, to);
    return out;
  }
  if (to->kind == TypeKind::kFloat && from->kind == TypeKind::kFloat) {
    Emit("{} r{}, r{}", to->bits == 16 ? "fcvt.h.s" : "fcvt.s.h", d, r);
    return out;
  }
  if (to->kind == TypeKind::kBool && from->kind == TypeKind::kInt) {
    Emit("sltiu   r{}, r{}, 1", d, r);
    Emit("xori    r{0}, r{0}, 1", d);
    return out;
  }
  if (to->kind == TypeKind::kEnum && from->kind == TypeKind::kInt) {
    if (d != r) Emit("mov     r{}, r{}", d, r);
    return out;
  }
  FreeReg(d);
  v.known = false;
  return Coerce(v, to, at, "@as's value");
}

}  // namespace tessera::csl
