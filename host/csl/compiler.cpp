#include "csl/compiler.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/predefined.h"
#include "csl/libs.h"
#include "csl/parser.h"
#include "csl/sema.h"
#include "layout/image.h"
#include "layout/layout.h"
#include "util/big_stack.h"
#include "util/json.h"

namespace tessera::csl {
namespace fs = std::filesystem;
namespace {

constexpr int kLaunchTaskPreferred = 30;

bool IsRegisterName(const std::string& n) {
  if (n == "sp" || n == "lr" || n == "wv") return true;
  if (n.size() >= 2 && n.size() <= 3 && (n[0] == 'r' || n[0] == 'd') &&
      std::isdigit(static_cast<unsigned char>(n[1])))
    return true;
  if (n.size() == 3 && n[0] == 'u' && n[1] == 't') return true;
  return false;
}

// A name the assembler can take as a symbol.
std::string AsmName(const std::string& n) {
  if (IsRegisterName(n) || assembler::PredefinedSymbols().count(n) || n.rfind("__", 0) == 0)
    return "csl_" + n;
  return n;
}

std::string Dirname(const std::string& p) {
  const fs::path d = fs::path(p).parent_path();
  return d.empty() ? "." : d.string();
}

uint32_t FloatBits(double v, const TypeP& t) {
  const float f = static_cast<float>(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if (t->bits == 16) {
    // Round-to-nearest-even f32 -> f16 bits.
    const uint32_t sign = (b >> 16) & 0x8000;
    const int exp = static_cast<int>((b >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = b & 0x7FFFFF;
    if (((b >> 23) & 0xFF) == 0xFF) return sign | 0x7C00 | (mant ? 0x200 : 0);
    if (exp >= 31) return sign | 0x7C00;
    if (exp <= 0) {
      if (exp < -10) return sign;
      mant |= 0x800000;
      const int shift = 14 - exp;
      uint32_t h = mant >> shift;
      const uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rem > half || (rem == half && (h & 1))) ++h;
      return sign | h;
    }
    uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1FFF;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;
    return sign | h;
  }
  return b;
}

}  // namespace

Compiler::Compiler(Options o) : opt_(std::move(o)) {}
Compiler::~Compiler() = default;

void Compiler::Run() {
  // The comptime interpreter and the parser recurse; their depth limits (500 calls, 200 levels)
  // must end in an error, not a stack overflow, in every build, sanitized ones included.
  constexpr size_t kStackBytes = size_t{512} << 20;
  util::RunOnStack(kStackBytes, [this] {
    EvalLayout();
    BuildPrograms();
    for (auto& p : programs_) GenProgram(*p);
    for (auto& p : programs_)
      for (const auto& [g, at] : p->map_inits)
        if (g->assigned)
          sources_.Fail(at, fmt::format("@map took '{}' as its initializer, but the program "
                                        "assigns it at run time",
                                        g->decl ? g->decl->text : g->symbol));
    WriteOutput();
  });
}

namespace {
void IndexDecls(const Sources& src, ModuleInst& m) {
  for (const NodePtr& d : m.tree->kids) {
    if (d->kind != NodeKind::kVarDecl && d->kind != NodeKind::kFnDecl) continue;
    const auto [it, fresh] = m.decls.emplace(d->text, d.get());
    if (!fresh) src.Fail(d->loc, fmt::format("'{}' is declared twice in this file", d->text));
  }
}
}  // namespace

ModuleInst* Compiler::Import(const std::string& path, Loc from, Value binding, Program* prog,
                             ModuleInst* importer) {
  constexpr int kMaxImportDepth = 64;
  const int depth = importer ? importer->depth + 1 : 0;
  if (depth > kMaxImportDepth)
    sources_.Fail(from,
                  fmt::format("modules imported {} deep (does a module import itself?)", depth));
  auto m = std::make_unique<ModuleInst>();
  m->depth = depth;
  m->binding = std::move(binding);
  m->import_loc = from;
  m->program = prog;
  // A library is native (libs.cpp) or a CSL file of host/csl/lib (<time> is lib/time.csl).
  std::string lib_file;
  if (!IsLibrary(path) && path.size() > 2 && path.front() == '<' && path.back() == '>') {
    const fs::path f = fs::path(LibraryDir()) / (path.substr(1, path.size() - 2) + ".csl");
    if (fs::exists(f)) lib_file = f.string();
  }
  if (lib_file.empty() && (IsLibrary(path) || (path.size() > 2 && path.front() == '<'))) {
    if (!IsLibrary(path))
      sources_.Fail(
          from, fmt::format("unknown library {} (Tessera's cslc has {})", path, LibraryNames()));
    m->native = path;
    m->path = path;
    if (path == "<memcpy/memcpy>" && prog) prog->uses_memcpy = true;
  } else {
    std::string full = lib_file.empty() ? path : lib_file;
    if (lib_file.empty() && importer && importer->file >= 0 && !fs::path(path).is_absolute())
      full = (fs::path(Dirname(sources_.file(importer->file).path)) / path)
                 .lexically_normal()
                 .string();
    if (!fs::exists(full)) {
      for (const std::string& dir : opt_.import_paths) {
        const std::string cand = (fs::path(dir) / path).string();
        if (fs::exists(cand)) {
          full = cand;
          break;
        }
      }
    }
    if (!fs::exists(full))
      sources_.Fail(from, fmt::format("cannot find module '{}' (looked for {})", path, full));
    m->path = full;
    m->file = sources_.Load(full, from);
    m->tree = ParseFile(sources_, m->file);
    IndexDecls(sources_, *m);
    // A file that imports <tile_config> may give a queue another color at run time: known
    // before any of its code is generated (docs/csl.md, "<tile_config>").
    if (prog)
      for (const NodePtr& d : m->tree->kids)
        if (d->kind == NodeKind::kVarDecl && d->kid(1) &&
            d->kid(1)->kind == NodeKind::kBuiltinCall && d->kid(1)->text == "import_module" &&
            d->kid(1)->kid(0) && d->kid(1)->kid(0)->kind == NodeKind::kStringLit &&
            d->kid(1)->kid(0)->text.find("<tile_config") != std::string::npos)
          prog->runtime_queue_colors = true;
    m->prefix = importer ? fmt::format("m{}_", ++next_module_) : "";
    // Every field of the binding sets a param of that name.
    for (size_t i = 0; i < m->binding.names.size(); ++i) {
      const auto it = m->decls.find(m->binding.names[i]);
      if (it == m->decls.end() || !it->second->has(kFlagParam))
        fmt::print(stderr, "{}\n",
                   sources_.Format(from, "warning",
                                   fmt::format("'{}' has no param '{}'; the value is ignored", full,
                                               m->binding.names[i])));
    }
  }
  ModuleInst* raw = m.get();
  if (prog)
    prog->modules.push_back(std::move(m));
  else
    layout_modules_.push_back(std::move(m));
  return raw;
}

std::optional<Value> Compiler::GlobalValue(ModuleInst* m, const std::string& name, Loc at) {
  const auto have = m->values.find(name);
  if (have != m->values.end()) return have->second;
  const auto it = m->decls.find(name);
  if (it == m->decls.end()) return std::nullopt;
  const Node* d = it->second;
  if (d->kind == NodeKind::kFnDecl) {
    Value v;
    v.k = Value::K::kFn;
    v.node = d;
    v.mod = m;
    v.type = types::Fn({}, types::Void(), d->has(kFlagTask));
    m->values[name] = v;
    return v;
  }
  if (d->has(kFlagVar) || d->has(kFlagExtern)) return std::nullopt;
  if (m->evaluating.count(name))
    sources_.Fail(d->loc, fmt::format("'{}' depends on its own value", name));
  m->evaluating.insert(name);
  Sema s(*this, m, nullptr);
  const TypeP t = d->kid(0) ? s.TypeOf(d->kid(0), fmt::format("the type of '{}'", name)) : nullptr;
  Value v;
  if (d->has(kFlagParam)) {
    const Value* given = m->binding.Field(name);
    if (given) {
      v = t ? s.CoerceValue(*given, t, d, fmt::format("param '{}'", name).c_str()) : *given;
    } else if (d->kid(1)) {
      v = s.Const(d->kid(1), fmt::format("the default of param '{}'", name), t);
    } else {
      sources_.Fail(d->loc,
                    fmt::format("param '{}' is not given a value ({})", name,
                                m == layout_mod_.get() ? fmt::format("--params={}:VALUE", name)
                                                       : "by the layout's @set_tile_code or the "
                                                         "importing module"));
    }
  } else {
    v = s.Const(d->kid(1), fmt::format("the value of '{}'", name), t);
  }
  (void)at;
  m->evaluating.erase(name);
  m->values[name] = v;
  return v;
}

GlobalVar* Compiler::Global(ModuleInst* m, const std::string& name, Loc at) {
  const auto it = m->decls.find(name);
  if (it == m->decls.end() || it->second->kind != NodeKind::kVarDecl || !it->second->has(kFlagVar))
    return nullptr;
  const Node* d = it->second;
  if (!m->program)
    sources_.Fail(at, fmt::format("'{}' is a runtime variable of the layout file; the layout runs "
                                  "at compile time",
                                  name));
  const std::string sym = AsmName(m->prefix + name);
  auto g = m->program->globals.find(sym);
  if (g != m->program->globals.end()) return &g->second;
  if (d->has(kFlagExtern)) sources_.Fail(d->loc, "extern variables are not supported");
  GlobalVar& gv = m->program->globals[sym];
  gv.symbol = sym;
  gv.decl = d;
  gv.mod = m;
  Sema s(*this, m, nullptr);
  gv.type = d->kid(0) ? s.TypeOf(d->kid(0), fmt::format("the type of '{}'", name)) : nullptr;
  if (d->kid(1)) {
    const Value v = s.Const(d->kid(1),
                            fmt::format("the initial value of '{}' (globals are "
                                        "initialized at compile time)",
                                        name),
                            gv.type);
    if (!gv.type) gv.type = v.type;
    gv.init = v;
  } else {
    gv.init = Value::Void();
  }
  if (!gv.type) sources_.Fail(d->loc, fmt::format("variable '{}' needs a type", name));
  if (gv.type->IsComptimeOnly() || gv.type->kind == TypeKind::kCInt)
    sources_.Fail(d->loc, fmt::format("variable '{}' has type {}, which exists only at compile "
                                      "time; give it a type such as i16",
                                      name, TypeName(gv.type)));
  m->program->global_order.push_back(sym);
  return &gv;
}

int Compiler::DebugStringId(const std::string& s) {
  for (size_t i = 0; i < debug_strings_.size(); ++i)
    if (debug_strings_[i] == s) return static_cast<int>(i);
  debug_strings_.push_back(s);
  return static_cast<int>(debug_strings_.size() - 1);
}

GlobalVar* Compiler::ConstArrayGlobal(ModuleInst* m, const std::string& name, const Value& v) {
  const auto it = m->decls.find(name);
  if (it == m->decls.end() || it->second->kind != NodeKind::kVarDecl || it->second->has(kFlagVar))
    return nullptr;
  const std::string sym = AsmName(m->prefix + name);
  auto g = m->program->globals.find(sym);
  if (g != m->program->globals.end()) return &g->second;
  GlobalVar& gv = m->program->globals[sym];
  gv.symbol = sym;
  gv.decl = it->second;
  gv.mod = m;
  gv.type = v.type;
  gv.init = v;
  m->program->global_order.push_back(sym);
  return &gv;
}

std::string Compiler::FunctionSymbol(ModuleInst* m, const Node* decl, Loc at) {
  (void)at;
  std::string& sym = fn_symbols_[decl][m];
  if (sym.empty()) {
    sym = AsmName(m->prefix + decl->text);
    fn_queue_.emplace_back(m, decl);
  }
  return sym;
}

std::string Compiler::DsdDirective(const std::string& name, const DsdValue& d) {
  static const char* const kinds[] = {"mem1d", "mem4d", "fabin", "fabout", "fifo"};
  std::string s =
      fmt::format(".dsd    {}, {}, {}", name, kinds[static_cast<int>(d.kind)], DsdElemName(d.elem));
  const std::string base = d.base_symbol.empty()
                               ? std::to_string(d.base_offset)
                               : fmt::format("{}+{}", d.base_symbol, d.base_offset);
  if (d.kind == DsdKind::kMem1d) {
    s += fmt::format(", base={}, len={}, stride={}", base, d.length, d.stride);
  } else if (d.kind == DsdKind::kFifo) {  // the buffer, its capacity, the FIFO's number
    s += fmt::format(", base={}, len={}, fifo={}", base, d.length, d.color);
  } else {
    s += fmt::format(", color={}, len={}", d.color,
                     d.length >= 0x7FFF ? std::string("inf") : std::to_string(d.length));
    if (d.control) s += ", ctrl=1";
    if (d.index) s += ", idx=1";
  }
  return s;
}

std::string Compiler::DsdConstant(Program* p, const DsdValue& d, Loc at) {
  (void)at;
  const std::string key = fmt::format("{}|{}", p->index, DsdDirective("", d));
  auto it = dsd_consts_.find(key);
  if (it != dsd_consts_.end()) return it->second;
  const std::string name = fmt::format("__dsd{}", dsd_count_++);
  dsd_consts_[key] = name;
  p->data += "        " + DsdDirective(name, d) + "\n";
  return name;
}

void Compiler::StreamColors(std::vector<int>& h2d, std::vector<int>& d2h) {
  for (const auto& m : layout_modules_) {
    if (m->native != "<memcpy/get_params>") continue;
    for (size_t i = 0; i < m->binding.names.size(); ++i) {
      const std::string& n = m->binding.names[i];
      const bool in = n.rfind("MEMCPYH2D_", 0) == 0, out = n.rfind("MEMCPYD2H_", 0) == 0;
      if (!in && !out) continue;
      const Value& v = m->binding.elems[i];
      if (v.k != Value::K::kInt || v.i < 0 || v.i > 23)
        sources_.Fail(m->import_loc,
                      fmt::format("{} must be a color 0..23, found {}", n, ValueText(v)));
      if (!opt_.memcpy)
        sources_.Fail(m->import_loc,
                      fmt::format("{} is a memcpy stream: compile with --memcpy", n));
      (in ? h2d : d2h).push_back(static_cast<int>(v.i));
    }
  }
}

int Compiler::ControlTaskId(int id, Loc at) {
  if (id <= 29) return id;
  const auto it = control_ids_.find(id);
  if (it != control_ids_.end()) return it->second;
  const int mapped = 29 - static_cast<int>(control_ids_.size());
  if (mapped < 24)
    sources_.Fail(at, fmt::format("control task ID {}: Tessera maps control task IDs above 29 onto "
                                  "24..29, and six are taken",
                                  id));
  control_ids_[id] = mapped;
  return mapped;
}

int Compiler::FunctionIndex(const std::string& name, Loc at) {
  int idx = 0;
  for (const auto& e : layout_.exports) {
    if (e.type->kind != TypeKind::kFn) continue;
    if (e.name == name) return idx;
    ++idx;
  }
  sources_.Fail(at, fmt::format("'{}' is exported by the PE code but the layout has no "
                                "@export_name(\"{}\", fn()void)",
                                name, name));
}

void Compiler::EvalLayout() {
  const int f = sources_.Load(opt_.layout_file, Loc{});
  layout_mod_ = std::make_unique<ModuleInst>();
  layout_mod_->file = f;
  layout_mod_->path = opt_.layout_file;
  layout_mod_->tree = ParseFile(sources_, f);
  IndexDecls(sources_, *layout_mod_);
  Value b;
  b.k = Value::K::kAgg;
  b.type = types::CStruct();
  auto given = [&](const std::vector<std::pair<std::string, std::string>>& list, bool colors) {
    for (const auto& [name, text] : list) {
      const auto it = layout_mod_->decls.find(name);
      if (it == layout_mod_->decls.end() || !it->second->has(kFlagParam))
        throw Error(fmt::format("cslc: {}: {} has no param '{}'", colors ? "--colors" : "--params",
                                opt_.layout_file, name));
      for (const std::string& n : b.names)
        if (n == name) throw Error(fmt::format("cslc: --params: '{}' is given twice", name));
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(text.c_str(), &end, 0);
      if (text.empty() || *end != '\0' || errno == ERANGE)
        throw Error(fmt::format("cslc: {}: the value of '{}' must be an integer, found '{}'",
                                colors ? "--colors" : "--params", name, text));
      b.names.push_back(name);
      b.elems.push_back(colors ? Value::Int(v, types::Simple(TypeKind::kColor)) : Value::CInt(v));
    }
  };
  given(opt_.params, false);
  given(opt_.colors, true);
  layout_mod_->binding = b;
  const Node* block = nullptr;
  for (const NodePtr& d : layout_mod_->tree->kids) {
    if (d->kind != NodeKind::kLayoutBlock) continue;
    if (block) sources_.Fail(d->loc, "a program has one layout block");
    block = d.get();
  }
  if (!block)
    sources_.Fail(Loc{f, 0},
                  "this file has no layout block: give cslc the top-level file that "
                  "calls @set_rectangle and @set_tile_code");
  Sema s(*this, layout_mod_.get(), nullptr);
  for (const NodePtr& d : layout_mod_->tree->kids)
    if (d->kind == NodeKind::kComptimeBlock) s.Block(d->kid(0));
  in_layout_ = true;
  s.Block(block->kid(0));
  in_layout_ = false;
  if (!layout_.rect_set) sources_.Fail(block->loc, "the layout block must call @set_rectangle");
  for (int y = 0; y < layout_.height; ++y)
    for (int x = 0; x < layout_.width; ++x)
      if (!layout_.tiles[static_cast<size_t>(y * layout_.width + x)].set)
        sources_.Fail(block->loc, fmt::format("PE({}, {}) of the {}x{} rectangle has no code "
                                              "(@set_tile_code({}, {}, ...))",
                                              x, y, layout_.width, layout_.height, x, y));
  // The fabric: the program plus what memcpy needs around it (3 columns west, 2 east, a halo).
  const int need_w = opt_.memcpy ? opt_.offset_x + layout_.width + 3 + opt_.east_buf
                                 : opt_.offset_x + layout_.width;
  const int need_h =
      opt_.memcpy ? opt_.offset_y + layout_.height + 1 : opt_.offset_y + layout_.height;
  if (opt_.memcpy && (opt_.offset_x < 4 + opt_.west_buf || opt_.offset_y < 1))
    throw Error(
        fmt::format("cslc: --fabric-offsets={},{}: with --memcpy the program starts at "
                    "x >= {} and y >= 1 (memcpy's columns lie west of it)",
                    opt_.offset_x, opt_.offset_y, 4 + opt_.west_buf));
  if (opt_.fabric_w == 0) {
    opt_.fabric_w = need_w;
    opt_.fabric_h = need_h;
  }
  if (opt_.fabric_w < need_w || opt_.fabric_h < need_h)
    throw Error(
        fmt::format("cslc: --fabric-dims={},{} is too small for the {}x{} program at offset "
                    "{},{}: it needs at least {},{}",
                    opt_.fabric_w, opt_.fabric_h, layout_.width, layout_.height, opt_.offset_x,
                    opt_.offset_y, need_w, need_h));
}

void Compiler::BuildPrograms() {
  const std::string dir = Dirname(opt_.layout_file);
  std::map<std::string, int> by_key;
  pe_program_.assign(layout_.tiles.size(), -1);
  for (int y = 0; y < layout_.height; ++y) {
    for (int x = 0; x < layout_.width; ++x) {
      const LayoutResult::Tile& t = layout_.tiles[static_cast<size_t>(y * layout_.width + x)];
      if (t.file.empty()) continue;  // a PE with no code
      const std::string path = fs::path(t.file).is_absolute()
                                   ? t.file
                                   : (fs::path(dir) / t.file).lexically_normal().string();
      const std::string key = path + "|" + ValueText(t.binding);
      auto it = by_key.find(key);
      if (it == by_key.end()) {
        auto p = std::make_unique<Program>();
        p->index = static_cast<int>(programs_.size());
        p->file = path;
        p->binding = t.binding;
        p->unblock_counter = "__cmd_unblocks";
        p->loc = t.loc;
        it = by_key.emplace(key, p->index).first;
        programs_.push_back(std::move(p));
        Program* prog = programs_.back().get();
        ModuleInst* top = Import(t.file, t.loc, t.binding, prog, layout_mod_.get());
        top->prefix = "";
        (void)top;
      }
      programs_[static_cast<size_t>(it->second)]->pes.emplace_back(x, y);
      pe_program_[static_cast<size_t>(y * layout_.width + x)] = it->second;
    }
  }
}

void Compiler::RunComptimeBlocks(Program& p) {
  // Modules imported by constants exist once those are evaluated: evaluate the imports first,
  // then every module's top-level comptime blocks (modules imported meanwhile included).
  for (size_t i = 0; i < p.modules.size(); ++i) {
    ModuleInst* m = p.modules[i].get();
    if (!m->tree) continue;
    for (const NodePtr& d : m->tree->kids) {
      if (d->kind == NodeKind::kVarDecl && d->has(kFlagConst) && d->kid(1) &&
          d->kid(1)->kind == NodeKind::kBuiltinCall && d->kid(1)->text == "import_module")
        GlobalValue(m, d->text, d->loc);
    }
    for (const NodePtr& d : m->tree->kids) {
      if (d->kind == NodeKind::kComptimeBlock) {
        Sema s(*this, m, nullptr);
        s.Block(d->kid(0));
      } else if (d->kind == NodeKind::kLayoutBlock && i == 0) {
        sources_.Fail(d->loc, "a layout block belongs in the top-level file given to cslc");
      }
    }
  }
}

void Compiler::GenProgram(Program& p) {
  fn_queue_.clear();
  RunComptimeBlocks(p);
  // Check the exports against the layout's @export_name.
  for (const ExportedSymbol& x : p.exports) {
    const LayoutResult::ExportName* en = nullptr;
    for (const auto& e : layout_.exports)
      if (e.name == x.name) en = &e;
    if (!en)
      sources_.Fail(x.loc, fmt::format("'{}' is exported by the PE code but the layout has no "
                                       "@export_name(\"{}\", ...)",
                                       x.name, x.name));
    if (x.is_fn != (en->type->kind == TypeKind::kFn))
      sources_.Fail(x.loc,
                    fmt::format("'{}' is {} here but {} in the layout's @export_name", x.name,
                                x.is_fn ? "a function" : "data", TypeName(en->type)));
    const TypeP sig = types::Fn(x.params, types::Void(), false);
    if (x.is_fn && !SameType(en->type, sig))
      sources_.Fail(x.loc, fmt::format("'{}' is {} here but {} in the layout's @export_name",
                                       x.name, TypeName(sig), TypeName(en->type)));
    if (!x.is_fn) {
      const TypeP want = en->type->kind == TypeKind::kPtr ? en->type->elem : en->type;
      if (!SameType(want, x.elem))
        sources_.Fail(x.loc, fmt::format("'{}' holds {} but the layout exports it as {}", x.name,
                                         TypeName(x.elem), TypeName(en->type)));
    }
  }
  std::string text;
  // The launch task: runs the exported function whose index the host writes in TaskArg.
  if (!p.launchable.empty()) {
    std::set<int> used;
    for (const TaskBinding& b : p.tasks) used.insert(b.id);
    int id = kLaunchTaskPreferred;
    while (id >= 24 && used.count(id)) --id;
    if (id < 24) sources_.Fail(p.loc, "no free local task ID (24..30) for the host's launches");
    p.launch_task = id;
    p.tasks.push_back({"__launch", "local", id, p.loc});
    // The index of a function is its place among the layout's exported functions, the same on
    // every PE: the host launches one index everywhere.
    text += "\n; The host's launch: TaskArg (r0) = the exported function's index.\n__launch:\n";
    for (size_t i = 0; i < p.launchable.size(); ++i) {
      const int idx = FunctionIndex(p.launchable_names[i], p.loc);
      text +=
          fmt::format("        li      r1, {}\n        bne     r0, r1, __launch_{}\n", idx, i + 1);
      text +=
          fmt::format("        call    {}\n        tend\n__launch_{}:\n", p.launchable[i], i + 1);
    }
    text += "        tend\n";
  }
  std::string frames;
  while (!fn_queue_.empty()) {
    const auto [m, decl] = fn_queue_.front();
    fn_queue_.pop_front();
    FnState fs;
    fs.symbol = fn_symbols_[decl][m];
    fs.mod = m;
    fs.decl = decl;
    fs.is_task = decl->has(kFlagTask);
    fs.exit_label = fs.symbol + "_exit";
    fs.frame = "__frame_" + fs.symbol;
    Sema s(*this, m, &fs);
    if (!fs.is_task) {
      Sema types_of(*this, m, nullptr);
      fs.ret = types_of.TypeOf(decl->kid(static_cast<size_t>(decl->ival)), "the return type");
    }
    if (decl->has(kFlagExtern))
      sources_.Fail(decl->loc, fmt::format("extern function '{}' has no body", decl->text));
    s.GenFunctionBody(decl);
    std::string prologue, epilogue;
    if (!fs.is_task) {
      for (int r = 8; r <= 13; ++r) {
        if (!(fs.saved_regs & (1u << r))) continue;
        const std::string slot = s.FrameSlot(4, 4);
        prologue += fmt::format("        sw      r{}, {}\n", r, slot);
        epilogue += fmt::format("        lw      r{}, {}\n", r, slot);
      }
      if (fs.calls) {
        const std::string slot = s.FrameSlot(4, 4);
        prologue += fmt::format("        sw      lr, {}\n", slot);
        epilogue += fmt::format("        lw      lr, {}\n", slot);
      }
      epilogue += "        ret\n";
    } else {
      epilogue += "        tend\n";
    }
    const SourceFile& sf = sources_.file(m->file);
    text += fmt::format("\n; {} {} ({}:{})\n{}:\n        .loc    \"{}\", {}\n",
                        fs.is_task ? "task" : "fn", decl->text, sf.path, sf.Line(decl->loc.offset),
                        fs.symbol, sf.path, sf.Line(decl->loc.offset));
    text += prologue + fs.body + fs.exit_label + ":\n" + epilogue;
    if (fs.frame_size > 0)
      frames += fmt::format("        .align  8\n{}:\n        .space  {}\n", fs.frame,
                            (fs.frame_size + 3) / 4 * 4);
  }
  text += RuntimeRoutines(p);
  CheckRecursion(p);
  // Exported pointers must keep pointing where they did at load: the host copies to that array.
  for (const ExportedSymbol& x : p.exports) {
    if (x.pointer_var.empty()) continue;
    const GlobalVar& g = p.globals.at(x.pointer_var);
    if (g.assigned)
      sources_.Fail(g.decl->loc, fmt::format("'{}' is exported as a pointer and the program "
                                             "assigns it; memcpy reads and writes the array it "
                                             "points at when the program is loaded",
                                             g.decl->text));
  }
  for (int id : p.active_at_start) {
    bool bound = false;
    for (const TaskBinding& b : p.tasks) bound |= b.id == id;
    if (!bound)
      sources_.Fail(p.loc,
                    fmt::format("task ID {} is activated at start but no task is bound to it", id));
  }
  // The assembly.
  std::string out = fmt::format(
      "; Generated by cslc from {} (Tessera). Every instruction's .loc names its CSL line.\n"
      "; PEs (kernel coordinates):",
      p.file);
  for (const auto& [x, y] : p.pes) out += fmt::format(" ({},{})", x, y);
  out += "\n\n        .text\n";
  for (const TaskBinding& b : p.tasks) {
    out += fmt::format("        .task   {}, {}, {}{}{}\n", b.symbol, b.kind, b.id,
                       p.active_at_start.count(b.id) ? ", active" : "",
                       p.blocked_at_start.count(b.id) ? ", blocked" : "");
  }
  out += text;
  out += "\n        .data\n";
  std::string bss;
  const std::map<std::string, int> residue = PlaceArrays(p);
  for (const std::string& sym : p.global_order) {
    const GlobalVar& g = p.globals.at(sym);
    // Arrays start at the offset modulo 16 PlaceArrays chose, so that arrays read together do
    // not read one bank pair in every step.
    std::string place = fmt::format("        .align  {}\n", AlignOf(g.type));
    const auto r = residue.find(sym);
    if (r != residue.end()) {
      place = "        .align  16\n";
      if (r->second) place += fmt::format("        .space  {}\n", r->second);
    }
    const std::string d = GlobalData(p, g);
    if (d.empty()) {
      bss += fmt::format("{}{}:\n        .space  {}\n", place, g.symbol,
                         std::max<int64_t>(SizeOf(g.type), 1));
    } else {
      out += place + d;
    }
  }
  out += p.data;
  if (p.uses_memcpy || !p.launchable.empty())
    out += fmt::format("        .align  4\n{0}:\n        .word   0\n        .export {0}, u32, 1\n",
                       p.unblock_counter);
  if (!p.launchable.empty()) out += "        .export __launch\n";
  // The frames of launched functions with parameters: the host writes the arguments there.
  for (const ExportedSymbol& x : p.exports)
    if (x.is_fn && !x.params.empty())
      out += fmt::format("        .export __frame_{}, u32, {}\n", x.symbol, x.params.size());
  if (p.uses_div || p.uses_print) out += "        .align  4\n__csl_div_lr:\n        .word   0\n";
  if (p.uses_dsr_save) out += "        .align  4\n__dsr_save:\n        .word   0\n";
  if (p.runtime_queue_colors) {
    out += "        .align  4\n__queue_colors:\n";
    for (int q = 0; q < 16; ++q) {
      const auto& m = q < 8 ? p.in_queue_color : p.out_queue_color;
      const auto it = m.find(q % 8);
      out += fmt::format("        .word   {}\n", it == m.end() ? 0 : it->second);
    }
  }
  if (p.uses_print)
    out +=
        "        .align  4\n__csl_print_lr:\n        .word   0\n__csl_print_buf:\n        .space  "
        "12\n";
  for (const ExportedSymbol& x : p.exports) {
    if (x.is_fn) continue;
    out += fmt::format("        .export {}, {}, {}\n", x.symbol, DsdElemName(x.elem), x.count);
  }
  for (const DebugBuffer& d : p.debug_buffers)  // read by SdkRuntime.stop() (debug_util)
    out += fmt::format("        .export {}, u32, {}\n", d.symbol, d.words);
  if (!bss.empty() || !frames.empty()) out += "\n        .bss\n" + bss + frames;
  p.text = out;
  CheckFits(p);
}

void Compiler::CheckRecursion(const Program& p) {
  // Functions have static frames: a cycle of calls would overwrite its own locals.
  std::map<std::string, int> state;  // 1: on the path, 2: done
  std::vector<std::string> path;
  std::function<void(const std::string&)> visit = [&](const std::string& f) {
    state[f] = 1;
    path.push_back(f);
    const auto it = p.calls.find(f);
    if (it != p.calls.end()) {
      for (const Program::Call& c : it->second) {
        if (state[c.callee] == 1) {
          std::string cycle;
          bool on = false;
          for (const std::string& g : path) {
            on |= g == c.callee;
            if (on) cycle += g + " -> ";
          }
          sources_.Fail(c.loc, fmt::format("recursion ({}{}): functions here have static frames; "
                                           "write it as a loop",
                                           cycle, c.callee));
        }
        if (state[c.callee] == 0) visit(c.callee);
      }
    }
    path.pop_back();
    state[f] = 2;
  };
  for (const auto& [f, calls] : p.calls)
    if (state[f] == 0) visit(f);
}

void Compiler::CheckFits(const Program& p) {
  // SRAM is 48 KiB (0xC000 bytes) for code, data and zeroed data together.
  constexpr int64_t kSram = 0xC000;
  int64_t data = 0;
  std::string biggest;
  int64_t biggest_size = -1;
  for (const auto& [sym, g] : p.globals) {
    const int64_t n = SizeOf(g.type);
    data += n;
    if (n > biggest_size) {
      biggest_size = n;
      biggest = g.decl->text;
    }
  }
  int64_t total = data;
  if (data <= kSram) {
    try {
      const assembler::AssembleResult r = assembler::AssembleText(p.file + ".s", p.text);
      total = 0;
      for (const assembler::Section& sec : r.object.sections)
        total = (total + sec.align - 1) / sec.align * sec.align + sec.size;
    } catch (const assembler::Error& e) {
      throw Error(
          fmt::format("cslc: the generated program for {} does not assemble; this is a bug "
                      "in cslc:\n{}",
                      p.file, e.what()));
    }
  }
  if (total > kSram)
    sources_.Fail(p.loc,
                  fmt::format("the program {} does not fit in a PE's 48 KiB of SRAM: it "
                              "needs {} bytes, {} too many (its variables take {} bytes, the "
                              "largest '{}' {})",
                              p.file, total, total - kSram, data, biggest, biggest_size));
}

std::map<std::string, int> Compiler::PlaceArrays(const Program& p) {
  // Greedy: each array (16 bytes or more) in declaration order takes the first of the offsets
  // 0, 4, 8, 12 modulo 16 at which none of the reads paired with it (an operation's two memory
  // sources, Program::bank_pairs) falls on the same residue as its partner's, if any does.
  std::map<std::string, int> r;
  for (const std::string& sym : p.global_order) {
    const GlobalVar& g = p.globals.at(sym);
    if (g.type->kind != TypeKind::kArray || SizeOf(g.type) < 16) continue;
    int pick = 0;
    for (int cand = 0; cand < 16; cand += 4) {
      bool ok = true;
      for (const Program::BankPair& bp : p.bank_pairs) {
        const bool is_a = bp.a == sym, is_b = bp.b == sym;
        if (!is_a && !is_b) continue;
        const std::string& other = is_a ? bp.b : bp.a;
        const auto o = r.find(other);
        if (o == r.end()) continue;
        const int64_t mine = cand + (is_a ? bp.a_off : bp.b_off);
        const int64_t theirs = o->second + (is_a ? bp.b_off : bp.a_off);
        if (((mine - theirs) % 16 + 16) % 16 == 0) ok = false;
      }
      if (ok) {
        pick = cand;
        break;
      }
    }
    r[sym] = pick;
  }
  return r;
}

std::string Compiler::GlobalData(Program& p, const GlobalVar& g) {
  const Value& v = g.init;
  if (v.k == Value::K::kVoid || v.k == Value::K::kUndefined) return "";
  // All zeros: zero-filled data (.bss) holds no bytes in the image.
  std::function<bool(const Value&)> zero = [&](const Value& x) {
    if (x.k == Value::K::kAgg) {
      for (const Value& e : x.elems)
        if (!zero(e)) return false;
      return true;
    }
    return (x.k == Value::K::kInt || x.k == Value::K::kBool) ? x.i == 0
           : x.k == Value::K::kFloat                         ? (x.f == 0 && !std::signbit(x.f))
                                                             : false;
  };
  if (g.type->kind != TypeKind::kDsd && zero(v)) return "";
  if (g.type->kind == TypeKind::kDsd) {
    if (v.k != Value::K::kDsd) return "";
    DsdValue d = *v.dsd;
    if (!d.elem) d.elem = types::Float(32);
    if (d.kind != DsdKind::kMem1d && d.color < 0) {
      const auto& m = d.kind == DsdKind::kFabin ? p.in_queue_color : p.out_queue_color;
      const auto it = m.find(d.queue);
      if (it == m.end())
        sources_.Fail(g.decl->loc, fmt::format("the DSD's queue {} has no color", d.queue));
      d.color = it->second;
    }
    return "        " + DsdDirective(g.symbol, d) + "\n";
  }
  std::string s = fmt::format("{}:\n", g.symbol);
  std::function<void(const Value&, const TypeP&)> emit = [&](const Value& x, const TypeP& t) {
    if (t->kind == TypeKind::kStruct && x.k == Value::K::kAgg) {
      int64_t at = 0;
      for (size_t i = 0; i < t->field_types.size(); ++i) {
        const int64_t off = FieldOffset(t, i);
        if (off > at) s += fmt::format("        .space  {}\n", off - at);
        emit(x.elems[i], t->field_types[i]);
        at = off + SizeOf(t->field_types[i]);
      }
      if (SizeOf(t) > at) s += fmt::format("        .space  {}\n", SizeOf(t) - at);
      return;
    }
    if (t->kind == TypeKind::kArray) {
      if (x.k == Value::K::kAgg) {
        for (const Value& e : x.elems) emit(e, t->elem);
      } else {
        s += fmt::format("        .space  {}\n", SizeOf(t));
      }
      return;
    }
    const int64_t n = SizeOf(t);
    const char* dir = n == 1 ? ".byte" : n == 2 ? ".half" : ".word";
    if (x.k == Value::K::kPtr) {
      s += fmt::format("        .half   {}+{}\n", x.s, x.i);
    } else if (x.k == Value::K::kFloat) {
      s += fmt::format("        {:<7} 0x{:x}\n", dir, FloatBits(x.f, t));
    } else if (x.k == Value::K::kInt || x.k == Value::K::kBool) {
      const uint64_t mask = n >= 8 ? ~0ull : ((1ull << (8 * n)) - 1);
      s += fmt::format("        {:<7} 0x{:x}\n", dir, static_cast<uint64_t>(x.i) & mask);
    } else {
      s += fmt::format("        .space  {}\n", n);
    }
  };
  emit(v, g.type);
  return s;
}

void Compiler::WriteOutput() {
  const fs::path out = opt_.out_dir;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    throw Error(
        fmt::format("cslc: -o {}: cannot create the folder: {}", opt_.out_dir, ec.message()));
  std::string tl =
      fmt::format("# Generated by cslc from {}: the kernel's {}x{} PEs at {},{}\nfabric {}x{}\n",
                  opt_.layout_file, layout_.width, layout_.height, opt_.offset_x, opt_.offset_y,
                  opt_.fabric_w, opt_.fabric_h);
  std::vector<std::string> names;
  for (const auto& p : programs_) {
    const std::string stem = fs::path(p->file).stem().string();
    const std::string name = fmt::format("{}_{}.s", stem, p->index);
    names.push_back(name);
    std::ofstream f(out / name);
    f << p->text;
    if (!f) throw Error(fmt::format("cslc: cannot write {}", (out / name).string()));
  }
  for (int y = 0; y < layout_.height; ++y) {
    for (int x = 0; x < layout_.width; ++x) {
      const int pi = pe_program_[static_cast<size_t>(y * layout_.width + x)];
      if (pi < 0) continue;
      tl += fmt::format("region at={},{} program={}\n", opt_.offset_x + x, opt_.offset_y + y,
                        names[static_cast<size_t>(pi)]);
      for (const RouteConfig& r : programs_[static_cast<size_t>(pi)]->routes)
        layout_.color_configs.push_back({x, y, r});
    }
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& d : v) s += (s.empty() ? "" : ",") + d;
    return s;
  };
  // memcpy's streams (docs/csl.md, "Streaming"): an H2D color enters through the west edge
  // and goes east along each kernel row to its first PE's ramp (the host rewrites the path of a
  // row region to come from the north); a D2H color leaves each kernel PE's ramp eastward
  // through the PEs east of it to the east edge.
  std::vector<int> h2d, d2h;
  StreamColors(h2d, d2h);
  std::vector<LayoutResult::ColorConfig> streams;
  auto route = [&](int x, int y, int color, std::vector<std::string> rx,
                   std::vector<std::string> tx) {
    LayoutResult::ColorConfig cc{x, y, RouteConfig{}};
    cc.route.color = color;
    cc.route.rx = std::move(rx);
    cc.route.tx = std::move(tx);
    cc.route.loc = Loc{};
    streams.push_back(cc);
  };
  for (int c : h2d) {
    for (int y = 0; y < layout_.height; ++y) {
      for (int x = -opt_.offset_x; x < 0; ++x) route(x, y, c, {"W"}, {"E"});
      for (int x = 0; x < layout_.width; ++x) route(x, y, c, {"W"}, {"RAMP"});
    }
  }
  for (int c : d2h) {
    for (int y = 0; y < layout_.height; ++y) {
      for (int x = 0; x < layout_.width; ++x) route(x, y, c, {"RAMP", "W"}, {"E"});
      for (int x = layout_.width; x < opt_.fabric_w - opt_.offset_x; ++x)
        route(x, y, c, {"W"}, {"E"});
    }
  }
  for (const auto& cc : streams) {
    for (const auto& u : layout_.color_configs)
      if (u.x == cc.x && u.y == cc.y && u.route.color == cc.route.color)
        sources_.Fail(u.route.loc, fmt::format("color {} is a memcpy stream's; memcpy routes it "
                                               "(do not configure it)",
                                               cc.route.color));
  }
  layout_.color_configs.insert(layout_.color_configs.end(), streams.begin(), streams.end());
  std::set<std::pair<int, std::pair<int, int>>> seen;
  for (const auto& cc : layout_.color_configs) {
    if (!seen.insert({cc.route.color, {cc.x, cc.y}}).second)
      sources_.Fail(cc.route.loc,
                    fmt::format("color {} of PE({}, {}) is configured twice (layout and "
                                "PE code)",
                                cc.route.color, cc.x, cc.y));
    std::string sw;
    for (int k = 0; k < 3; ++k)
      if (!cc.route.pos[k].empty()) sw += fmt::format(" pos{}={}", k + 1, cc.route.pos[k]);
    // An empty route writes nothing, unless its switch positions accept directions (wavelets
    // then wait in the router for a route the program writes at run time, <collectives_2d>).
    if ((cc.route.rx.empty() || cc.route.tx.empty()) && sw.empty()) continue;
    if (cc.route.ring) sw += " ring";
    if (cc.route.start) sw += fmt::format(" start={}", cc.route.start);
    if (cc.route.swap_x) sw += " swap_x";
    if (cc.route.filter)
      sw += fmt::format(" filter={}..{}", cc.route.filter_min, cc.route.filter_max);
    if (cc.route.counter) {
      sw += fmt::format(" counter={}..{}", cc.route.counter_init, cc.route.counter_limit);
      sw += cc.route.count_data && cc.route.count_ctrl ? " count=data,ctrl"
            : cc.route.count_ctrl                      ? " count=ctrl"
            : cc.route.count_data                      ? " count=data"
                                                       : " count=none";
    }
    tl +=
        fmt::format("route color={} at={},{} rx={} tx={}{}\n", cc.route.color, opt_.offset_x + cc.x,
                    opt_.offset_y + cc.y, cc.route.rx.empty() ? "none" : join(cc.route.rx),
                    cc.route.tx.empty() ? "none" : join(cc.route.tx), sw);
  }
  const std::string tl_path = (out / "out.tlayout").string();
  {
    std::ofstream f(tl_path);
    f << tl;
  }
  try {
    const layout::Layout l = layout::ParseLayoutText(tl_path, tl, out.string());
    const layout::Image img = layout::Link(l);
    layout::WriteImageFile((out / "out.timg").string(), img);
  } catch (const assembler::Error& e) {
    throw Error(
        fmt::format("cslc: the generated program does not assemble or link; this is a bug "
                    "in cslc or a program that does not fit:\n{}",
                    e.what()));
  }
  // out.json: the params as the SDK writes them, and what Tessera's runtime needs.
  std::string js = "{\n  \"params\": {";
  for (size_t i = 0; i < layout_mod_->binding.names.size(); ++i)
    js += fmt::format("{}\n    \"{}\": \"{}\"", i ? "," : "", layout_mod_->binding.names[i],
                      layout_mod_->binding.elems[i].i);
  // The layout's color constants by name (the SDK's out.json has a "colors" table too).
  js += "\n  },\n  \"colors\": {";
  bool first_color = true;
  for (const auto& [name, v] : layout_mod_->values) {
    if (v.k != Value::K::kInt || !v.type || v.type->kind != TypeKind::kColor) continue;
    js += fmt::format("{}\n    \"{}\": {}", first_color ? "" : ",", name, v.i);
    first_color = false;
  }
  js += "\n  },\n  \"tessera\": {\n";
  js += fmt::format("    \"image\": \"out.timg\",\n    \"arch\": \"{}\",\n", opt_.arch);
  js += fmt::format(
      "    \"fabric\": [{}, {}],\n    \"offset\": [{}, {}],\n    \"rect\": [{}, {}],\n",
      opt_.fabric_w, opt_.fabric_h, opt_.offset_x, opt_.offset_y, layout_.width, layout_.height);
  js += fmt::format("    \"memcpy\": {},\n    \"channels\": {},\n", opt_.memcpy ? "true" : "false",
                    opt_.channels);
  auto list = [](const std::vector<int>& v) {
    std::string s;
    for (int c : v) s += (s.empty() ? "" : ", ") + std::to_string(c);
    return s;
  };
  js += fmt::format("    \"h2d_colors\": [{}],\n    \"d2h_colors\": [{}],\n", list(h2d), list(d2h));
  js += "    \"programs\": [";
  for (size_t i = 0; i < programs_.size(); ++i) {
    const Program& p = *programs_[i];
    js += fmt::format("{}\n      {{\n        \"source\": \"{}\",\n        \"assembly\": \"{}\",\n",
                      i ? "," : "", p.file, names[i]);
    js += "        \"pes\": [";
    for (size_t k = 0; k < p.pes.size(); ++k)
      js += fmt::format("{}[{}, {}]", k ? ", " : "", p.pes[k].first, p.pes[k].second);
    js += fmt::format("],\n        \"launch_task\": {},\n        \"unblock_counter\": \"{}\",\n",
                      p.launch_task, p.unblock_counter);
    js += "        \"functions\": [";
    int fi = 0;
    for (const ExportedSymbol& x : p.exports)
      if (x.is_fn) js += fmt::format("{}\"{}\"", fi++ ? ", " : "", x.name);
    // A launched function's parameters: their types and the frame the host writes them into.
    js += "],\n        \"params\": {";
    fi = 0;
    for (const ExportedSymbol& x : p.exports) {
      if (!x.is_fn || x.params.empty()) continue;
      std::string ps;
      for (const TypeP& t : x.params)
        ps += fmt::format("{}\"{}\"", ps.empty() ? "" : ", ", TypeName(t));
      js += fmt::format("{}\"{}\": {{\"frame\": \"__frame_{}\", \"types\": [{}]}}",
                        fi++ ? ", " : "", x.name, x.symbol, ps);
    }
    js += "},\n        \"data\": [";
    int di = 0;
    for (const ExportedSymbol& x : p.exports) {
      if (x.is_fn) continue;
      js +=
          fmt::format("{}{{\"name\": \"{}\", \"symbol\": \"{}\", \"type\": \"{}\", \"count\": {}}}",
                      di++ ? ", " : "", x.name, x.symbol, DsdElemName(x.elem), x.count);
    }
    js += "],\n        \"debug\": [";
    for (size_t k = 0; k < p.debug_buffers.size(); ++k) {
      const DebugBuffer& d = p.debug_buffers[k];
      js += fmt::format("{}{{\"key\": {}, \"symbol\": \"{}\", \"words\": {}}}", k ? ", " : "",
                        util::JsonObject::Quote(d.key), d.symbol, d.words);
    }
    js += "]\n      }";
  }
  js += "\n    ],\n    \"debug_strings\": [";
  for (size_t k = 0; k < debug_strings_.size(); ++k)
    js += (k ? ", " : "") + util::JsonObject::Quote(debug_strings_[k]);
  js += "],\n    \"functions\": {";
  int fidx = 0;
  for (const auto& e : layout_.exports) {
    if (e.type->kind != TypeKind::kFn) continue;
    js += fmt::format("{}\"{}\": {}", fidx ? ", " : "", e.name, fidx);
    ++fidx;
  }
  js += "},\n    \"exports\": [";
  for (size_t i = 0; i < layout_.exports.size(); ++i) {
    const auto& e = layout_.exports[i];
    js += fmt::format("{}{{\"name\": \"{}\", \"type\": \"{}\", \"mutable\": {}}}", i ? ", " : "",
                      e.name, TypeName(e.type), e.mutable_ ? "true" : "false");
  }
  js += "]\n  }\n}\n";
  std::ofstream f(out / "out.json");
  f << js;
  if (!f) throw Error(fmt::format("cslc: cannot write {}", (out / "out.json").string()));
}

}  // namespace tessera::csl
