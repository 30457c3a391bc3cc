// The semantic pass and code generator in one walk of the tree, as Zig's Sema does: an
// expression whose operands are known at compile time is folded to a Value; anything else emits
// assembly for the function being generated (docs/csl.md, "Code generation"). With no function
// (a layout block, a global's initializer, a top-level comptime block) everything must fold,
// and what cannot is an error naming the expression.
#pragma once

#include <fmt/format.h>

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "csl/ast.h"
#include "csl/program.h"
#include "csl/types.h"
#include "csl/value.h"

namespace tessera::csl {

class Compiler;

// An expression's value: known at compile time (v), in a general register, or (a DSD computed
// at run time) in a descriptor register.
struct RV {
  TypeP type;
  bool known = false;
  Value v;
  int reg = -1;
  bool temp = false;  // reg is a temporary this RV owns
  int dreg = -1;
  std::string mem;  // a DSD in memory: its address operand (for ldd)
  // A DSD global known only at run time: its initializer, for the fields no builtin changes
  // (kind, queue, color); null when its stores may change them.
  std::shared_ptr<const DsdValue> dsd_init;
  GlobalVar* dsd_global = nullptr;  // the DSD global it was loaded from
};

// Where a variable, an element or a pointee lives.
struct Place {
  enum class W : uint8_t { kReg, kMem, kComptime };
  W where = W::kMem;
  TypeP type;
  int reg = -1;            // kReg: the register holding it
  std::string sym;         // kMem: symbol (may be empty with a base register)
  int64_t off = 0;         // kMem: byte offset
  int base = -1;           // kMem: a register holding an address to add
  bool base_temp = false;  // the base register is a temporary
  bool is_const = false;
  GlobalVar* global = nullptr;
  Value* cvalue = nullptr;  // kComptime: the variable's value
};

struct Local {
  TypeP type;
  bool is_const = false;
  bool comptime = false;  // value holds it
  Value value;
  int reg = -1;     // in a callee-saved register
  std::string sym;  // or in the function's frame
  int64_t off = 0;
  bool alias = false;  // another name for a register an outer scope owns
};

// A function being generated.
struct FnState {
  std::string symbol;
  ModuleInst* mod = nullptr;
  const Node* decl = nullptr;
  bool is_task = false;
  TypeP ret;
  std::string body;  // instructions
  std::string exit_label;
  std::string frame;  // its static frame's symbol
  int64_t frame_size = 0;
  uint32_t temps = 0;       // bit r: temporary r in use
  uint32_t saved_regs = 0;  // callee-saved registers used
  uint32_t local_regs = 0;  // callee-saved registers holding locals now
  uint32_t dsrs = 0;        // descriptor registers d8..d15 holding computed DSDs
  bool calls = false;
  int next_label = 0;
  int last_line = -1;
  struct Loop {
    std::string label, break_to, continue_to;
  };
  std::vector<Loop> loops;
};

// An inline function being expanded: where `return` goes and where the result is.
struct InlineFrame {
  std::string exit_label;
  int result_reg = -1;  // scalar results
  TypeP ret;
  bool has_known = false;  // other results (a DSD, a type): known at compile time
  Value known;
};

// What a statement did, for comptime execution of loops and blocks.
struct Flow {
  enum class K : uint8_t { kNext, kBreak, kContinue, kReturn };
  K k = K::kNext;
  std::string label;
  Value value;
};

class Sema {
 public:
  Sema(Compiler& c, ModuleInst* mod, FnState* fn) : c_(c), mod_(mod), fn_(fn) {}

  RV Expr(const Node* e, const TypeP& want = nullptr);
  Value Const(const Node* e, const std::string& what, const TypeP& want = nullptr);
  TypeP TypeOf(const Node* e, const std::string& what);  // e must name a type
  Flow Stmt(const Node* s);
  Flow Block(const Node* b, bool new_scope = true);

  // A function's body as the function being generated (params bound from its frame or r0).
  void GenFunctionBody(const Node* decl);
  // Runs a function at compile time with the given arguments.
  Value CallComptime(const Node* decl, ModuleInst* mod, const std::vector<Value>& args, Loc at);

  void PushScope() { scopes_.emplace_back(); }
  void PopScopeFreeing();  // ends a scope, freeing its locals' registers
  void BindConst(const std::string& name, Value v);

  Compiler& compiler() { return c_; }
  ModuleInst* module() { return mod_; }
  FnState* fn() { return fn_; }
  void SetFn(FnState* f) { fn_ = f; }
  int NewDsr(const Node* at);
  void FreeDsr(int d);

