// Compute engines on a real functional fabric (FuncFabric): routes set by CE stores to the
// routing registers, fabout on one PE and fabin on its neighbour at one wavelet per cycle, data
// tasks and control wavelets across the fabric. Each program also runs on a fabric of RTL full-PE
// tiles, whose end state must agree (ExpectFabricsAgree); the cycle-level expectations (arrival
// cycles, trace records) are the functional model's, which co-simulation holds the RTL to.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>

#include "ce/ce_endpoint.h"
#include "ce_test_util.h"
#include "func/func_fabric.h"
#include "rtl/rtl_fabric.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using arch::TaskKind;
using Kind = TraceRecord::Kind;

constexpr uint32_t kW = 1u << static_cast<int>(arch::Dir::kW);
constexpr uint32_t kE = 1u << static_cast<int>(arch::Dir::kE);
constexpr uint32_t kRamp = 1u << static_cast<int>(arch::Dir::kRamp);

uint32_t Route(uint32_t rx, uint32_t tx) {
  return arch::ColorCfg::WithRx(arch::ColorCfg::WithTx(0, tx), rx);
}

// Records the cycles at which wavelets reach the CE side, then passes the port on.
class Tap final : public fabric::RampEndpoint {
 public:
  explicit Tap(fabric::RampEndpoint& inner) : inner_(inner) {}
  void Tick(uint64_t cycle, fabric::RampPort& port) override {
    if (arch::Link::Valid(port.from_router)) arrivals.push_back(cycle);
    inner_.Tick(cycle, port);
  }
  uint64_t NextWake() const override { return inner_.NextWake(); }
  void Rewind(uint64_t cycle) override { inner_.Rewind(cycle); }
  std::vector<uint64_t> arrivals;

 private:
  fabric::RampEndpoint& inner_;
};

struct TwoPes {
  func::FuncFabric fab{2, 1};
  Ce a{0, 0, &fab.RouterRegsOf({0, 0})};
  Ce b{1, 0, &fab.RouterRegsOf({1, 0})};
  CeEndpoint ea{a}, eb{b};
  Tap tap{eb};
  VectorTraceSink ta, tb;
  TwoPes() {
    fab.SetEndpoint({0, 0}, &ea);
    fab.SetEndpoint({1, 0}, &tap);
    a.SetTraceSink(&ta);
    b.SetTraceSink(&tb);
  }
  static std::vector<TraceRecord> Of(const VectorTraceSink& s, Kind k) {
    std::vector<TraceRecord> out;
    for (const auto& r : s.records)
      if (r.kind == k) out.push_back(r);
    return out;
  }
};

// The same programs on a 2x2 fabric of the functional model and of RTL full-PE tiles (every built
// shape that divides it: four 1x1 tiles, one 2x2 tile): after a fixed number of cycles every PE's
// SRAM and registers agree.
struct PeLoad {
  fabric::Coord pe;
  Prog prog;
  std::vector<TaskBinding> tasks;
};

struct Expect {  // a value the functional model must hold at the end (the programs did run)
  fabric::Coord pe;
  uint16_t addr;
  uint32_t value;
};

