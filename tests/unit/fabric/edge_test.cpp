// Edge streams (Fabric::SetEdgeEndpoint, fabric::EdgeStream) and WaveletsInFlight on every
// backend: the functional model and the RTL tiles of every built shape that divides the fabric
// (plain-loop glue). Built with TESSERA_EDGE_SC, the same tests compare the functional model
// with the SystemC glue instead; SystemC elaborates once per process, so CMake runs each of those
// tests in a process of its own.
//
// Every scenario runs one cycle at a time and records WaveletsInFlight after each cycle; what
// each edge stream received (with cycles), the in-flight trace and the faults must be identical
// on all backends. Exact expectations are checked where the timing is simple to derive.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fabric/edge_stream.h"
#include "fabric/fabric.h"
#include "func/func_fabric.h"
#include "route.h"
#include "rtl/rtl_fabric.h"
#include "testbench/directed/script_endpoint.h"

namespace tessera {
namespace {

using fabric::Coord;
using fabric::EdgeStream;
using Dir = arch::Dir;

constexpr uint32_t kW = 1u << 0, kE = 1u << 1, kS = 1u << 2, kN = 1u << 3, kRamp = 1u << 4;

struct Backend {
  std::string name;
  std::function<std::unique_ptr<fabric::Fabric>()> make;
};

// The functional model first (the reference), then the RTL.
std::vector<Backend> Backends(int w, int h, bool ce = false) {
  std::vector<Backend> out;
  out.push_back({"func", [w, h] { return std::make_unique<func::FuncFabric>(w, h); }});
#ifdef TESSERA_EDGE_SC
  rtl::RtlFabricOptions o;
  o.width = w;
  o.height = h;
  o.ce = ce;
  out.push_back({"rtl-sc-1x1", [o] { return rtl::MakeScRtlFabric(o); }});
#else
  for (auto [tw, th] : rtl::BuiltTileShapes(ce)) {
    if (w % tw || h % th) continue;
    rtl::RtlFabricOptions o;
    o.width = w;
    o.height = h;
    o.tile_w = tw;
    o.tile_h = th;
    o.ce = ce;
    out.push_back({fmt::format("rtl-loop-{}x{}{}", tw, th, ce ? "-ce" : ""),
                   [o] { return std::make_unique<rtl::LoopRtlFabric>(o); }});
  }
#endif
  return out;
}

// With the SystemC glue only the first test of a process can build its fabric (ctest runs each
// test alone); the others skip instead of failing.
int fabrics_built = 0;
#ifdef TESSERA_EDGE_SC
#define SKIP_UNLESS_FIRST_FABRIC() \
  if (fabrics_built++ > 0) GTEST_SKIP() << "SystemC elaborates once per process: run one test"
#else
#define SKIP_UNLESS_FIRST_FABRIC() ++fabrics_built
#endif

// One backend's fabric with its edge streams and the in-flight trace.
struct Scene {
  std::string backend;
  std::unique_ptr<fabric::Fabric> fabric;
  std::map<std::pair<int, int>, std::unique_ptr<EdgeStream>> edges;  // (PE index, dir)
  std::vector<bool> in_flight;  // WaveletsInFlight after every cycle stepped

  // The stream on an edge port, attached on first use.
  EdgeStream& Edge(Coord pe, Dir d) {
    auto key = std::make_pair(fabric->Index(pe), static_cast<int>(d));
    auto& e = edges[key];
    if (!e) {
      e = std::make_unique<EdgeStream>();
      fabric->SetEdgeEndpoint(pe, static_cast<int>(d), e.get());
    }
    return *e;
  }
  // Steps up to n cycles one at a time (stops after a faulting cycle, as Run does).
  uint64_t Step(uint64_t n) {
    uint64_t done = 0;
    const size_t faults = fabric->Faults().size();
    while (done < n) {
      done += fabric->Run(1);
      in_flight.push_back(fabric->WaveletsInFlight());
      if (fabric->Faults().size() != faults) break;
    }
    return done;
  }
  // Steps until nothing is in flight and no stream has anything to send (at most `limit`).
  uint64_t Drain(uint64_t limit) {
    uint64_t done = 0;
    auto busy = [&] {
      if (fabric->WaveletsInFlight()) return true;
      for (auto& [k, e] : edges)
        if (e->Pending() || e->Holding()) return true;
      return false;
    };
    while (done < limit && busy()) done += Step(1);
    return done;
  }

