// The lockstep runner (cosim/lockstep.h): identical machines agree; a state change made in one
// machine only (a register, a memory word, an instruction) is found at its cycle and named with
// both values; the RTL and the functional model number cycles alike, on one PE and on a 2x2
// fabric whose PEs send each other wavelets.
#include "cosim/lockstep.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../runtime/loop_program.h"
#include "arch/arch.h"
#include "asm/assembler.h"
#include "asm/link.h"
#include "machine/func_machine.h"
#include "machine/machine.h"
#include "machine/pe_load.h"
#include "rtl/rtl_fabric.h"

namespace tessera::cosim {
namespace {

using runtime::test::kLoop;
using runtime::test::Link;

using machine::FuncMachine;
using machine::Machine;
using RunOptions = LockstepOptions;

// A functional machine that changes the state of one PE after a given cycle, as a faulty backend
// would. The events of that cycle carry the PE's flags as they are after the change.
class Poked final : public Machine {
 public:
  Poked(uint64_t at, std::function<void(ce::Ce&)> poke, int width = 1, int height = 1, int pe = 0)
      : f_(width, height, {1, 1}), at_(at), pe_(f_.Fabric().At(pe)), poke_(std::move(poke)) {}
  std::string Name() const override { return "poked"; }
  fabric::Fabric& Fabric() override { return f_.Fabric(); }
  void Write(fabric::Coord pe, uint16_t addr, uint32_t value) override {
    f_.Write(pe, addr, value);
  }
  uint32_t Read(fabric::Coord pe, uint16_t addr) override { return f_.Read(pe, addr); }
  int PortOf(fabric::Coord pe) override { return f_.PortOf(pe); }
  uint64_t Run(uint64_t cycles) override { return f_.Run(cycles); }
  std::vector<ce::DebugRecord> TakeDebug() override { return f_.TakeDebug(); }
  void SetTaskLog(bool on) override { f_.SetTaskLog(on); }
  std::vector<machine::TaskStart> TakeTaskLog() override { return f_.TakeTaskLog(); }
  uint64_t Retired(fabric::Coord pe) override { return f_.Retired(pe); }
  uint64_t Step(std::vector<fabric::PeEvents>& e) override {
    const uint64_t cycle = f_.Step(e);
    if (f_.Cycle() == at_ + 1) {
      ce::Ce& c = f_.CeOf(pe_);
      poke_(c);
      fabric::PeEvents& x = e[f_.Fabric().Index(pe_)];
      x.faulted = x.faulted || c.Faulted();
      x.quiet = c.Quiet();
    }
    return cycle;
  }
  void ReadCore(fabric::Coord pe, machine::CoreRegs& out, bool dsrs) override {
    f_.ReadCore(pe, out, dsrs);
  }
  void ReadSram(fabric::Coord pe, uint16_t addr, uint8_t* out, size_t n) override {
    f_.ReadSram(pe, addr, out, n);
  }

