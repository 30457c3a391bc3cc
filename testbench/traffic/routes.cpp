#include "traffic/routes.h"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace tessera::noc {

using arch::ColorCfg;
using arch::kNumColors;
using arch::SwitchCfg;

std::string MaskToString(uint32_t mask) { return fabric::DirMaskText(mask, "|", "-"); }

RouteTable::RouteTable(int width, int height) : width_(width), height_(height) {
  if (width < 1 || height < 1) {
    throw std::invalid_argument(
        fmt::format("route table: fabric size {}x{} is empty", width, height));
  }
  base_.assign(static_cast<size_t>(NumPes()) * kNumColors, 0);
  switch_.assign(base_.size(), 0);
}

size_t RouteTable::Slot(int pe, uint32_t color) const {
  if (pe < 0 || pe >= NumPes() || color >= kNumColors) {
    throw std::out_of_range(
        fmt::format("route table {}x{}: no PE index {} color {}", width_, height_, pe, color));
  }
  return static_cast<size_t>(pe) * kNumColors + color;
}

void RouteTable::AddRoute(int pe, uint32_t color, uint32_t rx, uint32_t tx) {
  uint32_t& v = base_[Slot(pe, color)];
  v = ColorCfg::WithRx(v, ColorCfg::Rx(v) | rx);
  v = ColorCfg::WithTx(v, ColorCfg::Tx(v) | tx);
}

Path RouteTable::XyPath(int src, int dst) const {
  Slot(src, 0);
  Slot(dst, 0);
  fabric::Coord s = At(src), d = At(dst);
  Path path;
  path.reserve(static_cast<size_t>(std::abs(s.x - d.x) + std::abs(s.y - d.y) + 1));
  uint32_t rx = kMaskRamp;
  int x = s.x, y = s.y;
  for (;;) {
    uint32_t tx;
    uint32_t arrive;  // the side the next router receives on
    int nx = x, ny = y;
    if (x < d.x) {
      tx = kMaskE, arrive = kMaskW, ++nx;
    } else if (x > d.x) {
      tx = kMaskW, arrive = kMaskE, --nx;
    } else if (y < d.y) {
      tx = kMaskS, arrive = kMaskN, ++ny;
    } else if (y > d.y) {
      tx = kMaskN, arrive = kMaskS, --ny;
    } else {
      path.push_back({Index(x, y), rx, kMaskRamp});
      return path;
    }
    path.push_back({Index(x, y), rx, tx});
    rx = arrive;
    x = nx;
    y = ny;
  }
}

int RouteTable::FirstConflict(const Path& path, uint32_t color) const {
  for (const Hop& h : path) {
    size_t slot = Slot(h.pe, color);
    if (switch_[slot] != 0) return h.pe;
    uint32_t tx = ColorCfg::Tx(base_[slot]);
    if (base_[slot] != 0 && tx != h.tx) return h.pe;
  }
  return -1;
}

void RouteTable::AddPath(const Path& path, uint32_t color) {
  int c = FirstConflict(path, color);
  if (c >= 0) {
    fabric::Coord at = At(c);
    uint32_t want = 0;
    for (const Hop& h : path) {
      if (h.pe == c) want = h.tx;
    }
    throw std::logic_error(
        fmt::format("route table: color {} at PE({},{}) already goes to {}{}; a path needs {}",
                    color, at.x, at.y, MaskToString(Tx(c, color)),
                    Switch(c, color) ? " (with a switch)" : "", MaskToString(want)));
  }
  for (const Hop& h : path) AddRoute(h.pe, color, h.rx, h.tx);
}

bool RouteTable::TryAddXyPath(int src, int dst, uint32_t color) {
  Path p = XyPath(src, dst);
  if (Conflicts(p, color)) return false;
  for (const Hop& h : p) AddRoute(h.pe, color, h.rx, h.tx);
  return true;
}

bool RouteTable::ColorUsed(uint32_t color) const {
  for (int pe = 0; pe < NumPes(); ++pe) {
    size_t s = Slot(pe, color);
    if (base_[s] != 0 || switch_[s] != 0) return true;
  }
  return false;
}

void RouteTable::Apply(fabric::Fabric& fabric) const {
  if (fabric.Width() != width_ || fabric.Height() != height_) {
    throw std::invalid_argument(fmt::format("route table is for a {}x{} fabric, {} is {}x{}",
                                            width_, height_, fabric.Name(), fabric.Width(),
                                            fabric.Height()));
  }
  for (int pe = 0; pe < NumPes(); ++pe) {
    for (uint32_t c = 0; c < kNumColors; ++c) {
      size_t s = static_cast<size_t>(pe) * kNumColors + c;
      if (base_[s] != 0) fabric.WriteReg(At(pe), ColorCfg::Addr(c), base_[s]);
      if (switch_[s] != 0) fabric.WriteReg(At(pe), SwitchCfg::Addr(c), switch_[s]);
    }
  }
}

}  // namespace tessera::noc