void ExpectFabricsAgree(const std::vector<PeLoad>& loads, uint64_t cycles,
                        const std::vector<Expect>& expect) {
  func::FuncFabric ff(2, 2);
  std::vector<std::unique_ptr<Ce>> ces;
  std::vector<std::unique_ptr<CeEndpoint>> eps;
  for (int i = 0; i < 4; ++i) {
    const fabric::Coord c{i % 2, i / 2};
    ces.push_back(std::make_unique<Ce>(c.x, c.y, &ff.RouterRegsOf(c)));
    eps.push_back(std::make_unique<CeEndpoint>(*ces.back()));
    ff.SetEndpoint(c, eps.back().get());
  }
  for (const PeLoad& l : loads) ces[l.pe.y * 2 + l.pe.x]->Load(l.prog.Image(), l.tasks);
  for (const PeLoad& l : loads) ces[l.pe.y * 2 + l.pe.x]->Activate(0);
  const uint64_t ran = ff.Run(cycles);
  for (const Expect& e : expect)
    EXPECT_EQ(ces[e.pe.y * 2 + e.pe.x]->HostRead(e.addr), e.value)
        << fmt::format("PE({},{}) 0x{:04x}", e.pe.x, e.pe.y, e.addr);
  for (auto [tile, th] : rtl::BuiltTileShapes(true)) {
    if (tile != th || 2 % tile) continue;  // the square shapes that divide the 2x2 fabric
    rtl::RtlFabricOptions o;
    o.width = o.height = 2;
    o.tile_w = o.tile_h = tile;
    o.ce = true;
    rtl::LoopRtlFabric rf(o);
    for (const PeLoad& l : loads) {
      const std::vector<uint8_t> image = l.prog.Image();
      for (size_t a = 0; a < image.size(); a += 4) {
        uint32_t w = 0;
        for (size_t k = 0; k < 4 && a + k < image.size(); ++k) w |= uint32_t(image[a + k]) << 8 * k;
        if (w) rf.WriteReg(l.pe, static_cast<uint16_t>(a), w);
      }
      for (const TaskBinding& b : l.tasks)
        rf.WriteReg(l.pe, arch::TaskCfg::Addr(b.id),
                    b.entry | static_cast<uint32_t>(b.kind) << arch::TaskCfg::kKindLsb);
    }
    for (const PeLoad& l : loads) rf.WriteReg(l.pe, arch::TaskActiveSet::kAddr, 1);
    EXPECT_EQ(rf.Run(cycles), ran);
    EXPECT_EQ(rf.Faults().size(), ff.Faults().size());
    for (int i = 0; i < 4; ++i) {
      const fabric::Coord c{i % 2, i / 2};
      Ce& ce = *ces[i];
      int diffs = 0;
      auto same = [&](const char* what, uint16_t addr) {
        const uint32_t f = ce.HostRead(addr), r = rf.ReadReg(c, addr);
        if (f != r && ++diffs <= 10)
          ADD_FAILURE() << fmt::format(
              "tile {}x{}, PE({},{}): {} 0x{:04x}: func 0x{:08x}, rtl "
              "0x{:08x}",
              tile, tile, c.x, c.y, what, addr, f, r);
      };
      for (uint16_t a = 0; a < kSram; a += 4) same("SRAM", a);
      for (uint32_t r = 0; r < arch::kNumGprs; ++r) same("Gpr", arch::Gpr::Addr(r));
      same("CeStatus", arch::CeStatus::kAddr);
      same("CePc", arch::CePc::kAddr);
      same("FaultStatus", arch::FaultStatus::kAddr);
      for (uint32_t col = 0; col < arch::kNumColors; ++col)
        same("CeColor", arch::CeColor::Addr(col));
    }
  }
}

class FabricStream : public ::testing::TestWithParam<int> {};

