#include "traffic/routes.h"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "fake_fabric.h"

namespace tessera::noc {
namespace {

using arch::ColorCfg;

TEST(Routes, MaskToString) {
  EXPECT_EQ(MaskToString(0), "-");
  EXPECT_EQ(MaskToString(kMaskW | kMaskRamp), "W|RAMP");
  EXPECT_EQ(MaskToString(kMaskE | kMaskS | kMaskN), "E|S|N");
}

TEST(Routes, RejectsEmptyFabric) {
  EXPECT_THROW(RouteTable(0, 3), std::invalid_argument);
  EXPECT_THROW(RouteTable(3, -1), std::invalid_argument);
}

TEST(Routes, XyPathGoesAlongTheRowFirst) {
  RouteTable t(4, 3);
  Path p = t.XyPath(t.Index(0, 0), t.Index(2, 2));
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].pe, t.Index(0, 0));
  EXPECT_EQ(p[0].rx, kMaskRamp);
  EXPECT_EQ(p[0].tx, kMaskE);
  EXPECT_EQ(p[1].pe, t.Index(1, 0));
  EXPECT_EQ(p[1].rx, kMaskW);
  EXPECT_EQ(p[1].tx, kMaskE);
  EXPECT_EQ(p[2].pe, t.Index(2, 0));
  EXPECT_EQ(p[2].rx, kMaskW);
  EXPECT_EQ(p[2].tx, kMaskS);
  EXPECT_EQ(p[3].pe, t.Index(2, 1));
  EXPECT_EQ(p[3].rx, kMaskN);
  EXPECT_EQ(p[3].tx, kMaskS);
  EXPECT_EQ(p[4].pe, t.Index(2, 2));
  EXPECT_EQ(p[4].rx, kMaskN);
  EXPECT_EQ(p[4].tx, kMaskRamp);
}

TEST(Routes, XyPathWestAndNorth) {
  RouteTable t(4, 3);
  Path p = t.XyPath(t.Index(3, 2), t.Index(1, 0));
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].tx, kMaskW);
  EXPECT_EQ(p[1].pe, t.Index(2, 2));
  EXPECT_EQ(p[1].rx, kMaskE);
  EXPECT_EQ(p[2].pe, t.Index(1, 2));
  EXPECT_EQ(p[2].tx, kMaskN);
  EXPECT_EQ(p[3].pe, t.Index(1, 1));
  EXPECT_EQ(p[3].rx, kMaskS);
  EXPECT_EQ(p[3].tx, kMaskN);
  EXPECT_EQ(p[4].rx, kMaskS);
  EXPECT_EQ(p[4].tx, kMaskRamp);
}

TEST(Routes, LoopBackIsOneHop) {
  RouteTable t(2, 2);
  Path p = t.XyPath(3, 3);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pe, 3);
  EXPECT_EQ(p[0].rx, kMaskRamp);
  EXPECT_EQ(p[0].tx, kMaskRamp);
}

TEST(Routes, PathsToOneDestinationMergeInputs) {
  RouteTable t(3, 3);
  const int dst = t.Index(2, 1);
  ASSERT_TRUE(t.TryAddXyPath(t.Index(0, 1), dst, 5));
  // From (2,0): south into (2,1), which then receives from W and N.
  ASSERT_TRUE(t.TryAddXyPath(t.Index(2, 0), dst, 5));
  // From (1,1): joins the first path at (1,1) with the same tx (E).
  ASSERT_TRUE(t.TryAddXyPath(t.Index(1, 1), dst, 5));
  EXPECT_EQ(t.Rx(dst, 5), kMaskW | kMaskN);
  EXPECT_EQ(t.Tx(dst, 5), kMaskRamp);
  EXPECT_EQ(t.Rx(t.Index(1, 1), 5), kMaskW | kMaskRamp);
  EXPECT_EQ(t.Tx(t.Index(1, 1), 5), kMaskE);
}

