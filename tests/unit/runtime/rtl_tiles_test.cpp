// The RTL fabric of full PEs gives the same result whatever is evaluated, and however: with 1x1
// and 2x2 tiles, with idle tiles skipped (the default) or clocked every cycle, and with the
// tiles stepped on one host thread or several. "The same" is every
// PE's final state (instructions issued, every compared register, all SRAM), the cycles, the
// link log and the back pressure; the functional model agrees on the program's own records of
// the cycle count (CycleLo, read by PEs that were idle for hundreds of cycles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosim/end_state.h"
#include "layout/layout.h"
#include "rtl/rtl_fabric.h"
#include "runtime/device.h"

namespace tessera::runtime {
namespace {

const std::string kData = TESSERA_RUNTIME_DATA;
const std::string kBench = TESSERA_BENCH_PROGRAMS;

struct TileRun {
  std::unique_ptr<Device> dev;
  RunResult result;
  std::vector<fabric::LinkEvent> links;
  uint64_t tile_cycles = 0;  // tile-cycles the RTL evaluated
};

struct How {
  Backend backend = Backend::kRtl;
  std::pair<int, int> tile{1, 1};
  bool clock_idle = false;
  int threads = 1;
};

// Runs `layout_text` (a .tlayout's text, relative to `dir`), launching main, for at most
// `cycles`. RTL runs use the plain-loop glue: SystemC elaborates one fabric per process.
TileRun RunWith(const std::string& layout_text, const std::string& dir, How how, uint64_t cycles) {
  const layout::Image img =
      layout::Link(layout::ParseLayoutText("tiles.tlayout", layout_text, dir));
  DeviceOptions o;
  o.backend = how.backend;
  o.width = img.fabric_w;
  o.height = img.fabric_h;
  o.tile = how.tile;
  o.systemc = false;
  o.clock_idle_tiles = how.clock_idle;
  o.threads = how.threads;
  TileRun r;
  r.dev = std::make_unique<Device>(o);
  r.dev->SetDebugHandler([](const ce::DebugRecord&) {});
  r.dev->SetLinkHandler([&r](const std::vector<fabric::LinkEvent>& v) {
    r.links.insert(r.links.end(), v.begin(), v.end());
  });
  r.dev->machine(0).Fabric().SetBackPressureCount(true);
  r.dev->Load(img);
  r.dev->Launch("main");
  r.result = r.dev->Run(cycles);
  if (auto* rtl = dynamic_cast<rtl::RtlFabric*>(&r.dev->machine(0).Fabric()))
    r.tile_cycles = rtl->TileCyclesClocked();
  return r;
}

void ExpectSame(const TileRun& a, const TileRun& b) {
  EXPECT_EQ(StatusName(b.result.status), StatusName(a.result.status));
  EXPECT_EQ(b.result.cycles(), a.result.cycles());
  EXPECT_EQ(b.result.instructions, a.result.instructions);
  EXPECT_EQ(cosim::CompareState(a.dev->machine(0), b.dev->machine(0)), "");
  // The links both observe (the RTL sees router outputs only at tile sides).
  std::vector<fabric::LinkEvent> la = a.links, lb = b.links;
  fabric::CanonicalLinkLogs(la, lb, a.dev->machine(0).Fabric(), b.dev->machine(0).Fabric());
  EXPECT_EQ(lb, la);
  EXPECT_EQ(b.dev->machine(0).Fabric().BackPressure(), a.dev->machine(0).Fabric().BackPressure());
}

const std::string kWake = "include wake.tlayout\n";

TEST(RtlTiles, OneByOneAndTwoByTwoGiveTheSameState) {
  // A broadcast across tile boundaries after a long idle wait, stamped with CycleLo; and 4x4 PEs
  // of the scalar loop stopped by the cycle limit.
  const std::string loop =
      "fabric 4x4\nregion at=0,0 size=4x4 program=" + kBench + "/scalar_loop.s\n";
  for (const auto& [text, dir, cycles] :
       {std::tuple{kWake, kData, uint64_t{5000}}, std::tuple{loop, kBench, uint64_t{700}}}) {
    SCOPED_TRACE(text);
    const TileRun one = RunWith(text, dir, {Backend::kRtl, {1, 1}}, cycles);
    const TileRun two = RunWith(text, dir, {Backend::kRtl, {2, 2}}, cycles);
    EXPECT_GT(one.result.cycles(), 300u);
    ExpectSame(one, two);
  }
}

TEST(RtlTiles, IdleTilesAreSkippedWithTheSameResult) {
  const TileRun skipped = RunWith(kWake, kData, {}, 5000);
  const TileRun clocked = RunWith(kWake, kData, {Backend::kRtl, {1, 1}, true}, 5000);
  ExpectSame(clocked, skipped);
  const uint64_t all = 16 * clocked.result.cycles();
  EXPECT_EQ(clocked.tile_cycles, all);
  // 15 PEs wait about 300 x 3 cycles for PE(0,0)'s loop: most of their cycles are skipped.
  EXPECT_LT(skipped.tile_cycles, all / 3) << skipped.tile_cycles << " of " << all;
  // The functional model reads the same cycle counts: the stamps are in SRAM, compared above
  // between RTL runs and here against it.
  const TileRun func = RunWith(kWake, kData, {Backend::kFunc}, 5000);
  EXPECT_EQ(func.result.cycles(), skipped.result.cycles());
  EXPECT_EQ(cosim::CompareState(func.dev->machine(0), skipped.dev->machine(0)), "");
}

TEST(RtlTiles, ThreadsGiveTheSameResult) {
  // Tiles stepped on 2 and 3 host threads: the broadcast after an idle wait, and 4x4 PEs of the
  // scalar loop on 2x2 tiles.
  const std::string loop =
      "fabric 4x4\nregion at=0,0 size=4x4 program=" + kBench + "/scalar_loop.s\n";
  const TileRun wake = RunWith(kWake, kData, {}, 5000);
  const TileRun spin = RunWith(loop, kBench, {Backend::kRtl, {2, 2}}, 700);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    ExpectSame(wake, RunWith(kWake, kData, {Backend::kRtl, {1, 1}, false, threads}, 5000));
    ExpectSame(spin, RunWith(loop, kBench, {Backend::kRtl, {2, 2}, false, threads}, 700));
  }
}

TEST(RtlTiles, OneEvaluationPerCycle) {
  // This build's Verilator exposes the trigger state that lets a cycle be one evaluation.
  rtl::RtlFabricOptions o;
  o.width = o.height = 1;
  o.ce = true;
  rtl::LoopRtlFabric fab(o);
  EXPECT_TRUE(fab.OneEvalPerCycle());
}

}  // namespace
}  // namespace tessera::runtime
