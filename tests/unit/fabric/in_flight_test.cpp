// Fabric::WaveletsInFlight under random traffic: every pattern of testbench/traffic runs on
// the functional model and on the RTL (plain-loop glue, every built tile shape that divides the
// fabric), one cycle at a time; the flag after every cycle must be the same on all backends,
// true whenever a wavelet is about to reach a CE side, and false once the fabric has drained.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "fabric/fabric.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"
#include "traffic/noc_run.h"
#include "traffic/pattern.h"

namespace tessera {
namespace {

// A backend stepped one cycle at a time, WaveletsInFlight recorded after every cycle. It only
// forwards: RunNoc sees the fabric it wraps.
class InFlightRecorder final : public fabric::Fabric {
 public:
  explicit InFlightRecorder(fabric::Fabric& inner) : f_(inner) {}
  const char* Name() const override { return f_.Name(); }
  int Width() const override { return f_.Width(); }
  int Height() const override { return f_.Height(); }
  void WriteReg(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    f_.WriteReg(pe, addr, value);
  }
  uint32_t ReadReg(fabric::Coord pe, uint16_t addr) override { return f_.ReadReg(pe, addr); }
  void SetEndpoint(fabric::Coord pe, fabric::RampEndpoint* ep) override { f_.SetEndpoint(pe, ep); }
  void SetEdgeEndpoint(fabric::Coord pe, int dir, fabric::RampEndpoint* ep) override {
    f_.SetEdgeEndpoint(pe, dir, ep);
  }
  bool WaveletsInFlight() override { return f_.WaveletsInFlight(); }
  bool Quiescent() override { return f_.Quiescent(); }
  bool Settled() override { return f_.Settled(); }
  uint64_t Run(uint64_t cycles) override {
    uint64_t done = 0;
    while (done < cycles) {
      const uint64_t n = f_.Run(1);
      done += n;
      if (n == 0) break;
      trace.push_back(f_.WaveletsInFlight());
      if (!f_.Faults().empty()) break;  // a fault stops a run after its cycle
    }
    return done;
  }
  uint64_t Cycle() const override { return f_.Cycle(); }
  std::vector<fabric::FaultRecord> Faults() override { return f_.Faults(); }

  std::vector<bool> trace;  // after each cycle stepped, from the fabric's cycle 0

 private:
  fabric::Fabric& f_;
};

struct Named {
  std::string name;
  std::unique_ptr<fabric::Fabric> fabric;
};

std::vector<Named> AllBackends(int w, int h) {
  std::vector<Named> out;
  out.push_back({"func", std::make_unique<func::FuncFabric>(w, h)});
  for (auto [tw, th] : rtl::BuiltTileShapes()) {
    if (w % tw || h % th) continue;
    rtl::RtlFabricOptions o;
    o.width = w;
    o.height = h;
    o.tile_w = tw;
    o.tile_h = th;
    out.push_back({fmt::format("rtl-loop-{}x{}", tw, th), std::make_unique<rtl::LoopRtlFabric>(o)});
  }
  return out;
}

class InFlight : public ::testing::TestWithParam<std::string> {};

TEST_P(InFlight, AgreesBetweenBackendsAndDrainsToFalse) {
  const int w = 4, h = 4;
  noc::NocOptions opt;
  opt.pattern = GetParam();
  opt.rate = 0.2;
  opt.cycles = 150;
  opt.seed = 5;
  std::vector<bool> reference;
  std::string ref_name;
  for (auto& [name, backend] : AllBackends(w, h)) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(backend->WaveletsInFlight()) << "nothing in flight after reset";
    InFlightRecorder rec(*backend);
    noc::NocResult res = noc::RunNoc(rec, opt);
    ASSERT_TRUE(res.Passed()) << res.stats.first_error;
    ASSERT_EQ(rec.trace.size(), backend->Cycle());
    // A wavelet reaching a CE side in cycle d was in the ramp after cycle d - 1.
    uint64_t deliveries = 0;
    for (int pe = 0; pe < w * h; ++pe) {
      for (uint32_t c = 0; c < arch::kNumColors; ++c) {
        for (const noc::LogEntry& e : res.scoreboard->Log(pe, c)) {
          ASSERT_GE(e.cycle, 1u);
          EXPECT_TRUE(rec.trace[e.cycle - 1]) << "delivery at cycle " << e.cycle;
          ++deliveries;
        }
      }
    }
    EXPECT_GT(deliveries, 0u);
    // The run drains until every delivery is made: nothing is left in flight.
    EXPECT_FALSE(rec.trace.back());
    EXPECT_FALSE(backend->WaveletsInFlight());
    if (ref_name.empty()) {
      reference = rec.trace;
      ref_name = name;
    } else {
      ASSERT_EQ(rec.trace.size(), reference.size());
      for (size_t i = 0; i < reference.size(); ++i)
        ASSERT_EQ(rec.trace[i], reference[i])
            << name << " differs from " << ref_name << " after cycle " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Patterns, InFlight, ::testing::ValuesIn(noc::PatternNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tessera
