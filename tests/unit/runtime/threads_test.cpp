// The functional model on several host threads (DeviceOptions::threads, FuncFabric::SetThreads):
// the same program with one thread and with two or three ends in the same state on every PE
// (instructions issued, every compared register, all SRAM), after the same cycles, with the same
// link log and back pressure.
#include <gtest/gtest.h>

#include <string>

#include "layout_run.h"

namespace tessera::runtime {
namespace {

const std::string kTutorial = TESSERA_TUTORIAL_DIR;
const std::string kData = TESSERA_RUNTIME_DATA;
const std::string kBench = TESSERA_BENCH_PROGRAMS;

test::LayoutRun RunWith(const std::string& layout_text, const std::string& dir, int threads,
                        uint64_t cycles) {
  DeviceOptions o;
  o.threads = threads;
  return test::RunLayout(layout_text, dir, o, cycles);
}

void ExpectSameRuns(const std::string& layout_text, const std::string& dir, uint64_t cycles) {
  const test::LayoutRun one = RunWith(layout_text, dir, 1, cycles);
  EXPECT_GT(one.result.cycles(), 0u);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const test::LayoutRun more = RunWith(layout_text, dir, threads, cycles);
    test::ExpectSameRuns(one, more);
    EXPECT_EQ(more.links, one.links);  // the same fabric: in the same order too
  }
}

TEST(Threads, SwitchesThatWaitAndTwoSenders) {
  // gather.tlayout: two PEs send to a third through switches; its own input files are not needed
  // for the comparison (x stays zero).
  ExpectSameRuns("include gather.tlayout\n", kData, 5000);
}

TEST(Threads, BackPressureAndDataTasks) { ExpectSameRuns("include backup.tlayout\n", kData, 5000); }

TEST(Threads, ManyPesAcrossTheWorkersRanges) {
  // 16x16 PEs of the scalar benchmark loop, and PE(0,0) flooding PE(1,0): ranges of ~128 PEs per
  // thread, wakes every cycle, a back-pressured color.
  ExpectSameRuns("fabric 16x16\nregion at=0,0 size=16x16 program=" + kBench + "/scalar_loop.s\n",
                 kBench, 3000);
}

}  // namespace
}  // namespace tessera::runtime
