#include "traffic/traffic_endpoint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "traffic/payload.h"
#include "traffic/rng.h"

namespace tessera::noc {
namespace {

using arch::Credit;
using arch::Link;
using fabric::kNever;
using fabric::MakeCredit;
using fabric::MakeLink;
using fabric::RampPort;

// A 3x1 row: color 0 from PE 0 to PE 2, color 1 from PE 0 to PE 1, color 2 from PE 1 to PE 2.
struct Rig {
  Rig() : table(Table()), tracer(table), sb(3, 1) {}
  static RouteTable Table() {
    RouteTable t(3, 1);
    t.TryAddXyPath(0, 2, 0);
    t.TryAddXyPath(0, 1, 1);
    t.TryAddXyPath(1, 2, 2);
    return t;
  }
  RouteTable table;
  RouteTracer tracer;
  Scoreboard sb;
};

RampPort Step(TrafficEndpoint& ep, uint64_t cycle, uint64_t from = 0, uint8_t credit = 0) {
  RampPort p;
  p.from_router = from;
  p.credit_from_router = credit;
  p.to_router = 0xDEAD;  // the endpoint must overwrite both outputs
  p.credit_to_router = 0xFF;
  ep.Tick(cycle, p);
  return p;
}

TEST(Rng, GeometricGapMeanAndDeterminism) {
  for (double p : {0.5, 0.1, 0.01}) {
    GeometricGap g(p);
    SplitMix64 rng(42);
    double sum = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(g.Draw(rng));
    EXPECT_NEAR(sum / n, 1 / p, 0.02 / p) << p;
  }
  SplitMix64 a(7), b(7);
  GeometricGap g(0.2);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(g.Draw(a), g.Draw(b));
  SplitMix64 r(1);
  EXPECT_EQ(GeometricGap(1.0).Draw(r), 1u);
  EXPECT_EQ(GeometricGap(0.0).Draw(r), GeometricGap::kInfinite);
  // Pinned values: the same on every host and compiler.
  SplitMix64 pin(StreamSeed(1, 2));
  EXPECT_EQ(pin.Next(), SplitMix64(StreamSeed(1, 2)).Next());
  SplitMix64 z(0);
  EXPECT_EQ(z.Next(), 0xE220A8397B1DCDAFull);  // splitmix64's first output for seed 0
}

TEST(TrafficEndpoint, SendsOnlyWithCredits) {
  Rig r;
  TrafficEndpoint ep(0, r.tracer, r.sb, 1);
  ep.AddFlow(0);
  ep.StartInjection(1.0, 0, 1000);
  EXPECT_EQ(ep.NextWake(), 0u);
  int sent = 0;
  for (uint64_t c = 0; c < 20; ++c) {
    RampPort p = Step(ep, c);
    EXPECT_EQ(p.credit_to_router, 0);
    if (Link::Valid(p.to_router)) {
      ++sent;
      EXPECT_EQ(Link::Color(p.to_router), 0u);
      EXPECT_EQ(Link::Data(p.to_router), MakePayload(0, c));
    } else {
      EXPECT_EQ(p.to_router, 0u);
    }
  }
  EXPECT_EQ(sent, static_cast<int>(arch::kRampInDepth));
  EXPECT_EQ(ep.Credits(0), 0u);
  EXPECT_EQ(ep.Created(), 20u);
  constexpr uint32_t kDepth = arch::kRampInDepth;
  static_assert(kDepth < 20, "the loop above must outlast the credits");
  EXPECT_EQ(ep.Queued(), 20u - kDepth);
  EXPECT_EQ(r.sb.Stats().injected, kDepth);
  RampPort p = Step(ep, 20, 0, MakeCredit(0));  // one credit back: one more leaves
  EXPECT_EQ(Link::Data(p.to_router), MakePayload(0, kDepth));
  EXPECT_EQ(ep.Credits(0), 0u);
  EXPECT_FALSE(Link::Valid(Step(ep, 21).to_router));
  EXPECT_EQ(ep.Sent(), kDepth + 1);
}

TEST(TrafficEndpoint, CreditsBeyondTheDepthAreAProtocolError) {
  Rig r;
  TrafficEndpoint ep(0, r.tracer, r.sb, 1);
  Step(ep, 0, 0, MakeCredit(3));
  EXPECT_EQ(r.sb.Stats().protocol, 1u);
  EXPECT_EQ(ep.Credits(3), arch::kRampInDepth);
  Step(ep, 1, 0, MakeCredit(27));
  EXPECT_EQ(r.sb.Stats().protocol, 2u);
}

TEST(TrafficEndpoint, SinkReturnsTheCreditInTheSameTick) {
  Rig r;
  TrafficEndpoint src(0, r.tracer, r.sb, 1), dst(2, r.tracer, r.sb, 1);
  src.CreateNow(0, false);
  const uint64_t w = Step(src, 5).to_router;
  ASSERT_TRUE(Link::Valid(w));
  RampPort p = Step(dst, 9, w);
  EXPECT_EQ(p.credit_to_router, MakeCredit(0));
  EXPECT_EQ(dst.Received(), 1u);
  EXPECT_EQ(dst.HeldCredits(0), 0u);
  ScoreStats s = r.sb.Stats();
  EXPECT_EQ(s.ok, 1u);
  EXPECT_EQ(s.latency_max, 4u);
  EXPECT_EQ(dst.NextWake(), kNever);
}

TEST(TrafficEndpoint, BlockedColorsHoldTheirCredits) {
  Rig r;
  TrafficEndpoint ep(2, r.tracer, r.sb, 1);
  ep.Block(0, true);
  const uint64_t w = MakeLink(false, 0, 0xFFFFFFFF);  // not expected: misrouted, still credited
  for (uint64_t c = 0; c < 3; ++c) EXPECT_EQ(Step(ep, c, w).credit_to_router, 0);
  EXPECT_EQ(ep.HeldCredits(0), 3u);
  EXPECT_EQ(ep.Received(), 3u);
  EXPECT_EQ(r.sb.Stats().delivered, 3u);  // delivered on arrival, only the credit waits
  EXPECT_EQ(ep.NextWake(), kNever);
  // Another color is not held back.
  EXPECT_EQ(Step(ep, 3, MakeLink(false, 2, 0)).credit_to_router, MakeCredit(2));
  ep.Block(0, false);
  EXPECT_EQ(ep.NextWake(), 4u);
  for (uint64_t c = 4; c < 7; ++c) EXPECT_EQ(Step(ep, c).credit_to_router, MakeCredit(0));
  EXPECT_EQ(Step(ep, 7).credit_to_router, 0);
  EXPECT_EQ(ep.HeldCredits(0), 0u);
  EXPECT_EQ(ep.NextWake(), kNever);
}

TEST(TrafficEndpoint, HeldCreditsLeaveRoundRobin) {
  Rig r;
  TrafficEndpoint ep(1, r.tracer, r.sb, 1);
  ep.Block(1, true);
  ep.Block(5, true);
  Step(ep, 0, MakeLink(false, 5, 0));
  Step(ep, 1, MakeLink(false, 1, 0));
  Step(ep, 2, MakeLink(false, 5, 0));
  Step(ep, 3, MakeLink(false, 1, 0));
  ep.Block(1, false);
  ep.Block(5, false);
  std::vector<uint8_t> got;
  for (uint64_t c = 4; c < 9; ++c) got.push_back(Step(ep, c).credit_to_router);
  EXPECT_EQ(got,
            (std::vector<uint8_t>{MakeCredit(1), MakeCredit(5), MakeCredit(1), MakeCredit(5), 0}));
}

TEST(TrafficEndpoint, TooManyDeliveriesWithoutCreditsIsAProtocolError) {
  Rig r;
  TrafficEndpoint ep(1, r.tracer, r.sb, 1);
  ep.Block(4, true);
  for (uint64_t c = 0; c < arch::kRampOutCredits; ++c) Step(ep, c, MakeLink(false, 4, 0));
  EXPECT_EQ(r.sb.Stats().protocol, 0u);
  Step(ep, 99, MakeLink(false, 4, 0));
  EXPECT_EQ(r.sb.Stats().protocol, 1u);
}

// Creation cycles of an endpoint ticked every cycle (credits returned at once) or only when due.
std::vector<uint64_t> Creations(uint64_t seed, int pe, double rate, bool event_driven,
                                uint64_t cycles = 5000) {
  RouteTable t(4, 4);
  for (int i = 0; i < 16; ++i) t.TryAddXyPath(i, i, 0);
  RouteTracer tracer(t);
  Scoreboard sb(4, 4);
  TrafficEndpoint ep(pe, tracer, sb, seed);
  ep.AddFlow(0);
  ep.StartInjection(rate, 100, 100 + cycles);
  std::vector<uint64_t> out;
  uint8_t credit = 0;
  for (uint64_t c = 0; c < 200 + cycles;) {
    if (event_driven && !credit) {
      if (ep.NextWake() == kNever) break;
      c = std::max(c, ep.NextWake());
    }
    RampPort p = Step(ep, c, 0, credit);
    credit = 0;
    if (Link::Valid(p.to_router)) {
      out.push_back(c);
      credit = MakeCredit(0);
    }
    ++c;
  }
  EXPECT_EQ(ep.Created(), out.size());
  return out;
}

TEST(TrafficEndpoint, InjectionIsSeededPerPe) {
  const auto a = Creations(5, 3, 0.2, false);
  EXPECT_EQ(a, Creations(5, 3, 0.2, false));
  EXPECT_EQ(a, Creations(5, 3, 0.2, true)) << "event-driven ticking gives the same traffic";
  EXPECT_NE(a, Creations(6, 3, 0.2, false));
  EXPECT_NE(a, Creations(5, 4, 0.2, false));
  ASSERT_FALSE(a.empty());
  EXPECT_GE(a.front(), 100u);
  EXPECT_LT(a.back(), 5100u);
}

TEST(TrafficEndpoint, InjectionRateIsBernoulliPerCycle) {
  for (double rate : {0.5, 0.1, 0.02}) {
    const auto c = Creations(9, 0, rate, true, 200000);
    const double mean = rate * 200000, sd = std::sqrt(mean * (1 - rate));
    EXPECT_NEAR(static_cast<double>(c.size()), mean, 5 * sd) << rate;
  }
  EXPECT_EQ(Creations(9, 0, 1.0, true, 1000).size(), 1000u);
  EXPECT_TRUE(Creations(9, 0, 0.0, true, 1000).empty());
}

TEST(TrafficEndpoint, NextWakeFollowsTheWork) {
  Rig r;
  TrafficEndpoint ep(0, r.tracer, r.sb, 3);
  EXPECT_EQ(ep.NextWake(), kNever);
  ep.AddFlow(1);
  ep.StartInjection(0.05, 10, 500);
  const uint64_t first = ep.NextWake();
  EXPECT_GE(first, 10u);
  EXPECT_EQ(first, ep.NextCreation());
  Step(ep, first);
  EXPECT_EQ(ep.Sent(), 1u);
  EXPECT_GT(ep.NextWake(), first);  // queue empty: the next creation
  ep.StopInjection(0);
  EXPECT_EQ(ep.NextWake(), kNever);
  ep.SendNow(MakeLink(false, 1, 0));
  EXPECT_EQ(ep.NextWake(), first + 1);
  EXPECT_THROW(ep.StartInjection(1.5, 0, 10), std::invalid_argument);
  EXPECT_THROW(ep.StartInjection(-0.1, 0, 10), std::invalid_argument);
  EXPECT_THROW(ep.AddFlow(24), std::invalid_argument);
  EXPECT_THROW(ep.AddFlow(0, 2.0), std::invalid_argument);
  EXPECT_THROW(ep.CreateNow(30, false), std::invalid_argument);
  EXPECT_THROW(TrafficEndpoint(3, r.tracer, r.sb, 1), std::out_of_range);
}

TEST(TrafficEndpoint, SendNowAndCreateNow) {
  Rig r;
  TrafficEndpoint ep(0, r.tracer, r.sb, 1);
  ep.SendNow(MakeLink(false, 30, 0x1234));
  ep.CreateNow(1, true);
  RampPort p = Step(ep, 7);
  EXPECT_EQ(p.to_router, MakeLink(false, 30, 0x1234));  // reserved: no credit needed
  ASSERT_EQ(r.sb.PredictedFaults().size(), 1u);
  EXPECT_EQ(r.sb.PredictedFaults()[0].fault,
            (TraceFault{0, arch::FaultCause::kReservedColor, 30, arch::Dir::kRamp}));
  EXPECT_EQ(r.sb.Stats().offered, 1u);
  EXPECT_EQ(r.sb.Stats().injected, 0u);
  p = Step(ep, 8);
  EXPECT_EQ(p.to_router, MakeLink(true, 1, MakePayload(0, 0)));
  EXPECT_EQ(ep.Credits(1), arch::kRampInDepth - 1);
  EXPECT_EQ(r.sb.Stats().injected, 1u);
  EXPECT_EQ(r.sb.Outstanding(), 1u);  // expected at PE 1
  TrafficEndpoint sink(1, r.tracer, r.sb, 1);
  EXPECT_EQ(r.sb.Deliver(1, p.to_router, 12), Verdict::kOk);
}

TEST(TrafficEndpoint, ControlWaveletProbability) {
  Rig r;
  TrafficEndpoint ep(0, r.tracer, r.sb, 11);
  ep.AddFlow(0, 1.0 / 8);
  ep.AddFlow(1, 1.0 / 8);
  ep.StartInjection(1.0, 0, 16000);
  int ctrl = 0, color1 = 0;
  uint8_t credit = 0;
  for (uint64_t c = 0; c < 16000; ++c) {
    RampPort p = Step(ep, c, 0, credit);
    credit = 0;
    if (Link::Valid(p.to_router)) {
      ctrl += static_cast<int>(Link::Ctrl(p.to_router));
      color1 += Link::Color(p.to_router) == 1;
      credit = MakeCredit(static_cast<uint32_t>(Link::Color(p.to_router)));
    }
  }
  EXPECT_EQ(ep.Sent(), 16000u);
  EXPECT_NEAR(ctrl, 16000 / 8, 200);
  EXPECT_NEAR(color1, 8000, 400);
}

}  // namespace
}  // namespace tessera::noc
