// Builtins other than the DSD operations (dsd_ops.cpp): the layout's, modules, task IDs,
// colors and queues, conversions, and the comptime helpers (docs/csl.md, "Builtins").
#include <cstring>

#include "csl/compiler.h"
#include "csl/dsd_ops.h"
#include "csl/libs.h"
#include "csl/map.h"
#include "csl/sema.h"
#include "fp/scalar_ops.h"

namespace tessera::csl {

constexpr int kAssertTrap = 1;  // the Trap fault's code for a failed @assert
namespace {

constexpr int kNumColors = 24;    // routable colors
constexpr int kNumTaskIds = 31;   // 0..30 (31 = none)
constexpr int kNumInQueues = 8;   // WSE-2 input queues 0..7
constexpr int kNumOutQueues = 6;  // output queues 0..5

const char* const kDirNames[] = {"W", "E", "S", "N", "RAMP"};

}  // namespace

RV Sema::Builtin(const Node* e, const TypeP& want) {
  const std::string& n = e->text;
  std::vector<const Node*> a;
  for (const NodePtr& k : e->kids) a.push_back(k.get());
  auto need = [&](size_t lo, size_t hi) {
    if (a.size() < lo || a.size() > hi) {
      if (lo == hi)
        Fail(e,
             fmt::format("@{} takes {} argument{}, found {}", n, lo, lo == 1 ? "" : "s", a.size()));
      Fail(e, fmt::format("@{} takes {} to {} arguments, found {}", n, lo, hi, a.size()));
    }
  };
  auto int_arg = [&](size_t i, const char* what) {
    const Value v = Const(a[i], what);
    if (v.k != Value::K::kInt)
      Fail(a[i], fmt::format("{} must be an integer, found {}", what, ValueText(v)));
    return v.i;
  };
  auto ranged = [&](size_t i, const char* what, int64_t lo, int64_t hi) {
    const int64_t v = int_arg(i, what);
    if (v < lo || v > hi)
      Fail(a[i], fmt::format("{} {} is out of range ({}..{})", what, v, lo, hi));
    return v;
  };
  auto in_layout = [&]() {
    if (!c_.InLayout()) Fail(e, fmt::format("@{} belongs in the layout block", n));
  };
  auto top_comptime = [&]() {
    if (fn_ || !mod_->program)
      Fail(e, fmt::format("@{} belongs in a top-level comptime block of PE code", n));
  };
  DsdOpResult dsd = DsdBuiltin(*this, e, a);
  if (dsd.handled) return dsd.value;

  if (n == "import_module") {
    need(1, 2);
    const Value path = Const(a[0], "the module's path");
    if (path.k != Value::K::kString) Fail(a[0], "@import_module takes a path string");
    Value binding = Value::Void();
    if (a.size() == 2) {
      binding = Const(a[1], "the module's parameters");
      if (binding.k != Value::K::kAgg)
        Fail(a[1], "the module's parameters must be a struct: .{ .name = value }");
    }
    Value v;
    v.k = Value::K::kModule;
    v.type = types::Module();
    v.mod = c_.Import(path.s, e->loc, binding, mod_->program, mod_);
    return Known(v);
  }
  if (n == "set_rectangle") {
    need(2, 2);
    in_layout();
    LayoutResult& L = c_.layout();
    if (L.rect_set) Fail(e, "@set_rectangle is called once");
    L.width = static_cast<int>(ranged(0, "the width", 1, 4096));
    L.height = static_cast<int>(ranged(1, "the height", 1, 4096));
    L.rect_set = true;
    L.tiles.assign(static_cast<size_t>(L.width * L.height), {});
    return Known(Value::Void());
  }
  if (n == "get_rectangle") {
    // The program rectangle of @set_rectangle: .{ .width, .height }, in the layout after the
    // call and in every PE file (which the driver compiles after the layout block).
    need(0, 0);
    const LayoutResult& L = c_.layout();
    if (!L.rect_set) Fail(e, "@get_rectangle before @set_rectangle");
    Value v;
    v.k = Value::K::kAgg;
    v.type = types::CStruct();
    v.names = {"width", "height"};
    v.elems = {Value::CInt(L.width), Value::CInt(L.height)};
    return Known(v);
  }
  if (n == "set_tile_code") {
    need(2, 4);
    in_layout();
    LayoutResult& L = c_.layout();
    if (!L.rect_set) Fail(e, "@set_tile_code before @set_rectangle");
    const int x = static_cast<int>(ranged(0, "x", 0, L.width - 1));
    const int y = static_cast<int>(ranged(1, "y", 0, L.height - 1));
    LayoutResult::Tile& t = L.tiles[static_cast<size_t>(y * L.width + x)];
    if (t.set) Fail(e, fmt::format("PE({}, {}) already has its code", x, y));
    t.set = true;
    t.loc = e->loc;
    if (a.size() >= 3) {
      const Value f = Const(a[2], "the code's file");
      if (f.k != Value::K::kString) Fail(a[2], "@set_tile_code's file must be a string");
      t.file = f.s;
    }
    t.binding = Value::Void();
    if (a.size() == 4) {
      t.binding = Const(a[3], "the code's parameters");
      if (t.binding.k != Value::K::kAgg)
        Fail(a[3], "the parameters must be a struct: .{ .name = value }");
    }
    return Known(Value::Void());
  }
  if (n == "set_color_config" || n == "set_local_color_config") {
    const bool local = n == "set_local_color_config";
    need(local ? 2 : 4, local ? 2 : 4);
    if (local)
      top_comptime();
    else
      in_layout();
    const size_t base = local ? 0 : 2;
    const Value col = Const(a[base], "the color");
    if (col.k != Value::K::kInt ||
        (col.type->kind != TypeKind::kColor && col.type->kind != TypeKind::kCInt))
      Fail(a[base], fmt::format("expected a color, found {}", ValueText(col)));
    if (col.i < 0 || col.i >= kNumColors)
      Fail(a[base], fmt::format("color {} is out of range (0..23)", col.i));
    const Value cfg = Const(a[base + 1], "the color's configuration");
    const Value* routes = cfg.Field("routes");
    if (!routes) Fail(a[base + 1], "the configuration needs .routes = .{ .rx = ..., .tx = ... }");
    for (const std::string& f : cfg.names)
      if (f != "routes" && f != "switches" && f != "filter")
        Fail(a[base + 1],
             fmt::format("the configuration's field '{}' is not supported yet (.routes "
                         ", .switches and .filter are; teardown comes later)",
                         f));
    RouteConfig rc;
    rc.color = static_cast<int>(col.i);
    rc.loc = e->loc;
    for (const char* side : {"rx", "tx"}) {
      const Value* d = routes->Field(side);
      std::vector<std::string>& out = std::strcmp(side, "rx") == 0 ? rc.rx : rc.tx;
      if (!d) continue;
      std::vector<Value> items = d->k == Value::K::kAgg ? d->elems : std::vector<Value>{*d};
      for (const Value& it : items) {
        if (it.k != Value::K::kInt || it.type->kind != TypeKind::kDirection)
          Fail(a[base + 1],
               fmt::format(".{} takes directions (NORTH, SOUTH, EAST, WEST, RAMP), found {}", side,
                           ValueText(it)));
        const std::string dn = kDirNames[it.i];
        for (const std::string& o : out)
          if (o == dn) Fail(a[base + 1], fmt::format(".{} names {} twice", side, dn));
        out.push_back(dn);
      }
    }
    for (const std::string& f : routes->names) {
      if (f == "color_swap_x") {
        // Leaving W or E, the wavelet's color becomes its pair, color ^ 1 (docs/router.md,
        // "Color swap").
        const Value* v = routes->Field(f);
        if (v->k != Value::K::kBool) Fail(a[base + 1], ".color_swap_x takes true or false");
        rc.swap_x = v->i != 0;
      } else if (f != "rx" && f != "tx") {
        Fail(a[base + 1], fmt::format("route field '{}' is not supported (a route has .rx, .tx "
                                      "and .color_swap_x; color_swap_y is not modelled)",
                                      f));
      }
    }
    if (const Value* sw = cfg.Field("switches")) {
      // The switch: positions 1..3 each replace one side by one direction; the position at load;
      // ring mode (docs/router.md, "Switches": every control wavelet advances the position).
      for (const std::string& f : sw->names) {
        if (f == "pos1" || f == "pos2" || f == "pos3") {
          const Value* p = sw->Field(f);
          const Value* rxd = p->Field("rx");
          const Value* txd = p->Field("tx");
          if (!!rxd == !!txd || p->names.size() != 1)
            Fail(a[base + 1], fmt::format(".switches.{} takes one of .rx = DIR or .tx = DIR", f));
          const Value* d = rxd ? rxd : txd;
          if (d->k != Value::K::kInt || d->type->kind != TypeKind::kDirection)
            Fail(a[base + 1], fmt::format(".switches.{}: expected a direction", f));
          rc.pos[f[3] - '1'] = fmt::format("{}:{}", rxd ? "rx" : "tx", kDirNames[d->i]);
        } else if (f == "current_switch_pos") {
          const Value* v = sw->Field(f);
          if (v->k != Value::K::kInt || v->i < 0 || v->i > 3)
            Fail(a[base + 1], ".switches.current_switch_pos is 0..3");
          rc.start = static_cast<int>(v->i);
        } else if (f == "ring_mode") {
          rc.ring = sw->Field(f)->i != 0;
        } else {
          Fail(a[base + 1], fmt::format(".switches.{} is not supported (Tessera's switches have "
                                        "pos1..pos3, current_switch_pos and ring_mode; every "
                                        "control wavelet advances them)",
                                        f));
        }
      }
    }
    if (const Value* fl = cfg.Field("filter")) {
      // A range filter (docs/router.md, "Filters"): data wavelets reach the CE only with an
      // index (bits 31:16) in min_idx..max_idx; other targets still get them. A counter filter:
      // the index is a count of the wavelets offered to the CE, from init_counter, wrapping to 0
      // after limit1; those counted 0..max_counter are delivered.
      const Value* kind = fl->Field("kind");
      const Value* range = kind ? kind->Field("range") : nullptr;
      const Value* counter = kind ? kind->Field("counter") : nullptr;
      const Value* on = range ? range : counter;
      if (!on || on->k != Value::K::kBool || !on->i || kind->names.size() != 1)
        Fail(a[base + 1],
             ".filter: Tessera's routers have range and counter filters: .kind = .{ .range = "
             "true } with .min_idx and .max_idx, or .kind = .{ .counter = true } with "
             ".init_counter, .max_counter and .limit1");
      auto number = [&](const char* f) {
        const Value* v = fl->Field(f);
        if (!v || v->k != Value::K::kInt || v->i < 0 || v->i > 0xFFFF)
          Fail(a[base + 1], fmt::format(".filter needs .{}, 0..65535", f));
        return static_cast<int>(v->i);
      };
      auto flag = [&](const char* f, bool dflt) {
        const Value* v = fl->Field(f);
        if (!v) return dflt;
        if (v->k != Value::K::kBool) Fail(a[base + 1], fmt::format(".filter.{} takes a bool", f));
        return v->i != 0;
      };
      if (range) {
        for (const std::string& f : fl->names)
          if (f != "kind" && f != "min_idx" && f != "max_idx")
            Fail(a[base + 1], fmt::format(".filter.{} is not a range filter's (a range filter "
                                          "has .kind, .min_idx and .max_idx)",
                                          f));
        rc.filter_min = number("min_idx");
        rc.filter_max = number("max_idx");
      } else {
        for (const std::string& f : fl->names)
          if (f != "kind" && f != "count_data" && f != "count_control" && f != "init_counter" &&
              f != "max_counter" && f != "limit1")
            Fail(a[base + 1], fmt::format(".filter.{} is not a counter filter's (Tessera's has "
                                          ".count_data, .count_control, .init_counter, "
                                          ".max_counter and .limit1)",
                                          f));
        rc.counter = true;
        rc.filter_min = 0;
        rc.filter_max = number("max_counter");
        rc.counter_init = number("init_counter");
        rc.counter_limit = number("limit1");
        rc.count_data = flag("count_data", true);
        rc.count_ctrl = flag("count_control", false);
      }
      rc.filter = true;
    }
    if (local) {
      for (const RouteConfig& r : mod_->program->routes)
        if (r.color == rc.color) Fail(e, fmt::format("color {} is configured twice", rc.color));
      mod_->program->routes.push_back(rc);
    } else {
      LayoutResult& L = c_.layout();
      const int x = static_cast<int>(ranged(0, "x", 0, L.width - 1));
      const int y = static_cast<int>(ranged(1, "y", 0, L.height - 1));
      for (const auto& cc : L.color_configs)
        if (cc.x == x && cc.y == y && cc.route.color == rc.color)
          Fail(e, fmt::format("color {} of PE({}, {}) is configured twice", rc.color, x, y));
      L.color_configs.push_back({x, y, rc});
    }
    return Known(Value::Void());
  }
  if (n == "export_name") {
    need(2, 3);
    in_layout();
    const Value name = Const(a[0], "the exported name");
    if (name.k != Value::K::kString) Fail(a[0], "@export_name's name must be a string");
    const TypeP t = TypeOf(a[1], "the exported type");
    bool mut = false;
    if (a.size() == 3) {
      const Value m = Const(a[2], "the mutability");
      if (m.k != Value::K::kBool) Fail(a[2], "@export_name's third argument is a bool");
      mut = m.i != 0;
    } else if (t->kind != TypeKind::kFn) {
      Fail(e, "@export_name of data needs its mutability: @export_name(name, T, true or false)");
    }
    for (const auto& x : c_.layout().exports)
      if (x.name == name.s) Fail(a[0], fmt::format("'{}' is exported twice", name.s));
    c_.layout().exports.push_back({name.s, t, mut, e->loc});
    return Known(Value::Void());
  }
  if (n == "export_symbol") {
    need(1, 2);
    top_comptime();
    // A global variable is exported by name (its value is the program's, not comptime).
    const bool is_var = a[0]->kind == NodeKind::kIdent && !Lookup(a[0]->text) &&
                        c_.Global(mod_, a[0]->text, a[0]->loc) != nullptr;
    const Value sym = is_var ? Value::Void() : Const(a[0], "the exported symbol");
    std::string name;
    if (a.size() == 2) {
      const Value s = Const(a[1], "the exported name");
      if (s.k != Value::K::kString) Fail(a[1], "@export_symbol's name must be a string");
      name = s.s;
    } else if (a[0]->kind == NodeKind::kIdent) {
      name = a[0]->text;
    } else {
      Fail(a[0], "@export_symbol of an expression needs a name");
    }
    ExportSymbol(e, a[0], sym, name);
    return Known(Value::Void());
  }
  if (n == "bind_local_task" || n == "bind_data_task" || n == "bind_control_task") {
    need(2, 2);
    top_comptime();
    const Value t = Const(a[0], "the task");
    if (t.k != Value::K::kFn || !t.node || !t.node->has(kFlagTask))
      Fail(a[0], fmt::format("@{} binds a task, found {}", n, ValueText(t)));
    const Value id = Const(a[1], "the task ID");
    const std::string kind = n == "bind_local_task"  ? "local"
                             : n == "bind_data_task" ? "data"
                                                     : "control";
    const TypeKind want_kind = kind == "local"  ? TypeKind::kLocalTask
                               : kind == "data" ? TypeKind::kDataTask
                                                : TypeKind::kControlTask;
    if (id.k != Value::K::kInt || id.type->kind != want_kind)
      Fail(a[1], fmt::format("@{} takes a {}, found {} (use @get_{}_task_id)", n,
                             TypeName(types::Simple(want_kind)), ValueText(id), kind));
    if (kind == "local" && t.node->ival != 0) Fail(a[0], "a local task takes no parameters");
    if (kind == "data" && t.node->ival == 0)
      Fail(a[0], "a data task takes the wavelet: at least one parameter");
    Program* p = mod_->program;
    for (const TaskBinding& b : p->tasks)
      if (b.id == id.i) Fail(a[1], fmt::format("task ID {} is bound twice", id.i));
    const std::string sym = c_.FunctionSymbol(t.mod, t.node, e->loc);
    p->tasks.push_back({sym, kind, static_cast<int>(id.i), e->loc});
    return Known(Value::Void());
  }
  if (n == "activate" || n == "block" || n == "unblock") {
    need(1, 1);
    const Value v = Const(a[0], fmt::format("@{}'s task", n));
    const int id = TaskIdOf(v, a[0], ("@" + n + "'s argument").c_str());
    if (n == "activate" && v.type &&
        (v.type->kind == TypeKind::kDataTask || v.type->kind == TypeKind::kColor))
      Fail(a[0], "@activate takes a local or control task ID");
    if (!fn_) {
      top_comptime();
      if (n == "activate")
        mod_->program->active_at_start.insert(id);
      else if (n == "block")
        mod_->program->blocked_at_start.insert(id);
      else
        mod_->program->blocked_at_start.erase(id);
      return Known(Value::Void());
    }
    Emit("{} {}", n == "activate" ? "activate" : n == "block" ? "block   " : "unblock ", id);
    return Known(Value::Void());
  }
  if (n == "get_color") {
    need(1, 1);
    RV v = Expr(a[0]);
    if (v.known) {
      if (v.v.k != Value::K::kInt) Fail(a[0], "@get_color takes an integer");
      if (v.v.i < 0 || v.v.i >= kNumColors)
        Fail(a[0], fmt::format("color {} is out of range (0..23 are routable)", v.v.i));
      return Known(Value::Int(v.v.i, types::Simple(TypeKind::kColor)));
    }
    v.type = types::Simple(TypeKind::kColor);
    return v;
  }
  if (n == "get_input_queue" || n == "get_output_queue") {
    need(1, 1);
    const bool in = n == "get_input_queue";
    const int64_t q =
        ranged(0, in ? "input queue" : "output queue", 0, (in ? kNumInQueues : kNumOutQueues) - 1);
    return Known(Value::Int(q, types::Simple(in ? TypeKind::kInQueue : TypeKind::kOutQueue)));
  }
  if (n == "get_local_task_id") {
    need(1, 1);
    const int64_t id = ranged(0, "task ID", 0, kNumTaskIds - 1);
    return Known(Value::Int(id, types::Simple(TypeKind::kLocalTask)));
  }
  if (n == "get_control_task_id") {
    // The SDK's control task IDs run to 63; Tessera's task table has 31 entries, so IDs above
    // 30 are given free IDs, the same in every program (docs/csl.md).
    need(1, 1);
    const int64_t id = ranged(0, "control task ID", 0, 63);
    return Known(Value::Int(c_.ControlTaskId(static_cast<int>(id), e->loc),
                            types::Simple(TypeKind::kControlTask)));
  }
  if (n == "assert") {
    // A run-time check: when the condition is false the PE stops with the Trap fault, whose
    // report names this line (docs/isa.md, "Faults"). A condition known at compile time is
    // checked then.
    need(1, 1);
    if (!fn_) {
      const Value c = Const(a[0], "@assert's condition");
      if (c.k != Value::K::kBool) Fail(a[0], "@assert takes a bool");
      if (!c.i) Fail(a[0], "@assert failed at compile time");
      return Known(Value::Void());
    }
    const std::string ok = NewLabel(), fail = NewLabel();
    BranchIfFalse(a[0], fail);
    Emit("j       {}", ok);
    EmitLabel(fail);
    Emit("trap    {}", kAssertTrap);
    EmitLabel(ok);
    return Known(Value::Void());
  }
  if (n == "map") return MapBuiltin(*this, e, a);
  if (n == "sqrt") {
    // Zig's @sqrt on f32 and f16 (correctly rounded: fsqrt.s, fsqrt.h); the <math> library's
    // square roots are written with it.
    need(1, 1);
    RV v = Expr(a[0], want);
    if (v.type->kind == TypeKind::kCFloat || v.type->kind == TypeKind::kCInt)
      v = Coerce(v, want && want->kind == TypeKind::kFloat ? want : types::Float(32), a[0],
                 "@sqrt's operand");
    if (v.type->kind != TypeKind::kFloat)
      Fail(a[0], fmt::format("@sqrt takes f32 or f16, found {}", TypeName(v.type)));
    const TypeP t = v.type;
    NeedRuntime(e, "@sqrt");
    const int r = ToReg(v, a[0]);
    const int d = v.temp ? r : Temp(e);
    Emit("fsqrt.{}  r{}, r{}", t->bits == 32 ? 's' : 'h', d, r);
    if (d != r) Free(v);
    RV out;
    out.type = t;
    out.reg = d;
    out.temp = true;
    return out;
  }
  if (n == "get_config" || n == "set_config") {
    // A 32-bit register of Tessera's address map (docs/isa.md, "Registers"), for the libraries
    // written in CSL (host/csl/lib) and programs that know that map.
    const bool set = n == "set_config";
    need(set ? 2 : 1, set ? 2 : 1);
    NeedRuntime(e, "@" + n);
    const int64_t addr = ranged(0, "register address", 0xC000, 0xFFFC);
    if (addr % 4) Fail(a[0], fmt::format("register address 0x{:X} is not a multiple of 4", addr));
    if (set) {
      RV v = Coerce(Expr(a[1], types::Int(32, false)), types::Int(32, false), a[1],
                    "the register's value");
      const int r = ToReg(v, a[1]);
      Emit("sw      r{}, 0x{:x}", r, addr);
      Free(v);
      return Known(Value::Void());
    }
    const int t = Temp(e);
    Emit("lw      r{}, 0x{:x}", t, addr);
    RV out;
    out.type = types::Int(32, false);
    out.reg = t;
    out.temp = true;
    return out;
  }
  if (n == "get_data_task_id") {
    need(1, 1);
    const Value v = Const(a[0], "the data task's color");
    if (v.k != Value::K::kInt || v.type->kind != TypeKind::kColor)
      Fail(a[0], fmt::format("@get_data_task_id takes a color on wse2, found {}", ValueText(v)));
    return Known(Value::Int(v.i, types::Simple(TypeKind::kDataTask)));
  }
  if (n == "initialize_queue") {
    need(1, 2);
    top_comptime();
    const Value q = Const(a[0], "the queue");
    const Value cfg = a.size() == 2 ? Const(a[1], "the queue's configuration") : Value::Void();
    const Value* col = cfg.Field("color");
    if (q.type->kind == TypeKind::kInQueue) {
      if (!col) Fail(e, "an input queue is initialized with .{ .color = ... } on wse2");
      if (mod_->program->in_queue_color.count(static_cast<int>(q.i)))
        Fail(e, fmt::format("input queue {} is initialized twice", q.i));
      mod_->program->in_queue_color[static_cast<int>(q.i)] = static_cast<int>(col->i);
    } else if (q.type->kind == TypeKind::kOutQueue) {
      if (col) mod_->program->out_queue_color[static_cast<int>(q.i)] = static_cast<int>(col->i);
    } else {
      Fail(a[0], fmt::format("@initialize_queue takes a queue, found {}", ValueText(q)));
    }
    return Known(Value::Void());
  }
  if (n == "as") {
    need(2, 2);
    const TypeP t = TypeOf(a[0], "@as's type");
    return Convert(Expr(a[1], t), t, a[1]);
  }
  if (n == "bitcast") {
    need(2, 2);
    const TypeP t = TypeOf(a[0], "@bitcast's type");
    RV v = Expr(a[1]);
    if (SizeOf(t) != SizeOf(v.type) && v.type->kind != TypeKind::kCInt)
      Fail(e, fmt::format("@bitcast from {} ({} bytes) to {} ({} bytes): the sizes differ",
                          TypeName(v.type), SizeOf(v.type), TypeName(t), SizeOf(t)));
    if (v.known) {
      Value x = v.v;
      if (x.k == Value::K::kInt && t->kind == TypeKind::kInt) {
        const int64_t bits = t->bits;
        uint64_t u = static_cast<uint64_t>(x.i) & ((bits >= 64) ? ~0ull : ((1ull << bits) - 1));
        int64_t r = static_cast<int64_t>(u);
        if (t->is_signed && bits < 64 && (u >> (bits - 1))) r -= int64_t(1) << bits;
        return Known(Value::Int(r, t));
      }
      if (x.k == Value::K::kFloat && t->kind == TypeKind::kInt && t->bits == 32) {
        const float f = static_cast<float>(x.f);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        return Known(Value::Int(t->is_signed ? int64_t(int32_t(b)) : int64_t(b), t));
      }
      if (x.k == Value::K::kInt && t->kind == TypeKind::kFloat && t->bits == 32) {
        const uint32_t b = static_cast<uint32_t>(x.i);
        float f;
        std::memcpy(&f, &b, 4);
        return Known(Value::Float(f, t));
      }
      if (x.k == Value::K::kFloat && t->kind == TypeKind::kInt && t->bits == 16) {
        // An f16's bits (the value rounded to f16 first, as f16 constants are).
        const float f = static_cast<float>(x.f);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        uint8_t flags = 0;
        const uint32_t h = fp::F32ToF16(b, flags) & 0xFFFF;
        return Known(Value::Int(t->is_signed ? int64_t(int16_t(h)) : int64_t(h), t));
      }
      if (x.k == Value::K::kInt && t->kind == TypeKind::kFloat && t->bits == 16) {
        uint8_t flags = 0;
        const uint32_t b = fp::F16ToF32(static_cast<uint16_t>(x.i), flags);
        float f;
        std::memcpy(&f, &b, 4);
        return Known(Value::Float(f, t));
      }
      Fail(e, fmt::format("@bitcast of {} to {} is not supported", ValueText(x), TypeName(t)));
    }
    if (t->kind == TypeKind::kInt && t->bits < 32) Normalize(v.reg, t);  // (same register)
    v.type = t;
    return v;
  }
  if (n == "ptrcast") {
    need(2, 2);
    const TypeP t = TypeOf(a[0], "@ptrcast's type");
    if (t->kind != TypeKind::kPtr) Fail(a[0], "@ptrcast's type must be a pointer type");
    RV v = Expr(a[1]);
    if (v.type->kind != TypeKind::kPtr) Fail(a[1], "@ptrcast takes a pointer");
    if (v.known) v.v.type = t;
    v.type = t;
    return v;
  }
  if (n == "zeros" || n == "constants") {
    need(n == "zeros" ? 1 : 2, n == "zeros" ? 1 : 2);
    const TypeP t = TypeOf(a[0], fmt::format("@{}'s type", n));
    if (t->kind != TypeKind::kArray)
      Fail(a[0], fmt::format("@{} makes arrays; found {}", n, TypeName(t)));
    Value el = n == "zeros" ? (t->elem->kind == TypeKind::kFloat ? Value::Float(0, t->elem)
                                                                 : Value::Int(0, t->elem))
                            : Const(a[1], "the value", t->elem);
    Value v;
    v.k = Value::K::kAgg;
    v.type = t;
    v.elems.assign(static_cast<size_t>(t->Count()), el);
    return Known(v);
  }
  if (n == "comptime_assert") {
    need(1, 2);
    const Value c = Const(a[0], "the assertion");
    if (c.k != Value::K::kBool) Fail(a[0], "@comptime_assert takes a bool");
    if (!c.i) {
      std::string msg = "comptime assertion failed";
      if (a.size() == 2) {
        const Value m = Const(a[1], "the message");
        if (m.k == Value::K::kString) msg += ": " + m.s;
      }
      Fail(e, msg);
    }
    return Known(Value::Void());
  }
  if (n == "is_arch") {
    need(1, 1);
    const Value s = Const(a[0], "the architecture");
    if (s.k != Value::K::kString || (s.s != "wse2" && s.s != "wse3"))
      Fail(a[0], "@is_arch takes \"wse2\" or \"wse3\"");
    return Known(Value::Bool(s.s == c_.options().arch));
  }
  if (n == "get_int") {
    need(1, 1);
    RV v = Expr(a[0]);
    if (v.known) return Known(Value::Int(v.v.i, types::Int(16, false)));
    v.type = types::Int(16, false);
    return v;
  }
  if (n == "type_of") {
    need(1, 1);
    RV v = Expr(a[0]);
    Free(v);
    return Known(Value::TypeV(v.type));
  }
  if (n == "strlen") {
    need(1, 1);
    const Value s = Const(a[0], "the string");
    if (s.k != Value::K::kString) Fail(a[0], "@strlen takes a comptime string");
    return Known(Value::CInt(static_cast<int64_t>(s.s.size())));
  }
  if (n == "tessera_debug_string") {
    // <debug>'s trace_string: the string's number in out.json's "debug_strings".
    need(1, 1);
    const Value str = Const(a[0], "the string");
    if (str.k != Value::K::kString) Fail(a[0], "@tessera_debug_string takes a comptime string");
    return Known(Value::CInt(c_.DebugStringId(str.s)));
  }
  if (n == "tessera_debug_buffer") {
    // <debug>'s buffer, named in out.json so that stop() saves it for debug_util.read_trace.
    need(2, 2);
    top_comptime();
    const Value key = Const(a[0], "the trace's key");
    if (key.k != Value::K::kString) Fail(a[0], "the key is a comptime string");
    Place buf = PlaceOf(a[1]);
    if (buf.where != Place::W::kMem || !buf.global || buf.type->kind != TypeKind::kArray)
      Fail(a[1], "@tessera_debug_buffer takes a global array");
    buf.global->address_taken = true;
    for (const DebugBuffer& d : mod_->program->debug_buffers)
      if (d.key == key.s)
        Fail(a[0], fmt::format("two <debug> modules of this program have the key \"{}\"", key.s));
    mod_->program->debug_buffers.push_back({key.s, buf.global->symbol, buf.type->dims[0]});
    return Known(Value::Void());
  }
  if (n == "range")
    Fail(e, "@range is used as a for loop's range: for (@range(i16, N)) |i| { ... }");
  (void)want;
  Fail(e, fmt::format("unknown builtin '@{}' (or one Tessera's cslc does not implement yet; see "
                      "docs/csl.md)",
                      n));
}

void Sema::ExportSymbol(const Node* e, const Node* arg, const Value& sym, const std::string& name) {
  Program* p = mod_->program;
  for (const ExportedSymbol& x : p->exports)
    if (x.name == name) Fail(e, fmt::format("'{}' is exported twice", name));
  ExportedSymbol x;
  x.name = name;
  x.loc = e->loc;
  if (arg->kind == NodeKind::kIdent && sym.k == Value::K::kVoid) {
    if (GlobalVar* g = c_.Global(mod_, arg->text, arg->loc)) {
      if (g->type->kind == TypeKind::kPtr) {
        if (g->init.k != Value::K::kPtr)
          Fail(arg, "an exported pointer needs an initial address (&array)");
        ExportSymbol(e, arg, g->init, name);
        p->exports.back().pointer_var = g->symbol;
        p->exports.back().mutable_ = true;
        return;
      }
      x.symbol = g->symbol;
      x.elem = g->type->kind == TypeKind::kArray ? g->type->elem : g->type;
      x.count = g->type->kind == TypeKind::kArray ? g->type->Count() : 1;
      x.mutable_ = true;
      p->exports.push_back(x);
      return;
    }
  }
  if (sym.k == Value::K::kFn) {
    if (!sym.node || sym.node->has(kFlagTask))
      Fail(arg, "only functions can be exported to the host");
    // Parameters: the host writes them into the function's frame before it launches it.
    const int np = static_cast<int>(sym.node->ival);
    if (np > 15) Fail(arg, "an exported function takes at most 15 parameters");
    Sema types_of(c_, sym.mod, nullptr);
    for (int i = 0; i < np; ++i) {
      const Node* pn = sym.node->kid(static_cast<size_t>(i));
      if (pn->has(kFlagComptime)) Fail(pn, "an exported function's parameters are runtime values");
      const TypeP t = types_of.TypeOf(pn->kid(0), "a parameter type");
      if (!IsRegisterScalar(t) || t->kind == TypeKind::kPtr)
        Fail(pn, fmt::format("the host passes numbers and bools to launched functions, not {}",
                             TypeName(t)));
      x.params.push_back(t);
    }
    x.is_fn = true;
    x.symbol = c_.FunctionSymbol(sym.mod, sym.node, e->loc);
    p->exports.push_back(x);
    p->launchable.push_back(x.symbol);
    p->launchable_names.push_back(name);
    return;
  }
  // Data: a pointer to an array (the host reads and writes the array), or a variable.
  if (sym.k == Value::K::kPtr) {
    x.is_pointer = true;
    x.symbol = sym.s;
    if (sym.i != 0) Fail(arg, "an exported pointer must point at the start of its array");
    GlobalVar* g = nullptr;
    for (auto& [s, gv] : p->globals)
      if (gv.symbol == sym.s) g = &gv;
    if (!g) Fail(arg, "an exported pointer must point at a global array");
    x.elem = g->type->kind == TypeKind::kArray ? g->type->elem : g->type;
    x.count = g->type->kind == TypeKind::kArray ? g->type->Count() : 1;
    // If the pointer is a var, the host sees the array it points at; the program must not change
    // where it points (checked when the program is generated).
    p->exports.push_back(x);
    return;
  }
  Fail(arg, fmt::format("cannot export {}: export a function, a global variable or a pointer to a "
                        "global array",
                        ValueText(sym)));
}

}  // namespace tessera::csl
