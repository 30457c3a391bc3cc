#include "scoreboards/route_tracer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace tessera::noc {
namespace {

using arch::Dir;
using arch::FaultCause;
using arch::SwitchCfg;

// SwitchCfg direction codes: 0 keeps the base route, arch::Dir + 1 names a port, 6 and 7 none.
constexpr uint32_t kKeep = 0;
constexpr uint32_t Code(Dir d) { return static_cast<uint32_t>(d) + 1; }
constexpr uint32_t kW = Code(Dir::kW);
constexpr uint32_t kE = Code(Dir::kE);
constexpr uint32_t kRamp = Code(Dir::kRamp);

// A switch register: positions (code, out) 1..3 and the ring bit.
uint32_t MakeSwitch(uint32_t d1, bool o1, uint32_t d2, bool o2, uint32_t d3, bool o3, bool ring) {
  uint32_t v = 0;
  v = SwitchCfg::WithPos1Dir(v, d1);
  v = SwitchCfg::WithPos1Out(v, o1);
  v = SwitchCfg::WithPos2Dir(v, d2);
  v = SwitchCfg::WithPos2Out(v, o2);
  v = SwitchCfg::WithPos3Dir(v, d3);
  v = SwitchCfg::WithPos3Out(v, o3);
  return SwitchCfg::WithRing(v, ring);
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

TEST(RouteTracer, TheEncodingIsTheRegisterLayout) {
  // Pos1Dir 2:0, Pos1Out 3, Pos2Dir 6:4, Pos2Out 7, Pos3Dir 10:8, Pos3Out 11, Ring 12, Pos 14:13.
  EXPECT_EQ(MakeSwitch(kE, true, kRamp, true, kE, true, true), 0x1ADAu);
  EXPECT_EQ(MakeSwitch(7, false, 6, true, kW, false, false), 0x1E7u);
  EXPECT_EQ(SwitchCfg::WithPos(0, 3), 0x6000u);
  EXPECT_EQ(SwitchCfg::Pos(0xFFFFu), 3u);
}

TEST(RouteTracer, RingSwitchCyclesThroughThePositions) {
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kRamp, true, kE, true, true)));
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
  // Every router that forwarded a control wavelet advanced too: (0,0) (SwitchCfg 0, no ring)
  // forwarded all four and stays at 3; (2,0) and (3,0) only saw the two routed east.
  EXPECT_EQ(tr.Position(0, 0), 3u);
  EXPECT_EQ(tr.Position(2, 0), 2u);
  EXPECT_EQ(tr.Position(3, 0), 2u);
  tr.Trace(0, 0, true);
  tr.Reset();
  for (int pe = 0; pe < 4; ++pe) EXPECT_EQ(tr.Position(pe, 0), 0u) << pe;
}

TEST(RouteTracer, WithoutRingTheSwitchStaysAtThree) {
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kE, true, kE, true, false)));
  for (int i = 0; i < 3; ++i) tr.Trace(0, 0, true);
  EXPECT_EQ(tr.Position(1, 0), 3u);
  tr.Trace(0, 0, true);
  EXPECT_EQ(tr.Position(1, 0), 3u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{3});
}

TEST(RouteTracer, AZeroSwitchCfgKeepsTheBaseRouteWhilePosAdvances) {
  RouteTracer tr(SwitchRow(0));
  for (uint32_t i = 1; i <= 5; ++i) {
    EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1}) << i;
    EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{1}) << i;
    EXPECT_EQ(tr.Position(0, 0), std::min(i, 3u)) << i;  // no ring: stays at 3
    EXPECT_EQ(tr.Position(1, 0), std::min(i, 3u)) << i;
  }
  EXPECT_EQ(tr.Position(2, 0), 0u) << "never reached";
  EXPECT_EQ(tr.Position(3, 0), 0u);
}

TEST(RouteTracer, ARingWithoutCodesWrapsAndKeepsTheBaseRoute) {
  RouteTracer tr(
      SwitchRow(SwitchCfg::WithPos(MakeSwitch(kKeep, true, kKeep, false, kKeep, true, true), 2)));
  const uint32_t want[] = {3, 0, 1, 2, 3, 0};
  for (uint32_t p : want) {
    EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1});
    EXPECT_EQ(tr.Position(1, 0), p);
  }
}