 private:
  FuncMachine f_;
  uint64_t at_;
  fabric::Coord pe_;
  std::function<void(ce::Ce&)> poke_;
};

std::unique_ptr<Machine> Rtl(int width, int height) {
  machine::RtlMachineOptions o;
  o.width = width;
  o.height = height;
  o.tile = rtl::DefaultCeTile();
  o.systemc = false;
  return machine::MakeRtlMachine(o);
}

LockstepResult RunPair(Machine& a, Machine& b, const std::string& text) {
  const assembler::PeProgram p = Link(text);
  for (Machine* x : {&a, &b}) {
    machine::LoadPeProgram(*x, {0, 0}, p);
    machine::LaunchTask(*x, {0, 0}, 0);
  }
  return RunLockstep(a, b, RunOptions{});
}

TEST(Lockstep, IdenticalBackendsAgreeAndEndQuiet) {
  FuncMachine a(1, 1, {1, 1}), b(1, 1, {1, 1});
  const LockstepResult r = RunPair(a, b, kLoop);
  EXPECT_FALSE(r.diverged) << r.divergence.Describe("a", "b");
  EXPECT_EQ(r.end, RunEnd::kQuiet);
  uint8_t w[4];
  a.ReadSram({0, 0}, Link(kLoop).symbols.at("data").address, w, 4);
  EXPECT_EQ(w[0], 55);
}

TEST(Lockstep, AGprChangedInOneBackendIsNamedWithBothValues) {
  FuncMachine a(1, 1, {1, 1});
  Poked b(6, [](ce::Ce& c) { c.MutableState().gpr[3] ^= 0x10; });
  const LockstepResult r = RunPair(a, b, kLoop);
  ASSERT_TRUE(r.diverged);
  const Divergence& d = r.divergence;
  EXPECT_EQ(d.what, "registers");
  EXPECT_EQ(d.cycle, 6u);
  ASSERT_EQ(d.diffs.size(), 1u);
  EXPECT_EQ(d.diffs[0].what, "r3");
  EXPECT_EQ(d.diffs[0].a, "0x00000000");
  EXPECT_EQ(d.diffs[0].b, "0x00000010");
  EXPECT_TRUE(d.has_pc);
  const std::string text = d.Describe("func", "rtl");
  EXPECT_NE(text.find("PE(0,0) cycle 6, pc 0x"), std::string::npos) << text;
  EXPECT_NE(text.find("r3: func 0x00000000, rtl 0x00000010"), std::string::npos) << text;
}

TEST(Lockstep, AnInstructionChangedInOneBackendShowsAsADifferentRetire) {
  // Replace the nop of the loop (pc 0x10) by `j .+4` in one backend: same path, one cycle more.
  FuncMachine a(1, 1, {1, 1});
  Poked b(0, [](ce::Ce& c) {
    const uint8_t j[4] = {0x30, 0x00, 0x01, 0x00};  // j .+4
    c.HostWriteSram(0x10, j, 4);
  });
  const LockstepResult r = RunPair(a, b, kLoop);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.what, "retired instruction");
  ASSERT_EQ(r.divergence.diffs.size(), 1u);
  EXPECT_EQ(r.divergence.diffs[0].a, "pc 0x0014");
  EXPECT_EQ(r.divergence.diffs[0].b, "none");
  EXPECT_EQ(r.divergence.pc, 0x14);  // what the first backend retired in that cycle
  EXPECT_EQ(r.divergence.insn, "bnez    r2, .-12");
}

TEST(Lockstep, AMemoryWordChangedInOneBackendIsFoundAtTheEnd) {
  FuncMachine a(1, 1, {1, 1});
  Poked b(3, [](ce::Ce& c) {
    const uint8_t v[4] = {1, 2, 3, 4};
    c.HostWriteSram(0x400, v, 4);
  });
  const LockstepResult r = RunPair(a, b, kLoop);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.what, "end state");
  ASSERT_EQ(r.divergence.diffs.size(), 1u);
  EXPECT_EQ(r.divergence.diffs[0].what, "M[0x0400]");
  EXPECT_EQ(r.divergence.diffs[0].b, "0x04030201");
}

TEST(Lockstep, AFaultInOneBackendOnlyIsReportedWithTheFaultRegisters) {
  FuncMachine a(1, 1, {1, 1});
  Poked b(4, [](ce::Ce& c) {
    c.MutableState().fault_status = static_cast<uint32_t>(arch::CeFault::kTrap);
  });
  const LockstepResult r = RunPair(a, b, kLoop);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.what, "fault flag");
  EXPECT_EQ(r.divergence.cycle, 4u);
  ASSERT_GE(r.divergence.diffs.size(), 2u);
  EXPECT_EQ(r.divergence.diffs[0].a, "clear");
  EXPECT_EQ(r.divergence.diffs[0].b, "raised");
  EXPECT_EQ(r.divergence.diffs[1].what, "FaultStatus");
  EXPECT_EQ(r.divergence.diffs[1].b, "0x0000000f");
}

// Cycle numbering: the picker starts the launched task at cycle 0 and its first instruction
// retires at cycle 1 in both backends, and the loop's timing is the same cycle for cycle.
TEST(Lockstep, RtlAndFunctionalModelAgreeOnAHandWrittenProgram) {
  FuncMachine a(1, 1, {1, 1});
  std::unique_ptr<Machine> rtl = Rtl(1, 1);
  Machine& b = *rtl;
  const assembler::PeProgram p = Link(kLoop);
  std::vector<fabric::PeEvents> ea, eb;
  for (Machine* x : std::vector<Machine*>{&a, &b}) {
    machine::LoadPeProgram(*x, {0, 0}, p);
    machine::LaunchTask(*x, {0, 0}, 0);
  }
  a.Step(ea);
  b.Step(eb);
  EXPECT_TRUE(ea[0].task_start);
  EXPECT_TRUE(eb[0].task_start);
  EXPECT_FALSE(ea[0].retire);
  EXPECT_FALSE(eb[0].retire);
  a.Step(ea);
  b.Step(eb);
  EXPECT_TRUE(ea[0].retire);
  EXPECT_TRUE(eb[0].retire);
  EXPECT_EQ(ea[0].retire_pc, 0);
  EXPECT_EQ(eb[0].retire_pc, 0);
  const LockstepResult r = RunLockstep(a, b, RunOptions{});
  EXPECT_FALSE(r.diverged) << r.divergence.Describe("func", "rtl");
  EXPECT_EQ(r.end, RunEnd::kQuiet);
}