  // Everything that must agree between backends, in words.
  std::string Report() const {
    std::string s;
    for (const auto& [key, e] : edges) {
      Coord c = fabric->At(key.first);
      s += fmt::format("edge PE({},{}) {}: sent at", c.x, c.y,
                       ToString(static_cast<Dir>(key.second)));
      for (uint64_t t : e->SentCycles()) s += fmt::format(" {}", t);
      s += "\n";
      for (const auto& w : e->Received())
        s += fmt::format("  @{} c{} d{:x} ctrl{}\n", w.cycle, w.color, w.data, w.ctrl);
      s += fmt::format("  pending {} holding {} protocol errors {}\n", e->Pending(), e->Holding(),
                       e->ProtocolErrors());
    }
    s += "in flight: ";
    for (bool b : in_flight) s += b ? '1' : '0';
    s += "\n";
    for (const auto& f : fabric->Faults()) s += fabric::DescribeFault(f) + "\n";
    s += fmt::format("cycle {}\n", fabric->Cycle());
    return s;
  }
};

// Runs `scenario` on every backend; all must give the same Report().
void OnAllBackends(int w, int h, const std::function<void(Scene&)>& scenario, bool ce = false) {
  SKIP_UNLESS_FIRST_FABRIC();
  std::string reference, ref_name;
  const auto backends = Backends(w, h, ce);
  ASSERT_GE(backends.size(), 2u) << "no RTL backend for a " << w << "x" << h << " fabric";
  for (const auto& b : backends) {
    SCOPED_TRACE(b.name);
    Scene r;
    r.backend = b.name;
    r.fabric = b.make();
    scenario(r);
    const std::string got = r.Report();
    if (ref_name.empty()) {
      reference = got;
      ref_name = b.name;
    } else {
      EXPECT_EQ(got, reference) << b.name << " differs from " << ref_name;
    }
  }
}

EdgeStream::Wavelet W(uint64_t cycle, uint32_t color, uint32_t data, bool ctrl = false) {
  EdgeStream::Wavelet w;
  w.cycle = cycle;
  w.color = color;
  w.data = data;
  w.ctrl = ctrl;
  return w;
}

// The hop count k of a straight path across a W-wide row from edge to edge: the stream sends at
// cycle c (its Tick), the first router sees the wavelet at c + 1 (the edge link is one hop), each
// router forwards it in the cycle it arrives, and the last router's output register reaches the
// far stream at c + W + 1.
constexpr uint64_t EdgeToEdge(int routers) { return static_cast<uint64_t>(routers) + 1; }

TEST(EdgeStream, RowWestToEastAndEastToWest) {
  OnAllBackends(4, 4, [](Scene& r) {
    for (int x = 0; x < 4; ++x) {
      Route(*r.fabric, {x, 1}, 3, kW, kE);  // row 1 eastward
      Route(*r.fabric, {x, 2}, 4, kE, kW);  // row 2 westward
    }
    EdgeStream& in1 = r.Edge({0, 1}, Dir::kW);
    EdgeStream& out1 = r.Edge({3, 1}, Dir::kE);
    EdgeStream& in2 = r.Edge({3, 2}, Dir::kE);
    EdgeStream& out2 = r.Edge({0, 2}, Dir::kW);
    const int n = 40;
    for (int i = 0; i < n; ++i) {
      in1.Inject(3, 0x100 + i);
      in2.Inject(4, 0x200 + i);
    }
    r.Step(n + 20);
    // One wavelet per cycle from cycle 0; each leaves the far edge W + 1 = 5 cycles later.
    ASSERT_EQ(out1.Received().size(), static_cast<size_t>(n));
    ASSERT_EQ(out2.Received().size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(in1.SentCycles()[i], static_cast<uint64_t>(i));
      EXPECT_EQ(out1.Received()[i], W(i + EdgeToEdge(4), 3, 0x100 + i)) << i;
      EXPECT_EQ(out2.Received()[i], W(i + EdgeToEdge(4), 4, 0x200 + i)) << i;
    }
    EXPECT_EQ(EdgeToEdge(4), 5u);
    // In flight after cycles 0 .. n + 3: the last wavelet sits in PE(3,1)'s output register
    // after cycle n + 3 and reaches its stream in cycle n + 4.
    for (size_t c = 0; c < r.in_flight.size(); ++c)
      EXPECT_EQ(r.in_flight[c], c <= static_cast<size_t>(n + 3)) << "after cycle " << c;
    EXPECT_EQ(out1.Holding(), 0u);
    EXPECT_EQ(in1.Pending(), 0u);
    EXPECT_EQ(out1.ProtocolErrors(), 0u) << out1.FirstProtocolError();
    EXPECT_TRUE(r.fabric->Faults().empty());
  });
}

TEST(EdgeStream, ColumnsNorthToSouth) {
  OnAllBackends(4, 4, [](Scene& r) {
    for (int x = 0; x < 4; ++x)
      for (int y = 0; y < 4; ++y) Route(*r.fabric, {x, y}, 10 + x, kN, kS);
    for (int x = 0; x < 4; ++x)
      for (int i = 0; i < 10 * (x + 1); ++i) r.Edge({x, 0}, Dir::kN).Inject(10 + x, x << 8 | i);
    for (int x = 0; x < 4; ++x) r.Edge({x, 3}, Dir::kS);
    r.Step(70);
    for (int x = 0; x < 4; ++x) {
      const auto& got = r.Edge({x, 3}, Dir::kS).Received();
      ASSERT_EQ(got.size(), static_cast<size_t>(10 * (x + 1)));
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i], W(i + EdgeToEdge(4), 10 + x, x << 8 | i));
    }
    EXPECT_FALSE(r.in_flight.back());
  });
}

