// Fabric::SetLinkLog under random traffic: every pattern of testbench/traffic runs on the
// functional model and on the RTL (plain-loop glue, every built tile shape that divides the
// fabric). The RTL's log must equal the functional model's restricted to the links the RTL
// observes (all of them with 1x1 tiles), and the functional model's log must agree with what the
// scoreboard saw: one wavelet down each ramp per delivery, in the delivery's cycle.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "fabric/edge_stream.h"
#include "fabric/fabric.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"
#include "traffic/noc_run.h"
#include "traffic/pattern.h"

namespace tessera {
namespace {

constexpr int kRamp = static_cast<int>(arch::Dir::kRamp);

auto Key(const fabric::LinkEvent& e) {
  return std::make_tuple(e.pe.y, e.pe.x, e.port, e.into, e.cycle, e.word);
}

void Sort(std::vector<fabric::LinkEvent>& v) {
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return Key(a) < Key(b); });
}

std::string Show(const fabric::LinkEvent& e) {
  return fmt::format("PE({},{}) port {} {} cycle {} word 0x{:x}", e.pe.x, e.pe.y,
                     arch::ToString(static_cast<arch::Dir>(e.port)), e.into ? "in" : "out", e.cycle,
                     e.word);
}

rtl::RtlFabricOptions Shape(int w, int h, int tw, int th) {
  rtl::RtlFabricOptions o;
  o.width = w;
  o.height = h;
  o.tile_w = tw;
  o.tile_h = th;
  return o;
}

class LinkLog : public ::testing::TestWithParam<std::string> {};

TEST_P(LinkLog, RtlLogsWhatTheFunctionalModelLogsOnEveryLinkItSees) {
  const int w = 4, h = 4;
  noc::NocOptions opt;
  opt.pattern = GetParam();
  opt.rate = 0.2;
  opt.cycles = 150;
  opt.seed = 9;

  func::FuncFabric ref(w, h);
  ref.SetLinkLog(true);
  const noc::NocResult res = noc::RunNoc(ref, opt);
  ASSERT_TRUE(res.Passed()) << res.stats.first_error;
  std::vector<fabric::LinkEvent> want = ref.TakeLinkLog();
  EXPECT_TRUE(ref.TakeLinkLog().empty()) << "taking the log clears it";

  // Every delivery the scoreboard saw went down its PE's ramp in that cycle, and nothing else did.
  std::map<std::tuple<int, uint64_t, uint32_t>, int> down;  // (pe, cycle, color) -> count
  size_t up = 0, between = 0;
  for (const fabric::LinkEvent& e : want) {
    ASSERT_TRUE(arch::Link::Valid(e.word)) << Show(e);
    if (e.port == kRamp && !e.into)
      ++down[std::make_tuple(ref.Index(e.pe), e.cycle, arch::Link::Color(e.word))];
    if (e.port == kRamp && e.into) ++up;
    if (e.port != kRamp) {
      EXPECT_FALSE(e.into) << "no edge endpoints here: " << Show(e);
      ++between;
    }
  }
  size_t deliveries = 0;
  for (int pe = 0; pe < w * h; ++pe) {
    for (uint32_t c = 0; c < arch::kNumColors; ++c) {
      for (const noc::LogEntry& e : res.scoreboard->Log(pe, c)) {
        int& n = down[std::make_tuple(pe, e.cycle, c)];
        EXPECT_GT(n, 0) << "PE " << pe << " color " << c << " delivery at cycle " << e.cycle
                        << " not logged";
        --n;
        ++deliveries;
      }
    }
  }
  for (const auto& [k, n] : down) EXPECT_EQ(n, 0) << "a logged ramp delivery nobody received";
  EXPECT_GT(deliveries, 0u);
  EXPECT_GT(up, 0u);
  EXPECT_GT(between, 0u);
  Sort(want);

  for (auto [tw, th] : rtl::BuiltTileShapes()) {
    if (w % tw || h % th) continue;
    SCOPED_TRACE(fmt::format("rtl tiles {}x{}", tw, th));
    rtl::LoopRtlFabric rtl(Shape(w, h, tw, th));
    rtl.SetLinkLog(true);
    ASSERT_TRUE(noc::RunNoc(rtl, opt).Passed());
    std::vector<fabric::LinkEvent> got = rtl.TakeLinkLog();
    std::vector<fabric::LinkEvent> seen;
    for (const fabric::LinkEvent& e : want)
      if (rtl.ObservesLink(e.pe, e.port, e.into)) seen.push_back(e);
    if (tw == 1 && th == 1) {
      EXPECT_EQ(seen.size(), want.size()) << "1x1 tiles show every link";
    } else {
      EXPECT_LT(seen.size(), want.size()) << "links inside a tile are not seen";
    }
    Sort(got);
    for (size_t i = 0; i < std::min(seen.size(), got.size()); ++i)
      ASSERT_EQ(Key(got[i]), Key(seen[i]))
          << "event " << i << ": rtl " << Show(got[i]) << ", func " << Show(seen[i]);
    ASSERT_EQ(got.size(), seen.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, LinkLog, ::testing::ValuesIn(noc::PatternNames()),
                         [](const auto& info) { return info.param; });

// A host stream into the W edge of a row, along the row and out of its E edge: the edge links
// are logged both ways, at the cycles the streams saw, identically on every backend.
TEST(LinkLog, EdgeLinksAreLoggedBothWays) {
  const int w = 3;
  constexpr int W = 0, E = 1;
  std::vector<fabric::LinkEvent> reference;
  std::vector<std::unique_ptr<fabric::Fabric>> backends;
  backends.push_back(std::make_unique<func::FuncFabric>(w, 1));
  for (auto [tw, th] : rtl::BuiltTileShapes())
    if (w % tw == 0 && th == 1)
      backends.push_back(std::make_unique<rtl::LoopRtlFabric>(Shape(w, 1, tw, th)));
  ASSERT_GE(backends.size(), 2u);
  for (auto& f : backends) {
    SCOPED_TRACE(f->Name());
    fabric::EdgeStream in, out;
    f->SetEdgeEndpoint({0, 0}, W, &in);
    f->SetEdgeEndpoint({w - 1, 0}, E, &out);
    for (int x = 0; x < w; ++x)
      f->WriteReg({x, 0}, arch::ColorCfg::Addr(2),
                  arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, 1u << E), 1u << W));
    for (uint32_t i = 0; i < 10; ++i) in.Inject(2, 100 + i, i == 9);
    f->SetLinkLog(true);
    f->SetStopWhenQuiescent(true);
    f->Run(200);
    ASSERT_TRUE(f->Faults().empty());
    ASSERT_EQ(out.Received().size(), 10u);
    std::vector<fabric::LinkEvent> log = f->TakeLinkLog();
    ASSERT_EQ(log.size(), 10u * (w + 1));
    Sort(log);
    // PE(0,0)'s W input first (port W sorts before E), then each PE's E output.
    for (uint32_t i = 0; i < 10; ++i) {
      const fabric::LinkEvent& into = log[i];
      EXPECT_EQ(Show(into),
                Show({in.SentCycles()[i], {0, 0}, W, true, fabric::MakeLink(i == 9, 2, 100 + i)}));
      const fabric::LinkEvent& last = log[10 * w + i];
      EXPECT_EQ(Show(last), Show({out.Received()[i].cycle - 1,
                                  {w - 1, 0},
                                  E,
                                  false,
                                  fabric::MakeLink(i == 9, 2, 100 + i)}));
    }
    if (reference.empty()) {
      reference = log;
    } else {
      for (size_t i = 0; i < log.size(); ++i) EXPECT_EQ(Show(log[i]), Show(reference[i]));
    }
    f->SetEdgeEndpoint({0, 0}, W, nullptr);
    f->SetEdgeEndpoint({w - 1, 0}, E, nullptr);
  }
}