// A 2x2 fabric: PE(0,0) sends three words east on color 5 (its coordinates last) to a data task
// of PE(1,0) that sums them; PE(0,1) and PE(1,1) end at once.
const char* kEastSender = R"(
        .text
        .task   main, local, 0
main:   li      r1, 0x202       ; ColorCfg: rx RAMP, tx E
        sw      r1, ColorCfg+4*5
        li      r2, 7
        send    r2, 5
        li      r2, 8
        send    r2, 5
        lw      r3, PeCoord
        send    r3, 5
        tend
)";
const char* kWestReceiver = R"(
        .text
        .task   main, local, 0
        .task   rx5, data, 5
main:   li      r1, 0x30        ; ColorCfg: rx W, tx RAMP
        sw      r1, ColorCfg+4*5
        tend
rx5:    lw      r1, acc
        add     r1, r1, r0
        sw      r1, acc
        dbg.u32 r1
        tend
        .data
acc:    .word   0
)";
const char* kIdle = "        .text\n        .task main, local, 0\nmain:   tend\n";

void LoadFabric(Machine& b) {
  const std::vector<assembler::PeProgram> p = {Link(kEastSender), Link(kWestReceiver), Link(kIdle),
                                               Link(kIdle)};
  for (int pe = 0; pe < 4; ++pe) {
    machine::LoadPeProgram(b, b.Fabric().At(pe), p[pe]);
    machine::LaunchTask(b, b.Fabric().At(pe), 0);
  }
}

uint32_t Acc(Machine& b) {
  uint8_t w[4];
  b.ReadSram({1, 0}, Link(kWestReceiver).symbols.at("acc").address, w, 4);
  return w[0] | w[1] << 8 | w[2] << 16 | static_cast<uint32_t>(w[3]) << 24;
}

TEST(Lockstep, RtlFabricAndFunctionalModelAgreeOnTwoPesTalking) {
  FuncMachine a(2, 2, {1, 1});
  std::unique_ptr<Machine> rtl = Rtl(2, 2);
  Machine& b = *rtl;
  LoadFabric(a);
  LoadFabric(b);
  std::vector<fabric::PeEvents> ea, eb;
  a.Step(ea);
  b.Step(eb);
  ASSERT_EQ(ea.size(), 4u);
  ASSERT_EQ(eb.size(), 4u);
  for (int pe = 0; pe < 4; ++pe) {
    EXPECT_TRUE(ea[pe].task_start && eb[pe].task_start) << pe;
    EXPECT_FALSE(ea[pe].retire || eb[pe].retire) << pe;
  }
  a.Step(ea);
  b.Step(eb);
  for (int pe = 0; pe < 4; ++pe) {
    EXPECT_TRUE(ea[pe].retire && eb[pe].retire) << pe;
    EXPECT_EQ(eb[pe].retire_pc, 0) << pe;
  }
  RunOptions o;
  o.regs_on_retire = true;
  const LockstepResult r = RunLockstep(a, b, o);
  EXPECT_FALSE(r.diverged) << r.divergence.Describe("func", "rtl");
  EXPECT_EQ(r.end, RunEnd::kQuiet);
  EXPECT_EQ(Acc(a), 15u);
  EXPECT_EQ(Acc(b), 15u);
  EXPECT_EQ(b.Read({1, 0}, arch::Gpr::Addr(1)), 15u);
}

TEST(Lockstep, OnAFabricTheDivergingPeIsNamed) {
  FuncMachine a(2, 2, {1, 1});
  auto flip = [](ce::Ce& c) { c.MutableState().gpr[2] ^= 1; };
  Poked b(4, flip, 2, 2, 1);
  LoadFabric(a);
  LoadFabric(b);
  RunOptions o;
  o.regs_on_retire = true;  // found at PE(1,0)'s next retire
  const LockstepResult r = RunLockstep(a, b, o);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.what, "registers");
  EXPECT_EQ(r.divergence.pe, 1);
  EXPECT_GT(r.divergence.cycle, 4u);
  const std::string text = r.divergence.Describe("func", "poked");
  EXPECT_NE(text.find("PE(1,0) cycle"), std::string::npos) << text;
  EXPECT_NE(text.find("r2: func 0x00000000, poked 0x00000001"), std::string::npos) << text;
}

// PE(0,0) streams three words from memory east with a DSD: no register holds them on the way.
const char* kEastStreamer = R"(
        .data
        .align  4
x:      .word   7, 8, 9
        .dsd    dx,   mem1d,  u32, base=x, len=3, stride=1
        .dsd    dout, fabout, u32, color=5, len=3
        .text
        .task   main, local, 0
main:   li      r1, 0x202       ; ColorCfg: rx RAMP, tx E
        sw      r1, ColorCfg+4*5
        ldd     d0, dout
        ldd     d1, dx
        mov32   d0, d1
        tend
)";

