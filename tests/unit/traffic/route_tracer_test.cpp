#include "testbench/traffic/route_tracer.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace tessera::tb {
namespace {

using arch::Dir;
using arch::FaultCause;
using arch::SwitchCfg;

constexpr uint32_t kE = static_cast<uint32_t>(Dir::kE);
constexpr uint32_t kS = static_cast<uint32_t>(Dir::kS);
constexpr uint32_t kW = static_cast<uint32_t>(Dir::kW);
constexpr uint32_t kRamp = static_cast<uint32_t>(Dir::kRamp);

// A switch register: positions (dir, out) 1..3.
uint32_t MakeSwitch(uint32_t d1, bool o1, uint32_t d2, bool o2, uint32_t d3, bool o3, bool ring,
                    bool enable) {
  uint32_t v = 0;
  v = SwitchCfg::WithPos1Dir(v, d1);
  v = SwitchCfg::WithPos1Out(v, o1);
  v = SwitchCfg::WithPos2Dir(v, d2);
  v = SwitchCfg::WithPos2Out(v, o2);
  v = SwitchCfg::WithPos3Dir(v, d3);
  v = SwitchCfg::WithPos3Out(v, o3);
  v = SwitchCfg::WithRing(v, ring);
  return SwitchCfg::WithEnable(v, enable);
}

TEST(RouteTracer, UnicastAlongAnXyPath) {
  RouteTable t(4, 4);
  ASSERT_TRUE(t.TryAddXyPath(t.Index(0, 1), t.Index(3, 3), 2));
  RouteTracer tr(t);
  const TraceResult& r = tr.Trace(t.Index(0, 1), 2, false);
  EXPECT_EQ(r.dests, std::vector<int>{t.Index(3, 3)});
  EXPECT_TRUE(r.faults.empty());
}

TEST(RouteTracer, MulticastReachesEveryBranchInOrder) {
  // (0,0) sends E and S and keeps a copy; (1,0) delivers and forwards S; (0,1), (1,1) deliver.
  RouteTable t(2, 2);
  t.AddRoute(0, 0, kMaskRamp, kMaskRamp | kMaskE | kMaskS);
  t.AddRoute(1, 0, kMaskW, kMaskRamp | kMaskS);
  t.AddRoute(2, 0, kMaskN, kMaskRamp);
  t.AddRoute(3, 0, kMaskN, kMaskRamp);
  RouteTracer tr(t);
  const TraceResult& r = tr.Trace(0, 0, false);
  EXPECT_EQ(r.dests, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(r.faults.empty());
}

TEST(RouteTracer, AFaultingBranchDoesNotStopTheOthers) {
  RouteTable t(2, 1);
  t.AddRoute(0, 1, kMaskRamp, kMaskE);
  t.AddRoute(1, 1, kMaskW, kMaskRamp | kMaskE);  // E leaves the fabric: the copy faults
  t.AddRoute(0, 2, kMaskRamp, kMaskE | kMaskRamp);
  t.AddRoute(1, 2, kMaskN, kMaskRamp);  // accepts only from N: the E branch faults
  RouteTracer tr(t);
  const TraceResult& r1 = tr.Trace(0, 1, false);
  EXPECT_TRUE(r1.dests.empty());  // the router consumes the whole wavelet
  ASSERT_EQ(r1.faults.size(), 1u);
  EXPECT_EQ(r1.faults[0], (TraceFault{1, FaultCause::kTiedOffEdge, 1, Dir::kW}));
  const TraceResult& r2 = tr.Trace(0, 2, false);
  EXPECT_EQ(r2.dests, std::vector<int>{0});
  ASSERT_EQ(r2.faults.size(), 1u);
  EXPECT_EQ(r2.faults[0], (TraceFault{1, FaultCause::kRxMismatch, 2, Dir::kW}));
  EXPECT_EQ(tr.Describe(r2.faults[0]), "PE(1,0): RxMismatch, color 2 from W");
}

TEST(RouteTracer, EachFaultKind) {
  RouteTable t(3, 3);
  const int c = t.Index(1, 1);
  t.AddRoute(c, 0, kMaskW, kMaskRamp);  // rx does not have RAMP
  t.AddRoute(c, 1, kMaskRamp, 0);       // no tx
  t.SetBase(c, 1, arch::ColorCfg::WithRx(0, kMaskRamp));
  t.AddRoute(t.Index(0, 0), 2, kMaskRamp, kMaskN);           // off the north edge
  t.AddRoute(t.Index(2, 2), 3, kMaskRamp, kMaskE);           // off the east edge
  t.AddRoute(t.Index(0, 2), 4, kMaskRamp, kMaskW | kMaskS);  // off two edges: one fault
  RouteTracer tr(t);
  auto only = [](const TraceResult& r) {
    EXPECT_TRUE(r.dests.empty());
    EXPECT_EQ(r.faults.size(), 1u);
    return r.faults.empty() ? TraceFault{} : r.faults[0];
  };
  EXPECT_EQ(only(tr.Trace(c, 0, false)), (TraceFault{c, FaultCause::kRxMismatch, 0, Dir::kRamp}));
  EXPECT_EQ(only(tr.Trace(c, 1, false)), (TraceFault{c, FaultCause::kNoRoute, 1, Dir::kRamp}));
  EXPECT_EQ(only(tr.Trace(c, 5, false)), (TraceFault{c, FaultCause::kRxMismatch, 5, Dir::kRamp}))
      << "an unused color accepts nothing";
  EXPECT_EQ(only(tr.Trace(0, 2, false)), (TraceFault{0, FaultCause::kTiedOffEdge, 2, Dir::kRamp}));
  EXPECT_EQ(only(tr.Trace(8, 3, false)), (TraceFault{8, FaultCause::kTiedOffEdge, 3, Dir::kRamp}));
  EXPECT_EQ(only(tr.Trace(6, 4, false)), (TraceFault{6, FaultCause::kTiedOffEdge, 4, Dir::kRamp}));
  for (uint32_t reserved : {24u, 30u, 31u}) {
    EXPECT_EQ(only(tr.Trace(c, reserved, false)),
              (TraceFault{c, FaultCause::kReservedColor, reserved, Dir::kRamp}));
  }
  EXPECT_EQ(only(tr.TraceFrom(c, Dir::kS, 0, false)),
            (TraceFault{c, FaultCause::kRxMismatch, 0, Dir::kS}));
  EXPECT_EQ(tr.TraceFrom(c, Dir::kW, 0, false).dests, std::vector<int>{c});
}

// Row of 4: (0,0) sends E; (1,0) has base tx RAMP and a switch; (2,0) forwards, (3,0) delivers.
RouteTable SwitchRow(uint32_t sw) {
  RouteTable t(4, 1);
  t.AddRoute(0, 0, kMaskRamp, kMaskE);
  t.AddRoute(1, 0, kMaskW, kMaskRamp);
  t.AddRoute(2, 0, kMaskW, kMaskE);
  t.AddRoute(3, 0, kMaskW, kMaskRamp);
  t.SetSwitch(1, 0, sw);
  return t;
}

TEST(RouteTracer, RingSwitchCyclesThroughThePositions) {
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kRamp, true, kE, true, true, true)));
  const std::vector<int> mid{1}, end{3};
  EXPECT_EQ(tr.Trace(0, 0, false).dests, mid);
  EXPECT_EQ(tr.Position(1, 0), 0u);
  EXPECT_EQ(tr.Trace(0, 0, true).dests, mid);  // routed by position 0, then advances
  EXPECT_EQ(tr.Position(1, 0), 1u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, end);
  EXPECT_EQ(tr.Trace(0, 0, true).dests, end);
  EXPECT_EQ(tr.Position(1, 0), 2u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, mid);
  EXPECT_EQ(tr.Trace(0, 0, true).dests, mid);
  EXPECT_EQ(tr.Position(1, 0), 3u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, end);
  EXPECT_EQ(tr.Trace(0, 0, true).dests, end);
  EXPECT_EQ(tr.Position(1, 0), 0u);  // ring: wraps
  EXPECT_EQ(tr.Trace(0, 0, false).dests, mid);
  EXPECT_EQ(tr.Position(0, 0), 0u);  // routers without Enable never move
  tr.Trace(0, 0, true);
  tr.Reset();
  EXPECT_EQ(tr.Position(1, 0), 0u);
}

