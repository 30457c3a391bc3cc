// Statements and calls: run at compile time where everything is known (layout blocks, comptime
// blocks, comptime function calls, inline loops), generated as code otherwise.
#include <set>

#include "csl/compiler.h"
#include "csl/libs.h"
#include "csl/sema.h"

namespace tessera::csl {
namespace {

constexpr int kMaxComptimeSteps = 1 << 22;

// Names whose address the body takes (`&x`, `&x[i]`): such locals live in memory.
void AddressTaken(const Node* n, std::set<std::string>& out) {
  if (!n) return;
  if (n->kind == NodeKind::kUnary && n->text == "&") {
    const Node* k = n->kid(0);
    while (k && (k->kind == NodeKind::kIndex || k->kind == NodeKind::kField)) k = k->kid(0);
    if (k && k->kind == NodeKind::kIdent) out.insert(k->text);
  }
  for (const NodePtr& k : n->kids) AddressTaken(k.get(), out);
}

}  // namespace

bool IsIntLikeType(const TypeP& t) {
  return t->kind == TypeKind::kInt || t->kind == TypeKind::kCInt;
}

Flow Sema::Block(const Node* b, bool new_scope) {
  if (new_scope) PushScope();
  Flow f;
  for (const NodePtr& s : b->kids) {
    f = Stmt(s.get());
    if (f.k != Flow::K::kNext) break;
  }
  if (f.k == Flow::K::kBreak && !b->text.empty() && f.label == b->text && !fn_) {
    // a labeled block's value is handled by BlockExpr
  }
  if (new_scope) PopScopeFreeing();
  return f;
}

Flow Sema::Stmt(const Node* s) {
  MarkLine(s);
  switch (s->kind) {
    case NodeKind::kVarDecl:
      return VarDecl(s);
    case NodeKind::kAssign:
      return Assign(s);
    case NodeKind::kExprStmt: {
      RV v = Expr(s->kid(0));
      Free(v);
      return Flow();
    }
    case NodeKind::kIf:
      return If(s);
    case NodeKind::kWhile:
      return While(s);
    case NodeKind::kFor:
      return For(s);
    case NodeKind::kReturn:
      return Return(s);
    case NodeKind::kBreak:
    case NodeKind::kContinue:
      return Jump(s);
    case NodeKind::kBlock:
      return Block(s);
    case NodeKind::kComptimeBlock: {
      FnState* saved = fn_;
      fn_ = nullptr;
      const Flow f = Block(s->kid(0));
      fn_ = saved;
      return f;
    }
    default:
      Fail(s, fmt::format("a {} is not allowed here", NodeKindName(s->kind)));
  }
}

Flow Sema::VarDecl(const Node* s) {
  const Node* tnode = s->kid(0);
  const Node* init = s->kid(1);
  TypeP t = tnode ? TypeOf(tnode, fmt::format("the type of '{}'", s->text)) : nullptr;
  const bool is_const = s->has(kFlagConst);
  const bool ct = s->has(kFlagComptime) || !fn_;
  if (!init && !t) Fail(s, fmt::format("'{}' needs a type or a value", s->text));
  RV v;
  bool have = false;
  if (init) {
    v = Expr(init, t);
    have = true;
    if (!t) {
      t = v.type;
      if (!ct && !is_const && (t->kind == TypeKind::kCInt || t->kind == TypeKind::kCFloat))
        Fail(s, fmt::format("variable '{}' needs a type: its value {} could be of many "
                            "(var {}: i16 = ...)",
                            s->text, ValueText(v.v), s->text));
    }
    v = Coerce(v, t, init, fmt::format("the value of '{}'", s->text).c_str());
  }
  if (ct || (is_const && v.known)) {
    if (have && !v.known)
      Fail(init, fmt::format("the value of '{}' must be known at compile time", s->text));
    Local l;
    l.type = t;
    l.is_const = is_const;
    l.comptime = true;
    if (have) {
      l.value = v.v;
    } else {
      l.value.k = Value::K::kUndefined;
      l.value.type = t;
    }
    Declare(s, s->text, l);
    return Flow();
  }
  if (t->IsComptimeOnly())
    Fail(s, fmt::format("'{}' has type {}, which exists only at compile time; make it const or "
                        "comptime var",
                        s->text, TypeName(t)));
  Local l = NewRuntimeLocal(t, addr_taken_.count(s->text) != 0);
  l.is_const = is_const;
  Declare(s, s->text, l);
  if (have) {
    Place q = LocalPlace(*Lookup(s->text));
    q.is_const = false;  // its initialization
    Store(q, v, init);
  }
  return Flow();
}

Flow Sema::Assign(const Node* s) {
  const Node* lhs = s->kid(0);
  const Node* rhs = s->kid(1);
  if (lhs->kind == NodeKind::kIdent && lhs->text == "_") {
    RV v = Expr(rhs);
    Free(v);
    return Flow();
  }
  Place p = PlaceOf(lhs);
  if (p.is_const) Fail(lhs, "cannot assign to a constant");
  RV v;
  if (s->text == "=") {
    v = Coerce(Expr(rhs, p.type), p.type, rhs, "the assigned value");
  } else {
    // a op= b: the binary operation on the current value.
    const std::string op = s->text.substr(0, s->text.size() - 1);
    RV cur = Load(p, lhs);
    RV b = Expr(rhs, p.type);
    v = Arith(op, cur, b, s, p.type);
    v = Coerce(v, p.type, s, "the result");
  }
  Store(p, v, s);
  FreePlace(p);
  return Flow();
}

void Sema::BranchIfFalse(const Node* cond, const std::string& label) {
  if (cond->kind == NodeKind::kBinary && cond->text == "and") {
    BranchIfFalse(cond->kid(0), label);
    BranchIfFalse(cond->kid(1), label);
    return;
  }
  if (cond->kind == NodeKind::kBinary && cond->text == "or") {
    const std::string ltrue = NewLabel();
    BranchIfTrue(cond->kid(0), ltrue);
    BranchIfFalse(cond->kid(1), label);
    EmitLabel(ltrue);
    return;
  }
  const bool compare = cond->kind == NodeKind::kBinary &&
                       (cond->text == "<" || cond->text == ">" || cond->text == "<=" ||
                        cond->text == ">=" || cond->text == "==" || cond->text == "!=");
  RV c = compare && fn_ ? Compare(cond, &label) : Expr(cond);
  if (c.type->kind == TypeKind::kNoReturn) return;  // the comparison branched
  if (c.type->kind != TypeKind::kBool)
    Fail(cond, fmt::format("a condition must be a bool, found {}", TypeName(c.type)));
  if (c.known) {
    if (!c.v.i) Emit("j       {}", label);
    return;
  }
  Emit("beqz    r{}, {}", c.reg, label);
  Free(c);
}

void Sema::BranchIfTrue(const Node* cond, const std::string& label) {
  RV c = Expr(cond);
  if (c.type->kind != TypeKind::kBool)
    Fail(cond, fmt::format("a condition must be a bool, found {}", TypeName(c.type)));
  if (c.known) {
    if (c.v.i) Emit("j       {}", label);
    return;
  }
  Emit("bnez    r{}, {}", c.reg, label);
  Free(c);
}

Flow Sema::If(const Node* s) {
  const Node* cond = s->kid(0);
  const bool compare = fn_ && cond->kind == NodeKind::kBinary &&
                       (cond->text == "<" || cond->text == ">" || cond->text == "<=" ||
                        cond->text == ">=" || cond->text == "==" || cond->text == "!=");
  const std::string lelse = fn_ ? NewLabel() : "";
  RV c = compare ? Compare(cond, &lelse) : Expr(cond);
  if (c.type->kind != TypeKind::kNoReturn) {
    if (c.type->kind != TypeKind::kBool)
      Fail(cond, fmt::format("an if's condition must be a bool, found {}", TypeName(c.type)));
    if (c.known) {  // known: only the branch taken is compiled
      if (c.v.i) return Stmt(s->kid(1));
      if (s->kid(2)) return Stmt(s->kid(2));
      return Flow();
    }
    Emit("beqz    r{}, {}", c.reg, lelse);
    Free(c);
  }
  Stmt(s->kid(1));
  if (s->kid(2)) {
    const std::string lend = NewLabel();
    Emit("j       {}", lend);
    EmitLabel(lelse);
    Stmt(s->kid(2));
    EmitLabel(lend);
  } else {
    EmitLabel(lelse);
  }
  return Flow();
}

Flow Sema::While(const Node* s) {
  if (!fn_) {  // at compile time
    for (;;) {
      if (++comptime_steps_ > kMaxComptimeSteps)
        Fail(s, fmt::format("compile-time loop ran more than {} times", kMaxComptimeSteps));
      const Value c = Const(s->kid(0), "the loop's condition");
      if (c.k != Value::K::kBool) Fail(s->kid(0), "a condition must be a bool");
      if (!c.i) break;
      const Flow f = Stmt(s->kid(2));
      if (f.k == Flow::K::kReturn) return f;
      if (f.k == Flow::K::kBreak && (f.label.empty() || f.label == s->text)) break;
      if (f.k == Flow::K::kBreak) return f;
      if (f.k == Flow::K::kContinue && !f.label.empty() && f.label != s->text) return f;
      if (s->kid(1)) Stmt(s->kid(1));
    }
    return Flow();
  }
  const std::string ltop = NewLabel(), lcont = NewLabel(), lend = NewLabel();
  EmitLabel(ltop);
  BranchIfFalse(s->kid(0), lend);
  fn_->loops.push_back({s->text, lend, lcont});
  Stmt(s->kid(2));
  fn_->loops.pop_back();
  EmitLabel(lcont);
  if (s->kid(1)) Stmt(s->kid(1));
  Emit("j       {}", ltop);
  EmitLabel(lend);
  return Flow();
}

Flow Sema::For(const Node* s) {
  const Node* it = s->kid(0);
  const Node* body = s->kid(1);
  const std::string& cap = s->names[0];
  const std::string idx = s->names.size() > 1 ? s->names[1] : "";
  const bool unroll = !fn_ || s->has(kFlagInline);
  // A range: @range(T, stop) or @range(T, start, stop, step).
  if (it->kind == NodeKind::kBuiltinCall && it->text == "range") {
    if (it->kids.size() != 2 && it->kids.size() != 4)
      Fail(it, "@range takes (type, stop) or (type, start, stop, step)");
    const TypeP t = TypeOf(it->kid(0), "@range's element type");
    if (!IsIntLikeType(t)) Fail(it->kid(0), "@range's type must be an integer type");
    const Node* start_n = it->kids.size() == 4 ? it->kid(1) : nullptr;
    const Node* stop_n = it->kids.size() == 4 ? it->kid(2) : it->kid(1);
    const Node* step_n = it->kids.size() == 4 ? it->kid(3) : nullptr;
    if (unroll) {
      const int64_t start = start_n ? Const(start_n, "@range's start", t).i : 0;
      const int64_t stop = Const(stop_n, "@range's stop", t).i;
      const int64_t step = step_n ? Const(step_n, "@range's step", t).i : 1;
      if (step == 0) Fail(step_n, "@range's step must not be 0");
      for (int64_t v = start; step > 0 ? v < stop : v > stop; v += step) {
        if (++comptime_steps_ > kMaxComptimeSteps)
          Fail(s, fmt::format("compile-time loop ran more than {} times", kMaxComptimeSteps));
        PushScope();
        BindConst(cap, Value::Int(v, t));
        const Flow f = Stmt(body);
        PopScopeFreeing();
        if (f.k == Flow::K::kReturn) return f;
        if (f.k == Flow::K::kBreak && (f.label.empty() || f.label == s->text)) break;
        if (f.k == Flow::K::kBreak) return f;
        if (f.k == Flow::K::kContinue && !f.label.empty() && f.label != s->text) return f;
      }
      return Flow();
    }
    if (t->kind == TypeKind::kCInt) Fail(it->kid(0), "a runtime @range needs a fixed-width type");
    // At run time: i = start; while (i < stop) { body; i += step; }
    PushScope();
    RV stop = Coerce(Expr(stop_n, t), t, stop_n, "@range's stop");
    int stop_reg = -1;
    if (!stop.known) {  // keep the bound in a local: the body may call functions
      Local lb = NewRuntimeLocal(t, false);
      Declare(stop_n, " stop", lb);
      Place q = LocalPlace(lb);
      Store(q, stop, stop_n);
      stop_reg = lb.reg;
      if (stop_reg < 0) Fail(stop_n, "too many nested loops with runtime bounds");
    }
    int64_t step = 1;
    if (step_n) {
      const Value sv = Const(step_n, "@range's step (at run time)", t);
      step = sv.i;
      if (step == 0) Fail(step_n, "@range's step must not be 0");
    }
    Local li = NewRuntimeLocal(t, addr_taken_.count(cap) != 0);
    li.is_const = true;
    Declare(s, cap, li);
    Place pi = LocalPlace(li);
    RV start =
        start_n ? Coerce(Expr(start_n, t), t, start_n, "@range's start") : Known(Value::Int(0, t));
    Store(pi, start, s);
    const std::string ltop = NewLabel(), lcont = NewLabel(), lend = NewLabel();
    EmitLabel(ltop);
    {
      RV cur = Load(pi, s);
      const int rc = ToReg(cur, s);
      RV lim = stop_reg >= 0 ? RV() : stop;
      int rl = stop_reg;
      if (stop_reg < 0) rl = ToReg(lim, stop_n);
      const bool sign = t->is_signed;
      if (step > 0)
        Emit("{}    r{}, r{}, {}", sign ? "bge " : "bgeu", rc, rl, lend);
      else
        Emit("{}    r{}, r{}, {}", sign ? "bge " : "bgeu", rl, rc, lend);
      if (stop_reg < 0) Free(lim);
      Free(cur);
    }
    fn_->loops.push_back({s->text, lend, lcont});
    Stmt(body);
    fn_->loops.pop_back();
    EmitLabel(lcont);
    {
      RV cur = Load(pi, s);
      const int rc = ToReg(cur, s);
      const int d = cur.temp ? rc : Temp(s);
      Emit("addi    r{}, r{}, {}", d, rc, step);
      Normalize(d, t);
      RV nv;
      nv.type = t;
      nv.reg = d;
      nv.temp = true;
      Store(pi, nv, s);
    }
    Emit("j       {}", ltop);
    EmitLabel(lend);
    PopScopeFreeing();
    return Flow();
  }
  // An array: the elements (and their index). An array value that is not a place
  // (`for (@zeros([N]u8)) |_, i|`) is known at compile time and unrolls like a comptime array.
  Place arr;
  if (it->kind == NodeKind::kIdent || it->kind == NodeKind::kField ||
      it->kind == NodeKind::kIndex || it->kind == NodeKind::kDeref) {
    arr = PlaceOf(it);
  } else {
    temps_.push_back(Const(it, "the array a for loop runs over"));
    arr.where = Place::W::kComptime;
    arr.type = temps_.back().type ? temps_.back().type : types::Void();
    arr.cvalue = &temps_.back();
  }
  if (arr.type->kind != TypeKind::kArray || arr.type->dims.size() != 1)
    Fail(it, fmt::format("a for loop runs over a range or a one-dimensional array, found {}",
                         TypeName(arr.type)));
  const int64_t n = arr.type->dims[0];
  const TypeP elem = arr.type->elem;
  if (unroll || arr.where == Place::W::kComptime) {
    for (int64_t i = 0; i < n; ++i) {
      PushScope();
      Place q = arr;
      RV v;
      if (arr.where == Place::W::kComptime) {
        v = Known(arr.cvalue->elems[static_cast<size_t>(i)]);
      } else {
        q.type = elem;
        q.base_temp = false;
        q.off = arr.off + i * SizeOf(elem);
        v = Load(q, it);
        if (!v.known) {
          Local l = NewRuntimeLocal(elem, false);
          l.is_const = true;
          Declare(s, cap, l);
          Place lp = LocalPlace(l);
          Store(lp, v, s);
        }
      }
      if (v.known) BindConst(cap, v.v);
      if (!idx.empty()) BindConst(idx, Value::Int(i, types::Int(16, false)));
      const Flow f = Stmt(body);
      PopScopeFreeing();
      if (f.k == Flow::K::kReturn) return f;
      if (f.k == Flow::K::kBreak && (f.label.empty() || f.label == s->text)) break;
      if (f.k == Flow::K::kBreak) return f;
    }
    FreePlace(arr);
    return Flow();
  }
  // At run time: a hidden index walks the array; the capture is the element, loaded each time.
  if (arr.where != Place::W::kMem) Fail(it, "a for loop runs over an array in memory here");
  PushScope();
  const TypeP it_t = types::Int(16, false);
  Local li = NewRuntimeLocal(it_t, false);
  Declare(it, " index", li);
  Place pi = LocalPlace(li);
  Store(pi, Known(Value::Int(0, it_t)), it);
  // The array's address, kept in a local when it is computed (the body may call functions).
  Place base = arr;
  if (arr.base >= 0) {
    Local lb = NewRuntimeLocal(types::Ptr(elem, true, false), false);
    Declare(it, " base", lb);
    RV addr;
    addr.type = lb.type;
    addr.reg = arr.base;
    addr.temp = arr.base_temp;
    Store(LocalPlace(lb), addr, it);
    Place lbp = LocalPlace(lb);
    RV reload = Load(lbp, it);
    base.base = reload.reg;
    base.base_temp = false;
    if (lb.reg < 0) Fail(it, "too many nested loops over computed arrays");
  }
  const std::string ltop = NewLabel(), lcont = NewLabel(), lend = NewLabel();
  EmitLabel(ltop);
  {
    RV cur = Load(pi, it);
    const int rc = ToReg(cur, it);
    RV lim = Known(Value::Int(n, it_t));
    const int rl = ToReg(lim, it);
    Emit("bgeu    r{}, r{}, {}", rc, rl, lend);
    Free(lim);
    Free(cur);
  }
  PushScope();
  {
    // The element at base + index * size.
    RV cur = Load(pi, it);
    const int rc = ToReg(cur, it);
    const int a = cur.temp ? rc : Temp(it);
    const int64_t es = SizeOf(elem);
    if (es == 2)
      Emit("shli    r{}, r{}, 1", a, rc);
    else if (es == 4)
      Emit("shli    r{}, r{}, 2", a, rc);
    else if (es != 1)
      Emit("muli    r{}, r{}, {}", a, rc, es);
    else if (a != rc)
      Emit("mov     r{}, r{}", a, rc);
    if (base.base >= 0) Emit("add     r{}, r{}, r{}", a, a, base.base);
    if (!base.sym.empty()) {
      const int t = Temp(it);
      Emit("la      r{}, {}", t, base.sym);
      Emit("add     r{}, r{}, r{}", a, a, t);
      FreeReg(t);
    }
    Place ep;
    ep.where = Place::W::kMem;
    ep.type = elem;
    ep.base = a;
    ep.base_temp = true;
    ep.off = base.off;
    RV v = Load(ep, it);
    FreePlace(ep);
    Local lc = NewRuntimeLocal(elem, false);
    lc.is_const = true;
    Declare(s, cap, lc);
    Store(LocalPlace(lc), v, s);
    if (!idx.empty()) {
      Local lx = li;  // the hidden index itself, read-only, not freed with this scope
      lx.is_const = true;
      lx.alias = true;
      Declare(s, idx, lx);
    }
  }
  fn_->loops.push_back({s->text, lend, lcont});
  Stmt(body);
  fn_->loops.pop_back();
  PopScopeFreeing();
  EmitLabel(lcont);
  {
    RV cur = Load(pi, it);
    const int rc = ToReg(cur, it);
    const int d = cur.temp ? rc : Temp(it);
    Emit("addi    r{}, r{}, 1", d, rc);
    RV nv;
    nv.type = it_t;
    nv.reg = d;
    nv.temp = true;
    Store(pi, nv, it);
  }
  Emit("j       {}", ltop);
  EmitLabel(lend);
  PopScopeFreeing();
  return Flow();
}

Flow Sema::Return(const Node* s) {
  Flow f;
  f.k = Flow::K::kReturn;
  if (!fn_) {
    if (s->kid(0))
      f.value = Const(s->kid(0), "the returned value", comptime_ret_);
    else
      f.value = Value::Void();
    return f;
  }
  if (inline_) {
    if (s->kid(0)) {
      RV v = Coerce(Expr(s->kid(0), inline_->ret), inline_->ret, s->kid(0), "the returned value");
      if (inline_->result_reg < 0 && inline_->ret->kind != TypeKind::kVoid) {
        // A DSD, a type or a struct: known where the function is expanded.
        if (!v.known)
          Fail(s->kid(0), fmt::format("the returned {} must be known at compile time",
                                      TypeName(inline_->ret)));
        if (inline_->has_known && ValueText(inline_->known) != ValueText(v.v))
          Fail(s->kid(0), "this function returns different compile-time values on different paths");
        inline_->known = v.v;
        inline_->has_known = true;
        Emit("j       {}", inline_->exit_label);
        return Flow();
      }
      if (inline_->result_reg < 0) Fail(s, "this inline function returns nothing");
      Emit("mov     r{}, r{}", inline_->result_reg, ToReg(v, s->kid(0)));
      Free(v);
    }
    Emit("j       {}", inline_->exit_label);
    return Flow();
  }
  if (s->kid(0)) {
    if (fn_->is_task) Fail(s, "a task returns nothing");
    RV v = Coerce(Expr(s->kid(0), fn_->ret), fn_->ret, s->kid(0), "the returned value");
    const int r = ToReg(v, s->kid(0));
    if (r != 1) Emit("mov     r1, r{}", r);
    Free(v);
  }
  Emit("j       {}", fn_->exit_label);
  return Flow();
}

Flow Sema::Jump(const Node* s) {
  const bool is_break = s->kind == NodeKind::kBreak;
  if (!fn_) {
    Flow f;
    f.k = is_break ? Flow::K::kBreak : Flow::K::kContinue;
    f.label = s->text;
    if (s->kid(0)) f.value = Const(s->kid(0), "the break's value");
    return f;
  }
  if (fn_->loops.empty())
    Fail(s, fmt::format("'{}' outside a loop", is_break ? "break" : "continue"));
  const FnState::Loop* target = &fn_->loops.back();
  if (!s->text.empty()) {
    target = nullptr;
    for (auto it = fn_->loops.rbegin(); it != fn_->loops.rend(); ++it)
      if (it->label == s->text) target = &*it;
    if (!target) Fail(s, fmt::format("no loop labeled '{}' around this", s->text));
  }
  if (s->kid(0)) Fail(s->kid(0), "a break out of a loop carries no value");
  Emit("j       {}", is_break ? target->break_to : target->continue_to);
  return Flow();
}

void Sema::GenFunctionBody(const Node* decl) {
  AddressTaken(decl->kids.back().get(), addr_taken_);
  PushScope();
  const int np = static_cast<int>(decl->ival);
  std::vector<TypeP> ptypes;
  for (int i = 0; i < np; ++i) {
    const Node* p = decl->kid(static_cast<size_t>(i));
    if (p->has(kFlagComptime)) Fail(p, "internal: a comptime parameter in a generated function");
    ptypes.push_back(TypeOf(p->kid(0), fmt::format("the type of parameter '{}'", p->text)));
  }
  if (fn_->is_task) {
    // A data task's parameters come from the wavelet in r0: one 32-bit value, or 16-bit halves
    // (the first parameter the low half).
    int64_t bits = 0;
    for (const TypeP& t : ptypes) bits += SizeOf(t) * 8;
    if (bits > 32) Fail(decl, "a task's parameters take at most 32 bits (one wavelet)");
    int shift = 0;
    for (int i = 0; i < np; ++i) {
      const Node* p = decl->kid(static_cast<size_t>(i));
      const TypeP t = ptypes[static_cast<size_t>(i)];
      if (!(SizeOf(t) == 4 || SizeOf(t) == 2))
        Fail(p,
             fmt::format("a task parameter must be a 16- or 32-bit type, found {}", TypeName(t)));
      Local l = NewRuntimeLocal(t, addr_taken_.count(p->text) != 0);
      l.is_const = true;
      Declare(p, p->text, l);
      Local* mine = Lookup(p->text);
      const int t0 = Temp(p);
      if (shift)
        Emit("shri    r{}, r0, {}", t0, shift);
      else
        Emit("mov     r{}, r0", t0);
      Normalize(t0, t);
      if (SizeOf(t) == 2 && t->kind == TypeKind::kFloat) Emit("andi    r{0}, r{0}, 0xffff", t0);
      RV v;
      v.type = t;
      v.reg = t0;
      v.temp = true;
      Place q = LocalPlace(*mine);
      Store(q, v, p);
      shift += static_cast<int>(SizeOf(t) * 8);
    }
  } else {
    // Parameters arrive in the function's frame, 4 bytes each.
    fn_->frame_size = 4 * np;
    for (int i = 0; i < np; ++i) {
      const Node* p = decl->kid(static_cast<size_t>(i));
      Local l;
      l.type = ptypes[static_cast<size_t>(i)];
      l.is_const = true;
      l.sym = fn_->frame;
      l.off = 4 * i;
      Declare(p, p->text, l);
    }
  }
  Block(decl->kids.back().get(), false);
  PopScopeFreeing();
}

Value Sema::CallComptime(const Node* decl, ModuleInst* mod, const std::vector<Value>& args,
                         Loc at) {
  const int np = static_cast<int>(decl->ival);
  if (static_cast<int>(args.size()) != np)
    Fail(at, fmt::format("'{}' takes {} arguments, found {}", decl->text, np, args.size()));
  // Calls at compile time nest on the compiler's own stack: a bound keeps a runaway recursion
  // an error, not a crash.
  static int depth = 0;
  constexpr int kMaxComptimeDepth = 500;
  if (depth >= kMaxComptimeDepth)
    Fail(at, fmt::format("compile-time calls nested deeper than {} (a recursion that does not "
                         "end?)",
                         kMaxComptimeDepth));
  struct DepthGuard {
    DepthGuard() { ++depth; }
    ~DepthGuard() { --depth; }
  } guard;
  Sema inner(c_, mod, nullptr);
  inner.comptime_steps_ = comptime_steps_;
  inner.PushScope();
  for (int i = 0; i < np; ++i) {
    const Node* p = decl->kid(static_cast<size_t>(i));
    const TypeP t = inner.TypeOf(p->kid(0), "a parameter type");
    Value v = args[static_cast<size_t>(i)];
    if (t->kind != TypeKind::kType || v.k == Value::K::kType)
      v = inner.CoerceValue(v, t, p, "an argument");
    inner.BindConst(p->text, v);
  }
  const TypeP ret = inner.TypeOf(decl->kid(static_cast<size_t>(np)), "the return type");
  inner.comptime_ret_ = ret;
  const Flow f = inner.Block(decl->kids.back().get(), false);
  comptime_steps_ = inner.comptime_steps_;
  if (f.k == Flow::K::kReturn) return f.value;
  if (ret->kind != TypeKind::kVoid)
    Fail(decl, fmt::format("'{}' ends without returning a {}", decl->text, TypeName(ret)));
  return Value::Void();
}

RV Sema::CallFunction(const Node* call, const Value& fnv, const std::vector<const Node*>& args) {
  if (!fnv.node) return LibCall(*this, fnv.mod, fnv.s, call, args);
  const Node* decl = fnv.node;
  ModuleInst* m = fnv.mod;
  if (decl->has(kFlagTask))
    Fail(call,
         fmt::format("'{}' is a task: tasks are not called; bind it and @activate it", decl->text));
  const int np = static_cast<int>(decl->ival);
  if (static_cast<int>(args.size()) != np)
    Fail(call, fmt::format("'{}' takes {} arguments, found {}", decl->text, np, args.size()));
  if (decl->has(kFlagExtern))
    Fail(call, fmt::format("'{}' is extern: it has no body to call", decl->text));
  bool generic = false;
  for (int i = 0; i < np; ++i) generic |= decl->kid(static_cast<size_t>(i))->has(kFlagComptime);
  if (!fn_) {
    std::vector<Value> vals;
    Sema callee_types(c_, m, nullptr);
    for (int i = 0; i < np; ++i)
      vals.push_back(Const(args[static_cast<size_t>(i)], "an argument of a comptime call"));
    return Known(CallComptime(decl, m, vals, call->loc));
  }
  if (decl->has(kFlagInline) || generic) {
    // Expanded here: known arguments stay known inside.
    Sema inner(c_, m, fn_);
    inner.PushScope();
    for (int i = 0; i < np; ++i) {
      const Node* p = decl->kid(static_cast<size_t>(i));
      const TypeP t = inner.TypeOf(p->kid(0), "a parameter type");
      RV a = Expr(args[static_cast<size_t>(i)], t);
      if (t->kind != TypeKind::kType) a = Coerce(a, t, args[static_cast<size_t>(i)], "an argument");
      if (a.known) {
        inner.BindConst(p->text, a.v);
        continue;
      }
      if (p->has(kFlagComptime))
        Fail(args[static_cast<size_t>(i)], "this argument must be known at compile time");
      Local l = inner.NewRuntimeLocal(t, false);
      l.is_const = true;
      inner.Declare(p, p->text, l);
      Place q = LocalPlace(l);
      Store(q, a, p);
    }
    const TypeP ret = inner.TypeOf(decl->kid(static_cast<size_t>(np)), "the return type");
    InlineFrame frame;
    frame.exit_label = NewLabel();
    frame.ret = ret;
    const bool scalar = ret->kind == TypeKind::kBool || ret->kind == TypeKind::kInt ||
                        ret->kind == TypeKind::kFloat || ret->kind == TypeKind::kPtr ||
                        ret->kind == TypeKind::kEnum;
    if (scalar) frame.result_reg = Temp(call);
    inner.inline_ = &frame;
    inner.addr_taken_ = addr_taken_;
    inner.Block(decl->kids.back().get(), false);
    inner.PopScopeFreeing();
    EmitLabel(frame.exit_label);
    if (ret->kind == TypeKind::kVoid) return Known(Value::Void());
    if (!scalar) {
      if (!frame.has_known) Fail(call, fmt::format("'{}' returns no value", decl->text));
      return Known(frame.known);
    }
    RV out;
    out.type = ret;
    out.reg = frame.result_reg;
    out.temp = true;
    return out;
  }
  const std::string sym = c_.FunctionSymbol(m, decl, call->loc);
  mod_->program->calls[fn_->symbol].push_back({sym, call->loc});
  Sema types_of(c_, m, nullptr);
  const std::string frame = "__frame_" + sym;
  for (int i = 0; i < np; ++i) {
    const Node* p = decl->kid(static_cast<size_t>(i));
    const TypeP t = types_of.TypeOf(p->kid(0), "a parameter type");
    RV a = Coerce(Expr(args[static_cast<size_t>(i)], t), t, args[static_cast<size_t>(i)],
                  "an argument");
    Place q;
    q.type = t;
    q.where = Place::W::kMem;
    q.sym = frame;
    q.off = 4 * i;
    Store(q, a, args[static_cast<size_t>(i)]);
  }
  const TypeP ret = types_of.TypeOf(decl->kid(static_cast<size_t>(np)), "the return type");
  std::vector<std::pair<int, std::string>> saved;
  SpillTemps(saved);
  Emit("call    {}", sym);
  fn_->calls = true;
  if (ret->kind == TypeKind::kVoid) {
    RestoreTemps(saved);
    return Known(Value::Void());
  }
  std::string slot;
  if (!saved.empty()) {
    slot = FrameSlot(4, 4);
    Emit("sw      r1, {}", slot);
  }
  RestoreTemps(saved);
  RV out;
  out.type = ret;
  out.reg = Temp(call);
  out.temp = true;
  if (saved.empty()) {
    if (out.reg != 1) Emit("mov     r{}, r1", out.reg);
  } else {
    Emit("lw      r{}, {}", out.reg, slot);
  }
  return out;
}

int Sema::TaskIdOf(const Value& v, const Node* at, const char* what) {
  if (v.k == Value::K::kInt &&
      (v.type->kind == TypeKind::kLocalTask || v.type->kind == TypeKind::kDataTask ||
       v.type->kind == TypeKind::kControlTask || v.type->kind == TypeKind::kColor))
    return static_cast<int>(v.i);
  if (v.k == Value::K::kFn && v.node && v.node->has(kFlagTask)) {
    Program* p = mod_->program;
    const std::string sym = c_.FunctionSymbol(v.mod, v.node, at->loc);
    for (const TaskBinding& b : p->tasks)
      if (b.symbol == sym) return b.id;
    Fail(at,
         fmt::format("{}: task '{}' is not bound to an ID (@bind_local_task)", what, v.node->text));
  }
  Fail(at, fmt::format("{} must be a task ID or a task, found {}", what, ValueText(v)));
}

}  // namespace tessera::csl