TEST_P(FabricStream, FaboutToFabinAtOneWaveletPerCycle) {
  const int n = GetParam();
  TwoPes t;
  // Sender: route color 3 from RAMP to E by a store, then stream n words with fabout.
  Prog pa;
  pa.Dword(0x800, FabOut(ElemType::kU32, 3, n));
  pa.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, n));
  for (int i = 0; i < n; ++i) pa.Word(static_cast<uint16_t>(0x1000 + 4 * i), 0x5000 + i);
  pa("ori", {R(1), Z(), I(Route(kRamp, kE))})("sw", {R(1), A(arch::ColorCfg::Addr(3))})(
      "ldd", {D(0), A(0x800)})  // the route is in place from the next cycle: mov32 checks it
      ("ldd", {D(1), A(0x808)})("mov32", {D(0), D(1), Sync()})("lw", {R(2), A(0xC10C)})("tend");
  // Receiver: route color 3 from W to RAMP, read n words with fabin.
  Prog pb;
  pb.Dword(0x800, Mem1d(ElemType::kU32, 0x2000, n));
  pb.Dword(0x808, FabIn(ElemType::kU32, 3, n));
  pb("ori", {R(1), Z(), I(Route(kW, kRamp))})("sw", {R(1), A(arch::ColorCfg::Addr(3))})(
      "ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("mov32", {D(0), D(1), Sync()})("tend");
  t.a.Load(pa.Image(), {{0, TaskKind::kLocal, 0}});
  t.b.Load(pb.Image(), {{0, TaskKind::kLocal, 0}});
  t.a.Activate(0);
  t.b.Activate(0);
  t.fab.Run(2000);
  ASSERT_FALSE(t.a.Faulted()) << t.a.FaultMessage();
  ASSERT_FALSE(t.b.Faulted()) << t.b.FaultMessage();
  EXPECT_TRUE(t.fab.Faults().empty());
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(t.b.HostRead(static_cast<uint16_t>(0x2000 + 4 * i)), 0x5000u + i) << i;
  EXPECT_EQ(t.a.State().gpr[2], Route(kRamp, kE));
  // The sender never waits for a credit (RampInDepth covers the 14-cycle loop): 64 + 6 cycles.
  auto ra = TwoPes::Of(t.ta, Kind::kRetire);
  EXPECT_EQ(ra[5].cycle - ra[4].cycle, static_cast<uint64_t>(n) + 6);
  // Wavelets reach the receiver on consecutive cycles, 20 cycles after they left the sender
  // (step + DsdLatency + 2 x RampLatency + 1 hop).
  ASSERT_EQ(t.tap.arrivals.size(), static_cast<size_t>(n));
  for (int i = 1; i < n; ++i) EXPECT_EQ(t.tap.arrivals[i], t.tap.arrivals[0] + i);
  const uint64_t first_step = ra[4].cycle + 1;
  EXPECT_EQ(t.tap.arrivals[0], first_step + arch::kDsdLatency + 2 * arch::kRampLatency + 1);
  auto da = TwoPes::Of(t.ta, Kind::kUtDone), db = TwoPes::Of(t.tb, Kind::kUtDone);
  ASSERT_EQ(da.size(), 1u);
  ASSERT_EQ(db.size(), 1u);
  EXPECT_EQ(db[0].cycle - da[0].cycle, 21u);
  EXPECT_TRUE(t.a.Quiet());
  EXPECT_TRUE(t.b.Quiet());
  // The same two programs on the RTL: every PE's state agrees with the model's after the run.
  ExpectFabricsAgree(
      {{{0, 0}, pa, {{0, TaskKind::kLocal, 0}}}, {{1, 0}, pb, {{0, TaskKind::kLocal, 0}}}},
      static_cast<uint64_t>(n) + 80,
      {{{1, 0}, static_cast<uint16_t>(0x2000 + 4 * (n - 1)), 0x5000u + n - 1}});
}
INSTANTIATE_TEST_SUITE_P(Lengths, FabricStream, ::testing::Values(1, 16, 64, 300));

