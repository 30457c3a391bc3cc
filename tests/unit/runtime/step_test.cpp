// The machines under the runtime (host/runtime/machine.h) below the Device: the RTL machine's PE
// origin, per-cycle stepping (Step) on the functional model and the RTL alike, and the state
// reads that co-simulation compares (ReadCore, ReadSram) against the back door.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/assembler.h"
#include "asm/link.h"
#include "loop_program.h"
#include "machine/func_machine.h"
#include "machine/machine.h"
#include "machine/pe_load.h"
#include "rtl/rtl_fabric.h"

namespace tessera::runtime {
namespace {

using runtime::test::kLoop;
using runtime::test::Link;

std::unique_ptr<machine::Machine> Rtl(fabric::Coord origin = {0, 0}) {
  machine::RtlMachineOptions o;
  o.systemc = false;
  o.pe_origin = origin;
  return machine::MakeRtlMachine(o);
}

// Both events in words, field by field: "" if they are equal.
std::string Differences(const fabric::PeEvents& a, const fabric::PeEvents& b) {
  std::string s;
  auto item = [&](const char* what, auto x, auto y) {
    if (x != y) s += fmt::format(" {}: func {}, rtl {};", what, x, y);
  };
  item("retire", a.retire, b.retire);
  if (a.retire && b.retire) item("retire_pc", a.retire_pc, b.retire_pc);
  item("task_start", a.task_start, b.task_start);
  if (a.task_start && b.task_start) item("task", int{a.task}, int{b.task});
  item("debug records", a.debug.size(), b.debug.size());
  for (size_t i = 0; i < a.debug.size() && i < b.debug.size(); ++i)
    item("debug", a.debug[i].ToString(), b.debug[i].ToString());
  item("faulted", a.faulted, b.faulted);
  item("quiet", a.quiet, b.quiet);
  return s;
}

// A 1x1 RTL machine can stand in for PE(3,2) of a larger fabric: its CE reads those
// coordinates, while the host still calls it PE(0,0).
TEST(RtlMachine, PeOriginSetsTheCoordinatesTheCeSees) {
  std::unique_ptr<machine::Machine> m = Rtl({3, 2});
  EXPECT_EQ(m->Read({0, 0}, arch::PeCoord::kAddr), 2u << 16 | 3u);
  std::unique_ptr<machine::Machine> plain = Rtl();
  EXPECT_EQ(plain->Read({0, 0}, arch::PeCoord::kAddr), 0u);
}

// Both backends report the same events in the same cycles: the picker starts the task in cycle
// 0, the first instruction issues in cycle 1; the debug record comes with its cycle.
TEST(MachineStep, FuncAndRtlReportTheSameEventsEveryCycle) {
  const assembler::PeProgram p = Link(kLoop);
  machine::FuncMachine func(1, 1, {1, 1});
  std::unique_ptr<machine::Machine> rtl = Rtl();
  for (machine::Machine* m : {static_cast<machine::Machine*>(&func), rtl.get()}) {
    m->SetTaskLog(true);
    machine::LoadPeProgram(*m, {0, 0}, p);
    machine::LaunchTask(*m, {0, 0}, 0);
  }
  std::vector<fabric::PeEvents> ef, er;
  int debug = 0, starts = 0;
  for (uint64_t c = 0; c < 200; ++c) {
    ASSERT_EQ(func.Step(ef), c);
    ASSERT_EQ(rtl->Step(er), c);
    ASSERT_EQ(ef.size(), 1u);
    ASSERT_EQ(er.size(), 1u);
    ASSERT_EQ(Differences(ef[0], er[0]), "") << "cycle " << c;
    if (c == 0) {
      EXPECT_TRUE(ef[0].task_start && ef[0].task == 0);
    }
    if (c == 1) {
      EXPECT_TRUE(ef[0].retire && ef[0].retire_pc == 0);
    }
    for (const fabric::DebugRecord& d : er[0].debug) {
      EXPECT_EQ(d.value, 55u);
      EXPECT_EQ(d.cycle, c);
      ++debug;
    }
    starts += ef[0].task_start;
    // Step took them: the logs stay empty.
    EXPECT_TRUE(func.TakeDebug().empty());
    EXPECT_TRUE(rtl->TakeDebug().empty());
    EXPECT_TRUE(func.TakeTaskLog().empty());
    EXPECT_TRUE(rtl->TakeTaskLog().empty());
  }
  EXPECT_EQ(debug, 1);
  EXPECT_EQ(starts, 1);
  EXPECT_TRUE(ef[0].quiet);
  EXPECT_TRUE(func.Fabric().Quiescent());
  EXPECT_TRUE(rtl->Fabric().Quiescent());
}

// ReadCore and ReadSram read what the back door reads (the RTL's fast path included).
TEST(MachineStep, StateReadsEqualTheBackDoor) {
  const assembler::PeProgram p = Link(kLoop);
  machine::FuncMachine func(1, 1, {1, 1});
  std::unique_ptr<machine::Machine> rtl = Rtl();
  for (machine::Machine* m : {static_cast<machine::Machine*>(&func), rtl.get()}) {
    machine::LoadPeProgram(*m, {0, 0}, p);
    m->Write({0, 0}, arch::Dsr::Addr(6), 0x12345678);
    m->Write({0, 0}, arch::Dsr::Addr(7), 0x9abcdef0);
    machine::LaunchTask(*m, {0, 0}, 0);
    m->Run(100);
    machine::CoreRegs fast, slow;
    m->ReadCore({0, 0}, fast);
    m->machine::Machine::ReadCore({0, 0}, slow);
    EXPECT_EQ(fast.gpr, slow.gpr) << m->Name();
    EXPECT_EQ(fast.dsr, slow.dsr) << m->Name();
    EXPECT_EQ(fast.gpr[1], 55u) << m->Name();
    EXPECT_EQ(fast.dsr[3], 0x9abcdef012345678ull) << m->Name();
    std::vector<uint8_t> a(arch::kSramBytes), b(arch::kSramBytes);
    m->ReadSram({0, 0}, 0, a.data(), a.size());
    m->machine::Machine::ReadSram({0, 0}, 0, b.data(), b.size());
    EXPECT_EQ(a, b) << m->Name();
    EXPECT_EQ(a, [&] {
      std::vector<uint8_t> img = p.sram;
      const uint16_t d = p.symbols.at("data").address;
      img[d] = 55;
      return img;
    }()) << m->Name();
  }
}

// Every PE of every full-PE tile shape built has its arrays found in the model (else the RTL
// machine falls back to the back door, tens of times slower for co-simulation), and they hold
// what the back door reads.
TEST(RtlFabricCore, ArraysOfEveryPeHoldWhatTheBackDoorReads) {
  for (auto [tw, th] : rtl::BuiltTileShapes(true)) {
    rtl::RtlFabricOptions o;
    o.width = tw;
    o.height = th;
    o.tile_w = tw;
    o.tile_h = th;
    o.ce = true;
    rtl::LoopRtlFabric fab(o);
    for (int i = 0; i < fab.NumPes(); ++i) {
      const fabric::Coord pe = fab.At(i);
      const std::string where = fmt::format("tile {}x{}, PE({},{})", tw, th, pe.x, pe.y);
      const rtl::CoreArrays c = fab.Core(pe);
      ASSERT_NE(c.gpr, nullptr) << where << ": GPR array not found in the model";
      ASSERT_NE(c.dsr, nullptr) << where << ": DSR array not found in the model";
      ASSERT_NE(c.sram, nullptr) << where << ": SRAM array not found in the model";
      for (uint32_t r = 1; r < arch::kNumGprs; ++r)
        fab.WriteReg(pe, arch::Gpr::Addr(r), 0x1000u * (i + 1) + r);
      for (uint32_t d = 0; d < 2 * arch::kNumDsrs; ++d)
        fab.WriteReg(pe, arch::Dsr::Addr(d), 0x2000u * (i + 1) + d);
      for (uint32_t a = 0; a < 64; a += 4) fab.WriteReg(pe, a * 97 % 0xC000, 0xA0000000u + a);
      for (uint32_t r = 0; r < arch::kNumGprs; ++r)
        EXPECT_EQ(c.gpr[r], fab.ReadReg(pe, arch::Gpr::Addr(r))) << where << " r" << r;
      for (uint32_t d = 0; d < arch::kNumDsrs; ++d) {
        const uint64_t lo = fab.ReadReg(pe, arch::Dsr::Addr(2 * d));
        const uint64_t hi = fab.ReadReg(pe, arch::Dsr::Addr(2 * d + 1));
        EXPECT_EQ(c.dsr[d], hi << 32 | lo) << where << " d" << d;
      }
      for (uint32_t w = 0; w < arch::kSramBytes / 4; ++w) {
        const uint32_t back = fab.ReadReg(pe, static_cast<uint16_t>(4 * w));
        if (c.sram[w] != back) {
          ADD_FAILURE() << where << " SRAM word 0x" << std::hex << 4 * w << ": array 0x"
                        << c.sram[w] << ", back door 0x" << back;
          break;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera::runtime