TEST(EdgeStream, MulticastLeavesThroughTwoEdgesAndARamp) {
  OnAllBackends(4, 4, [](Scene& r) {
    // Color 7 enters at PE(0,1)'s W edge, goes east along row 1 and out of its E edge, south
    // along column 0 and out of its S edge, and PE(2,1) also delivers it to its CE side.
    Route(*r.fabric, {0, 1}, 7, kW, kE | kS);
    Route(*r.fabric, {1, 1}, 7, kW, kE);
    Route(*r.fabric, {2, 1}, 7, kW, kE | kRamp);
    Route(*r.fabric, {3, 1}, 7, kW, kE);
    Route(*r.fabric, {0, 2}, 7, kN, kS);
    Route(*r.fabric, {0, 3}, 7, kN, kS);
    tb::ScriptEndpoint ce;
    r.fabric->SetEndpoint({2, 1}, &ce);
    const auto& east = r.Edge({3, 1}, Dir::kE).Received();
    const auto& south = r.Edge({0, 3}, Dir::kS).Received();
    const int n = 30;
    for (int i = 0; i < n; ++i) r.Edge({0, 1}, Dir::kW).Inject(7, i, i % 5 == 4);
    r.Step(n + 30);
    ASSERT_EQ(east.size(), static_cast<size_t>(n));
    ASSERT_EQ(south.size(), static_cast<size_t>(n));
    ASSERT_EQ(ce.received().size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(east[i], W(i + 5, 7, i, i % 5 == 4));   // 4 routers
      EXPECT_EQ(south[i], W(i + 4, 7, i, i % 5 == 4));  // 3 routers
      // PE(2,1) forwards at i + 3; RampLatency later its CE side has it.
      EXPECT_EQ(ce.received()[i].cycle, i + 3 + arch::kRampLatency);
    }
    EXPECT_TRUE(r.fabric->Faults().empty());
    r.fabric->SetEndpoint({2, 1}, nullptr);
  });
}

