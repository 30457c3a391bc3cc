// @map(f, a, b, ..., out) runs f once per element: each memory DSD among a, b, ... gives its
// element k, every other argument (a number, a pointer) is passed as it is, and the result goes
// to element k of `out` (a DSD) or to `out.*` (a pointer). The SDK compiles it to a loop on the
// CE; so does cslc, by writing the loop in CSL and compiling it where the call is:
//
//   var __map_k: i16 = 0;
//   while (__map_k < LEN) : (__map_k += 1) { OUT = __map_f(A, B, ...); }
//
// where a DSD argument i is `__map_i[__map_k * STRIDE]` over a many-item pointer to its first
// element. Every node of the loop carries the @map call's place, so its code and its errors
// name that line.
#include "csl/map.h"

#include <fmt/format.h>

#include "csl/compiler.h"
#include "csl/parser.h"

namespace tessera::csl {
namespace {

void SetLoc(Node* n, Loc at) {
  n->loc = at;
  for (NodePtr& k : n->kids)
    if (k) SetLoc(k.get(), at);
}

}  // namespace

RV MapBuiltin(Sema& s, const Node* call, const std::vector<const Node*>& args) {
  if (args.size() < 2)
    s.Fail(call,
           "@map takes a function, its arguments and where the results go: "
           "@map(f, a_dsd, ..., out)");
  s.NeedRuntime(call, "@map");
  const Value f = s.Const(args[0], "@map's function");
  if (f.k != Value::K::kFn || !f.node)
    s.Fail(args[0],
           fmt::format("@map's first argument must be a function, found {}", ValueText(f)));
  // A function that returns void takes every argument after it; else the last one is where
  // its results go.
  const Node* ret = f.node->kid(static_cast<size_t>(f.node->ival));
  const bool to_void = ret && ret->kind == NodeKind::kIdent && ret->text == "void";
  const size_t n = args.size() - 1;  // the function's arguments, then the output
  const size_t n_in = to_void ? n : n - 1;
  if (static_cast<int64_t>(n_in) != f.node->ival)
    s.Fail(call, fmt::format(
                     "'{}' takes {} arguments and @map passes it {}{}", f.node->text, f.node->ival,
                     n_in, to_void ? "" : " (the last argument of @map is where the results go)"));
  s.PushScope();
  s.BindConst("__map_f", f);
  int64_t len = -1;
  const Node* len_from = nullptr;
  std::vector<std::string> exprs;
  for (size_t i = 1; i <= n; ++i) {
    const Node* a = args[i];
    const std::string name = fmt::format("__map_{}", i);
    RV v = s.Expr(a);
    const bool out = i == n && !to_void;
    if (v.type->kind == TypeKind::kDsd) {
      // A DSD var that the program never assigns is its initializer (checked once every
      // function is compiled: Compiler::Run).
      if (!v.known && v.dsd_global && v.dsd_global->init.k == Value::K::kDsd &&
          !v.dsd_global->assigned) {
        s.module()->program->map_inits.emplace_back(v.dsd_global, a->loc);
        v = s.Known(v.dsd_global->init);
      }
      if (!v.known)
        s.Fail(a,
               "@map takes DSDs known at compile time (a const @get_dsd, or a var that is never "
               "assigned)");
      const DsdValue& d = *v.v.dsd;
      if (d.kind != DsdKind::kMem1d)
        s.Fail(a,
               "@map takes memory DSDs (mem1d_dsd); Tessera's cslc does not map fabric DSDs "
               "yet");
      if (len < 0) {
        len = d.length;
        len_from = a;
      } else if (d.length != len) {
        const SourceFile& file = s.compiler().sources().file(len_from->loc.file);
        s.Fail(a, fmt::format("@map's DSDs must have one length: this one has {}, the one at "
                              "column {} has {}",
                              d.length, file.Column(len_from->loc.offset), len));
      }
      Value p;
      p.k = Value::K::kPtr;
      p.s = d.base_symbol;
      p.i = d.base_offset;
      p.type = types::Ptr(d.elem, true, false);
      s.BindConst(name, p);
      exprs.push_back(fmt::format("{}[__map_k * {}]", name, d.stride));
      continue;
    }
    if (out && v.type->kind != TypeKind::kPtr)
      s.Fail(a, fmt::format("@map's last argument is where the results go: a DSD or a pointer, "
                            "found {}",
                            TypeName(v.type)));
    if (v.known) {
      s.BindConst(name, v.v);
    } else {
      Local l = s.NewRuntimeLocal(v.type, false);
      l.is_const = true;
      s.Declare(a, name, l);
      s.Store(Sema::LocalPlace(l), v, a);
    }
    exprs.push_back(out ? name + ".*" : name);
  }
  if (len < 0) s.Fail(call, "@map needs at least one DSD to go over");
  std::string list;
  for (size_t i = 0; i < n_in; ++i) list += (i ? ", " : "") + exprs[i];
  const std::string text = fmt::format(
      "fn __map() void {{\n  var __map_k: i16 = 0;\n  while (__map_k < {}) : (__map_k += 1) {{\n"
      "    {}__map_f({});\n  }}\n}}\n",
      len, to_void ? "" : exprs.back() + " = ", list);
  Compiler& c = s.compiler();
  const SourceFile& at = c.sources().file(call->loc.file);
  const int file =
      c.sources().Add(fmt::format("{} line {} (@map)", at.path, at.Line(call->loc.offset)), text);
  NodePtr tree = ParseFile(c.sources(), file);
  SetLoc(tree.get(), call->loc);
  const Node* body = tree->kid(0)->kids.back().get();
  c.KeepTree(std::move(tree));
  s.Block(body, false);
  s.PopScopeFreeing();
  return s.Known(Value::Void());
}

}  // namespace tessera::csl
