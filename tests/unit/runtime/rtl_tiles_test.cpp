// The RTL fabric of full PEs gives the same result whatever is evaluated, and however: with 1x1
// and 2x2 tiles, with idle tiles skipped (the default) or clocked every cycle, with the input
// region of tiles whose inputs did not change skipped (the default) or evaluated, and with the
// tiles stepped on one host thread or several. "The same" is every
// PE's final state (instructions issued, every compared register, all SRAM), the cycles, the
// link log and the back pressure; the functional model agrees on the program's own records of
// the cycle count (CycleLo, read by PEs that were idle for hundreds of cycles).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "layout_run.h"
#include "rtl/rtl_fabric.h"

namespace tessera::runtime {
namespace {

using test::ExpectSameRuns;
using test::LayoutRun;

const std::string kData = TESSERA_RUNTIME_DATA;
const std::string kBench = TESSERA_BENCH_PROGRAMS;
const std::string kWake = "include wake.tlayout\n";
const std::string kLoop =
    "fabric 4x4\nregion at=0,0 size=4x4 program=" + kBench + "/scalar_loop.s\n";

struct How {
  Backend backend = Backend::kRtl;
  std::pair<int, int> tile{1, 1};
  bool clock_idle = false;
  int threads = 1;
  bool eval_input_region = false;
};

// RTL runs use the plain-loop glue: SystemC elaborates one fabric per process.
LayoutRun RunWith(const std::string& layout_text, const std::string& dir, How how,
                  uint64_t cycles) {
  DeviceOptions o;
  o.backend = how.backend;
  o.tile = how.tile;
  o.systemc = false;
  o.clock_idle_tiles = how.clock_idle;
  o.threads = how.threads;
  o.eval_input_region = how.eval_input_region;
  return test::RunLayout(layout_text, dir, o, cycles);
}

rtl::RtlFabric& Fabric(const LayoutRun& r) {
  return dynamic_cast<rtl::RtlFabric&>(r.dev->machine().Fabric());
}
uint64_t TileCyclesClocked(const LayoutRun& r) {  // tile-cycles the RTL evaluated
  return Fabric(r).TileCyclesClocked();
}

TEST(RtlTiles, OneByOneAndTwoByTwoGiveTheSameState) {
  // A broadcast across tile boundaries after a long idle wait, stamped with CycleLo; and 4x4 PEs
  // of the scalar loop stopped by the cycle limit.
  for (const auto& [text, dir, cycles] :
       {std::tuple{kWake, kData, uint64_t{5000}}, std::tuple{kLoop, kBench, uint64_t{700}}}) {
    SCOPED_TRACE(text);
    const LayoutRun one = RunWith(text, dir, {Backend::kRtl, {1, 1}}, cycles);
    const LayoutRun two = RunWith(text, dir, {Backend::kRtl, {2, 2}}, cycles);
    EXPECT_GT(one.result.cycles(), 300u);
    ExpectSameRuns(one, two);
  }
}

TEST(RtlTiles, IdleTilesAreSkippedWithTheSameResult) {
  const LayoutRun skipped = RunWith(kWake, kData, {}, 5000);
  const LayoutRun clocked = RunWith(kWake, kData, {Backend::kRtl, {1, 1}, true}, 5000);
  ExpectSameRuns(clocked, skipped);
  const uint64_t all = 16 * clocked.result.cycles();
  EXPECT_EQ(TileCyclesClocked(clocked), all);
  // 15 PEs wait about 300 x 3 cycles for PE(0,0)'s loop: most of their cycles are skipped.
  EXPECT_LT(TileCyclesClocked(skipped), all / 3) << TileCyclesClocked(skipped) << " of " << all;
  // The functional model reads the same cycle counts: the stamps are in SRAM, compared above
  // between RTL runs and here against it.
  const LayoutRun func = RunWith(kWake, kData, {Backend::kFunc}, 5000);
  EXPECT_EQ(func.result.cycles(), skipped.result.cycles());
  EXPECT_EQ(cosim::CompareState(func.dev->machine(), skipped.dev->machine()), "");
}

TEST(RtlTiles, SleepingTilesAndTheBackDoorBetweenRuns) {
  // Stopped while PE(0,0) still loops and 15 tiles sleep: the back door reads every PE's cycle
  // count and status as the functional model does; a write to a sleeping PE's SRAM (a word its
  // program does not use) wakes it; the run then goes on to the same end. On 1 and 2 threads.
  for (int threads : {1, 2}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    LayoutRun func = RunWith(kWake, kData, {Backend::kFunc}, 400);
    LayoutRun rtl = RunWith(kWake, kData, {Backend::kRtl, {1, 1}, false, threads}, 400);
    ASSERT_EQ(rtl.result.cycles(), 400u);
    test::ExpectSameAfterBackDoor(func, rtl, {2, 3}, 0x7f00, 0x44332211u, 5000);
  }
}

TEST(RtlTiles, UnchangedInputsSkipTheInputRegionWithTheSameResult) {
  // The broadcast after an idle wait on 1x1 tiles (inputs change while wavelets cross tiles and
  // when a skipped tile wakes with a new cycle_i), and 4x4 PEs of the scalar loop on 2x2 tiles
  // (no traffic: after the start, no input changes).
  for (const auto& [text, dir, cycles, tile] :
       {std::tuple{kWake, kData, uint64_t{5000}, std::pair{1, 1}},
        std::tuple{kLoop, kBench, uint64_t{700}, std::pair{2, 2}}}) {
    SCOPED_TRACE(text);
    How how{Backend::kRtl, tile};
    const LayoutRun skipped = RunWith(text, dir, how, cycles);
    how.eval_input_region = true;
    const LayoutRun full = RunWith(text, dir, how, cycles);
    ExpectSameRuns(full, skipped);
    EXPECT_EQ(Fabric(full).TileCyclesWithoutInputRegion(), 0u);
    const uint64_t without = Fabric(skipped).TileCyclesWithoutInputRegion();
    EXPECT_GT(without, TileCyclesClocked(skipped) / 2)
        << without << " of " << TileCyclesClocked(skipped);
  }
}

TEST(RtlTiles, ThreadsGiveTheSameResult) {
  // Tiles stepped on 2 and 3 host threads: the broadcast after an idle wait, and 4x4 PEs of the
  // scalar loop on 2x2 tiles.
  const LayoutRun wake = RunWith(kWake, kData, {}, 5000);
  const LayoutRun spin = RunWith(kLoop, kBench, {Backend::kRtl, {2, 2}}, 700);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    ExpectSameRuns(wake, RunWith(kWake, kData, {Backend::kRtl, {1, 1}, false, threads}, 5000));
    ExpectSameRuns(spin, RunWith(kLoop, kBench, {Backend::kRtl, {2, 2}, false, threads}, 700));
  }
}

TEST(RtlTiles, OneEvaluationPerCycle) {
  // This build's Verilator exposes the trigger state that lets a cycle be one evaluation.
  rtl::RtlFabricOptions o;
  o.width = o.height = 1;
  o.ce = true;
  rtl::LoopRtlFabric fab(o);
  EXPECT_TRUE(fab.OneEvalPerCycle());
  // ... and the regions of its evaluation, so a tile whose inputs did not change can leave out
  // the input-combinational one.
  EXPECT_TRUE(fab.SkipsInputRegion());
}

}  // namespace
}  // namespace tessera::runtime
