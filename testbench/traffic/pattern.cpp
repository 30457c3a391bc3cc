#include "traffic/pattern.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "arch/arch.h"
#include "traffic/payload.h"
#include "traffic/rng.h"

namespace tessera::noc {
namespace {

using arch::kNumColors;
using arch::SwitchCfg;

constexpr int kDestinationTries = 4;

// A seeded random order of the routable colors.
std::array<uint32_t, kNumColors> ColorOrder(SplitMix64& rng) {
  std::array<uint32_t, kNumColors> order;
  std::iota(order.begin(), order.end(), 0u);
  for (uint32_t i = kNumColors - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
  return order;
}

// Gives the XY path src -> dst the first color of `order` it does not conflict with.
bool AddFirstFit(TrafficPlan& plan, const std::array<uint32_t, kNumColors>& order, int src,
                 int dst) {
  Path path = plan.routes.XyPath(src, dst);
  for (uint32_t c : order) {
    if (plan.routes.Conflicts(path, c)) continue;
    plan.routes.AddPath(path, c);
    plan.flows.push_back({src, c, 0.0, {dst}});
    return true;
  }
  return false;
}

void Uniform(TrafficPlan& plan, uint64_t seed) {
  SplitMix64 rng(StreamSeed(seed, 1));
  const auto order = ColorOrder(rng);
  const int n = plan.routes.NumPes();
  for (int pe = 0; pe < n; ++pe) {
    bool placed = false;
    for (int t = 0; t < kDestinationTries && !placed; ++t) {
      int dst = 0;
      if (n > 1) {
        dst = static_cast<int>(rng.Below(static_cast<uint32_t>(n - 1)));
        if (dst >= pe) ++dst;  // any PE but the source
      }
      placed = AddFirstFit(plan, order, pe, dst);
    }
    if (!placed) ++plan.silent;
  }
}

void Transpose(TrafficPlan& plan, uint64_t seed) {
  SplitMix64 rng(StreamSeed(seed, 2));
  const auto order = ColorOrder(rng);
  const RouteTable& r = plan.routes;
  for (int pe = 0; pe < r.NumPes(); ++pe) {
    fabric::Coord c = r.At(pe);
    if (!AddFirstFit(plan, order, pe, r.Index(c.y % r.Width(), c.x % r.Height()))) ++plan.silent;
  }
}

void Hotspot(TrafficPlan& plan) {
  RouteTable& r = plan.routes;
  const int centre = r.Index(r.Width() / 2, r.Height() / 2);
  for (int pe = 0; pe < r.NumPes(); ++pe) {
    r.AddPath(r.XyPath(pe, centre), 0);
    plan.flows.push_back({pe, 0, 0.0, {centre}});
  }
}

void Neighbour(TrafficPlan& plan) {
  RouteTable& r = plan.routes;
  const int w = r.Width();
  for (int pe = 0; pe < r.NumPes(); ++pe) {
    fabric::Coord c = r.At(pe);
    int dst = pe;
    uint32_t color = 2;  // westward (or loop-back on a 1-wide fabric)
    if (c.x + 1 < w) {
      dst = pe + 1;
      color = static_cast<uint32_t>(c.x % 2);
    } else if (w > 1) {
      dst = pe - 1;
    }
    r.AddPath(r.XyPath(pe, dst), color);
    plan.flows.push_back({pe, color, 0.0, {dst}});
  }
}

void Broadcast(TrafficPlan& plan) {
  RouteTable& r = plan.routes;
  const int w = r.Width(), h = r.Height();
  const int rows = std::min(h, static_cast<int>(kNumColors));
  std::vector<int> all(static_cast<size_t>(r.NumPes()));
  std::iota(all.begin(), all.end(), 0);
  for (int y = 0; y < rows; ++y) {
    const uint32_t color = static_cast<uint32_t>(y);
    for (int x = 0; x < w; ++x) {
      uint32_t tx =
          kMaskRamp | (x + 1 < w ? kMaskE : 0) | (y > 0 ? kMaskN : 0) | (y + 1 < h ? kMaskS : 0);
      r.AddRoute(r.Index(x, y), color, x == 0 ? kMaskRamp : kMaskW, tx);
      for (int yy = 0; yy < y; ++yy) {  // north of the row: travelling north
        r.AddRoute(r.Index(x, yy), color, kMaskS, kMaskRamp | (yy > 0 ? kMaskN : 0));
      }
      for (int yy = y + 1; yy < h; ++yy) {  // south of the row: travelling south
        r.AddRoute(r.Index(x, yy), color, kMaskN, kMaskRamp | (yy + 1 < h ? kMaskS : 0));
      }
    }
    plan.flows.push_back({r.Index(0, y), color, 0.0, all});
  }
}

void Switch(TrafficPlan& plan) {
  RouteTable& r = plan.routes;
  const int w = r.Width();
  if (w < 2) {
    throw std::invalid_argument(
        fmt::format("traffic pattern 'switch' needs a fabric at least 2 wide, not {}", w));
  }
  // Column W/2, unless that is the east end itself (W = 2).
  const int m = std::min(w / 2, w - 2);
  // SwitchCfg direction codes are arch::Dir + 1 (0 keeps the base route).
  const uint32_t e = static_cast<uint32_t>(arch::Dir::kE) + 1;
  const uint32_t ramp = static_cast<uint32_t>(arch::Dir::kRamp) + 1;
  uint32_t sw = 0;
  sw = SwitchCfg::WithPos1Dir(sw, e);
  sw = SwitchCfg::WithPos1Out(sw, 1);
  sw = SwitchCfg::WithPos2Dir(sw, ramp);
  sw = SwitchCfg::WithPos2Out(sw, 1);
  sw = SwitchCfg::WithPos3Dir(sw, e);
  sw = SwitchCfg::WithPos3Out(sw, 1);
  sw = SwitchCfg::WithRing(sw, 1);
  const int rows = std::min(r.Height(), static_cast<int>(kNumColors));
  for (int y = 0; y < rows; ++y) {
    const uint32_t color = static_cast<uint32_t>(y);
    for (int x = 0; x < w; ++x) {
      uint32_t rx = x == 0 ? kMaskRamp : kMaskW;
      uint32_t tx = (x == m || x == w - 1) ? kMaskRamp : kMaskE;
      r.AddRoute(r.Index(x, y), color, rx, tx);
    }
    r.SetSwitch(r.Index(m, y), color, sw);
    plan.flows.push_back({r.Index(0, y), color, 1.0 / 8, {r.Index(m, y)}});
  }
}

}  // namespace

const std::vector<std::string>& PatternNames() {
  static const std::vector<std::string> kNames = {"uniform",   "transpose", "hotspot",
                                                  "neighbour", "broadcast", "switch"};
  return kNames;
}

TrafficPlan MakePlan(const std::string& pattern, int width, int height, uint64_t seed) {
  if (width < 1 || height < 1) {
    throw std::invalid_argument(
        fmt::format("traffic pattern '{}': fabric size {}x{} is empty", pattern, width, height));
  }
  if (static_cast<int64_t>(width) * height > kMaxTrafficPes) {
    throw std::invalid_argument(fmt::format(
        "traffic pattern '{}': a {}x{} fabric has {} PEs; the traffic payload names at most {}",
        pattern, width, height, static_cast<int64_t>(width) * height, kMaxTrafficPes));
  }
  TrafficPlan plan(pattern, width, height);
  if (pattern == "uniform") {
    Uniform(plan, seed);
  } else if (pattern == "transpose") {
    Transpose(plan, seed);
  } else if (pattern == "hotspot") {
    Hotspot(plan);
  } else if (pattern == "neighbour") {
    Neighbour(plan);
  } else if (pattern == "broadcast") {
    Broadcast(plan);
  } else if (pattern == "switch") {
    Switch(plan);
  } else {
    throw std::invalid_argument(fmt::format("unknown traffic pattern '{}' (valid: {})", pattern,
                                            fmt::join(PatternNames(), ", ")));
  }
  return plan;
}

}  // namespace tessera::noc
