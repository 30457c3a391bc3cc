// A layout (docs/layout.md): which program runs on which rectangle of PEs, with per-PE params
// given as expressions of the PE's coordinates and the sizes, and the routes of each color on
// each PE. The C++ API mirrors the file form: ParseLayoutFile reads a file into a Layout, and
// Link turns a Layout into an Image (layout/image.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "asm/diagnostics.h"
#include "layout/expr.h"
#include "layout/image.h"

namespace tessera::layout {

struct Param {
  std::string name;
  Expr value;  // of x, y, X0, Y0, W, H, FW, FH and the names of the region's scope
};

// A program on a rectangle of PEs. Every PE of the rectangle for which `when` is nonzero runs
// the program, linked with its own param values.
struct Region {
  int x0 = 0, y0 = 0, w = 1, h = 1;
  std::vector<std::string> program;  // .s sources (assembled) or .tobj objects, linked together
  std::vector<Param> params;
  std::optional<Expr> when;
  Scope scope;              // further names for the expressions (loop variables, lets)
  assembler::Location loc;  // for messages; the file parser sets it to the statement
};

// One side of a switch position (docs/router.md, "Switches"): code 0 keeps the base route,
// 1..5 one direction (arch::Dir + 1), 6 an empty side.
struct SwitchPos {
  uint8_t code = 0;
  bool out = true;  // true: replaces tx, false: replaces rx
};

// The route of one color on every PE of x0..x1 by y0..y1 (inclusive) where `when` holds.
struct Route {
  int color = 0;
  int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
  uint32_t rx = 0, tx = 0;  // direction masks, bit arch::Dir
  SwitchPos pos[3];         // positions 1..3
  bool ring = false;
  int start = 0;                              // the switch's position at load (start=N)
  std::optional<std::pair<int, int>> filter;  // filter=MIN..MAX: the RAMP's range of indices
  // counter=COUNT..LIMIT: a counter filter (its index is a count from COUNT, wrapping after LIMIT)
  std::optional<std::pair<int, int>> counter;
  bool count_data = true, count_ctrl = false;  // count=data,ctrl: the kinds a counter counts
  bool swap_x = false;                         // swap_x: leaving W or E as color ^ 1
  std::optional<Expr> when;
  Scope scope;
  assembler::Location loc;
};

class Layout {
 public:
  Layout() = default;
  Layout(int fabric_w, int fabric_h) : fabric_w_(fabric_w), fabric_h_(fabric_h) {}

  void SetFabric(int w, int h) {
    fabric_w_ = w;
    fabric_h_ = h;
  }
  void AddIncludeDir(const std::string& dir) { include_dirs_.push_back(dir); }
  void AddRegion(Region r) { regions_.push_back(std::move(r)); }
  void AddRoute(Route r) { routes_.push_back(std::move(r)); }

  int fabric_w() const { return fabric_w_; }
  int fabric_h() const { return fabric_h_; }
  const std::vector<std::string>& include_dirs() const { return include_dirs_; }
  const std::vector<Region>& regions() const { return regions_; }
  const std::vector<Route>& routes() const { return routes_; }

 private:
  int fabric_w_ = 0, fabric_h_ = 0;
  std::vector<std::string> include_dirs_;
  std::vector<Region> regions_;
  std::vector<Route> routes_;
};

// Reads the file form. Program and include paths are taken relative to the file's directory.
// Throws assembler::Error with every problem as `file:line:column: error: message`.
Layout ParseLayoutFile(const std::string& path);
Layout ParseLayoutText(const std::string& name, const std::string& text,
                       const std::string& base_dir = "");

// Links every region's program once per distinct set of param values (assembling each source
// once) and computes the routing registers. Throws assembler::Error naming the statement and
// the PE for layout problems, and passing on the assembler's and linker's messages.
Image Link(const Layout& layout);

}  // namespace tessera::layout