TEST(RouteTracer, WithoutRingTheSwitchStaysAtThree) {
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kE, true, kE, true, false, true)));
  for (int i = 0; i < 3; ++i) tr.Trace(0, 0, true);
  EXPECT_EQ(tr.Position(1, 0), 3u);
  tr.Trace(0, 0, true);
  EXPECT_EQ(tr.Position(1, 0), 3u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{3});
}

TEST(RouteTracer, WithoutEnableControlWaveletsDoNotAdvance) {
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kE, true, kE, true, true, false)));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1});
  EXPECT_EQ(tr.Position(1, 0), 0u);
}

TEST(RouteTracer, ThePositionInTheRegisterIsTheStart) {
  RouteTracer tr(
      SwitchRow(SwitchCfg::WithPos(MakeSwitch(kE, true, kE, true, kE, true, true, true), 2)));
  EXPECT_EQ(tr.Position(1, 0), 2u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{3});
}

TEST(RouteTracer, InputSideSwitchReplacesRx) {
  // Position 1 replaces rx by E: a wavelet from W no longer gets in.
  RouteTracer tr(SwitchRow(MakeSwitch(kE, false, kW, false, kW, false, true, true)));
  EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1});
  const TraceResult& r = tr.Trace(0, 0, false);
  EXPECT_TRUE(r.dests.empty());
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_EQ(r.faults[0], (TraceFault{1, FaultCause::kRxMismatch, 0, Dir::kW}));
  EXPECT_EQ(tr.Position(1, 0), 1u) << "a faulting control wavelet does not advance";
  const TraceResult& c = tr.Trace(0, 0, true);
  EXPECT_EQ(c.faults.size(), 1u);
  EXPECT_EQ(tr.Position(1, 0), 1u);
}

