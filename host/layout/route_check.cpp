#include "layout/route_check.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "arch/arch.h"

namespace tessera::layout {
namespace {

using arch::Dir;

// The directions some position of the route sends to (out) or accepts from (in): the base mask
// and each position 1..3 that replaces that side by a port.
uint32_t AnyPosition(const RouteCfg& r, bool out) {
  using S = arch::SwitchCfg;
  uint32_t mask = out ? arch::ColorCfg::Tx(r.color_cfg) : arch::ColorCfg::Rx(r.color_cfg);
  const uint32_t codes[3] = {S::Pos1Dir(r.switch_cfg), S::Pos2Dir(r.switch_cfg),
                             S::Pos3Dir(r.switch_cfg)};
  const uint32_t sides[3] = {S::Pos1Out(r.switch_cfg), S::Pos2Out(r.switch_cfg),
                             S::Pos3Out(r.switch_cfg)};
  for (int p = 0; p < 3; ++p) {
    if (codes[p] != 0 && codes[p] <= arch::kNumDirs && (sides[p] != 0) == out)
      mask |= 1u << (codes[p] - 1);
  }
  return mask;
}

}  // namespace

std::vector<std::string> UnconnectedRoutes(const Image& image) {
  std::map<std::pair<int, int>, const ImagePe*> at;
  for (const ImagePe& pe : image.pes) at[{pe.x, pe.y}] = &pe;
  static const struct {
    Dir dir, back;
    int dx, dy;
    const char* word;
  } kSides[] = {{Dir::kW, Dir::kE, -1, 0, "west"},
                {Dir::kE, Dir::kW, 1, 0, "east"},
                {Dir::kS, Dir::kN, 0, 1, "south"},
                {Dir::kN, Dir::kS, 0, -1, "north"}};
  std::vector<std::string> out;
  for (const ImagePe& pe : image.pes) {
    for (const RouteCfg& r : pe.routes) {
      const uint32_t tx = AnyPosition(r, true);
      for (const auto& side : kSides) {
        if (!(tx >> static_cast<int>(side.dir) & 1)) continue;
        const int nx = pe.x + side.dx, ny = pe.y + side.dy;
        if (nx < 0 || ny < 0 || nx >= image.fabric_w || ny >= image.fabric_h) continue;  // edge
        const auto n = at.find({nx, ny});
        const RouteCfg* nr = nullptr;
        if (n != at.end())
          for (const RouteCfg& c : n->second->routes)
            if (c.color == r.color) nr = &c;
        const std::string head =
            fmt::format("PE({},{}) sends color {} {} ({}), but PE({},{})", pe.x, pe.y, r.color,
                        side.word, arch::ToString(side.dir), nx, ny);
        if (!nr) {
          out.push_back(fmt::format("{} has no route of color {}", head, r.color));
        } else if (!(AnyPosition(*nr, false) >> static_cast<int>(side.back) & 1)) {
          out.push_back(fmt::format("{} accepts color {} only from {} at any switch position", head,
                                    r.color, DirMaskName(AnyPosition(*nr, false))));
        }
      }
    }
  }
  return out;
}

}  // namespace tessera::layout
