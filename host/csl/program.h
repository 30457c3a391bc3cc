// What the compiler builds: module instances (a file or a library with its param bindings), and
// per distinct PE program everything code generation gathers: globals, functions, task
// bindings, queues, routes set from PE code, exports (docs/csl.md, "Compilation").
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "csl/ast.h"
#include "csl/source.h"
#include "csl/value.h"

namespace tessera::csl {

struct Program;

// One instance of a module: a CSL file (or a library written in C++, `native`) with the params
// its importer bound. Importing a file twice gives two instances with their own globals.
class ModuleInst {
 public:
  std::string path;    // the file, or "<memcpy/memcpy>" for a library
  std::string native;  // "" for files; the library's name otherwise
  int file = -1;
  NodePtr tree;
  std::string prefix;          // symbol prefix of its globals ("" for a PE's top file)
  Value binding;               // the struct given at import (void if none)
  Loc import_loc;              // where it was imported (for messages)
  Program* program = nullptr;  // null for the layout's module
  int depth = 0;               // imports between it and the top file

  std::map<std::string, const Node*> decls;  // top-level names
  std::map<std::string, Value> values;       // evaluated const and param values
  std::set<std::string> evaluating;          // for cycles in global initializers
};

// A runtime global variable.
struct GlobalVar {
  std::string symbol;
  TypeP type;
  Value init;  // kVoid / kUndefined: zero-filled
  const Node* decl = nullptr;
  ModuleInst* mod = nullptr;
  bool assigned = false;  // assigned by generated code (exported pointers must not be)
  bool address_taken = false;
  // A DSD global given a known DSD of another kind, queue or color than its initializer.
  bool dsd_shape_varies = false;
};

// A <debug> module's trace buffer: word 0 counts the words used, records follow.
struct DebugBuffer {
  std::string key;
  std::string symbol;
  int64_t words = 0;  // the whole array, word 0 included
};

struct TaskBinding {
  std::string symbol;
  std::string kind;  // "data", "local", "control"
  int id = 0;
  Loc loc;
};

struct RouteConfig {
  int color = 0;
  std::vector<std::string> rx, tx;  // W E S N RAMP
  std::string pos[3];               // switch positions 1..3: "tx:W", "rx:N" ("" keeps the base)
  bool ring = false;                // after position 3 comes position 0
  int start = 0;                    // the position at load
  bool swap_x = false;              // .color_swap_x: leaving W or E as color ^ 1
  bool filter = false;              // a range filter: the CE gets indices filter_min..max
  int filter_min = 0, filter_max = 0;
  bool counter = false;  // a counter filter: the index is a count from counter_init, wrapping
  int counter_init = 0, counter_limit = 0;  // after counter_limit
  bool count_data = true, count_ctrl = false;
  Loc loc;
};

// A symbol the host sees (`@export_symbol`).
struct ExportedSymbol {
  std::string name;    // the host's name
  std::string symbol;  // the assembly symbol (an array, a scalar, or a function)
  bool is_fn = false;
  std::vector<TypeP> params;  // a function's parameter types (the host writes them to its frame)
  TypeP elem;                 // data: element type
  int64_t count = 0;          // data: elements
  bool is_pointer = false;
  std::string pointer_var;  // an exported pointer variable (must not be assigned)
  bool mutable_ = false;
  Loc loc;
};

struct Program {
  int index = 0;
  std::string file;  // the PE code's path
  Loc loc;           // its first @set_tile_code
  Value binding;
  std::vector<std::unique_ptr<ModuleInst>> modules;  // [0] = the top file
  std::map<std::string, GlobalVar> globals;
  std::vector<std::string> global_order;
  std::vector<TaskBinding> tasks;
  std::set<int> active_at_start, blocked_at_start;
  std::map<int, int> in_queue_color, out_queue_color;  // queue -> color
  std::vector<RouteConfig> routes;
  std::vector<DebugBuffer> debug_buffers;
  std::vector<ExportedSymbol> exports;
  std::vector<std::string> launchable;        // exported functions' symbols, in export order
  std::vector<std::string> launchable_names;  // and their host names
  int launch_task = -1;                       // the local task that runs them
  bool uses_memcpy = false;
  std::map<std::string, int> fifos;  // @allocate_fifo: buffer symbol -> FIFO number
  bool uses_div = false;             // the integer division routine is needed
  std::map<std::string, int> dsrs;   // @get_dsr: "file index" -> descriptor register
  // DSD globals that @map read as their initializers: none may be assigned (checked at the end)
  std::vector<std::pair<const GlobalVar*, Loc>> map_inits;
  // The program imports <tile_config>: a queue's color can change at run time
  // (encode_input_queue, encode_output_queue), so __queue_colors holds each queue's color (input
  // queues 0..7, then output queues) and every fabric operand that names its color by a queue
  // takes it from there.
  bool runtime_queue_colors = false;
  bool uses_dsr_save = false;            // __dsr_save: the DSRs loaded with .save_address
  bool uses_print = false;               // simprint's number routines
  std::string unblock_counter;           // symbol of the unblock_cmd_stream counter
  std::string text, data;                // generated assembly
  std::vector<std::pair<int, int>> pes;  // kernel coordinates running it
  struct Call {
    std::string callee;
    Loc loc;
  };
  std::map<std::string, std::vector<Call>> calls;  // caller symbol -> the calls it makes
  // Two arrays read together as an operation's sources (with the byte offsets of the reads).
  struct BankPair {
    std::string a;
    int64_t a_off;
    std::string b;
    int64_t b_off;
  };
  std::vector<BankPair> bank_pairs;
};

}  // namespace tessera::csl
