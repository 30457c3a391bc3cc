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
        } else if (const uint32_t rx = func::AnyPosition(nr->color_cfg, nr->switch_cfg).rx;
                   !(rx >> static_cast<int>(side.back) & 1)) {
          out.push_back(fmt::format("{} accepts color {} only from {} at any switch position", head,
                                    r.color, DirMaskName(rx)));
        }
      }
    }
  }
  return out;
}

}  // namespace tessera::layout