TEST(RouteTracer, DirectionCodeBeyondRampIsAnEmptyMask) {
  // Position 1: output side code 5 (no route); position 2: input side code 7 (accepts nothing).
  RouteTable t = SwitchRow(0);
  t.SetSwitch(1, 0, SwitchCfg::WithPos(MakeSwitch(5, true, 7, false, kE, true, true, true), 1));
  RouteTracer tr(t);
  const TraceResult& r = tr.Trace(0, 0, false);
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_EQ(r.faults[0].cause, FaultCause::kNoRoute);
  t.SetSwitch(1, 0, SwitchCfg::WithPos(MakeSwitch(5, true, 7, false, kE, true, true, true), 2));
  RouteTracer tr2(t);
  const TraceResult& r2 = tr2.Trace(0, 0, false);
  ASSERT_EQ(r2.faults.size(), 1u);
  EXPECT_EQ(r2.faults[0].cause, FaultCause::kRxMismatch);
}

TEST(RouteTracer, ControlWaveletsAdvanceEverySwitchTheyPass) {
  RouteTable t(4, 1);
  t.AddRoute(0, 6, kMaskRamp, kMaskE);
  t.AddRoute(1, 6, kMaskW, kMaskE);
  t.AddRoute(2, 6, kMaskW, kMaskE);
  t.AddRoute(3, 6, kMaskW, kMaskRamp);
  const uint32_t sw = MakeSwitch(kE, true, kE, true, kE, true, true, true);
  t.SetSwitch(1, 6, sw);
  t.SetSwitch(2, 6, sw);
  t.SetSwitch(0, 6, MakeSwitch(kE, true, kE, true, kE, true, true, false));
  RouteTracer tr(t);
  tr.Trace(0, 6, true);
  EXPECT_EQ(tr.Position(0, 6), 0u);
  EXPECT_EQ(tr.Position(1, 6), 1u);
  EXPECT_EQ(tr.Position(2, 6), 1u);
  EXPECT_EQ(tr.Position(3, 6), 0u);
  tr.Trace(0, 6, false);
  EXPECT_EQ(tr.Position(1, 6), 1u);
}

TEST(RouteTracer, CachedResultsStayRightNextToSwitches) {
  // Color 0 passes a ring switch (never cached); color 3 is a plain path (cached after the first
  // trace). Interleaving them must not mix their results.
  RouteTable t = SwitchRow(MakeSwitch(kE, true, kRamp, true, kE, true, true, true));
  ASSERT_TRUE(t.TryAddXyPath(3, 0, 3));
  RouteTracer tr(t);
  const std::vector<int> mid{1}, end{3}, west{0};
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(tr.Trace(3, 3, round == 1).dests, west);
    EXPECT_EQ(tr.Trace(0, 0, true).dests, mid);
    EXPECT_EQ(tr.Trace(3, 3, false).dests, west);
    EXPECT_EQ(tr.Trace(0, 0, true).dests, end);
  }
  EXPECT_EQ(tr.TraceFrom(2, Dir::kE, 3, false).dests, west);
  const TraceResult& bad = tr.Trace(3, 24, false);
  ASSERT_EQ(bad.faults.size(), 1u);
  EXPECT_EQ(tr.Trace(3, 3, false).faults.size(), 0u);
}

TEST(RouteTracer, LoopsAreReported) {
  RouteTable t(2, 1);
  t.AddRoute(0, 0, kMaskRamp | kMaskE, kMaskE);
  t.AddRoute(1, 0, kMaskW, kMaskW);
  RouteTracer tr(t);
  try {
    tr.Trace(0, 0, false);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("PE(0,0) twice"), std::string::npos) << e.what();
  }
}

TEST(RouteTracer, OutOfRangeThrows) {
  RouteTracer tr(RouteTable(2, 2));
  EXPECT_THROW(tr.Trace(4, 0, false), std::out_of_range);
  EXPECT_THROW(tr.Position(0, 24), std::out_of_range);
}

}  // namespace
}  // namespace tessera::tb
