// One compilation of a CSL program (docs/csl.md): the layout file's module and its layout block,
// one Program per distinct specialised PE file, and the output folder (`out/`: the generated
// assembly, the layout, the linked image and out.json).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "csl/program.h"
#include "csl/source.h"
#include "csl/value.h"

namespace tessera::csl {

struct Options {
  std::string layout_file;
  std::string arch = "wse2";
  int fabric_w = 0, fabric_h = 0;  // 0: the smallest that holds the program
  int offset_x = 4, offset_y = 1;
  bool offsets_given = false;
  std::vector<std::pair<std::string, std::string>> params;  // --params name:value
  std::vector<std::pair<std::string, std::string>> colors;  // --colors name:value
  std::string out_dir = "out";
  bool memcpy = false;
  int channels = 1;
  int west_buf = 0, east_buf = 0;
  std::vector<std::string> import_paths;
  bool verbose = false;
};

// What the layout block set.
struct LayoutResult {
  int width = 0, height = 0;
  bool rect_set = false;
  struct Tile {
    bool set = false;
    std::string file;
    Value binding;
    Loc loc;
  };
  std::vector<Tile> tiles;  // width * height, row major
  struct ColorConfig {
    int x, y;
    RouteConfig route;
  };
  std::vector<ColorConfig> color_configs;
  struct ExportName {
    std::string name;
    TypeP type;
    bool mutable_ = false;
    Loc loc;
  };
  std::vector<ExportName> exports;
};

class Compiler {
 public:
  explicit Compiler(Options o);
  ~Compiler();

  // Compiles and writes the output folder; throws Error.
  void Run();

  Sources& sources() { return sources_; }
  const Options& options() const { return opt_; }
  LayoutResult& layout() { return layout_; }
  bool InLayout() const { return in_layout_; }

  // `@import_module(path, binding)` from `importer` (null: a PE's top file).
  ModuleInst* Import(const std::string& path, Loc from, Value binding, Program* prog,
                     ModuleInst* importer);
  // A top-level name of a module: a const, param, function or module's value. Runtime
  // variables give nullopt (use Global).
  std::optional<Value> GlobalValue(ModuleInst* m, const std::string& name, Loc at);
  GlobalVar* Global(ModuleInst* m, const std::string& name, Loc at);
  // The symbol of a function of a PE program; generated (once) after the current one.
  std::string FunctionSymbol(ModuleInst* m, const Node* decl, Loc at);
  // A `.dsd` constant in the program's data (one per distinct descriptor).
  std::string DsdConstant(Program* p, const DsdValue& d, Loc at);
  std::string DsdDirective(const std::string& name, const DsdValue& d);
  // Tessera's task ID for the SDK's control task ID `id` (0..63): itself up to 29, else one of the
  // free IDs 29, 28, ... in order of first use, the same in every program.
  int ControlTaskId(int id, Loc at);
  // The memory copy of the module's const array `name` (value v), for a DSD that reads it; null
  // when `name` is not a const of the module.
  GlobalVar* ConstArrayGlobal(ModuleInst* m, const std::string& name, const Value& v);
  // The number of a <debug> trace string (its place in out.json's "debug_strings").
  int DebugStringId(const std::string& s);
  // Keeps a tree the compiler wrote (the loop of an @map) alive as long as the compilation.
  void KeepTree(NodePtr tree) { kept_trees_.push_back(std::move(tree)); }
  // The launch index of an exported function: its place among the layout's exported functions.
  int FunctionIndex(const std::string& name, Loc at);

 private:
  void EvalLayout();
  void BuildPrograms();
  void GenProgram(Program& p);
  void GenGlobals(Program& p);
  void RunComptimeBlocks(Program& p);
  void WriteOutput();
  void CheckRecursion(const Program& p);
  void CheckFits(const Program& p);
  std::map<std::string, int> PlaceArrays(const Program& p);         // symbol -> offset modulo 16
  void StreamColors(std::vector<int>& h2d, std::vector<int>& d2h);  // memcpy's stream colors
  std::string GlobalData(Program& p, const GlobalVar& g);

  Options opt_;
  Sources sources_;
  std::unique_ptr<ModuleInst> layout_mod_;
  std::vector<std::unique_ptr<ModuleInst>> layout_modules_;  // modules the layout imports
  LayoutResult layout_;
  bool in_layout_ = false;
  std::vector<std::unique_ptr<Program>> programs_;
  std::vector<int> pe_program_;  // per kernel PE: its program index
  std::deque<std::pair<ModuleInst*, const Node*>> fn_queue_;
  std::map<const Node*, std::map<ModuleInst*, std::string>> fn_symbols_;
  std::map<std::string, std::string> dsd_consts_;  // directive text -> symbol (per program)
  int next_module_ = 0;
  int dsd_count_ = 0;
  std::map<int, int> control_ids_;  // SDK control task ID above 29 -> Tessera's
  std::vector<NodePtr> kept_trees_;
  std::vector<std::string> debug_strings_;
};

}  // namespace tessera::csl
