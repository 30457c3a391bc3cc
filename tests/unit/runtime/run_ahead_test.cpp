// Compute engines running ahead of the functional fabric (DeviceOptions::run_ahead,
// RampPort::horizon, docs/performance.md "Running ahead"): the same program with and without
// ends after the same cycles in the same state on every PE (instructions issued, every compared
// register, all SRAM), with the same link log and back pressure. The programs cover a run cut by
// the cycle limit, a run stopped by a fault while the other PEs ran ahead (they step back), both
// with scalar code and with DSD operations on memory, wavelets that wake idle PEs at exact
// cycles, host streams at the fabric's edge, and DSD operations the engine runs in bulk.
#include <gtest/gtest.h>

#include <string>

#include "layout_run.h"

namespace tessera::runtime {
namespace {

const std::string kData = TESSERA_RUNTIME_DATA;
const std::string kBench = TESSERA_BENCH_PROGRAMS;

// Runs the layout without running ahead, then with, on one thread and on two; returns the first.
test::LayoutRun ExpectSameRuns(const std::string& layout_text, const std::string& dir,
                               uint64_t cycles) {
  DeviceOptions on, off;
  off.run_ahead = false;
  test::LayoutRun ref = test::RunLayout(layout_text, dir, off, cycles);
  EXPECT_GT(ref.result.cycles(), 0u);
  for (int threads : {1, 2}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    on.threads = threads;
    const test::LayoutRun ahead = test::RunLayout(layout_text, dir, on, cycles);
    test::ExpectSameRuns(ref, ahead);
    EXPECT_EQ(ahead.links, ref.links);  // the same fabric: in the same order too
  }
  return ref;
}

// A bench program (bench/programs) on every PE of an 8x8 fabric, cut by the cycle limit: the
// run goes in steps (Device::Run), and every step ends at a cycle no engine may pass.
void ExpectSameLoops(const std::string& program) {
  ExpectSameRuns("fabric 8x8\nregion at=0,0 size=8x8 program=" + kBench + "/" + program + "\n",
                 kBench, 3001);
}

// A bench program on 15 PEs of a 4x4 fabric while PE(3,3) loops `iterations` times and faults:
// the other PEs had run ahead of that cycle and step back.
void ExpectSameFaultAmid(const std::string& program, int iterations) {
  const std::string loop = " program=" + kBench + "/" + program + "\n";
  const test::LayoutRun ref =
      ExpectSameRuns("fabric 4x4\nregion at=0,0 size=4x3" + loop + "region at=0,3 size=3x1" + loop +
                         "region at=3,3 program=" + kData +
                         "/late_fault.s param D=" + std::to_string(iterations) + "\n",
                     kData, 100000);
  EXPECT_EQ(StatusName(ref.result.status), StatusName(RunResult::Status::kFault));
}

TEST(RunAhead, ScalarLoopsCutByTheCycleLimit) { ExpectSameLoops("scalar_loop.s"); }

TEST(RunAhead, AFaultStopsTheRunWhileOthersRanAhead) { ExpectSameFaultAmid("scalar_loop.s", 357); }

TEST(RunAhead, DsdOperationsOnMemory) {
  // fmacs over 256 f32 elements, synchronous: the engine runs ahead with a microthread busy.
  ExpectSameLoops("dsd_loop.s");
}

TEST(RunAhead, AFaultStopsTheRunWhileDsdOperationsRanAhead) {
  ExpectSameFaultAmid("dsd_loop.s", 200);
}

// DSD operations the engine runs in bulk (model/ce/path_bulk.cpp) on random words: results read
// while in flight, split steps amid a run, f16 pairs, a scalar source; cut by the cycle limit,
// and stopped by a fault while the other PEs ran ahead in the middle of those operations.
TEST(RunAhead, DsdStepsInBulk) {
  const std::string bulk = " program=" + kData + "/bulk_dsd.s param D=12345+x*7919+y*104729\n";
  ExpectSameRuns("fabric 3x3\nregion at=0,0 size=3x3" + bulk, kData, 3001);
  const test::LayoutRun ref =
      ExpectSameRuns("fabric 3x3\nregion at=0,0 size=3x2" + bulk + "region at=0,2 size=2x1" + bulk +
                         "region at=2,2 program=" + kData + "/late_fault.s param D=170\n",
                     kData, 100000);
  EXPECT_EQ(StatusName(ref.result.status), StatusName(RunResult::Status::kFault));
}

// Long f32 operations of one microthread at a time on random words (the engine's tightest bulk
// loop, which logs what it will write once, before): in place, a scalar source, unary, a source
// that reads results in flight; cut by the cycle limit, and stopped by a fault in the middle of
// those operations while the other PEs ran ahead.
TEST(RunAhead, OneMicrothreadStepsAlone) {
  const std::string solo = " program=" + kData + "/solo_dsd.s param D=12345+x*7919+y*104729\n";
  ExpectSameRuns("fabric 3x3\nregion at=0,0 size=3x3" + solo, kData, 5001);
  for (int d : {2000, 2111}) {
    SCOPED_TRACE(testing::Message() << "fault after " << d << " iterations");
    const test::LayoutRun ref = ExpectSameRuns(
        "fabric 3x3\nregion at=0,0 size=3x2" + solo + "region at=0,2 size=2x1" + solo +
            "region at=2,2 program=" + kData + "/late_fault.s param D=" + std::to_string(d) + "\n",
        kData, 100000);
    EXPECT_EQ(StatusName(ref.result.status), StatusName(RunResult::Status::kFault));
  }
}

// Scalar FP instructions between integer ones and memory accesses, run ahead with no
// microthread busy (Ce::PlainRun, each FP instruction ending a run); cut by the cycle limit, and
// stopped by a fault while the other PEs ran ahead.
TEST(RunAhead, ScalarFpRunsAhead) {
  const std::string fp = " program=" + kData + "/fp_loop.s param D=12345+x*7919+y*104729\n";
  ExpectSameRuns("fabric 3x3\nregion at=0,0 size=3x3" + fp, kData, 3001);
  const test::LayoutRun ref =
      ExpectSameRuns("fabric 3x3\nregion at=0,0 size=3x2" + fp + "region at=0,2 size=2x1" + fp +
                         "region at=2,2 program=" + kData + "/late_fault.s param D=700\n",
                     kData, 100000);
  EXPECT_EQ(StatusName(ref.result.status), StatusName(RunResult::Status::kFault));
}

TEST(RunAhead, WaveletsWakeIdlePesAtExactCycles) {
  // wake.tlayout: PE(0,0) loops, then broadcasts; every PE stamps the cycle its wavelets came.
  ExpectSameRuns("include wake.tlayout\n", kData, 20000);
}

TEST(RunAhead, NoFurtherThanADsdOperationInBulkAllows) {
  // bulk_wake.tlayout: PE(0,0) runs an fmacs, then broadcasts to PEs in longer ones meanwhile.
  ExpectSameRuns("include bulk_wake.tlayout\n", kData, 20000);
}

TEST(RunAhead, HostStreamsAndBackPressure) {
  ExpectSameRuns("include gather.tlayout\n", kData, 5000);
  ExpectSameRuns("include backup.tlayout\n", kData, 5000);
}

}  // namespace
}  // namespace tessera::runtime
