// The functional model on several host threads (DeviceOptions::threads, FuncFabric::SetThreads):
// the same program with one thread and with two or three ends in the same state on every PE
// (instructions issued, every compared register, all SRAM), after the same cycles, with the same
// link log and back pressure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosim/end_state.h"
#include "layout/layout.h"
#include "runtime/device.h"

namespace tessera::runtime {
namespace {

const std::string kTutorial = TESSERA_TUTORIAL_DIR;
const std::string kData = TESSERA_RUNTIME_DATA;
const std::string kBench = TESSERA_BENCH_PROGRAMS;

struct Run {
  std::unique_ptr<Device> dev;
  RunResult result;
  std::vector<fabric::LinkEvent> links;
};

// Runs `layout_text` (a .tlayout's text, relative to `dir`) with `threads`, launching main.
Run RunWith(const std::string& layout_text, const std::string& dir, int threads, uint64_t cycles) {
  const layout::Image img =
      layout::Link(layout::ParseLayoutText("threads.tlayout", layout_text, dir));
  DeviceOptions o;
  o.width = img.fabric_w;
  o.height = img.fabric_h;
  o.threads = threads;
  Run r;
  r.dev = std::make_unique<Device>(o);
  r.dev->SetDebugHandler([](const ce::DebugRecord&) {});
  r.dev->SetLinkHandler([&r](const std::vector<fabric::LinkEvent>& v) {
    r.links.insert(r.links.end(), v.begin(), v.end());
  });
  r.dev->machine(0).Fabric().SetBackPressureCount(true);
  r.dev->Load(img);
  r.dev->Launch("main");
  r.result = r.dev->Run(cycles);
  return r;
}

void ExpectSameRuns(const std::string& layout_text, const std::string& dir, uint64_t cycles) {
  const Run one = RunWith(layout_text, dir, 1, cycles);
  EXPECT_GT(one.result.cycles(), 0u);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const Run more = RunWith(layout_text, dir, threads, cycles);
    EXPECT_EQ(StatusName(more.result.status), StatusName(one.result.status));
    EXPECT_EQ(more.result.cycles(), one.result.cycles());
    EXPECT_EQ(more.result.instructions, one.result.instructions);
    EXPECT_EQ(cosim::CompareState(one.dev->machine(0), more.dev->machine(0)), "");
    EXPECT_EQ(more.links, one.links);
    EXPECT_EQ(more.dev->machine(0).Fabric().BackPressure(),
              one.dev->machine(0).Fabric().BackPressure());
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
