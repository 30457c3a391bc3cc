// Long runs of the interpreter: a tight scalar loop and long DSD operations take exactly the
// cycles docs/isa.md 6.8 gives, alone, traced and as the endpoint of a 1x1 FuncFabric. (How fast
// they run is measured by bench/ce_bench.cpp, not asserted here.) The same programs, shorter, run
// on the RTL too, co-simulated with the functional model (*OnTheRtl): the RTL costs about 100
// times as much per cycle, and the long runs are there for the functional model's fast paths
// (running ahead, bulk steps), which the RTL does not have.
#include <gtest/gtest.h>

#include "ce/ce_endpoint.h"
#include "ce_test_util.h"
#include "cosim/cosim_machine.h"
#include "func/func_fabric.h"
#include "machine/pe_load.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using arch::TaskKind;

class CountingSink final : public TraceSink {
 public:
  void Record(const TraceRecord& r) override { n += r.num_writes + 1; }
  uint64_t n = 0;
};

Prog ScalarLoop(uint32_t iterations) {
  Prog p;
  p("lui", {R(1), I(iterations >> 16)})("ori", {R(1), R(1), I(iterations & 0xFFFF)})
      .Label("l")("addi", {R(1), R(1), I(-1)})("add", {R(2), R(2), R(1)})(
          "xor", {R(3), R(3), R(2)})("bne", {R(1), Z(), L("l")})("tend");
  return p;
}

constexpr int kLongN = 0x1000;

Prog LongDsd(int repeats) {
  const int n = kLongN;
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kF32, 0x1000, n));
  p.Dword(0x808, Mem1d(ElemType::kF32, 0x5004, n));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("lui", {R(5), I(0x3F00)})(
      "ori", {R(1), Z(), I(repeats)})
      .Label("l")("fmacs", {D(0), D(0), D(1), R(5), Sync()})("addi", {R(1), R(1), I(-1)})(
          "bne", {R(1), Z(), L("l")})("tend");
  return p;
}

// Runs a loaded CE alone until it is quiet; returns the cycles it took.
uint64_t RunAlone(Ce& ce) {
  fabric::RampPort port;
  uint64_t c = 0;
  while (ce.NextWake() != fabric::kNever) ce.Tick(c++, port);
  return c;
}

TEST(CeLongRun, ScalarLoop) {
  FakeRouter router;
  Ce fast(0, 0, &router);
  fast.Load(ScalarLoop(100000).Image(), {{0, TaskKind::kLocal, 0}});
  fast.Activate(0);
  EXPECT_EQ(RunAlone(fast), 500000u + 3);  // lui, ori, 5 per iteration, tend
  // The traced path runs the same cycles and records every retired instruction.
  Ce traced(0, 0, &router);
  CountingSink sink;
  traced.SetTraceSink(&sink);
  traced.Load(ScalarLoop(1000).Image(), {{0, TaskKind::kLocal, 0}});
  traced.Activate(0);
  EXPECT_EQ(RunAlone(traced), 5000u + 3);
  EXPECT_EQ(traced.Retired(), 2u + 4 * 1000 + 1);
  EXPECT_GE(sink.n, traced.Retired());
}

TEST(CeLongRun, LongDsdOperation) {
  FakeRouter router;
  Ce ce(0, 0, &router);
  ce.Load(LongDsd(20).Image(), {{0, TaskKind::kLocal, 0}});
  ce.Activate(0);
  // Per repeat: fmacs n + 6, addi 1, taken bne 2; the last bne falls through, then tend.
  EXPECT_EQ(RunAlone(ce), 20u * (kLongN + 9) + 5);
  EXPECT_FALSE(ce.Faulted()) << ce.FaultMessage();
}

// The program on one PE of the RTL (a 1x1 tile of a full PE) co-simulated with the functional
// model: both run to quiescence; returns the cycles, having checked that every link, task start,
// debug record and the end state of the PE agree.
uint64_t RunOnTheRtl(const Prog& p) {
  machine::RtlMachineOptions o;
  o.systemc = false;
  auto m =
      cosim::MakeCosimMachine(machine::MakeFuncMachine(1, 1, {1, 1}), machine::MakeRtlMachine(o));
  m->ForEachFabric([](fabric::Fabric& f) { f.SetStopWhenQuiescent(true); });
  machine::LoadSram(*m, {0, 0}, p.Image());
  machine::BindTask(*m, {0, 0}, 0, TaskKind::kLocal, 0);
  machine::LaunchTask(*m, {0, 0}, 0);
  uint64_t cycles = 0;
  while (!m->Quiescent() && m->Fabric().Faults().empty()) cycles += m->Run(1 << 20);
  EXPECT_EQ(m->TakeAgreement(true).difference, "");
  EXPECT_TRUE(m->Fabric().Faults().empty());
  return cycles;
}

TEST(CeLongRun, ScalarLoopOnTheRtl) {
  // As alone (ScalarLoop above): lui, ori, 5 cycles per iteration, tend.
  EXPECT_EQ(RunOnTheRtl(ScalarLoop(20000)), 100000u + 3);
}

TEST(CeLongRun, LongDsdOperationOnTheRtl) {
  EXPECT_EQ(RunOnTheRtl(LongDsd(3)), 3u * (kLongN + 9) + 5);  // as alone (LongDsdOperation)
}

TEST(CeLongRun, ScalarLoopInAFabricEndsWhenAlone) {
  func::FuncFabric fab(1, 1);
  Ce ce(0, 0, &fab.RouterRegsOf({0, 0}));
  CeEndpoint ep(ce);
  fab.SetEndpoint({0, 0}, &ep);
  ce.Load(ScalarLoop(100000).Image(), {{0, TaskKind::kLocal, 0}});
  ce.Activate(0);
  fab.Run(500002);
  EXPECT_FALSE(ce.Quiet());  // the tend issues in cycle 500002
  fab.Run(1);
  EXPECT_TRUE(ce.Quiet());
}

}  // namespace
}  // namespace tessera::ce::test