TEST(Lockstep, OnAFabricAWaveletThatDiffersIsFoundOnItsLink) {
  const std::vector<assembler::PeProgram> p = {Link(kEastStreamer), Link(kWestReceiver),
                                               Link(kIdle), Link(kIdle)};
  const uint16_t x1 = static_cast<uint16_t>(p[0].symbols.at("x").address + 4);
  FuncMachine a(2, 2, {1, 1});
  // The poked side's second word is 0x18 instead of 8, from cycle 1 on.
  auto poke = [x1](ce::Ce& c) { c.MutableState().sram[x1] = 0x18; };
  Poked b(1, poke, 2, 2, 0);
  for (Machine* be : {static_cast<Machine*>(&a), static_cast<Machine*>(&b)}) {
    for (int pe = 0; pe < 4; ++pe) {
      machine::LoadPeProgram(*be, be->Fabric().At(pe), p[pe]);
      machine::LaunchTask(*be, be->Fabric().At(pe), 0);
    }
  }
  RunOptions o;
  o.regs_on_retire = true;
  const LockstepResult r = RunLockstep(a, b, o);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.what, "links");
  EXPECT_EQ(r.divergence.pe, 0);
  ASSERT_EQ(r.divergence.diffs.size(), 1u);
  const Difference& d = r.divergence.diffs[0];
  EXPECT_EQ(d.what, "the ramp from PE(0,0)'s CE up to its router");
  EXPECT_EQ(d.a, "color 5 data 0x00000008");
  EXPECT_EQ(d.b, "color 5 data 0x00000018");
  // The same programs agree, links included, when nothing is poked.
  FuncMachine c(2, 2, {1, 1});
  Poked same(
      1, [](ce::Ce&) {}, 2, 2, 0);
  for (Machine* be : {static_cast<Machine*>(&c), static_cast<Machine*>(&same)}) {
    for (int pe = 0; pe < 4; ++pe) {
      machine::LoadPeProgram(*be, be->Fabric().At(pe), p[pe]);
      machine::LaunchTask(*be, be->Fabric().At(pe), 0);
    }
  }
  const LockstepResult ok = RunLockstep(c, same, o);
  EXPECT_FALSE(ok.diverged) << ok.divergence.Describe("func", "same");
}

TEST(Lockstep, ReadingRegistersOnlyAfterRetiresStillFindsADsrDifferenceAtTheEnd) {
  FuncMachine a(2, 2, {1, 1});
  auto set = [](ce::Ce& c) { c.MutableState().dsr[3] = 0x1234; };
  Poked b(4, set, 2, 2, 3);
  LoadFabric(a);
  LoadFabric(b);
  RunOptions o;
  o.regs_on_retire = true;  // no DSR is written: read at the end only
  const LockstepResult r = RunLockstep(a, b, o);
  ASSERT_TRUE(r.diverged);
  EXPECT_EQ(r.divergence.pe, 3);
  EXPECT_EQ(r.divergence.what, "end state");
  ASSERT_EQ(r.divergence.diffs.size(), 1u);
  EXPECT_EQ(r.divergence.diffs[0].what, "d3");
  EXPECT_EQ(r.divergence.diffs[0].b, "0x0000000000001234");
}

TEST(Lockstep, RunSoloEndsQuietOrAtTheFault) {
  {
    FuncMachine a(1, 1, {1, 1});
    const assembler::PeProgram p = Link(kLoop);
    machine::LoadPeProgram(a, {0, 0}, p);
    machine::LaunchTask(a, {0, 0}, 0);
    EXPECT_EQ(RunSolo(a, RunOptions{}).end, RunEnd::kQuiet);
  }
  {
    FuncMachine a(1, 1, {1, 1});
    machine::LoadPeProgram(a, {0, 0},
                           Link("        .text\n        .task main, local, 0\nmain:   trap 7\n"));
    machine::LaunchTask(a, {0, 0}, 0);
    const SoloResult r = RunSolo(a, RunOptions{});
    EXPECT_EQ(r.end, RunEnd::kFault);
    EXPECT_EQ(r.cycles, 2u);
    EXPECT_EQ(a.Read({0, 0}, arch::FaultStatus::kAddr),
              static_cast<uint32_t>(arch::CeFault::kTrap));
  }
  {
    FuncMachine a(1, 1, {1, 1});  // never ends: times out
    machine::LoadPeProgram(a, {0, 0},
                           Link("        .text\n        .task main, local, 0\nmain:   j main\n"));
    machine::LaunchTask(a, {0, 0}, 0);
    RunOptions o;
    o.max_cycles = 500;
    const SoloResult r = RunSolo(a, o);
    EXPECT_EQ(r.end, RunEnd::kTimeout);
    EXPECT_EQ(r.cycles, 500u);
  }
}

}  // namespace
}  // namespace tessera::cosim