TEST(Routes, ConflictIsFoundWhereTheTxDiffers) {
  RouteTable t(3, 3);
  ASSERT_TRUE(t.TryAddXyPath(t.Index(0, 0), t.Index(2, 0), 1));
  Path p = t.XyPath(t.Index(0, 0), t.Index(1, 2));
  EXPECT_EQ(t.FirstConflict(p, 1), t.Index(1, 0));
  EXPECT_TRUE(t.Conflicts(p, 1));
  EXPECT_FALSE(t.Conflicts(p, 2));  // another color is free
  const uint32_t before = t.Base(t.Index(1, 0), 1);
  EXPECT_FALSE(t.TryAddXyPath(t.Index(0, 0), t.Index(1, 2), 1));
  EXPECT_EQ(t.Base(t.Index(1, 0), 1), before);  // nothing was added
  try {
    t.AddPath(p, 1);
    FAIL() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("PE(1,0)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("color 1"), std::string::npos) << e.what();
  }
}

TEST(Routes, DisjointPathsShareAColor) {
  RouteTable t(4, 2);
  EXPECT_TRUE(t.TryAddXyPath(t.Index(0, 0), t.Index(1, 0), 7));
  EXPECT_TRUE(t.TryAddXyPath(t.Index(2, 1), t.Index(3, 1), 7));
}

TEST(Routes, SourceInsideAnotherPathNeedsTheSameTx) {
  RouteTable t(4, 1);
  ASSERT_TRUE(t.TryAddXyPath(0, 3, 0));
  EXPECT_TRUE(t.TryAddXyPath(1, 3, 0));   // rx W|RAMP, tx E at (1,0)
  EXPECT_FALSE(t.TryAddXyPath(2, 0, 0));  // tx W where the color goes E
  EXPECT_FALSE(t.TryAddXyPath(2, 2, 0));  // loop-back: tx RAMP where it goes E
  EXPECT_EQ(t.Rx(1, 0), kMaskW | kMaskRamp);
}

TEST(Routes, ASwitchMakesARouterConflict) {
  RouteTable t(3, 1);
  // Position 1 would send the color north (code = arch::Dir + 1).
  t.SetSwitch(1, 4, arch::SwitchCfg::WithPos1Dir(0, static_cast<uint32_t>(arch::Dir::kN) + 1));
  EXPECT_FALSE(t.TryAddXyPath(0, 2, 4));
  EXPECT_TRUE(t.TryAddXyPath(0, 2, 5));
  EXPECT_TRUE(t.ColorUsed(4));
  EXPECT_TRUE(t.ColorUsed(5));
  EXPECT_FALSE(t.ColorUsed(6));
}

TEST(Routes, OutOfRangeThrows) {
  RouteTable t(2, 2);
  EXPECT_THROW(t.Base(4, 0), std::out_of_range);
  EXPECT_THROW(t.Base(0, arch::kNumColors), std::out_of_range);
  EXPECT_THROW(t.XyPath(0, 9), std::out_of_range);
}

// Records register writes.
class RecordingFabric : public testing::FakeFabric {
 public:
  using FakeFabric::FakeFabric;
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    log[{Index(pe), addr}] = value;
    FakeFabric::WriteReg(pe, addr, value);
  }
  std::map<std::pair<int, uint16_t>, uint32_t> log;
};

TEST(Routes, ApplyWritesExactlyTheNonZeroRegisters) {
  RouteTable t(3, 2);
  ASSERT_TRUE(t.TryAddXyPath(t.Index(0, 0), t.Index(2, 1), 3));
  const uint32_t sw = arch::SwitchCfg::WithRing(
      arch::SwitchCfg::WithPos2Dir(0, static_cast<uint32_t>(arch::Dir::kE) + 1), 1);
  t.SetSwitch(t.Index(1, 1), 9, sw);
  RecordingFabric f(3, 2);
  t.Apply(f);
  std::map<std::pair<int, uint16_t>, uint32_t> want;
  for (const Hop& h : t.XyPath(t.Index(0, 0), t.Index(2, 1))) {
    want[{h.pe, ColorCfg::Addr(3)}] = ColorCfg::WithTx(ColorCfg::WithRx(0, h.rx), h.tx);
  }
  want[{t.Index(1, 1), arch::SwitchCfg::Addr(9)}] = sw;
  EXPECT_EQ(f.log, want);
  EXPECT_EQ(f.writes, want.size());
}

TEST(Routes, ApplyChecksTheFabricSize) {
  RouteTable t(3, 2);
  testing::FakeFabric f(2, 3);
  EXPECT_THROW(t.Apply(f), std::invalid_argument);
  EXPECT_EQ(f.writes, 0u);
}

}  // namespace
}  // namespace tessera::noc