TEST(LinkLog, IsOffUntilAskedFor) {
  func::FuncFabric f(2, 2);
  noc::NocOptions opt;
  opt.cycles = 50;
  opt.rate = 0.3;
  ASSERT_TRUE(noc::RunNoc(f, opt).Passed());
  EXPECT_TRUE(f.TakeLinkLog().empty());
}

TEST(LinkLog, TheRtlSeesRampsEdgesAndLinksBetweenTiles) {
  const auto shapes = rtl::BuiltTileShapes();
  if (std::find(shapes.begin(), shapes.end(), std::make_pair(2, 2)) == shapes.end())
    GTEST_SKIP() << "2x2 tiles are not built";
  rtl::LoopRtlFabric f(Shape(4, 2, 2, 2));
  constexpr int W = 0, E = 1, S = 2, N = 3;
  EXPECT_TRUE(f.ObservesLink({0, 0}, kRamp, false));
  EXPECT_TRUE(f.ObservesLink({0, 0}, kRamp, true));
  EXPECT_FALSE(f.ObservesLink({0, 0}, E, false));  // to PE(1,0), inside the tile
  EXPECT_TRUE(f.ObservesLink({1, 0}, E, false));   // to PE(2,0), the next tile
  EXPECT_FALSE(f.ObservesLink({0, 0}, S, false));
  EXPECT_TRUE(f.ObservesLink({0, 1}, S, false));   // off the fabric
  EXPECT_TRUE(f.ObservesLink({0, 0}, W, true));    // from an edge endpoint
  EXPECT_FALSE(f.ObservesLink({2, 0}, W, true));   // a neighbour's output, logged as that
  EXPECT_FALSE(f.ObservesLink({0, 1}, N, false));  // to PE(0,0), inside the tile
  EXPECT_TRUE(f.ObservesLink({0, 0}, N, false));
  EXPECT_FALSE(f.ObservesLink({4, 0}, kRamp, false));  // outside the fabric
  func::FuncFabric g(4, 2);
  EXPECT_TRUE(g.ObservesLink({0, 0}, E, false));
  EXPECT_FALSE(g.ObservesLink({2, 0}, W, true));
}

}  // namespace
}  // namespace tessera