TEST(EdgeStream, ControlWaveletsSwitchBetweenTwoEdges) {
  OnAllBackends(4, 4, [](Scene& r) {
    // Row 0, color 9: PE(1,0) sends east at position 0 and, with its switch, alternates between
    // its N edge (positions 1 and 3) and the row's E edge (position 2).
    for (int x = 0; x < 4; ++x) Route(*r.fabric, {x, 0}, 9, kW, kE);
    using S = arch::SwitchCfg;
    const uint32_t n_code = static_cast<uint32_t>(Dir::kN) + 1, e_code = 2;
    uint32_t sw = S::WithPos1Out(S::WithPos1Dir(0, n_code), 1);
    sw = S::WithPos2Out(S::WithPos2Dir(sw, e_code), 1);
    sw = S::WithPos3Out(S::WithPos3Dir(sw, n_code), 1);
    sw = S::WithRing(sw, 1);
    r.fabric->WriteReg({1, 0}, S::Addr(9), sw);
    const bool ctrl[] = {false, true, false, false, true, false, true, false};
    for (int i = 0; i < 8; ++i) r.Edge({0, 0}, Dir::kW).Inject(9, i, ctrl[i]);
    EdgeStream& east = r.Edge({3, 0}, Dir::kE);
    EdgeStream& north = r.Edge({1, 0}, Dir::kN);
    r.Step(30);
    std::vector<uint32_t> at_e, at_n;
    for (const auto& w : east.Received()) at_e.push_back(w.data);
    for (const auto& w : north.Received()) at_n.push_back(w.data);
    // A control wavelet goes by the old position, then advances it.
    EXPECT_EQ(at_e, (std::vector<uint32_t>{0, 1, 5, 6}));
    EXPECT_EQ(at_n, (std::vector<uint32_t>{2, 3, 4, 7}));
    ASSERT_EQ(north.Received().size(), 4u);
    EXPECT_EQ(north.Received()[0], W(2 + 3, 9, 2));  // 2 routers to the N edge: c + 3
    EXPECT_EQ(S::Pos(r.fabric->ReadReg({1, 0}, S::Addr(9))), 3u);
    EXPECT_TRUE(r.fabric->Faults().empty());
  });
}