  // Helpers for builtins (builtins.cpp, dsd_ops.cpp, libs.cpp).
  [[noreturn]] void Fail(const Node* at, const std::string& msg) const;
  [[noreturn]] void Fail(Loc at, const std::string& msg) const;
  void NeedRuntime(const Node* at, const std::string& what);  // fails in comptime contexts
  template <typename... A>
  void Emit(fmt::format_string<A...> f, A&&... args) {
    EmitText(fmt::format(f, std::forward<A>(args)...));
  }
  void EmitText(const std::string& insn);
  void EmitLabel(const std::string& label);
  void MarkLine(const Node* n);
  std::string NewLabel();
  int Temp(const Node* at);
  void Free(RV& v);
  void FreeReg(int r);
  int ToReg(RV& v, const Node* at);  // materializes a known scalar; returns the register
  RV Coerce(RV v, const TypeP& to, const Node* at, const char* context);
  RV Convert(RV v, const TypeP& to, const Node* at);  // @as
  Value CoerceValue(const Value& v, const TypeP& to, const Node* at, const char* context);
  RV Known(Value v);
  void Normalize(int reg, const TypeP& t);  // re-extends an 8/16-bit integer
  void SpillTemps(std::vector<std::pair<int, std::string>>& saved);
  void RestoreTemps(const std::vector<std::pair<int, std::string>>& saved);
  std::string FrameSlot(int64_t bytes, int64_t align);             // "frame+off"
  int TaskIdOf(const Value& v, const Node* at, const char* what);  // a task's bound ID
  RV CallFunction(const Node* call, const Value& fnv, const std::vector<const Node*>& args);
  RV Arith(const std::string& op, RV a, RV b, const Node* at, const TypeP& want);
  Place PlaceOf(const Node* e);
  // A name of an array variable (what @set_dsd_base_addr takes as a base, besides a pointer).
  bool PlaceTypeIsArray(const Node* e);
  RV AddressOf(const Node* e);
  void StoreDsd(const Place& p, RV v, const Node* at);
  RV Load(const Place& p, const Node* at);
  void Store(const Place& p, RV v, const Node* at);
  void FreePlace(Place& p);
  Local NewRuntimeLocal(const TypeP& t, bool address_taken);
  // Where a runtime local lives (its register or frame slot).
  static Place LocalPlace(const Local& l);
  void Declare(const Node* at, const std::string& name, Local l);

 private:
  RV Ident(const Node* e, const TypeP& want);
  RV Field(const Node* e);
  RV Index(const Node* e);
  RV Unary(const Node* e, const TypeP& want);
  RV Binary(const Node* e, const TypeP& want);
  // With branch_if_false, an integer comparison emits a branch to it instead of a bool
  // (the result is then a known value of type noreturn).
  RV Compare(const Node* e, const std::string* branch_if_false = nullptr);
  RV Logical(const Node* e);
  RV InitList(const Node* e, const TypeP& want);
  RV IfExpr(const Node* e, const TypeP& want);
  RV SwitchExpr(const Node* e, const TypeP& want);
  RV Call(const Node* e, const TypeP& want);
  RV Builtin(const Node* e, const TypeP& want);
  RV BlockExpr(const Node* e, const TypeP& want);
  Value TypeExpr(const Node* e);
  Value FoldBinary(const std::string& op, const Value& a, const Value& b, const TypeP& t,
                   const Node* at);

  Place GlobalPlace(ModuleInst* m, const std::string& name, const Node* at);
  Place IndexPlace(const Node* e);
  Place ModuleMember(ModuleInst* m, const Node* e);
  Place ComptimeField(Value& v, bool is_const, const Node* e);
  void ExportSymbol(const Node* e, const Node* arg, const Value& sym, const std::string& name);

  Flow Assign(const Node* s);
  Flow VarDecl(const Node* s);
  Flow If(const Node* s);
  Flow While(const Node* s);
  Flow For(const Node* s);
  Flow Return(const Node* s);
  Flow Jump(const Node* s);
  void BranchIfFalse(const Node* cond, const std::string& label);
  void BranchIfTrue(const Node* cond, const std::string& label);

  Local* Lookup(const std::string& name);

  Compiler& c_;
  ModuleInst* mod_;
  FnState* fn_;
  std::vector<std::map<std::string, Local>> scopes_;
  int comptime_steps_ = 0;
  std::set<std::string> addr_taken_;  // locals of the function whose address is taken
  InlineFrame* inline_ = nullptr;     // set while expanding an inline function
  TypeP comptime_ret_;                // a comptime call's return type
  std::deque<Value> temps_;           // comptime values that places point into
};

bool IsIntLikeType(const TypeP& t);
std::string PlaceOperand(const Place& p);

}  // namespace tessera::csl
