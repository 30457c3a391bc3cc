// Places: where variables, array elements and pointees live, and loading from and storing to
// them; local variables and their registers.
#include "csl/compiler.h"
#include "csl/libs.h"
#include "csl/sema.h"

namespace tessera::csl {
namespace {

const char* LoadInsn(const TypeP& t) {
  const int64_t n = SizeOf(t);
  const bool sign = t->kind == TypeKind::kInt && t->is_signed;
  if (n == 1) return sign ? "lb " : "lbu";
  if (n == 2) return sign ? "lh " : "lhu";
  return "lw ";
}

const char* StoreInsn(const TypeP& t) {
  const int64_t n = SizeOf(t);
  return n == 1 ? "sb" : n == 2 ? "sh" : "sw";
}

std::string MemOperand(const Place& p) {
  if (p.base >= 0) return fmt::format("{}(r{})", p.off, p.base);
  if (p.sym.empty()) return std::to_string(p.off);
  return p.off ? fmt::format("{}+{}", p.sym, p.off) : p.sym;
}

}  // namespace

std::string PlaceOperand(const Place& p) { return MemOperand(p); }

Local* Sema::Lookup(const std::string& name) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

void Sema::Declare(const Node* at, const std::string& name, Local l) {
  if (scopes_.empty()) scopes_.emplace_back();
  if (scopes_.back().count(name)) Fail(at, fmt::format("'{}' is already declared here", name));
  if (Lookup(name)) Fail(at, fmt::format("'{}' shadows a local of the same name", name));
  scopes_.back()[name] = std::move(l);
}

void Sema::BindConst(const std::string& name, Value v) {
  if (scopes_.empty()) scopes_.emplace_back();
  Local l;
  l.type = v.type;
  l.is_const = true;
  l.comptime = true;
  l.value = std::move(v);
  scopes_.back()[name] = std::move(l);
}

void Sema::PopScopeFreeing() {
  if (fn_) {
    for (auto& [name, l] : scopes_.back())
      if (l.reg >= 8 && l.reg <= 13 && !l.alias) fn_->local_regs &= ~(1u << l.reg);
  }
  scopes_.pop_back();
}

Local Sema::NewRuntimeLocal(const TypeP& t, bool address_taken) {
  Local l;
  l.type = t;
  if (IsRegisterScalar(t) && !address_taken) {
    for (int r = 8; r <= 13; ++r) {
      if (!(fn_->local_regs & (1u << r))) {
        fn_->local_regs |= 1u << r;
        fn_->saved_regs |= 1u << r;
        l.reg = r;
        return l;
      }
    }
  }
  const int64_t size = std::max<int64_t>(SizeOf(t), 1);
  const std::string slot = FrameSlot(size, std::max<int64_t>(AlignOf(t), 4));
  const size_t plus = slot.rfind('+');
  l.sym = slot.substr(0, plus);
  l.off = std::stoll(slot.substr(plus + 1));
  return l;
}

Place Sema::LocalPlace(const Local& l) {
  Place p;
  p.type = l.type;
  p.is_const = l.is_const;
  if (l.reg >= 0) {
    p.where = Place::W::kReg;
    p.reg = l.reg;
  } else {
    p.where = Place::W::kMem;
    p.sym = l.sym;
    p.off = l.off;
  }
  return p;
}

Place Sema::GlobalPlace(ModuleInst* m, const std::string& name, const Node* at) {
  Place p;
  if (!m->native.empty()) {
    p.where = Place::W::kComptime;
    Value& slot = m->values[name];
    slot = LibMember(*this, m, name, at);
    p.cvalue = &slot;
    p.type = slot.type;
    p.is_const = true;
    return p;
  }
  if (GlobalVar* g = c_.Global(m, name, at->loc)) {
    p.where = Place::W::kMem;
    p.sym = g->symbol;
    p.type = g->type;
    p.global = g;
    return p;
  }
  const std::optional<Value> v = c_.GlobalValue(m, name, at->loc);
  if (!v) Fail(at, fmt::format("no variable, constant or function named '{}' here", name));
  p.where = Place::W::kComptime;
  p.cvalue = &m->values[name];
  p.type = v->type;
  p.is_const = true;
  return p;
}

Place Sema::PlaceOf(const Node* e) {
  switch (e->kind) {
    case NodeKind::kIdent: {
      if (Local* l = Lookup(e->text)) {
        if (!l->comptime) return LocalPlace(*l);
        Place p;
        p.type = l->type;
        p.is_const = l->is_const;
        p.where = Place::W::kComptime;
        p.cvalue = &l->value;
        return p;
      }
      if (mod_->decls.count(e->text)) return GlobalPlace(mod_, e->text, e);
      Fail(e, fmt::format("no variable, constant or function named '{}' here", e->text));
    }
    case NodeKind::kField: {
      const Node* base = e->kid(0);
      const bool is_place = base->kind == NodeKind::kIdent || base->kind == NodeKind::kField ||
                            base->kind == NodeKind::kIndex || base->kind == NodeKind::kDeref;
      if (is_place) {
        Place b = PlaceOf(base);
        if (b.where == Place::W::kComptime && b.cvalue->k == Value::K::kModule)
          return ModuleMember(b.cvalue->mod, e);
        if (b.where == Place::W::kComptime) return ComptimeField(*b.cvalue, b.is_const, e);
        if (b.type->kind != TypeKind::kStruct)
          Fail(e, fmt::format("'.{}' of a value of type {}, which has no fields", e->text,
                              TypeName(b.type)));
        // A field of a struct in memory: its offset within the struct.
        const TypeP& st = b.type;
        for (size_t i = 0; i < st->field_names.size(); ++i) {
          if (st->field_names[i] != e->text) continue;
          Place f = b;
          f.type = st->field_types[i];
          f.off += FieldOffset(st, i);
          return f;
        }
        Fail(e, fmt::format("{} has no field '{}'", TypeName(st), e->text));
      }
      RV b = Expr(base);
      if (b.known && b.v.k == Value::K::kModule) return ModuleMember(b.v.mod, e);
      if (b.known) {
        temps_.push_back(b.v);
        return ComptimeField(temps_.back(), true, e);
      }
      Free(b);
      Fail(e, "'.' names a field of a struct variable, a module's member or a comptime value");
    }
    case NodeKind::kDeref: {
      RV ptr = Expr(e->kid(0));
      if (ptr.type->kind != TypeKind::kPtr || ptr.type->many)
        Fail(e, fmt::format("'.*' needs a single-item pointer, found {}", TypeName(ptr.type)));
      Place p;
      p.type = ptr.type->elem;
      p.is_const = ptr.type->is_const;
      p.where = Place::W::kMem;
      if (ptr.known) {
        if (ptr.v.k != Value::K::kPtr) Fail(e, "this pointer has no address");
        p.sym = ptr.v.s;
        p.off = ptr.v.i;
      } else {
        p.base = ptr.reg;
        p.base_temp = ptr.temp;
      }
      return p;
    }
    case NodeKind::kIndex:
      return IndexPlace(e);
    default:
      Fail(e, "this expression does not name a variable, an element or a pointee");
  }
}

Place Sema::ModuleMember(ModuleInst* m, const Node* e) {
  if (m->native.empty() && !m->decls.count(e->text))
    Fail(e, fmt::format("module '{}' has no member '{}'", m->path, e->text));
  return GlobalPlace(m, e->text, e);
}

// A field of a value known at compile time: a struct's field, or an enum type's value.
Place Sema::ComptimeField(Value& v, bool is_const, const Node* e) {
  Place p;
  p.where = Place::W::kComptime;
  p.is_const = is_const;
  if (v.k == Value::K::kAgg) {
    for (size_t i = 0; i < v.names.size(); ++i) {
      if (v.names[i] != e->text) continue;
      p.cvalue = &v.elems[i];
      p.type = v.elems[i].type;
      return p;
    }
  }
  if (v.k == Value::K::kType && v.t->kind == TypeKind::kEnum) {
    for (size_t i = 0; i < v.t->field_names.size(); ++i) {
      if (v.t->field_names[i] != e->text) continue;
      temps_.push_back(Value::Int(v.t->item_values[i], v.t));
      p.cvalue = &temps_.back();
      p.type = v.t;
      p.is_const = true;
      return p;
    }
    Fail(e, fmt::format("{} has no value '{}'", TypeName(v.t), e->text));
  }
  Fail(e, fmt::format("{} has no field '{}'", ValueText(v), e->text));
}

Place Sema::IndexPlace(const Node* e) {
  const Node* base_node = e->kid(0);
  Place b = PlaceOf(base_node);
  TypeP bt = b.type;
  // A pointer: index through its value.
  if (bt->kind == TypeKind::kPtr) {
    RV ptr = Load(b, base_node);
    FreePlace(b);
    const TypeP pt = bt;
    b = Place();
    b.where = Place::W::kMem;
    b.is_const = pt->is_const;
    if (ptr.known) {
      b.sym = ptr.v.s;
      b.off = ptr.v.i;
    } else {
      b.base = ptr.reg;
      b.base_temp = ptr.temp;
    }
    if (pt->many) {
      b.type = types::Array(pt->elem, {1 << 20});  // unbounded: no index check
    } else if (pt->elem->kind == TypeKind::kArray) {
      b.type = pt->elem;
    } else {
      Fail(e, fmt::format("cannot index a {}", TypeName(pt)));
    }
    bt = b.type;
  }
  // A compile-time tuple (.{ a, b }, an anonymous struct's values in order): a known index.
  if (b.where == Place::W::kComptime && b.cvalue && b.cvalue->k == Value::K::kAgg &&
      bt->kind != TypeKind::kArray && e->kids.size() == 2) {
    const Value i = Const(e->kid(1), "a tuple's index");
    if (i.k != Value::K::kInt || i.i < 0 || i.i >= static_cast<int64_t>(b.cvalue->elems.size()))
      Fail(e->kid(1),
           fmt::format("index {} is out of range for {}", ValueText(i), ValueText(*b.cvalue)));
    Place p;
    p.where = Place::W::kComptime;
    p.cvalue = &b.cvalue->elems[static_cast<size_t>(i.i)];
    p.type = p.cvalue->type;
    p.is_const = b.is_const;
    return p;
  }
  if (bt->kind != TypeKind::kArray)
    Fail(e, fmt::format("cannot index a value of type {}", TypeName(bt)));
  const size_t n = e->kids.size() - 1;
  if (n != bt->dims.size())
    Fail(e, fmt::format("{} takes {} indices, found {}", TypeName(bt), bt->dims.size(), n));
  const TypeP elem = bt->elem;
  const int64_t esize = SizeOf(elem);
  // Comptime arrays: a known index picks the element.
  if (b.where == Place::W::kComptime) {
    int64_t lin = 0;
    for (size_t k = 0; k < n; ++k) {
      const Value iv = Const(e->kid(k + 1), "the index of a comptime array");
      if (iv.k != Value::K::kInt) Fail(e->kid(k + 1), "an index must be an integer");
      if (iv.i < 0 || iv.i >= bt->dims[k])
        Fail(e->kid(k + 1), fmt::format("index {} is out of bounds for {}", iv.i, TypeName(bt)));
      lin = lin * bt->dims[k] + iv.i;
    }
    Value* arr = b.cvalue;
    if (arr->k != Value::K::kAgg || static_cast<size_t>(lin) >= arr->elems.size())
      Fail(e, "this comptime array has no value yet");
    Place p;
    p.where = Place::W::kComptime;
    p.cvalue = &arr->elems[static_cast<size_t>(lin)];
    p.type = elem;
    p.is_const = b.is_const;
    return p;
  }
  if (b.where != Place::W::kMem) Fail(e, "cannot index this");
  // Known indices fold into the offset; the rest is computed into a register.
  int64_t const_lin = 0;
  int idx = -1;  // register: the runtime part of the linear index
  for (size_t k = 0; k < n; ++k) {
    const int64_t dim = bt->dims[k];
    const int64_t stride_after = [&] {
      int64_t s = 1;
      for (size_t j = k + 1; j < n; ++j) s *= bt->dims[j];
      return s;
    }();
    RV iv = Expr(e->kid(k + 1));
    if (!IsIntLikeType(iv.type))
      Fail(e->kid(k + 1), fmt::format("an index must be an integer, found {}", TypeName(iv.type)));
    if (iv.known) {
      if (iv.v.i < 0 || (dim < (1 << 20) && iv.v.i >= dim))
        Fail(e->kid(k + 1), fmt::format("index {} is out of bounds for {}", iv.v.i, TypeName(bt)));
      const_lin += iv.v.i * stride_after;
      continue;
    }
    const int r = ToReg(iv, e->kid(k + 1));
    int t = iv.temp ? r : Temp(e);
    if (stride_after != 1) {
      if (stride_after < 32768) {
        Emit("muli    r{}, r{}, {}", t, r, stride_after);
      } else {
        Fail(e, "array too large to index");
      }
    } else if (t != r) {
      Emit("mov     r{}, r{}", t, r);
    }
    if (idx < 0) {
      idx = t;
    } else {
      Emit("add     r{}, r{}, r{}", idx, idx, t);
      FreeReg(t);
    }
  }
  Place p;
  p.where = Place::W::kMem;
  p.type = elem;
  p.is_const = b.is_const;
  p.global = b.global;
  if (idx < 0) {
    p.sym = b.sym;
    p.base = b.base;
    p.base_temp = b.base_temp;
    p.off = b.off + const_lin * esize;
    return p;
  }
  // address = base + off + (idx + const_lin) * esize
  if (esize == 2)
    Emit("shli    r{0}, r{0}, 1", idx);
  else if (esize == 4)
    Emit("shli    r{0}, r{0}, 2", idx);
  else if (esize != 1)
    Emit("muli    r{0}, r{0}, {1}", idx, esize);
  if (b.base >= 0) {
    Emit("add     r{}, r{}, r{}", idx, idx, b.base);
    if (b.base_temp) FreeReg(b.base);
  }
  if (!b.sym.empty()) {
    const int t = Temp(e);
    Emit("la      r{}, {}", t, b.sym);
    Emit("add     r{}, r{}, r{}", idx, idx, t);
    FreeReg(t);
  }
  p.base = idx;
  p.base_temp = true;
  p.off = b.off + const_lin * esize;
  return p;
}

void Sema::FreePlace(Place& p) {
  if (p.base_temp) FreeReg(p.base);
  p.base_temp = false;
}

RV Sema::Load(const Place& p, const Node* at) {
  if (p.where == Place::W::kComptime) {
    if (!p.cvalue) Fail(at, "this has no value");
    return Known(*p.cvalue);
  }
  NeedRuntime(
      at, p.global ? fmt::format("variable '{}'", p.global->symbol) : std::string("this variable"));
  RV out;
  out.type = p.type;
  if (p.where == Place::W::kReg) {
    out.reg = p.reg;
    return out;
  }
  if (p.type->kind == TypeKind::kDsd) {
    out.mem = MemOperand(p);
    if (p.global && p.global->init.k == Value::K::kDsd && !p.global->dsd_shape_varies)
      out.dsd_init = p.global->init.dsd;
    out.dsd_global = p.global;
    return out;
  }
  if (!IsRegisterScalar(p.type))
    Fail(at, fmt::format("a value of type {} cannot be loaded here (use an element, a pointer or a "
                         "DSD)",
                         TypeName(p.type)));
  out.reg = Temp(at);
  out.temp = true;
  Emit("{}     r{}, {}", LoadInsn(p.type), out.reg, MemOperand(p));
  return out;
}

void Sema::Store(const Place& p, RV v, const Node* at) {
  if (p.where == Place::W::kComptime) {
    if (!v.known) Fail(at, "a comptime variable cannot take a value computed at run time");
    *p.cvalue = v.v;
    return;
  }
  if (p.global) p.global->assigned = true;
  if (p.type->kind == TypeKind::kDsd) {
    StoreDsd(p, v, at);
    return;
  }
  if (v.known && v.v.k == Value::K::kUndefined) return;
  if (p.where == Place::W::kReg) {
    if (v.known && v.v.k != Value::K::kPtr) {
      RV tmp = v;
      const int r = ToReg(tmp, at);
      // The constant straight into the variable's register.
      std::string& body = fn_->body;
      const std::string li = fmt::format("        li      r{}, ", r);
      const size_t at_li = body.rfind(li);
      if (at_li != std::string::npos && body.find('\n', at_li) == body.size() - 1) {
        body.replace(at_li, li.size(), fmt::format("        li      r{}, ", p.reg));
      } else {
        Emit("mov     r{}, r{}", p.reg, r);
      }
      Free(tmp);
      return;
    }
    const int r = ToReg(v, at);
    if (r != p.reg) Emit("mov     r{}, r{}", p.reg, r);
    Free(v);
    return;
  }
  if (!IsRegisterScalar(p.type)) {
    if (v.known && v.v.k == Value::K::kAgg && p.type->kind == TypeKind::kArray) {
      // A known array: element by element.
      const int64_t es = SizeOf(p.type->elem);
      for (size_t i = 0; i < v.v.elems.size(); ++i) {
        Place q = p;
        q.type = p.type->elem;
        q.base_temp = false;
        q.off = p.off + static_cast<int64_t>(i) * es;
        Store(q, Known(v.v.elems[i]), at);
      }
      return;
    }
    if (v.known && v.v.k == Value::K::kAgg && p.type->kind == TypeKind::kStruct) {
      for (size_t i = 0; i < p.type->field_names.size(); ++i) {
        Place q = p;
        q.type = p.type->field_types[i];
        q.base_temp = false;
        q.off = p.off + FieldOffset(p.type, i);
        Store(q, Known(v.v.elems[i]), at);
      }
      return;
    }
    Fail(at, fmt::format("cannot store a {} here (copy it element by element)", TypeName(p.type)));
  }
  const int r = ToReg(v, at);
  Emit("{}      r{}, {}", StoreInsn(p.type), r, MemOperand(p));
  Free(v);
}

bool Sema::PlaceTypeIsArray(const Node* e) {
  if (e->kind != NodeKind::kIdent) return false;
  Place p = PlaceOf(e);
  const bool arr = p.type && p.type->kind == TypeKind::kArray;
  FreePlace(p);
  return arr;
}

RV Sema::AddressOf(const Node* e) {
  Place p = PlaceOf(e);
  // A const array of the module has an address: its copy in memory.
  if (p.where == Place::W::kComptime && e->kind == NodeKind::kIdent && !Lookup(e->text) && p.type &&
      p.type->kind == TypeKind::kArray && mod_->program)
    if (GlobalVar* g = c_.ConstArrayGlobal(mod_, e->text, *p.cvalue)) {
      g->address_taken = true;
      p = Place();
      p.where = Place::W::kMem;
      p.sym = g->symbol;
      p.type = g->type;
      p.global = g;
      p.is_const = true;
    }
  if (p.where == Place::W::kComptime) {
    Fail(e, "cannot take the address of a constant; make it a var");
  }
  if (p.where == Place::W::kReg) Fail(e, "internal: address of a register variable");
  const TypeP pt = types::Ptr(p.type, false, p.is_const);
  if (p.base < 0) {
    Value v;
    v.k = Value::K::kPtr;
    v.s = p.sym;
    v.i = p.off;
    v.type = pt;
    if (p.global) p.global->address_taken = true;
    return Known(v);
  }
  NeedRuntime(e, "this address");
  RV out;
  out.type = pt;
  out.reg = p.base_temp ? p.base : Temp(e);
  out.temp = true;
  if (!p.sym.empty()) {
    const int t = Temp(e);
    Emit("la      r{}, {}+{}", t, p.sym, p.off);
    Emit("add     r{}, r{}, r{}", out.reg, p.base, t);
    FreeReg(t);
  } else {
    Emit("addi    r{}, r{}, {}", out.reg, p.base, p.off);
  }
  return out;
}

}  // namespace tessera::csl
