// Directed tests of the router fabric, run on every backend: the functional model and the RTL
// tiles (plain-loop glue, 1x1 and 2x2 tiles). Each test also checks that all backends deliver
// the same wavelets at the same cycles.
#include "fabric/fabric.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "func/func_fabric.h"
#include "route.h"
#include "rtl/rtl_fabric.h"
#include "testbench/directed/script_endpoint.h"

namespace tessera {
namespace {

using arch::Link;
using fabric::Coord;
using tb::ScriptEndpoint;

constexpr uint32_t kW = 1u << 0, kE = 1u << 1, kS = 1u << 2, kN = 1u << 3, kRamp = 1u << 4;

struct Backend {
  std::string name;
  std::function<std::unique_ptr<fabric::Fabric>(int w, int h)> make;
};

std::vector<Backend> Backends() {
  return {
      {"func", [](int w, int h) { return std::make_unique<func::FuncFabric>(w, h); }},
      {"rtl-1x1",
       [](int w, int h) {
         return std::make_unique<rtl::LoopRtlFabric>(rtl::RtlFabricOptions{w, h, 1, 1, ""});
       }},
      {"rtl-2x2",
       [](int w, int h) {
         return std::make_unique<rtl::LoopRtlFabric>(rtl::RtlFabricOptions{w, h, 2, 2, ""});
       }},
  };
}

// A scenario sets up routes and endpoints on a fabric; the harness runs it on every backend.
struct Scene {
  std::unique_ptr<fabric::Fabric> fabric;
  std::vector<std::unique_ptr<ScriptEndpoint>> eps;  // per PE
  ScriptEndpoint& at(Coord c) { return *eps[fabric->Index(c)]; }
};

Scene Start(const Backend& b, int w, int h) {
  Scene r;
  r.fabric = b.make(w, h);
  for (int i = 0; i < r.fabric->NumPes(); ++i) {
    r.eps.push_back(std::make_unique<ScriptEndpoint>());
    r.fabric->SetEndpoint(r.fabric->At(i), r.eps.back().get());
  }
  return r;
}

std::string Deliveries(Scene& r) {
  std::string s;
  for (int i = 0; i < r.fabric->NumPes(); ++i) {
    for (const auto& d : r.eps[i]->received()) {
      s += fmt::format("@{} PE({},{}) c{} d{:x} ctrl{}\n", d.cycle, r.fabric->At(i).x,
                       r.fabric->At(i).y, Link::Color(d.link), Link::Data(d.link),
                       Link::Ctrl(d.link));
    }
  }
  return s;
}

// Runs `scenario` on every backend and checks they agree on every delivery and its cycle.
void OnAllBackends(int w, int h, const std::function<void(Scene&, const std::string&)>& scenario) {
  std::string reference, ref_name;
  for (const auto& b : Backends()) {
    SCOPED_TRACE(b.name);
    Scene r = Start(b, w, h);
    scenario(r, b.name);
    std::string got = Deliveries(r);
    if (ref_name.empty()) {
      reference = got;
      ref_name = b.name;
    } else {
      EXPECT_EQ(got, reference) << b.name << " differs from " << ref_name;
    }
  }
}

TEST(Fabric, UncontendedHopTakesOneCycle) {
  OnAllBackends(4, 2, [](Scene& r, const std::string&) {
    // Color 0 from PE(0,0) to PE(1,0); color 1 from PE(0,0) to PE(3,0).
    Route(*r.fabric, {0, 0}, 0, kRamp, kE);
    Route(*r.fabric, {1, 0}, 0, kW, kRamp);
    Route(*r.fabric, {0, 0}, 1, kRamp, kE);
    Route(*r.fabric, {1, 0}, 1, kW, kE);
    Route(*r.fabric, {2, 0}, 1, kW, kE);
    Route(*r.fabric, {3, 0}, 1, kW, kRamp);
    r.at({0, 0}).Send(0, false, 0, 0xA);
    r.at({0, 0}).Send(0, false, 1, 0xB);
    r.fabric->Run(40);
    ASSERT_EQ(r.at({1, 0}).received().size(), 1u);
    ASSERT_EQ(r.at({3, 0}).received().size(), 1u);
    uint64_t one = r.at({1, 0}).received()[0].cycle - r.at({0, 0}).sent_cycles()[0];
    uint64_t three = r.at({3, 0}).received()[0].cycle - r.at({0, 0}).sent_cycles()[1];
    // CE -> router and router -> CE take RampLatency each; each hop one cycle.
    EXPECT_EQ(one, 2 * arch::kRampLatency + 1);
    EXPECT_EQ(three, 2 * arch::kRampLatency + 3);
  });
}

TEST(Fabric, StraightStreamSustainsOneWaveletPerCycle) {
  OnAllBackends(4, 2, [](Scene& r, const std::string&) {
    for (int x = 0; x < 4; ++x)
      Route(*r.fabric, {x, 0}, 5, x == 0 ? kRamp : kW, x == 3 ? kRamp : kE);
    const int n = 200;
    for (int i = 0; i < n; ++i) r.at({0, 0}).Send(0, false, 5, i);
    r.fabric->Run(n + 50);
    const auto& got = r.at({3, 0}).received();
    ASSERT_EQ(got.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(Link::Data(got[i].link), static_cast<uint32_t>(i));
      if (i) {
        EXPECT_EQ(got[i].cycle, got[i - 1].cycle + 1) << "gap before wavelet " << i;
      }
    }
  });
}

TEST(Fabric, BlockedColorDoesNotSlowAnother) {
  OnAllBackends(4, 2, [](Scene& r, const std::string&) {
    // Colors 2 and 3 share the links (1,0)->(2,0)->(3,0); PE(3,0) refuses color 2.
    Route(*r.fabric, {0, 0}, 2, kRamp, kE);
    Route(*r.fabric, {1, 0}, 2, kW, kE);
    Route(*r.fabric, {1, 0}, 3, kRamp, kE);
    for (int x = 2; x < 4; ++x) {
      Route(*r.fabric, {x, 0}, 2, kW, x == 3 ? kRamp : kE);
      Route(*r.fabric, {x, 0}, 3, kW, x == 3 ? kRamp : kE);
    }
    r.at({3, 0}).Block(2, true);
    const int n = 300;
    for (int i = 0; i < n; ++i) {
      r.at({0, 0}).Send(0, false, 2, i);
      r.at({1, 0}).Send(0, false, 3, i);
    }
    r.fabric->Run(n + 60);
    std::vector<uint64_t> c3;
    size_t c2 = 0;
    uint64_t c2_last = 0;
    for (const auto& d : r.at({3, 0}).received()) {
      if (Link::Color(d.link) == 3) c3.push_back(d.cycle);
      if (Link::Color(d.link) == 2) {
        ++c2;
        c2_last = d.cycle;
      }
    }
    ASSERT_EQ(c3.size(), static_cast<size_t>(n)) << "color 3 must all arrive";
    // Color 2 shares the links round robin until the credits toward PE(3,0)'s CE side are used
    // up; then it stalls where it is.
    EXPECT_EQ(c2, arch::kRampOutCredits);
    // Once color 2 has filled the queues along its path it takes no more link cycles, and
    // color 3 streams at one wavelet per cycle: check the second half of the stream.
    EXPECT_LT(c2_last, c3[n / 2]);
    for (size_t i = n / 2 + 1; i < c3.size(); ++i)
      EXPECT_EQ(c3[i], c3[i - 1] + 1) << "color 3 slowed at wavelet " << i;
    // Unblocking releases color 2.
    r.at({3, 0}).Block(2, false);
    r.fabric->SetEndpoint({3, 0}, &r.at({3, 0}));
    r.fabric->Run(n + 100);
    c2 = 0;
    for (const auto& d : r.at({3, 0}).received()) c2 += Link::Color(d.link) == 2;
    EXPECT_EQ(c2, static_cast<size_t>(n));
  });
}

TEST(Fabric, MulticastTreeDeliversToEveryLeaf) {
  OnAllBackends(4, 4, [](Scene& r, const std::string&) {
    // Color 7 from PE(1,1): east along row 1 and north/south along every column from row 1.
    for (int x = 1; x < 4; ++x) {
      for (int y = 0; y < 4; ++y) {
        uint32_t rx, tx = kRamp;
        if (y == 1) {
          rx = x == 1 ? kRamp : kW;
          if (x < 3) tx |= kE;
          tx |= kN | kS;
        } else {
          rx = y < 1 ? kS : kN;
          if (y == 2) tx |= kS;
        }
        Route(*r.fabric, {x, y}, 7, rx, tx);
      }
    }
    for (int i = 0; i < 50; ++i) r.at({1, 1}).Send(0, false, 7, i);
    r.fabric->Run(120);
    for (int x = 1; x < 4; ++x) {
      for (int y = 0; y < 4; ++y) {
        const auto& got = r.at({x, y}).received();
        ASSERT_EQ(got.size(), 50u) << fmt::format("PE({},{})", x, y);
        for (int i = 0; i < 50; ++i) EXPECT_EQ(Link::Data(got[i].link), static_cast<uint32_t>(i));
      }
    }
    EXPECT_TRUE(r.fabric->Faults().empty());
  });
}

TEST(Fabric, SwitchAlternatesRouteOnControlWavelets) {
  OnAllBackends(4, 2, [](Scene& r, const std::string&) {
    Route(*r.fabric, {0, 0}, 9, kRamp, kE);
    Route(*r.fabric, {1, 0}, 9, kW, kRamp);  // position 0: deliver at PE(1,0)
    using S = arch::SwitchCfg;
    // Direction codes are Dir + 1 (0 keeps the base route).
    uint32_t sw = S::WithPos1Dir(0, 2);  // position 1: output E
    sw = S::WithPos1Out(sw, 1);
    sw = S::WithPos2Dir(sw, 5);  // position 2: output RAMP
    sw = S::WithPos2Out(sw, 1);
    sw = S::WithPos3Dir(sw, 2);  // position 3: output E
    sw = S::WithPos3Out(sw, 1);
    sw = S::WithRing(sw, 1);
    r.fabric->WriteReg({1, 0}, S::Addr(9), sw);
    Route(*r.fabric, {2, 0}, 9, kW, kRamp);
    // d0 ctrl1 d2 d3 ctrl4 d5 ctrl6 d7: the control wavelet goes by the old route, then flips.
    const bool ctrl[] = {false, true, false, false, true, false, true, false};
    for (int i = 0; i < 8; ++i) r.at({0, 0}).Send(0, ctrl[i], 9, i);
    r.fabric->Run(60);
    std::vector<uint32_t> at1, at2;
    for (const auto& d : r.at({1, 0}).received()) at1.push_back(Link::Data(d.link));
    for (const auto& d : r.at({2, 0}).received()) at2.push_back(Link::Data(d.link));
    EXPECT_EQ(at1, (std::vector<uint32_t>{0, 1, 5, 6}));
    EXPECT_EQ(at2, (std::vector<uint32_t>{2, 3, 4, 7}));
    // Three control wavelets: position 0 -> 1 -> 2 -> 3.
    EXPECT_EQ(S::Pos(r.fabric->ReadReg({1, 0}, S::Addr(9))), 3u);
  });
}

struct FaultCase {
  const char* name;
  std::function<void(Scene&)> setup;
  Coord pe;
  arch::FaultCause cause;
  uint32_t color;
  arch::Dir dir;
};

TEST(Fabric, FaultsAreReportedNeverDropped) {
  const FaultCase cases[] = {
      {"rx mismatch",
       [](Scene& r) {
         Route(*r.fabric, {0, 0}, 4, kRamp, kE);
         Route(*r.fabric, {1, 0}, 4, kN, kRamp);  // does not accept from W
         r.at({0, 0}).Send(0, false, 4, 1);
       },
       {1, 0},
       arch::FaultCause::kRxMismatch,
       4,
       arch::Dir::kW},
      {"reserved color",
       [](Scene& r) {
         r.at({1, 0}).Send(0, false, 27, 1);
       },
       {1, 0},
       arch::FaultCause::kReservedColor,
       27,
       arch::Dir::kRamp},
      {"tied-off edge",
       [](Scene& r) {
         Route(*r.fabric, {0, 0}, 6, kRamp, kN);  // north of row 0 is off the fabric
         r.at({0, 0}).Send(0, false, 6, 1);
       },
       {0, 0},
       arch::FaultCause::kTiedOffEdge,
       6,
       arch::Dir::kRamp},
      {"no route",
       [](Scene& r) {
         Route(*r.fabric, {1, 0}, 8, kRamp, 0);
         r.at({1, 0}).Send(0, false, 8, 1);
       },
       {1, 0},
       arch::FaultCause::kNoRoute,
       8,
       arch::Dir::kRamp},
  };
  for (const auto& fc : cases) {
    SCOPED_TRACE(fc.name);
    std::vector<std::vector<fabric::FaultRecord>> per_backend;
    for (const auto& b : Backends()) {
      SCOPED_TRACE(b.name);
      Scene r = Start(b, 2, 2);
      fc.setup(r);
      uint64_t ran = r.fabric->Run(100);
      EXPECT_LT(ran, 100u) << "the run must stop at the fault";
      auto faults = r.fabric->Faults();
      ASSERT_EQ(faults.size(), 1u);
      using RF = arch::RouterFault;
      EXPECT_EQ(faults[0].pe, fc.pe);
      EXPECT_EQ(RF::Cause(faults[0].status), static_cast<uint32_t>(fc.cause));
      EXPECT_EQ(RF::Color(faults[0].status), fc.color);
      EXPECT_EQ(RF::Dir(faults[0].status), static_cast<uint32_t>(fc.dir));
      EXPECT_EQ(RF::Count(faults[0].status), 1u);
      EXPECT_EQ(faults[0].cycle + 1, r.fabric->Cycle());
      EXPECT_FALSE(fabric::DescribeFault(faults[0]).empty());
      per_backend.push_back(faults);
    }
    for (size_t i = 1; i < per_backend.size(); ++i) {
      EXPECT_EQ(per_backend[i][0].cycle, per_backend[0][0].cycle);
      EXPECT_EQ(per_backend[i][0].status, per_backend[0][0].status);
    }
  }
}

TEST(Fabric, BackDoorRegistersReadBack) {
  for (const auto& b : Backends()) {
    SCOPED_TRACE(b.name);
    auto f = b.make(2, 2);
    f->WriteReg({1, 1}, arch::ColorCfg::Addr(23), 0x3FF);
    EXPECT_EQ(f->ReadReg({1, 1}, arch::ColorCfg::Addr(23)), 0x3FFu);
    EXPECT_EQ(f->ReadReg({0, 1}, arch::ColorCfg::Addr(23)), 0u) << "other PEs untouched";
    EXPECT_EQ(f->ReadReg({1, 1}, arch::PeCoord::kAddr), 0x00010001u);
    EXPECT_EQ(f->Cycle(), 0u) << "back-door access takes no simulated time";
  }
}

}  // namespace
}  // namespace tessera
