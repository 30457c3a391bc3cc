// How fast the interpreter runs, in simulated cycles per second: a tight scalar loop and a long
// DSD operation, alone, traced, and as the endpoint of a 1x1 FuncFabric. Printed for the record;
// the bounds only catch a gross slowdown.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "ce/ce_endpoint.h"
#include "ce_test_util.h"
#include "func/func_fabric.h"

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

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs a loaded CE alone until it is quiet; returns simulated cycles per second.
double RunAlone(Ce& ce, uint64_t& cycles) {
  fabric::RampPort port;
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t c = 0;
  while (ce.NextWake() != fabric::kNever) {
    ce.Tick(c++, port);
  }
  cycles = c;
  return c / Seconds(t0);
}

TEST(CeSpeed, ScalarLoop) {
  FakeRouter router;
  uint64_t cycles = 0;
  {
    Ce ce(0, 0, &router);
    ce.Load(ScalarLoop(1000000).Image(), {{0, TaskKind::kLocal, 0}});
    ce.Activate(0);
    const double rate = RunAlone(ce, cycles);
    std::printf("[ speed    ] scalar loop, fast path:  %.1f M cycles/s (%llu cycles)\n", rate / 1e6,
                static_cast<unsigned long long>(cycles));
    EXPECT_EQ(cycles, 5000000u + 3);
    EXPECT_GT(rate, 2e6);
  }
  {
    Ce ce(0, 0, &router);
    CountingSink sink;
    ce.SetTraceSink(&sink);
    ce.Load(ScalarLoop(300000).Image(), {{0, TaskKind::kLocal, 0}});
    ce.Activate(0);
    const double rate = RunAlone(ce, cycles);
    std::printf("[ speed    ] scalar loop, traced:     %.1f M cycles/s\n", rate / 1e6);
  }
}

TEST(CeSpeed, LongDsdOperation) {
  FakeRouter router;
  uint64_t cycles = 0;
  {
    Ce ce(0, 0, &router);
    ce.Load(LongDsd(200).Image(), {{0, TaskKind::kLocal, 0}});
    ce.Activate(0);
    const double rate = RunAlone(ce, cycles);
    std::printf("[ speed    ] fmacs of 4096 f32:       %.1f M cycles/s (%llu cycles)\n", rate / 1e6,
                static_cast<unsigned long long>(cycles));
    EXPECT_FALSE(ce.Faulted()) << ce.FaultMessage();
    // Per repeat: fmacs n + 6, addi 1, taken bne 2; the last bne falls through, then tend.
    EXPECT_EQ(cycles, 200u * (kLongN + 9) + 5);
    EXPECT_GT(rate, 1e6);
  }
}

TEST(CeSpeed, ScalarLoopInAFabric) {
  {
    func::FuncFabric fab(1, 1);
    Ce ce(0, 0, &fab.RouterRegsOf({0, 0}));
    CeEndpoint ep(ce);
    fab.SetEndpoint({0, 0}, &ep);
    ce.Load(ScalarLoop(1000000).Image(), {{0, TaskKind::kLocal, 0}});
    ce.Activate(0);
    const auto t0 = std::chrono::steady_clock::now();
    fab.Run(5000005);
    const double rate = 5000005 / Seconds(t0);
    std::printf("[ speed    ] scalar loop in a 1x1 FuncFabric: %.1f M cycles/s\n", rate / 1e6);
    EXPECT_TRUE(ce.Quiet());
  }
}

}  // namespace
}  // namespace tessera::ce::test
