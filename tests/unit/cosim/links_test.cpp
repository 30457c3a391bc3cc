// Co-simulation's per-link comparison (cosim/links.h CompareLinks) on hand-made link logs: order
// within a log does not matter, the sequence per link and color does, the earliest difference is
// the one reported, and links one backend cannot see are left out.
#include "cosim/links.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "fabric/ramp_port.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"

namespace tessera::cosim {
namespace {

constexpr int kE = static_cast<int>(arch::Dir::kE);
constexpr int kRamp = static_cast<int>(arch::Dir::kRamp);

fabric::LinkEvent Ev(uint64_t cycle, fabric::Coord pe, int port, bool into, uint32_t color,
                     uint32_t data, bool ctrl = false) {
  fabric::LinkEvent e;
  e.cycle = cycle;
  e.pe = pe;
  e.port = static_cast<uint8_t>(port);
  e.into = into;
  e.word = fabric::MakeLink(ctrl, color, data);
  return e;
}

std::vector<fabric::LinkEvent> Traffic() {
  return {Ev(3, {0, 0}, kRamp, true, 3, 10),   Ev(4, {0, 0}, kRamp, true, 3, 11),
          Ev(10, {0, 0}, kE, false, 3, 10),    Ev(11, {0, 0}, kE, false, 3, 11),
          Ev(11, {0, 0}, kE, false, 4, 99),    Ev(12, {0, 0}, kE, false, 3, 12),
          Ev(18, {1, 0}, kRamp, false, 3, 10), Ev(19, {1, 0}, kRamp, false, 3, 11, true)};
}

TEST(CompareLinks, OrderWithinALogDoesNotMatter) {
  func::FuncFabric f(2, 1);
  std::vector<fabric::LinkEvent> a = Traffic(), b = Traffic();
  std::reverse(b.begin(), b.end());
  EXPECT_FALSE(CompareLinks(a, b, f, f, "func", "rtl"));
}

TEST(CompareLinks, ReportsTheEarliestDifferenceWithBothValues) {
  func::FuncFabric f(2, 1);
  std::vector<fabric::LinkEvent> a = Traffic(), b = Traffic();
  b[7] = Ev(19, {1, 0}, kRamp, false, 3, 12, true);  // a later difference
  b[5] = Ev(13, {0, 0}, kE, false, 3, 12);           // the earliest: a cycle late
  const auto d = CompareLinks(a, b, f, f, "func", "rtl");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->cycle, 12u);
  EXPECT_EQ(d->message,
            "cosim: the link out of PE(0,0) to the E, color 3: func carries data 0x0000000c at "
            "cycle 12; rtl carries data 0x0000000c at cycle 13 (the wavelets before agree)");
  b = Traffic();
  b[7] = Ev(19, {1, 0}, kRamp, false, 3, 12, true);
  const auto late = CompareLinks(a, b, f, f, "func", "rtl");
  ASSERT_TRUE(late);
  EXPECT_EQ(late->message,
            "cosim: the ramp from PE(1,0)'s router down to its CE, color 3: func carries data "
            "0x0000000b (control) at cycle 19; rtl carries data 0x0000000c (control) at cycle 19 "
            "(the wavelets before agree)");
}

TEST(CompareLinks, ColorsAreSequencesOfTheirOwn) {
  func::FuncFabric f(2, 1);
  std::vector<fabric::LinkEvent> a = Traffic(), b = Traffic();
  b.erase(b.begin() + 4);  // color 4's only wavelet: color 3 on the same link still agrees
  const auto d = CompareLinks(a, b, f, f, "func", "rtl");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->cycle, 11u);
  EXPECT_EQ(d->message,
            "cosim: the link out of PE(0,0) to the E, color 4: func carries data 0x00000063 at "
            "cycle 11 but rtl carries no such wavelet");
  const auto up = CompareLinks({Ev(3, {0, 0}, kRamp, true, 3, 10)}, {}, f, f, "func", "rtl");
  ASSERT_TRUE(up);
  EXPECT_EQ(up->message,
            "cosim: the ramp from PE(0,0)'s CE up to its router, color 3: func carries data "
            "0x0000000a at cycle 3 but rtl carries no such wavelet");
}

TEST(CompareLinks, LinksInsideAnRtlTileAreLeftOut) {
  const auto shapes = rtl::BuiltTileShapes();
  if (std::find(shapes.begin(), shapes.end(), std::make_pair(2, 2)) == shapes.end())
    GTEST_SKIP() << "2x2 tiles are not built";
  func::FuncFabric f(2, 2);
  rtl::RtlFabricOptions o;
  o.width = o.height = o.tile_w = o.tile_h = 2;
  rtl::LoopRtlFabric r(o);
  // PE(0,0) to the E is inside the tile: only the functional model sees it.
  const std::vector<fabric::LinkEvent> a = {Ev(5, {0, 0}, kE, false, 1, 7)};
  EXPECT_FALSE(CompareLinks(a, {}, f, r, "func", "rtl"));
  EXPECT_TRUE(CompareLinks(a, {}, f, f, "func", "func"));
  const std::vector<fabric::LinkEvent> edge = {Ev(5, {1, 0}, kE, false, 1, 7)};
  EXPECT_TRUE(CompareLinks(edge, {}, f, r, "func", "rtl"));
}

}  // namespace
}  // namespace tessera::cosim
