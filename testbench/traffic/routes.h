// The routing configuration a traffic pattern needs: per PE and color the ColorCfg (base route)
// and SwitchCfg register values, built from dimension-ordered (XY) paths, then written into any
// backend through Fabric::WriteReg. A value of 0 means the color is unused at that router.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fabric/fabric.h"

namespace tessera::noc {

// Direction masks, bit order arch::Dir.
inline constexpr uint32_t DirBit(arch::Dir d) { return 1u << static_cast<unsigned>(d); }
inline constexpr uint32_t kMaskW = DirBit(arch::Dir::kW);
inline constexpr uint32_t kMaskE = DirBit(arch::Dir::kE);
inline constexpr uint32_t kMaskS = DirBit(arch::Dir::kS);
inline constexpr uint32_t kMaskN = DirBit(arch::Dir::kN);
inline constexpr uint32_t kMaskRamp = DirBit(arch::Dir::kRamp);

// "W|RAMP", "-" for an empty mask.
std::string MaskToString(uint32_t mask);

// One router of a path: the input and output bits the path needs there.
struct Hop {
  int pe = 0;
  uint32_t rx = 0;
  uint32_t tx = 0;
};
using Path = std::vector<Hop>;

class RouteTable {
 public:
  // Throws std::invalid_argument unless both sizes are >= 1.
  RouteTable(int width, int height);

  int Width() const { return width_; }
  int Height() const { return height_; }
  int NumPes() const { return width_ * height_; }
  int Index(int x, int y) const { return y * width_ + x; }
  int Index(fabric::Coord c) const { return Index(c.x, c.y); }
  fabric::Coord At(int pe) const { return {pe % width_, pe / width_}; }

  // Register values (arch::ColorCfg and arch::SwitchCfg layouts). Colors >= kNumColors and PEs
  // outside the fabric throw std::out_of_range.
  uint32_t Base(int pe, uint32_t color) const { return base_[Slot(pe, color)]; }
  uint32_t Switch(int pe, uint32_t color) const { return switch_[Slot(pe, color)]; }
  uint32_t Rx(int pe, uint32_t color) const { return arch::ColorCfg::Rx(Base(pe, color)); }
  uint32_t Tx(int pe, uint32_t color) const { return arch::ColorCfg::Tx(Base(pe, color)); }
  void SetBase(int pe, uint32_t color, uint32_t value) { base_[Slot(pe, color)] = value; }
  void SetSwitch(int pe, uint32_t color, uint32_t value) { switch_[Slot(pe, color)] = value; }
  // ORs rx and tx into the base route.
  void AddRoute(int pe, uint32_t color, uint32_t rx, uint32_t tx);

  // The dimension-ordered path from src to dst: along the row (X) first, then along the column.
  // The source router's rx is RAMP, the destination router's tx is RAMP; src == dst gives one
  // loop-back hop (rx = tx = RAMP).
  Path XyPath(int src, int dst) const;

  // The first router of `path` where `color` is already used with a different tx (or has a switch
  // configured), or -1. Sharing a router with an identical tx only merges inputs, which is fine.
  int FirstConflict(const Path& path, uint32_t color) const;
  bool Conflicts(const Path& path, uint32_t color) const { return FirstConflict(path, color) >= 0; }
  // Adds the path's bits; throws std::logic_error (naming the router) if it conflicts.
  void AddPath(const Path& path, uint32_t color);
  // Adds the XY path if it does not conflict; returns whether it did.
  bool TryAddXyPath(int src, int dst, uint32_t color);

  // Whether any router uses the color (base route or switch).
  bool ColorUsed(uint32_t color) const;

  // Writes every non-zero ColorCfg and SwitchCfg value through WriteReg, and nothing else.
  // Throws std::invalid_argument if the fabric's size differs from the table's.
  void Apply(fabric::Fabric& fabric) const;

 private:
  size_t Slot(int pe, uint32_t color) const;

  int width_;
  int height_;
  std::vector<uint32_t> base_;    // [pe * kNumColors + color]
  std::vector<uint32_t> switch_;  // [pe * kNumColors + color]
};

}  // namespace tessera::noc