TEST(FabricCe, SendsRunDataTasksAndControlWaveletsRunControlTasks) {
  TwoPes t;
  Prog pa;
  pa("ori", {R(1), Z(), I(Route(kRamp, kE))})("sw", {R(1), A(arch::ColorCfg::Addr(5))})(
      "ori", {R(2), Z(), I(3)})
      .Label("l")("send", {R(2), I(5)})("addi", {R(2), R(2), I(-1)})("bne", {R(2), Z(), L("l")})(
          "lui", {R(3), I(9)})("ori", {R(3), R(3), I(0xABC)})  // task 9, argument 0xABC
      ("sendc", {R(3), I(5)})("tend");
  Prog pb;
  pb("ori", {R(1), Z(), I(Route(kW, kRamp))})("sw", {R(1), A(arch::ColorCfg::Addr(5))})(
      "ori", {R(10), Z(), I(0x300)})("tend");
  pb.Org(0x40)("sw", {R(0), M(0, 10)})("addi", {R(10), R(10), I(4)})("tend");  // data task 5
  pb.Org(0x80)("sw", {R(0), A(0x400)})("tend");                                // control task 9
  t.a.Load(pa.Image(), {{0, TaskKind::kLocal, 0}});
  t.b.Load(pb.Image(),
           {{0, TaskKind::kLocal, 0}, {5, TaskKind::kData, 0x40}, {9, TaskKind::kControl, 0x80}});
  t.a.Activate(0);
  t.b.Activate(0);
  t.fab.Run(500);
  ASSERT_FALSE(t.b.Faulted()) << t.b.FaultMessage();
  EXPECT_EQ(t.b.HostRead(0x300), 3u);
  EXPECT_EQ(t.b.HostRead(0x304), 2u);
  EXPECT_EQ(t.b.HostRead(0x308), 1u);
  EXPECT_EQ(t.b.HostRead(0x400), 0xABCu);
  auto starts = TwoPes::Of(t.tb, Kind::kTaskStart);
  ASSERT_EQ(starts.size(), 5u);
  EXPECT_EQ(starts[4].task, 9);
  // The control wavelet advanced the switches of color 5 in both routers.
  EXPECT_EQ(arch::SwitchCfg::Pos(t.fab.ReadReg({0, 0}, arch::SwitchCfg::Addr(5))), 1u);
  EXPECT_EQ(arch::SwitchCfg::Pos(t.fab.ReadReg({1, 0}, arch::SwitchCfg::Addr(5))), 1u);
  EXPECT_TRUE(t.b.Quiet());
  EXPECT_EQ(t.b.OwedCredits(), 0);
  EXPECT_EQ(t.a.OutCredits(5), static_cast<int>(arch::kRampInDepth));
  // The same programs on the RTL: every PE's SRAM and registers agree with the model's.
  ExpectFabricsAgree(
      {{{0, 0}, pa, {{0, TaskKind::kLocal, 0}}},
       {{1, 0},
        pb,
        {{0, TaskKind::kLocal, 0}, {5, TaskKind::kData, 0x40}, {9, TaskKind::kControl, 0x80}}}},
      200, {{{1, 0}, 0x308, 1u}, {{1, 0}, 0x400, 0xABCu}});
}

TEST(FabricCe, RtlFabricOfFullPesAgreesWithTheModel) {
  // PE(0,0) streams 40 words east with fabout and sends a control wavelet; PE(1,0) reads them
  // with fabin, then its control task records the cycle; PE(0,1) runs a scalar loop; PE(1,1)
  // idles.
  const int n = 40;
  std::vector<PeLoad> loads(3);
  Prog& pa = loads[0].prog;
  loads[0].pe = {0, 0};
  pa.Dword(0x800, FabOut(ElemType::kU32, 3, n));
  pa.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, n));
  for (int i = 0; i < n; ++i) pa.Word(static_cast<uint16_t>(0x1000 + 4 * i), 0x7000 + 3 * i);
  pa("ori", {R(1), Z(), I(Route(kRamp, kE))})("sw", {R(1), A(arch::ColorCfg::Addr(3))})(
      "ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("mov32", {D(0), D(1), Sync()})(
      "lui", {R(3), I(9)})("ori", {R(3), R(3), I(0x55)})("sendc", {R(3), I(3)})("tend");
  loads[0].tasks = {{0, TaskKind::kLocal, 0}};
  Prog& pb = loads[1].prog;
  loads[1].pe = {1, 0};
  pb.Dword(0x800, Mem1d(ElemType::kU32, 0x2000, n));
  pb.Dword(0x808, FabIn(ElemType::kU32, 3, n));
  pb("ori", {R(1), Z(), I(Route(kW, kRamp))})("sw", {R(1), A(arch::ColorCfg::Addr(3))})(
      "ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})("mov32", {D(0), D(1), Async(2)})("tend");
  pb.Org(0x80)("lw", {R(4), A(arch::CycleLo::kAddr)})("sw", {R(4), A(0x3000)})(
      "sw", {R(0), A(0x3004)})("tend");  // control task 9
  loads[1].tasks = {{0, TaskKind::kLocal, 0}, {9, TaskKind::kControl, 0x80}};
  Prog& pc = loads[2].prog;
  loads[2].pe = {0, 1};
  pc("ori", {R(2), Z(), I(25)})
      .Label("l")("add", {R(3), R(3), R(2)})("sw", {R(3), A(0x1800)})("addi", {R(2), R(2), I(-1)})(
          "bne", {R(2), Z(), L("l")})("tend");
  loads[2].tasks = {{0, TaskKind::kLocal, 0}};
  ExpectFabricsAgree(loads, 400,
                     {{{1, 0}, 0x2000, 0x7000},
                      {{1, 0}, static_cast<uint16_t>(0x2000 + 4 * (n - 1)), 0x7000 + 3 * (n - 1)},
                      {{1, 0}, 0x3004, 0x55},
                      {{0, 1}, 0x1800, 25 * 26 / 2}});
}