TEST(EdgeStream, SlowReceiverBacksUpTheStream) {
  OnAllBackends(4, 2, [](Scene& r) {
    for (int x = 0; x < 4; ++x) Route(*r.fabric, {x, 0}, 5, kW, kE);
    EdgeStream& in = r.Edge({0, 0}, Dir::kW);
    EdgeStream& out = r.Edge({3, 0}, Dir::kE);
    out.SetConsumeLimit(1, 4);  // one wavelet every 4 cycles
    const int n = 40;
    for (int i = 0; i < n; ++i) in.Inject(5, i);
    r.Step(60);
    EXPECT_GT(in.Pending(), 0u) << "the slow receiver must hold the sender back";
    r.Drain(400);
    const auto& got = out.Received();
    ASSERT_EQ(got.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(got[i].data, static_cast<uint32_t>(i));
    // Once the queues are full the stream moves at the receiver's pace.
    for (int i = n / 2 + 1; i < n; ++i) EXPECT_EQ(got[i].cycle, got[i - 1].cycle + 4) << i;
    EXPECT_EQ(out.ProtocolErrors(), 0u) << out.FirstProtocolError();
    EXPECT_FALSE(r.fabric->WaveletsInFlight());
    EXPECT_TRUE(r.fabric->Faults().empty());
  });
}

TEST(EdgeStream, LongRunsSkipNothing) {
  // One Run call per phase, so the event-driven model relies on the streams' NextWake alone.
  OnAllBackends(4, 2, [](Scene& r) {
    for (int x = 0; x < 4; ++x) Route(*r.fabric, {x, 1}, 6, kE, kW);
    EdgeStream& in = r.Edge({3, 1}, Dir::kE);
    EdgeStream& out = r.Edge({0, 1}, Dir::kW);
    out.SetConsumeLimit(2, 7);
    for (int i = 0; i < 30; ++i) in.Inject(6, i, i % 7 == 0);
    EXPECT_EQ(r.fabric->Run(150), 150u);
    out.Hold(true);
    for (int i = 30; i < 60; ++i) in.Inject(6, i);
    EXPECT_EQ(r.fabric->Run(100), 100u);
    out.Hold(false);
    out.SetConsumeLimit(EdgeStream::kUnlimited);
    EXPECT_EQ(r.fabric->Run(100), 100u);
    ASSERT_EQ(out.Received().size(), 60u);
    for (int i = 0; i < 60; ++i) EXPECT_EQ(out.Received()[i].data, static_cast<uint32_t>(i));
    EXPECT_FALSE(r.fabric->WaveletsInFlight());
  });
}

TEST(EdgeStream, HeldReceiverFillsEveryQueueOnThePath) {
  OnAllBackends(4, 2, [](Scene& r) {
    for (int x = 0; x < 4; ++x) Route(*r.fabric, {x, 0}, 5, kW, kE);
    EdgeStream& in = r.Edge({0, 0}, Dir::kW);
    EdgeStream& out = r.Edge({3, 0}, Dir::kE);
    out.Hold(true);
    const int n = 40;
    for (int i = 0; i < n; ++i) in.Inject(5, i);
    r.Step(100);
    // The receiver holds kLinkDepth wavelets, each router's W queue kLinkDepth more.
    const size_t depth = arch::kLinkDepth;
    EXPECT_EQ(out.Holding(), depth);
    EXPECT_EQ(out.Received().size(), depth);
    EXPECT_EQ(in.SentCycles().size(), depth + 4 * depth);
    EXPECT_EQ(in.Pending(), n - 5 * depth);
    EXPECT_TRUE(r.fabric->WaveletsInFlight()) << "queued wavelets are in flight";
    out.Hold(false);
    r.Drain(300);
    ASSERT_EQ(out.Received().size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) EXPECT_EQ(out.Received()[i].data, static_cast<uint32_t>(i));
    EXPECT_FALSE(r.fabric->WaveletsInFlight());
    EXPECT_EQ(out.Holding(), 0u);
  });
}

// RouterInCount of every PE, in words: "PE(x,y) <element>=<value>" for the non-zero ones.
std::string InCounts(fabric::Fabric& f) {
  std::string s;
  for (int i = 0; i < f.NumPes(); ++i) {
    for (uint32_t e = 0; e < arch::RouterInCount::kCount; ++e) {
      const uint32_t v = f.ReadReg(f.At(i), arch::RouterInCount::Addr(e));
      if (v) s += fmt::format("PE({},{}) {}=0x{:08x} ", f.At(i).x, f.At(i).y, e, v);
    }
  }
  return s;
}

TEST(RouterInCount, ShowsHowFullEachQueueIs) {
  OnAllBackends(4, 4, [](Scene& r) {
    // A held stream at PE(3,1)'s E edge takes color 3 from the W edge along row 1 and color 12
    // from PE(3,1)'s CE side.
    for (int x = 0; x < 4; ++x) Route(*r.fabric, {x, 1}, 3, kW, kE);
    Route(*r.fabric, {3, 1}, 12, kRamp, kE);
    EdgeStream& out = r.Edge({3, 1}, Dir::kE);
    out.Hold(true);
    tb::ScriptEndpoint ce;
    r.fabric->SetEndpoint({3, 1}, &ce);
    for (int i = 0; i < 40; ++i) {
      r.Edge({0, 1}, Dir::kW).Inject(3, i);
      ce.Send(0, false, 12, i);
    }
    EXPECT_EQ(InCounts(*r.fabric), "") << "nothing queued before the run";
    r.Step(100);
    // Element 3d + w, color 8w + k in bits 4k+3:4k. Every W queue of row 1 holds 3 of color 3
    // (element 0, bits 15:12); PE(3,1)'s RAMP queue holds RampInDepth of color 12 (element 13,
    // bits 19:16).
    EXPECT_EQ(InCounts(*r.fabric),
              fmt::format("PE(0,1) 0=0x00003000 PE(1,1) 0=0x00003000 PE(2,1) 0=0x00003000 PE(3,1) "
                          "0=0x00003000 PE(3,1) 13=0x{:08x} ",
                          arch::kRampInDepth << 16));
    EXPECT_EQ(arch::RouterInCount::Count4(r.fabric->ReadReg({3, 1}, arch::RouterInCount::Addr(13))),
              arch::kRampInDepth);
    r.fabric->WriteReg({3, 1}, arch::RouterInCount::Addr(13), 0);  // read only: ignored
    EXPECT_NE(InCounts(*r.fabric).find("13=0x000f0000"), std::string::npos);
    out.Hold(false);
    r.Drain(400);
    EXPECT_EQ(out.Received().size(), 80u);
    EXPECT_EQ(InCounts(*r.fabric), "");
    r.fabric->SetEndpoint({3, 1}, nullptr);
  });
}

TEST(EdgeStream, RouteOffTheEdgeFaultsOnlyWhenTiedOff) {
  OnAllBackends(4, 4, [](Scene& r) {
    // PE(3,1)'s CE side sends color 4 east, off the fabric.
    Route(*r.fabric, {3, 1}, 4, kRamp, kE);
    tb::ScriptEndpoint ce;
    r.fabric->SetEndpoint({3, 1}, &ce);
    EdgeStream& e = r.Edge({3, 1}, Dir::kE);
    ce.Send(0, false, 4, 0xAB);
    r.Step(20);
    EXPECT_TRUE(r.fabric->Faults().empty());
    // The CE side sends at cycle 0; the router has it RampLatency later and forwards it; its
    // output register reaches the edge stream one cycle after that.
    ASSERT_EQ(e.Received().size(), 1u);
    EXPECT_EQ(e.Received()[0], W(arch::kRampLatency + 1, 4, 0xAB));
    // Tied off again, the same route is a fault.
    r.fabric->SetEdgeEndpoint({3, 1}, static_cast<int>(Dir::kE), nullptr);
    ce.Send(0, false, 4, 0xCD);
    r.Step(20);
    auto faults = r.fabric->Faults();
    ASSERT_EQ(faults.size(), 1u);
    EXPECT_EQ(faults[0].pe, (Coord{3, 1}));
    EXPECT_EQ(arch::RouterFault::Cause(faults[0].status),
              static_cast<uint32_t>(arch::FaultCause::kTiedOffEdge));
    EXPECT_EQ(e.Received().size(), 1u);
    r.fabric->SetEndpoint({3, 1}, nullptr);
  });
}

TEST(EdgeStream, BadPortsAndColorsAreRefused) {
  SKIP_UNLESS_FIRST_FABRIC();
  for (const auto& b : Backends(4, 4)) {
    SCOPED_TRACE(b.name);
    auto f = b.make();
    EdgeStream e;
    auto message = [&](Coord pe, int dir) -> std::string {
      try {
        f->SetEdgeEndpoint(pe, dir, &e);
      } catch (const std::invalid_argument& ex) {
        return ex.what();
      }
      return "";
    };
    EXPECT_NE(message({1, 1}, 0).find("PE(1,1) port W"), std::string::npos) << message({1, 1}, 0);
    EXPECT_NE(message({0, 1}, 1).find("PE(0,1) port E"), std::string::npos);
    EXPECT_NE(message({0, 0}, static_cast<int>(Dir::kRamp)).find("PE(0,0)"), std::string::npos);
    EXPECT_NE(message({3, 3}, -1).find("PE(3,3)"), std::string::npos);
    EXPECT_THROW(f->SetEdgeEndpoint({4, 0}, 1, &e), std::out_of_range);
    // Every edge port of the fabric takes an endpoint (corners have two).
    for (int x = 0; x < 4; ++x) {
      f->SetEdgeEndpoint({x, 0}, static_cast<int>(Dir::kN), &e);
      f->SetEdgeEndpoint({x, 3}, static_cast<int>(Dir::kS), &e);
      f->SetEdgeEndpoint({0, x}, static_cast<int>(Dir::kW), &e);
      f->SetEdgeEndpoint({3, x}, static_cast<int>(Dir::kE), &e);
    }
    EXPECT_THROW(e.Inject(24, 0), std::invalid_argument);
    EXPECT_THROW(e.SetConsumeLimit(1, 0), std::invalid_argument);
    EXPECT_FALSE(f->WaveletsInFlight());
  }
}

TEST(EdgeStream, EndpointCannotChangeWhileItsLinkCarriesAWavelet) {
  OnAllBackends(2, 2, [](Scene& r) {
    for (int x = 0; x < 2; ++x) Route(*r.fabric, {x, 0}, 1, kW, kE);
    EdgeStream& in = r.Edge({0, 0}, Dir::kW);
    r.Edge({1, 0}, Dir::kE);
    in.Inject(1, 7);
    r.Step(1);  // sent in cycle 0: on the edge link
    EXPECT_TRUE(r.fabric->WaveletsInFlight());
    EXPECT_THROW(r.fabric->SetEdgeEndpoint({0, 0}, 0, nullptr), std::logic_error);
    r.Step(2);  // PE(1,0) forwarded it in cycle 2: in its E output register
    EXPECT_THROW(r.fabric->SetEdgeEndpoint({1, 0}, 1, nullptr), std::logic_error);
    r.fabric->SetEdgeEndpoint({0, 0}, 0, nullptr);  // the W link is idle again
    r.Step(1);
    EXPECT_EQ(r.Edge({1, 0}, Dir::kE).Received().size(), 1u);
    EXPECT_FALSE(r.fabric->WaveletsInFlight());
    r.fabric->SetEdgeEndpoint({1, 0}, 1, nullptr);
    r.fabric->SetEdgeEndpoint({0, 0}, 0, &in);
    in.Inject(1, 8);  // back on the W port with its credits
    r.Step(3);
    EXPECT_EQ(r.fabric->Faults().size(), 1u) << "the E port is tied off again";
  });
}

TEST(EdgeStream, WorksOnFabricsOfFullPes) {
  // Idle compute engines: the stream crosses the routers of full PEs exactly as it crosses
  // router-only PEs of the functional model.
  OnAllBackends(
      2, 1,
      [](Scene& r) {
        for (int x = 0; x < 2; ++x) Route(*r.fabric, {x, 0}, 2, kW, kE);
        EdgeStream& in = r.Edge({0, 0}, Dir::kW);
        EdgeStream& out = r.Edge({1, 0}, Dir::kE);
        for (int i = 0; i < 20; ++i) in.Inject(2, i);
        r.Step(30);
        ASSERT_EQ(out.Received().size(), 20u);
        for (int i = 0; i < 20; ++i) EXPECT_EQ(out.Received()[i], W(i + EdgeToEdge(2), 2, i));
      },
      /*ce=*/true);
}

}  // namespace
}  // namespace tessera
