#include "traffic/pattern.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "scoreboards/route_tracer.h"

namespace tessera::noc {
namespace {

struct Size {
  int w, h;
};

const Size kSizes[] = {{1, 1}, {2, 1}, {1, 3}, {2, 2},   {3, 2},  {4, 4},
                       {5, 3}, {3, 7}, {8, 8}, {16, 16}, {30, 2}, {2, 30}};

// Every flow is well formed, at most one per source, and a data wavelet of it reaches exactly its
// destinations without a fault.
void CheckPlan(const TrafficPlan& plan, const std::string& where) {
  SCOPED_TRACE(where);
  const RouteTable& t = plan.routes;
  RouteTracer tracer(t);
  std::set<int> sources;
  for (const Flow& f : plan.flows) {
    ASSERT_GE(f.src, 0);
    ASSERT_LT(f.src, t.NumPes());
    ASSERT_LT(f.color, arch::kNumColors);
    ASSERT_TRUE(sources.insert(f.src).second) << "two flows from PE " << f.src;
    ASSERT_FALSE(f.dests.empty());
    const TraceResult& r = tracer.Trace(f.src, f.color, false);
    ASSERT_TRUE(r.faults.empty()) << "flow from " << f.src << ": " << tracer.Describe(r.faults[0]);
    ASSERT_EQ(r.dests, f.dests) << "flow from " << f.src << " color " << f.color;
  }
  EXPECT_EQ(static_cast<int>(plan.flows.size()) + plan.silent,
            plan.pattern == "broadcast" || plan.pattern == "switch"
                ? std::min(t.Height(), static_cast<int>(arch::kNumColors))
                : t.NumPes());
}

// Unicast XY flows: the table holds exactly each flow's tx at every router of its path, so no
// flow was widened by another sharing its color.
void CheckUnicastPaths(const TrafficPlan& plan) {
  for (const Flow& f : plan.flows) {
    ASSERT_EQ(f.dests.size(), 1u);
    for (const Hop& h : plan.routes.XyPath(f.src, f.dests[0])) {
      ASSERT_EQ(plan.routes.Tx(h.pe, f.color), h.tx) << "PE " << h.pe << " color " << f.color;
      ASSERT_EQ(plan.routes.Rx(h.pe, f.color) & h.rx, h.rx);
    }
  }
}

TEST(Pattern, EveryPatternIsValidOnEverySize) {
  for (const std::string& name : PatternNames()) {
    for (const Size& s : kSizes) {
      if (name == "switch" && s.w < 2) continue;
      for (uint64_t seed : {1ull, 2ull, 12345ull}) {
        TrafficPlan plan = MakePlan(name, s.w, s.h, seed);
        EXPECT_EQ(plan.pattern, name);
        CheckPlan(plan, name + " " + std::to_string(s.w) + "x" + std::to_string(s.h) + " seed " +
                            std::to_string(seed));
        if (name != "broadcast" && name != "switch") CheckUnicastPaths(plan);
      }
    }
  }
}

TEST(Pattern, UniformIsSeededAndMostlyNotSilent) {
  TrafficPlan a = MakePlan("uniform", 8, 8, 7), b = MakePlan("uniform", 8, 8, 7);
  TrafficPlan c = MakePlan("uniform", 8, 8, 8);
  auto key = [](const TrafficPlan& p) {
    std::vector<std::tuple<int, uint32_t, int>> k;
    for (const Flow& f : p.flows) k.emplace_back(f.src, f.color, f.dests[0]);
    return k;
  };
  EXPECT_EQ(key(a), key(b));
  EXPECT_NE(key(a), key(c));
  EXPECT_EQ(a.silent, 0);
  std::set<uint32_t> colors;
  for (const Flow& f : a.flows) {
    EXPECT_NE(f.dests[0], f.src);
    colors.insert(f.color);
  }
  EXPECT_GT(colors.size(), 4u);
  TrafficPlan big = MakePlan("uniform", 16, 16, 3);
  EXPECT_LT(big.silent, 16) << "most PEs of a 16x16 fabric find a color";
}

TEST(Pattern, Transpose) {
  TrafficPlan p = MakePlan("transpose", 4, 4, 1);
  ASSERT_EQ(p.flows.size(), 16u);
  for (const Flow& f : p.flows) {
    fabric::Coord s = p.routes.At(f.src);
    EXPECT_EQ(f.dests[0], p.routes.Index(s.y, s.x));
  }
  TrafficPlan q = MakePlan("transpose", 5, 3, 1);
  for (const Flow& f : q.flows) {
    fabric::Coord s = q.routes.At(f.src);
    EXPECT_EQ(f.dests[0], q.routes.Index(s.y % 5, s.x % 3));
  }
}

TEST(Pattern, HotspotIsOneMergeTree) {
  TrafficPlan p = MakePlan("hotspot", 5, 4, 1);
  const int centre = p.routes.Index(2, 2);
  ASSERT_EQ(p.flows.size(), 20u);
  for (const Flow& f : p.flows) {
    EXPECT_EQ(f.color, 0u);
    EXPECT_EQ(f.dests, std::vector<int>{centre});
  }
  EXPECT_EQ(p.routes.Rx(centre, 0), kMaskW | kMaskE | kMaskS | kMaskN | kMaskRamp);
  EXPECT_EQ(p.routes.Tx(centre, 0), kMaskRamp);
}

TEST(Pattern, NeighbourGoesEastThenBackWest) {
  TrafficPlan p = MakePlan("neighbour", 4, 2, 1);
  ASSERT_EQ(p.flows.size(), 8u);
  for (const Flow& f : p.flows) {
    fabric::Coord s = p.routes.At(f.src);
    if (s.x < 3) {
      EXPECT_EQ(f.dests[0], f.src + 1);
      EXPECT_EQ(f.color, static_cast<uint32_t>(s.x % 2));
    } else {
      EXPECT_EQ(f.dests[0], f.src - 1);
      EXPECT_EQ(f.color, 2u);
    }
  }
  TrafficPlan one = MakePlan("neighbour", 1, 3, 1);
  for (const Flow& f : one.flows) EXPECT_EQ(f.dests[0], f.src);
}

TEST(Pattern, BroadcastReachesEveryPeOncePerRow) {
  TrafficPlan p = MakePlan("broadcast", 3, 30, 1);
  ASSERT_EQ(p.flows.size(), 24u);
  for (size_t i = 0; i < p.flows.size(); ++i) {
    EXPECT_EQ(p.flows[i].src, p.routes.Index(0, static_cast<int>(i)));
    EXPECT_EQ(p.flows[i].color, i);
    EXPECT_EQ(p.flows[i].dests.size(), 90u);
  }
}

TEST(Pattern, SwitchAlternatesBetweenTheMiddleAndTheEnd) {
  for (int w : {2, 3, 4, 7}) {
    SCOPED_TRACE(w);
    TrafficPlan p = MakePlan("switch", w, 3, 1);
    ASSERT_EQ(p.flows.size(), 3u);
    RouteTracer tr(p.routes);
    for (const Flow& f : p.flows) {
      EXPECT_DOUBLE_EQ(f.ctrl_prob, 1.0 / 8);
      const int y = p.routes.At(f.src).y;
      const int mid = p.routes.Index(w == 2 ? 0 : w / 2, y), end = p.routes.Index(w - 1, y);
      EXPECT_EQ(f.dests, std::vector<int>{mid});
      // Only the middle router has a switch: codes E+1, RAMP+1, E+1, all output side, ring.
      for (int x = 0; x < w; ++x) {
        const int pe = p.routes.Index(x, y);
        EXPECT_EQ(p.routes.Switch(pe, f.color), pe == mid ? 0x1ADAu : 0u) << "x " << x;
      }
      // data, ctrl, data, ctrl, ...: the control wavelet goes where the data before it went.
      const int want[] = {mid, mid, end, end, mid, mid, end, end, mid};
      for (int i = 0; i < 9; ++i) {
        const TraceResult& r = tr.Trace(f.src, f.color, i % 2 == 1);
        EXPECT_TRUE(r.faults.empty());
        EXPECT_EQ(r.dests, std::vector<int>{want[i]}) << "wavelet " << i;
      }
      // Four control wavelets: the ring wrapped back to 0; the source router (SwitchCfg 0, when it
      // is not the middle one) counted them and stays at 3 with its base route.
      EXPECT_EQ(tr.Position(mid, f.color), 0u);
      if (f.src != mid) {
        EXPECT_EQ(tr.Position(f.src, f.color), 3u);
      }
      EXPECT_EQ(tr.Position(end, f.color), 2u);
    }
  }
  EXPECT_THROW(MakePlan("switch", 1, 4, 1), std::invalid_argument);
}

TEST(Pattern, BadArguments) {
  try {
    MakePlan("tornado", 4, 4, 1);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("tornado"), std::string::npos) << m;
    for (const std::string& n : PatternNames()) EXPECT_NE(m.find(n), std::string::npos) << m;
  }
  EXPECT_THROW(MakePlan("uniform", 0, 4, 1), std::invalid_argument);
  EXPECT_THROW(MakePlan("uniform", 65, 64, 1), std::invalid_argument);
  EXPECT_NO_THROW(MakePlan("hotspot", 64, 64, 1));
}

}  // namespace
}  // namespace tessera::noc
