// The performance counters (PerfCount, docs/profiling.md "Counters"): what each counts in small
// programs with known cycle counts. Built into tessera_unit_ce_cosim too, where every bench ends
// with a comparison against the RTL twin that includes the counters.
#include <gtest/gtest.h>

#include "ce_test_util.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using arch::PerfEvent;

const std::vector<TaskBinding> kMain = {{0, arch::TaskKind::kLocal, 0x0000}};

uint32_t Perf(Bench& b, PerfEvent e) {
  return b.ce.HostRead(arch::PerfCount::Addr(static_cast<uint32_t>(e)));
}

TEST(CePerf, IssuesAndTaskCyclesOfAScalarProgram) {
  Prog p;
  p("addi", {R(1), Z(), I(3)})  // 1
      .Label("loop")("addi", {R(1), R(1), I(-1)})("bne", {R(1), Z(), L("loop")})("tend");
  Bench b;
  b.Load(p, kMain);
  const uint64_t cycles = b.RunToQuiet();
  // addi@1, then three rounds of addi and bne (two taken: a refetch cycle each), tend@10.
  EXPECT_EQ(Perf(b, PerfEvent::kInsns), 8u);
  EXPECT_EQ(Perf(b, PerfEvent::kInsns), b.ce.Retired());
  EXPECT_EQ(Perf(b, PerfEvent::kTaskCycles), 10u);  // cycles 1..10: the task starts in cycle 0
  EXPECT_LE(Perf(b, PerfEvent::kTaskCycles), cycles);
  for (int e = static_cast<int>(PerfEvent::kUtBusy); e < arch::PerfCount::kCount; ++e)
    EXPECT_EQ(Perf(b, static_cast<PerfEvent>(e)), 0u) << arch::ToString(static_cast<PerfEvent>(e));
}

// fmacs over 64 f32 elements, synchronous: the scalar stage stalls (Sync) while the microthread
// steps; with both sources in one bank pair of different rows every step splits over two cycles.
void Fmacs(Bench& b, uint16_t x) {
  const uint16_t y = 0x1000;
  Prog p;
  p.Dword(0x0800, Mem1d(ElemType::kF32, y, 64));
  p.Dword(0x0808, Mem1d(ElemType::kF32, x, 64));
  p("ldd", {D(0), A(0x0800)})("ldd", {D(1), A(0x0808)})(
      "fmacs", {D(0), D(0), D(1), R(5), Sync()})("nop")("tend");
  b.Load(p, kMain);
  b.RunToQuiet();
}

TEST(CePerf, SynchronousDsdOperationWithoutConflicts) {
  Bench b;
  Fmacs(b, 0x1104);  // x = y + 4 (mod 16): no conflict
  EXPECT_EQ(Perf(b, PerfEvent::kSplitSteps), 0u);
  // The scalar stage waits for the operation (70 cycles, docs/isa.md 6.8: FmacsOf64F32)...
  EXPECT_EQ(Perf(b, PerfEvent::kStallSync), 69u);
  // ... while the microthread is busy: ready (its 64 steps and the cycle after the last, as both
  // backends count it), then draining its last results.
  const uint32_t busy = Perf(b, PerfEvent::kUtBusy);
  EXPECT_EQ(Perf(b, PerfEvent::kUtReady) + Perf(b, PerfEvent::kUtDrain), busy);
  EXPECT_EQ(Perf(b, PerfEvent::kUtReady), 65u);
  EXPECT_EQ(Perf(b, PerfEvent::kInsns), 5u);
  // One FMAC operation per element.
  EXPECT_EQ(Perf(b, PerfEvent::kDsdElems), 64u);
  EXPECT_EQ(Perf(b, PerfEvent::kFmacBusy), 64u);
}

TEST(CePerf, FmacBusyCountsScalarFpAndNotIntegerSteps) {
  // Two scalar FP operations, then an integer DSD add over 16 words (no FMAC), and an f16 add over
  // 16 halves at 4-byte aligned addresses: paired, 8 steps of two elements, 8 FMAC operations.
  Prog p;
  p.Dword(0x0800, Mem1d(ElemType::kI32, 0x1000, 16));
  p.Dword(0x0808, Mem1d(ElemType::kF16, 0x1100, 16));
  p("lui", {R(1), I(0x3F80)})("fadd.s", {R(2), R(1), R(1)})("fmul.s", {R(3), R(1), R(1)})(
      "ldd", {D(0), A(0x0800)})("ldd", {D(1), A(0x0808)})("add32", {D(0), D(0), D(0), Sync()})(
      "faddh", {D(1), D(1), D(1), Sync()})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(Perf(b, PerfEvent::kDsdElems), 32u);
  EXPECT_EQ(Perf(b, PerfEvent::kFmacBusy), 2u + 8u);
}

TEST(CePerf, BankConflictSplitsEveryStep) {
  Bench b;
  Fmacs(b, 0x1100);  // x = y + 256: same banks, other rows
  EXPECT_EQ(Perf(b, PerfEvent::kSplitSteps), 64u);
  EXPECT_EQ(Perf(b, PerfEvent::kStallSync), 69u + 64u);
}

TEST(CePerf, HostSetsACounterAndACeStoreFaults) {
  Prog p;
  p("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  b.ce.HostWrite(arch::PerfCount::Addr(static_cast<uint32_t>(PerfEvent::kInsns)), 1000);
  EXPECT_EQ(Perf(b, PerfEvent::kInsns), 1000u);
  Prog q(0x70);
  q("sw", {R(1), A(arch::PerfCount::Addr(3))})("tend");
  Bench b2;
  b2.Load(q, {{0, arch::TaskKind::kLocal, 0x70}});
  b2.RunToQuiet();
  EXPECT_EQ(b2.ce.FaultMessage(),
            "PE(3,2) fault: store to read-only register PerfCount[3] at pc 0x0070 (address "
            "0xC50C)");
}

}  // namespace
}  // namespace tessera::ce::test