TEST(FabricCe, RtlFabricReportsACeFaultAsTheModelDoes) {
  std::vector<PeLoad> loads(1);
  loads[0].pe = {1, 1};
  loads[0].prog("nop")("lw", {R(1), A(0x0102)})("tend");  // misaligned
  loads[0].tasks = {{0, TaskKind::kLocal, 0}};
  ExpectFabricsAgree(
      loads, 50,
      {{{1, 1}, arch::FaultStatus::kAddr, static_cast<uint32_t>(arch::CeFault::kMisaligned)}});
}

TEST(FabricCe, ACeFaultStopsTheRunAndIsListedWithItsRegisters) {
  TwoPes t;
  Prog pa;
  pa("nop")("nop")("trap", {I(7)});
  t.a.Load(pa.Image(), {{0, arch::TaskKind::kLocal, 0}});
  t.a.Activate(0);
  // picker at 0, nops at 1 and 2, the trap at 3: the run stops after cycle 3
  EXPECT_EQ(t.fab.Run(100), 4u);
  const auto faults = t.fab.Faults();
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].pe, (fabric::Coord{0, 0}));
  EXPECT_EQ(faults[0].cycle, 3u);
  EXPECT_EQ(faults[0].status, 0u);  // the router is fine
  EXPECT_EQ(faults[0].ce_status, static_cast<uint32_t>(arch::CeFault::kTrap));
  EXPECT_EQ(faults[0].ce_pc, 8u);
  EXPECT_EQ(faults[0].ce_addr, 7u);
  EXPECT_NE(fabric::DescribeFault(faults[0]).find("compute engine fault"), std::string::npos);
}

TEST(FabricCe, RouterRegisterWriteTakesEffectAtTheEndOfTheCycle) {
  func::FuncFabric fab(1, 1);
  fabric::RouterRegs& regs = fab.RouterRegsOf({0, 0});
  regs.Write(arch::ColorCfg::Addr(2), 0x30);  // between runs: at once
  EXPECT_EQ(fab.ReadReg({0, 0}, arch::ColorCfg::Addr(2)), 0x30u);
  // A write from a Tick is seen by reads in the same cycle as the old value.
  struct Writer final : fabric::RampEndpoint {
    fabric::RouterRegs* r;
    uint32_t seen = 0;
    void Tick(uint64_t cycle, fabric::RampPort&) override {
      if (cycle == 0) {
        r->Write(arch::ColorCfg::Addr(2), 0x51);
        seen = r->Read(arch::ColorCfg::Addr(2));
      }
    }
    uint64_t NextWake() const override { return fabric::kNever; }
  } w;
  w.r = &regs;
  fab.SetEndpoint({0, 0}, &w);
  fab.Run(1);
  EXPECT_EQ(w.seen, 0x30u);
  EXPECT_EQ(fab.ReadReg({0, 0}, arch::ColorCfg::Addr(2)), 0x51u);
}

}  // namespace
}  // namespace tessera::ce::test
