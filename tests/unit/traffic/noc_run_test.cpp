#include "traffic/noc_run.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "fake_fabric.h"
#include "traffic/traffic_endpoint.h"

namespace tessera::noc {
namespace {

using testing::FakeFabric;

bool Has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

NocOptions Opts(const std::string& pattern, double rate = 0.1, uint64_t cycles = 300,
                uint64_t seed = 1) {
  NocOptions o;
  o.pattern = pattern;
  o.rate = rate;
  o.cycles = cycles;
  o.seed = seed;
  return o;
}

TEST(NocRun, EveryPatternRunsClean) {
  for (const std::string& name : PatternNames()) {
    for (auto [w, h] : {std::pair{4, 4}, std::pair{5, 3}, std::pair{2, 7}}) {
      SCOPED_TRACE(name + " " + std::to_string(w) + "x" + std::to_string(h));
      FakeFabric f(w, h);
      NocResult r = RunNoc(f, Opts(name));
      EXPECT_TRUE(r.Passed()) << r.stats.first_error;
      EXPECT_TRUE(r.drained);
      EXPECT_FALSE(r.stopped_by_fault);
      EXPECT_GT(r.stats.offered, 0u);
      EXPECT_EQ(r.stats.injected, r.stats.offered);
      EXPECT_EQ(r.stats.ok, r.stats.expected);
      EXPECT_EQ(r.stats.delivered, r.stats.expected);
      EXPECT_EQ(r.run_cycles, r.cycles + r.drain_cycles);
      EXPECT_EQ(r.run_cycles, f.Cycle());
      EXPECT_EQ(r.width, w);
      EXPECT_GT(r.flows, 0);
      EXPECT_NEAR(r.offered_load, 0.1 * r.flows / (w * h), 0.04);
      // Accepted load counts the deliveries made during the injection window only.
      EXPECT_GT(r.accepted_load, 0.0);
      EXPECT_LE(r.accepted_load, static_cast<double>(r.stats.delivered) / (w * h * 300));
      EXPECT_GE(r.stats.latency_avg, static_cast<double>(f.latency));
      ASSERT_TRUE(r.scoreboard);
    }
  }
}

TEST(NocRun, EventDrivenTickingGivesTheSameDeliveries) {
  for (const std::string& name : PatternNames()) {
    SCOPED_TRACE(name);
    FakeFabric every(4, 4), lazy(4, 4);
    lazy.event_driven = true;
    NocResult a = RunNoc(every, Opts(name, 0.05, 400, 3));
    NocResult b = RunNoc(lazy, Opts(name, 0.05, 400, 3));
    EXPECT_TRUE(b.Passed()) << b.stats.first_error;
    EXPECT_EQ(CompareLogs(*a.scoreboard, *b.scoreboard, true), "");
    EXPECT_LT(lazy.ticks, every.ticks);
  }
}

TEST(NocRun, TheSeedDecidesTheTraffic) {
  FakeFabric f1(4, 4), f2(4, 4), f3(4, 4);
  NocResult a = RunNoc(f1, Opts("uniform", 0.2, 200, 7));
  NocResult b = RunNoc(f2, Opts("uniform", 0.2, 200, 7));
  NocResult c = RunNoc(f3, Opts("uniform", 0.2, 200, 8));
  EXPECT_EQ(CompareLogs(*a.scoreboard, *b.scoreboard, true), "");
  EXPECT_EQ(a.stats.offered, b.stats.offered);
  EXPECT_NE(CompareLogs(*a.scoreboard, *c.scoreboard), "");
}

TEST(NocRun, LostWaveletsFailTheRun) {
  FakeFabric f(4, 4);
  f.drop_every = 37;
  NocOptions o = Opts("uniform", 0.2, 300);
  o.drain_limit = 100;
  NocResult r = RunNoc(f, o);
  EXPECT_FALSE(r.Passed());
  EXPECT_FALSE(r.drained);
  EXPECT_GT(r.stats.lost, 0u);
  // Draining goes on while deliveries happen, then gives up after 100 cycles without one.
  EXPECT_GE(r.drain_cycles, 100u);
  EXPECT_LT(r.drain_cycles, 100u + 2 * f.latency + 100);
  // The deliveries after a dropped wavelet are not the oldest outstanding of their stream.
  EXPECT_GT(r.stats.reordered, 0u);
  EXPECT_TRUE(Has(r.stats.first_error, "is still outstanding: overtaken or lost"))
      << r.stats.first_error;
  EXPECT_TRUE(Has(r.scoreboard->FirstLost(), "never received")) << r.scoreboard->FirstLost();
}

TEST(NocRun, DuplicatesAndReorderingAreCaught) {
  FakeFabric dup(4, 4);
  dup.dup_every = 25;
  NocResult a = RunNoc(dup, Opts("neighbour", 0.3, 300));
  EXPECT_FALSE(a.Passed());
  EXPECT_GT(a.stats.duplicated, 0u);
  EXPECT_EQ(a.stats.lost, 0u);
  EXPECT_TRUE(Has(a.stats.first_error, "duplicated")) << a.stats.first_error;

  FakeFabric swap(4, 4);
  swap.swap_every = 25;
  swap.latency = 10;  // keeps several wavelets per queue to swap
  NocResult b = RunNoc(swap, Opts("neighbour", 0.9, 300));
  EXPECT_FALSE(b.Passed());
  EXPECT_GT(b.stats.reordered, 0u);
  EXPECT_EQ(b.stats.lost, 0u);
  EXPECT_TRUE(Has(b.stats.first_error, "reordered")) << b.stats.first_error;
}

TEST(NocRun, SwitchTrafficReachesBothEnds) {
  FakeFabric f(6, 2);
  NocResult r = RunNoc(f, Opts("switch", 0.5, 400));
  ASSERT_TRUE(r.Passed()) << r.stats.first_error;
  for (int y = 0; y < 2; ++y) {
    const auto& mid = r.scoreboard->Log(y * 6 + 3, static_cast<uint32_t>(y));
    const auto& end = r.scoreboard->Log(y * 6 + 5, static_cast<uint32_t>(y));
    EXPECT_GT(mid.size(), 10u);
    EXPECT_GT(end.size(), 10u);
    int ctrl = 0;
    for (const LogEntry& e : mid) ctrl += e.ctrl;
    for (const LogEntry& e : end) ctrl += e.ctrl;
    EXPECT_GT(ctrl, 0);
  }
}

// A backend that loses one routing register: the traffic it misroutes makes router faults.
class ForgetfulFabric : public FakeFabric {
 public:
  using FakeFabric::FakeFabric;
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    if (pe.x == 2 && pe.y == 1 && addr == arch::ColorCfg::Addr(0)) return;
    FakeFabric::WriteReg(pe, addr, value);
  }
};

TEST(NocRun, FabricFaultsStopTheRunAndAreReported) {
  ForgetfulFabric f(4, 4);
  NocResult r = RunNoc(f, Opts("hotspot", 0.2, 300));
  EXPECT_TRUE(r.stopped_by_fault);
  EXPECT_FALSE(r.Passed());
  ASSERT_FALSE(r.faults.empty());
  EXPECT_EQ(r.faults[0].pe, (fabric::Coord{2, 1}));
  EXPECT_EQ(arch::RouterFault::Cause(r.faults[0].status),
            static_cast<uint32_t>(arch::FaultCause::kRxMismatch));
  EXPECT_LT(r.run_cycles, 300u);
  EXPECT_TRUE(r.predicted_faults.empty());
}

TEST(NocRun, EndpointsAreDetachedAfterTheRun) {
  FakeFabric f(3, 3);
  RunNoc(f, Opts("uniform"));
  const uint64_t ticks = f.ticks;
  f.Run(10);
  EXPECT_EQ(f.ticks, ticks);
}

TEST(NocRun, BadOptionsThrowBeforeTouchingTheFabric) {
  FakeFabric f(4, 4);
  EXPECT_THROW(RunNoc(f, Opts("uniform", 1.5)), std::invalid_argument);
  EXPECT_THROW(RunNoc(f, Opts("uniform", -1)), std::invalid_argument);
  EXPECT_THROW(RunNoc(f, Opts("uniform", 0.1, 0)), std::invalid_argument);
  EXPECT_THROW(RunNoc(f, Opts("zigzag")), std::invalid_argument);
  FakeFabric narrow(1, 4);
  EXPECT_THROW(RunNoc(narrow, Opts("switch")), std::invalid_argument);
  EXPECT_EQ(f.writes, 0u);
  EXPECT_EQ(f.Cycle(), 0u);
}

TEST(NocRun, DefaultDrainLimit) {
  FakeFabric f(2, 2);
  f.drop_every = 1;  // nothing ever arrives
  NocResult r = RunNoc(f, Opts("neighbour", 0.5, 50));
  EXPECT_EQ(r.drain_cycles, 2000u);
  EXPECT_EQ(r.stats.delivered, 0u);
  EXPECT_EQ(r.stats.lost, r.stats.expected);
}

// Directed use of the pieces without RunNoc: a wavelet routed off the fabric is reported by the
// fabric where the tracer predicted it.
TEST(NocRun, DirectedFaultMatchesThePrediction) {
  RouteTable t(3, 3);
  t.AddRoute(t.Index(1, 0), 4, kMaskRamp, kMaskN);  // off the north edge
  FakeFabric f(3, 3);
  t.Apply(f);
  RouteTracer tracer(t);
  Scoreboard sb(3, 3);
  TrafficEndpoint ep(t.Index(1, 0), tracer, sb, 1);
  f.SetEndpoint({1, 0}, &ep);
  f.Run(5);
  ep.CreateNow(4, false);
  EXPECT_EQ(f.Run(20), 1u);  // the cycle of the fault ends the Run
  ASSERT_EQ(sb.PredictedFaults().size(), 1u);
  const auto faults = f.Faults();
  ASSERT_EQ(faults.size(), 1u);
  const TraceFault& p = sb.PredictedFaults()[0].fault;
  EXPECT_EQ(f.Index(faults[0].pe), p.pe);
  EXPECT_EQ(arch::RouterFault::Cause(faults[0].status), static_cast<uint32_t>(p.cause));
  EXPECT_EQ(arch::RouterFault::Dir(faults[0].status), static_cast<uint32_t>(p.dir));
  EXPECT_EQ(arch::RouterFault::Color(faults[0].status), p.color);
  EXPECT_EQ(faults[0].cycle, 5u);
  f.SetEndpoint({1, 0}, nullptr);
}

}  // namespace
}  // namespace tessera::noc
