#include "layout/route_check.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "arch/arch.h"
#include "func/route_semantics.h"

namespace tessera::layout {

std::vector<std::string> UnconnectedRoutes(const Image& image) {
  using arch::Dir;
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
      const uint32_t tx = func::AnyPosition(r.color_cfg, r.switch_cfg).tx;
      for (const auto& side : kSides) {
        if (!(tx >> static_cast<int>(side.dir) & 1)) continue;
        const int nx = pe.x + side.dx, ny = pe.y + side.dy;
        if (nx < 0 || ny < 0 || nx >= image.fabric_w || ny >= image.fabric_h) continue;  // edge
        // With color swap the wavelet arrives west or east as the color's pair.
        const int arrives =
            arch::ColorCfg::SwapX(r.color_cfg) && func::SwapsAt(static_cast<int>(side.dir))
                ? r.color ^ 1
                : r.color;
        const auto n = at.find({nx, ny});
        const RouteCfg* nr = nullptr;
        if (n != at.end())
          for (const RouteCfg& c : n->second->routes)
            if (c.color == arrives) nr = &c;
        const std::string head =
            arrives == r.color
                ? fmt::format("PE({},{}) sends color {} {} ({}), but PE({},{})", pe.x, pe.y,
                              r.color, side.word, arch::ToString(side.dir), nx, ny)
                : fmt::format(
                      "PE({},{}) sends color {} {} ({}), arriving as color {} (swap_x), "
                      "but PE({},{})",
                      pe.x, pe.y, r.color, side.word, arch::ToString(side.dir), arrives, nx, ny);
        if (!nr) {
          out.push_back(fmt::format("{} has no route of color {}", head, arrives));
        } else if (const uint32_t rx = func::AnyPosition(nr->color_cfg, nr->switch_cfg).rx;
                   !(rx >> static_cast<int>(side.back) & 1)) {
          out.push_back(fmt::format("{} accepts color {} only from {} at any switch position", head,
                                    arrives, DirMaskName(rx)));
        }
      }
    }
  }
  return out;
}

}  // namespace tessera::layout
