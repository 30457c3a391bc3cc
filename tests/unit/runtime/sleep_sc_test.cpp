// Idle tiles that sleep in the SystemC glue (docs/performance.md, "Idle tiles"): a settled tile
// whose inputs carry nothing waits for a change on them instead of the clock. It must wake in
// time for a wavelet, keep its own cycle count right for the register back door while it sleeps,
// and wake for a back-door write, giving what the functional model gives. SystemC elaborates one
// fabric per process: CMake runs each test in a process of its own.
#include <gtest/gtest.h>

#include <string>

#include "layout_run.h"
#include "rtl/rtl_fabric.h"

namespace tessera::runtime {
namespace {

using test::ExpectSameRuns;
using test::LayoutRun;

const std::string kData = TESSERA_RUNTIME_DATA;
// PE(0,0) loops 300 iterations while 15 PEs sleep, then broadcasts; each stamps CycleLo/Hi.
const std::string kWake = "include wake.tlayout\n";

LayoutRun RunOn(Backend backend, uint64_t cycles) {
  DeviceOptions o;
  o.backend = backend;
  o.systemc = true;  // the default; the functional model ignores it
  return test::RunLayout(kWake, kData, o, cycles);
}

TEST(SleepingTiles, WakeForWaveletsWithTheFunctionalModelsCycles) {
  const LayoutRun func = RunOn(Backend::kFunc, 5000);
  const LayoutRun rtl = RunOn(Backend::kRtl, 5000);
  EXPECT_GT(rtl.result.cycles(), 900u);
  ExpectSameRuns(func, rtl);
  // Most tile-cycles were not evaluated (the 15 receivers slept through PE(0,0)'s loop).
  auto& fab = dynamic_cast<rtl::RtlFabric&>(rtl.dev->machine().Fabric());
  EXPECT_LT(fab.TileCyclesClocked(), 16 * rtl.result.cycles() / 3);
}

TEST(SleepingTiles, BackDoorReadsAndWritesBetweenRuns) {
  // Stopped while PE(0,0) still loops and the others sleep: the back door reads every PE's cycle
  // count as the functional model does; a write to a sleeping PE's SRAM (a word its program does
  // not use) wakes it; the run then goes on to the same end.
  LayoutRun func = RunOn(Backend::kFunc, 400);
  LayoutRun rtl = RunOn(Backend::kRtl, 400);
  ASSERT_EQ(rtl.result.cycles(), 400u);
  test::ExpectSameAfterBackDoor(func, rtl, {2, 3}, 0x7f00, 0x44332211u, 5000);
}

}  // namespace
}  // namespace tessera::runtime
