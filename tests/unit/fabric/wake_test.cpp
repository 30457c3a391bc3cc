// The functional fabric's wakes (FuncFabric: the next-cycle list, the wheel, the heap): an
// endpoint is ticked exactly in the cycles it asks for and those in which something reaches it,
// once each, with one host thread or several. The scenario moves wakes earlier while the later
// one is still in the wheel, so a wheel slot holds a stale entry and then the same endpoint
// twice: the due list must still tick it once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "arch/arch.h"
#include "fabric/ramp_port.h"
#include "func/func_fabric.h"
#include "route.h"
#include "testbench/directed/script_endpoint.h"

namespace tessera {
namespace {

using fabric::Coord;
constexpr uint32_t kW = 1u << 0, kE = 1u << 1, kRamp = 1u << 4;
constexpr uint64_t kPeriod = 15;  // within the wheel (16 cycles): its wakes go to the wheel

// Asks for the next multiple of kPeriod after each tick; after a tick that received a wavelet,
// for the cycle after next instead (earlier than the multiple it had asked for). Records its
// ticks and returns each wavelet's credit.
class PeriodicEndpoint final : public fabric::RampEndpoint {
 public:
  void Tick(uint64_t cycle, fabric::RampPort& port) override {
    ticks.push_back(cycle);
    now_ = cycle;
    port.to_router = 0;
    port.credit_to_router = 0;
    got_ = arch::Link::Valid(port.from_router);
    if (got_) port.credit_to_router = fabric::MakeCredit(arch::Link::Color(port.from_router));
  }
  uint64_t NextWake() const override { return got_ ? now_ + 2 : (now_ / kPeriod + 1) * kPeriod; }

  std::vector<uint64_t> ticks;

 private:
  uint64_t now_ = 0;
  bool got_ = false;
};

struct Ticks {
  std::vector<std::vector<uint64_t>> periodic;  // per receiving PE
  std::vector<tb::ScriptEndpoint::Received> received;
};

// A 4x1 fabric: PE(0,0) sends wavelets east on color 0 at the given cycles; PEs (1,0) to (3,0)
// are periodic receivers: every wavelet reaches each of their ramps.
Ticks RunScene(int threads, const std::vector<uint64_t>& sends, uint64_t cycles) {
  func::FuncFabric f(4, 1);
  f.SetThreads(threads);
  tb::ScriptEndpoint sender;
  for (uint64_t c : sends) sender.Send(c, false, 0, static_cast<uint32_t>(c));
  std::vector<std::unique_ptr<PeriodicEndpoint>> rx;
  f.SetEndpoint({0, 0}, &sender);
  Route(f, {0, 0}, 0, kRamp, kE);
  for (int x = 1; x < 4; ++x) {
    rx.push_back(std::make_unique<PeriodicEndpoint>());
    f.SetEndpoint({x, 0}, rx.back().get());
    Route(f, {x, 0}, 0, kW, x < 3 ? kRamp | kE : kRamp);
  }
  f.Run(cycles);
  Ticks t;
  for (auto& r : rx) t.periodic.push_back(r->ticks);
  return t;
}

TEST(FuncWakes, TickedOnceInTheCyclesAskedAndWhenSomethingArrives) {
  // Wavelets reach the receivers between their periodic wakes: each moves a receiver's wake
  // earlier while the periodic one waits in the wheel, and the receiver then asks for that
  // periodic cycle again.
  const std::vector<uint64_t> sends = {3, 20, 21, 50, 64, 77};
  const Ticks one = RunScene(1, sends, 140);
  for (size_t r = 0; r < one.periodic.size(); ++r) {
    SCOPED_TRACE(testing::Message() << "receiver " << r + 1);
    const std::vector<uint64_t>& t = one.periodic[r];
    ASSERT_FALSE(t.empty());
    for (size_t k = 1; k < t.size(); ++k) EXPECT_LT(t[k - 1], t[k]) << "ticked twice or back";
    // Every multiple of the period is a tick (asked for each time), as is cycle 0.
    for (uint64_t c = 0; c < 140; c += kPeriod)
      EXPECT_NE(std::find(t.begin(), t.end(), c), t.end()) << "no tick in cycle " << c;
    EXPECT_GT(t.size(), 140 / kPeriod + 2) << "the wavelets woke it in between";
  }
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    const Ticks more = RunScene(threads, sends, 140);
    EXPECT_EQ(more.periodic, one.periodic);
  }
}

}  // namespace
}  // namespace tessera