TEST(RouteTracer, CodeZeroAtAPositionKeepsTheBaseRoute) {
  // Position 2 has code 0 on the output side, position 3 code 0 on the input side: both route
  // like position 0 (tx RAMP, rx W); position 1 sends E.
  RouteTracer tr(SwitchRow(MakeSwitch(kE, true, kKeep, true, kKeep, false, true)));
  const std::vector<int> mid{1}, end{3};
  const std::vector<int> want[] = {mid, end, mid, mid, mid, end};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(tr.Trace(0, 0, false).dests, want[i]) << "position " << tr.Position(1, 0);
    const TraceResult& r = tr.Trace(0, 0, true);
    EXPECT_TRUE(r.faults.empty());
    EXPECT_EQ(r.dests, want[i]);
  }
}

TEST(RouteTracer, ACodeOnlyAtALaterPositionStillChangesTheRoute) {
  // Positions 0..2 route like the base route; only position 3 sends E. Data traces at position 0
  // must not be remembered as the pair's fixed result.
  RouteTracer tr(SwitchRow(MakeSwitch(kKeep, true, kKeep, true, kE, true, false)));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{1});
    EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{1});
    EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1});
  }
  EXPECT_EQ(tr.Position(1, 0), 3u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{3});
}

TEST(RouteTracer, ThePositionInTheRegisterIsTheStart) {
  RouteTracer tr(SwitchRow(SwitchCfg::WithPos(MakeSwitch(kE, true, kE, true, kE, true, true), 2)));
  EXPECT_EQ(tr.Position(1, 0), 2u);
  EXPECT_EQ(tr.Trace(0, 0, false).dests, std::vector<int>{3});
}

TEST(RouteTracer, InputSideSwitchReplacesRx) {
  // Position 1 replaces rx by E: a wavelet from W no longer gets in.
  RouteTracer tr(SwitchRow(MakeSwitch(kE, false, kW, false, kW, false, true)));
  EXPECT_EQ(tr.Trace(0, 0, true).dests, std::vector<int>{1});
  const TraceResult& r = tr.Trace(0, 0, false);
  EXPECT_TRUE(r.dests.empty());
  ASSERT_EQ(r.faults.size(), 1u);
  EXPECT_EQ(r.faults[0], (TraceFault{1, FaultCause::kRxMismatch, 0, Dir::kW}));
  EXPECT_EQ(tr.Position(1, 0), 1u) << "a faulting control wavelet does not advance";
  const TraceResult& c = tr.Trace(0, 0, true);
  EXPECT_EQ(c.faults.size(), 1u);
  EXPECT_EQ(tr.Position(1, 0), 1u);
  EXPECT_EQ(tr.Position(0, 0), 2u) << "the router before the fault forwarded both";
}

TEST(RouteTracer, EachDirectionCodeNamesDirPlusOne) {
  // 3x3: the centre PE(1,1) gets the wavelet from its CE side; position 1 replaces its tx (or its
  // rx) by the code's direction. Every neighbour accepts from the centre and delivers.
  const int centre = 4;
  const int neighbour[] = {3, 5, 7, 1, centre};  // W, E, S, N, RAMP
  for (uint32_t code = 1; code <= 5; ++code) {
    SCOPED_TRACE(code);
    RouteTable t(3, 3);
    t.AddRoute(centre, 0, kMaskRamp, kMaskRamp);
    t.AddRoute(3, 0, kMaskE, kMaskRamp);
    t.AddRoute(5, 0, kMaskW, kMaskRamp);
    t.AddRoute(7, 0, kMaskN, kMaskRamp);
    t.AddRoute(1, 0, kMaskS, kMaskRamp);
    t.SetSwitch(centre, 0,
                SwitchCfg::WithPos(MakeSwitch(code, true, kKeep, true, code, false, false), 1));
    RouteTracer tr(t);
    const TraceResult& r = tr.Trace(centre, 0, true);
    EXPECT_TRUE(r.faults.empty());
    EXPECT_EQ(r.dests, std::vector<int>{neighbour[code - 1]});
    EXPECT_EQ(tr.Trace(centre, 0, true).dests, std::vector<int>{centre}) << "position 2 keeps";
    // Position 3: rx is the code's direction only.
    const Dir in = static_cast<Dir>(code - 1);
    EXPECT_EQ(tr.TraceFrom(centre, in, 0, false).dests, std::vector<int>{centre});
    for (uint32_t other = 0; other < arch::kNumDirs; ++other) {
      if (other == code - 1) continue;
      const TraceResult& f = tr.TraceFrom(centre, static_cast<Dir>(other), 0, false);
      ASSERT_EQ(f.faults.size(), 1u) << other;
      EXPECT_EQ(f.faults[0].cause, FaultCause::kRxMismatch);
    }
  }
}

TEST(RouteTracer, Codes6And7GiveAnEmptyMask) {
  for (uint32_t code : {6u, 7u}) {
    SCOPED_TRACE(code);
    // Output side: no route; input side: accepts nothing.
    RouteTable t =
        SwitchRow(SwitchCfg::WithPos(MakeSwitch(code, true, code, false, kE, true, true), 1));
    RouteTracer tr(t);
    const TraceResult& r = tr.Trace(0, 0, true);
    EXPECT_TRUE(r.dests.empty());
    ASSERT_EQ(r.faults.size(), 1u);
    EXPECT_EQ(r.faults[0], (TraceFault{1, FaultCause::kNoRoute, 0, Dir::kW}));
    EXPECT_EQ(tr.Position(1, 0), 1u) << "a faulting control wavelet does not advance";
    t.SetSwitch(1, 0, SwitchCfg::WithPos(t.Switch(1, 0), 2));
    RouteTracer tr2(t);
    const TraceResult& r2 = tr2.Trace(0, 0, false);
    EXPECT_TRUE(r2.dests.empty());
    ASSERT_EQ(r2.faults.size(), 1u);
    EXPECT_EQ(r2.faults[0], (TraceFault{1, FaultCause::kRxMismatch, 0, Dir::kW}));
    for (uint32_t d = 0; d < arch::kNumDirs; ++d) {
      EXPECT_EQ(tr2.TraceFrom(1, static_cast<Dir>(d), 0, false).faults.size(), 1u) << d;
    }
  }
}

TEST(RouteTracer, ControlWaveletsAdvanceEveryRouterThatForwardsThem) {
  RouteTable t(4, 1);
  t.AddRoute(0, 6, kMaskRamp, kMaskE);
  t.AddRoute(1, 6, kMaskW, kMaskE);
  t.AddRoute(2, 6, kMaskW, kMaskE);
  t.AddRoute(3, 6, kMaskW, kMaskRamp);
  const uint32_t sw = MakeSwitch(kE, true, kE, true, kE, true, true);
  t.SetSwitch(1, 6, sw);
  t.SetSwitch(2, 6, sw);
  t.SetSwitch(0, 6, MakeSwitch(kE, true, kE, true, kE, true, false));
  RouteTracer tr(t);  // (3,0) has SwitchCfg 0
  tr.Trace(0, 6, true);
  for (int pe = 0; pe < 4; ++pe) EXPECT_EQ(tr.Position(pe, 6), 1u) << pe;
  EXPECT_EQ(tr.Trace(0, 6, false).dests, std::vector<int>{3});
  for (int pe = 0; pe < 4; ++pe) EXPECT_EQ(tr.Position(pe, 6), 1u) << "data: " << pe;
  for (int i = 0; i < 3; ++i) tr.Trace(0, 6, true);
  EXPECT_EQ(tr.Position(0, 6), 3u);  // no ring
  EXPECT_EQ(tr.Position(1, 6), 0u);  // ring
  EXPECT_EQ(tr.Position(2, 6), 0u);
  EXPECT_EQ(tr.Position(3, 6), 3u);  // SwitchCfg 0: no ring
  EXPECT_EQ(tr.Position(0, 5), 0u) << "other colors do not move";
}

TEST(RouteTracer, CachedResultsStayRightNextToSwitches) {
  // Color 0 passes a ring switch (never cached); color 3 is a plain path (cached after the first
  // trace). Interleaving them must not mix their results.
  RouteTable t = SwitchRow(MakeSwitch(kE, true, kRamp, true, kE, true, true));
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

TEST(RouteTracer, ControlWaveletsOnACachedRouteStillAdvance) {
  // Color 3 is a plain path (no direction codes): its data result is cached, but each control
  // wavelet still advances every position on it, and its result stays the same.
  RouteTable t(4, 1);
  ASSERT_TRUE(t.TryAddXyPath(3, 0, 3));
  t.SetSwitch(1, 3, SwitchCfg::WithRing(0, 1));  // a ring but no codes: still cacheable
  RouteTracer tr(t);
  const std::vector<int> west{0};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(tr.Trace(3, 3, false).dests, west);
  for (uint32_t i = 1; i <= 4; ++i) {
    EXPECT_EQ(tr.Trace(3, 3, true).dests, west);
    EXPECT_EQ(tr.Trace(3, 3, false).dests, west);
    EXPECT_EQ(tr.Position(3, 3), std::min(i, 3u));
    EXPECT_EQ(tr.Position(1, 3), i % 4);
  }
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
}  // namespace tessera::noc
