// Every fault cause of docs/isa.md section 7: the registers, the message, the freeze.
#include <gtest/gtest.h>

#include "ce_test_util.h"

namespace tessera::ce::test {
namespace {

using arch::CeFault;
using arch::ElemType;
using arch::TaskKind;
using Kind = TraceRecord::Kind;

// Runs until the CE faults (or is quiet) and returns the message.
std::string RunFault(Bench& b, const Prog& p, std::vector<TaskBinding> tasks, int launch) {
  b.Load(p, tasks, launch);
  b.RunToQuiet(10000);
  return b.ce.FaultMessage();
}

CeFault Cause(const Bench& b) { return static_cast<CeFault>(b.ce.State().fault_status); }

TEST(CeFault, Illegal) {
  Prog p;
  p.Word(0x40, 0x1F1102C0);
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x40}}, 0),
            "PE(3,2) fault: illegal instruction 0x1F1102C0 at pc 0x0040");
  EXPECT_EQ(Cause(b), CeFault::kIllegal);
  EXPECT_EQ(b.ce.State().fault_addr, 0x1F1102C0u);
  EXPECT_EQ(arch::FaultInfo::Ut(b.ce.State().fault_info), 15u);
  EXPECT_EQ(arch::CeStatus::Faulted(b.ce.StatusWord()), 1u);
  EXPECT_EQ(b.ce.NextWake(), fabric::kNever);
  auto f = b.Records(Kind::kFault);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cycle, 1u);
  EXPECT_EQ(f[0].fault[0], 1u);
}

TEST(CeFault, MisalignedLoadHasNoEffect) {
  Prog p(0x120);
  p("addi", {R(1), Z(), I(9)})("lw", {R(1), A(0x103)})("tend");
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x120}}, 0),
            "PE(3,2) fault: misaligned 32-bit load at pc 0x0124 (address 0x0103)");
  EXPECT_EQ(b.Gpr(1), 9u);
  EXPECT_EQ(arch::FaultInfo::Size(b.ce.State().fault_info),
            static_cast<uint32_t>(arch::AccSize::kWord));
  EXPECT_EQ(arch::FaultInfo::Write(b.ce.State().fault_info), 0u);
  // Frozen: stepping on changes nothing.
  const auto before = b.sink.records.size();
  b.Run(10);
  EXPECT_EQ(b.sink.records.size(), before);
  EXPECT_EQ(b.ce.State().pc, 0x0124);
}

TEST(CeFault, OutOfRangeStore) {
  Prog p(0x48);
  p("lui", {R(2), I(1)})("sh", {R(1), M(2, 2)})("tend");
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x48}}, 0),
            "PE(3,2) fault: out-of-range 16-bit store at pc 0x004C (address 0x00010002)");
}

// dsetb only checks the range (docs/isa.md 5.3): FaultInfo says a descriptor-sized read.
TEST(CeFault, OutOfRangeDescriptorBase) {
  Prog p(0x48);
  p("lui", {R(2), I(1)})("dsetb", {D(1), M(4, 2)})("tend");
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x48}}, 0),
            "PE(3,2) fault: out-of-range base address in dsetb at pc 0x004C (address 0x00010004)");
  EXPECT_EQ(Cause(b), CeFault::kOutOfRange);
  EXPECT_EQ(b.ce.State().fault_addr, 0x10004u);
  EXPECT_EQ(arch::FaultInfo::Size(b.ce.State().fault_info),
            static_cast<uint32_t>(arch::AccSize::kDsd));
  EXPECT_EQ(arch::FaultInfo::Write(b.ce.State().fault_info), 0u);
}

TEST(CeFault, MmioAccess) {
  {
    Prog p(0x60);
    p("lh", {R(1), A(0xC010)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: 16-bit load from register CycleLo at pc 0x0060 (address 0xC010)");
  }
  {
    Prog p(0x60);
    p("lw", {R(1), A(0xC0F0)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: load from unmapped address 0xC0F0 at pc 0x0060");
  }
  {
    Prog p(0x60);
    p("sw", {R(1), A(arch::Gpr::Addr(3))});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: store to host-only register Gpr[3] at pc 0x0060 (address 0xC80C)");
  }
  {
    Prog p(0x60);
    p("lw", {R(1), A(arch::RouterInCount::Addr(4))});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: load from host-only register RouterInCount[4] at pc 0x0060 (address "
              "0xC230)");
  }
  {
    Prog p(0x60);
    p("ldd", {D(1), A(0xC000)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: descriptor load from register PeCoord at pc 0x0060 (address "
              "0xC000)");
  }
  {
    Prog p(0x60);
    p("std", {D(1), A(0x0104)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x60}}, 0),
              "PE(3,2) fault: misaligned descriptor store at pc 0x0060 (address 0x0104)");
  }
}

TEST(CeFault, ReadOnly) {
  Prog p(0x70);
  p("sw", {R(1), A(0xC000)});
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x70}}, 0),
            "PE(3,2) fault: store to read-only register PeCoord at pc 0x0070 (address 0xC000)");
  Prog q(0x70);
  q("sw", {R(1), A(arch::TaskCfg::Addr(31))});
  Bench b2;
  EXPECT_EQ(RunFault(b2, q, {{0, TaskKind::kLocal, 0x70}}, 0),
            "PE(3,2) fault: store to read-only register TaskCfg[31] at pc 0x0070 (address "
            "0xC37C)");
}

TEST(CeFault, PcRange) {
  {
    Prog p(0x1F8);
    p("ori", {R(1), Z(), I(0x102)})("jr", {M(0, 1)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x1F8}}, 0),
              "PE(3,2) fault: jump to 0x0102 at pc 0x01FC: target not 4-byte aligned");
  }
  {
    Prog p(0x200);
    p("beq", {R(1), Z(), I(0x3000)});  // 0x200 + 0xC000
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x200}}, 0),
              "PE(3,2) fault: branch to 0xC200 at pc 0x0200: target outside SRAM");
  }
  {
    Prog p(0xBFF8);
    p("nop")("nop");
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0xBFF8}}, 0),
              "PE(3,2) fault: pc ran past the end of SRAM at pc 0xC000");
    EXPECT_EQ(b.ce.State().fault_addr, 0xC000u);
  }
}

TEST(CeFault, TaskIdAndTaskKind) {
  {
    Prog p(0x7C);
    p("ori", {R(2), Z(), I(40)})("activate", {R(2)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x7C}}, 0),
              "PE(3,2) fault: activate of task 40 at pc 0x0080 (task IDs are 0-31)");
  }
  {
    Prog p(0x84);
    p("activate", {I(3)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x84}, {3, TaskKind::kData, 0x100}}, 0),
              "PE(3,2) fault: activate of data task 3 at pc 0x0084");
  }
  {
    Prog p(0x84);
    p("block", {I(31)})("unblock", {I(12)})("activate", {I(9)});  // 31: nothing; unbound 9
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x84}}, 0),
              "PE(3,2) fault: activate of unbound task 9 at pc 0x008C");
  }
  {  // the dispatcher
    Prog p;
    Bench b;
    b.NotMirrored("wavelets scripted to reach the CE at chosen cycles");
    b.Deliver(3, true, 4, 7u << 16);
    EXPECT_EQ(RunFault(b, p, {{7, TaskKind::kLocal, 0x100}}, -1),
              "PE(3,2) fault: control wavelet on color 4 names task 7, which is a local task");
    EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info), 4u);
    EXPECT_EQ(b.ce.QueueCount(4), 1);  // not consumed
  }
  {  // a completion
    Prog p;
    p.Dword(0x800, Mem1d(ElemType::kU32, 0x1000, 2));
    p("ldd", {D(0), A(0x800)})("mov32", {D(0), D(0), ActivateDone(1, 3)})("tend");
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0}, {3, TaskKind::kData, 0x100}}, 0),
              "PE(3,2) fault: mov32 at pc 0x0004 on ut1: its completion activates data task 3");
    EXPECT_EQ(arch::FaultInfo::Ut(b.ce.State().fault_info), 1u);
  }
}

TEST(CeFault, TaskEntry) {
  Prog p;
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{5, TaskKind::kLocal, 0x102}}, 5),
            "PE(3,2) fault: task 5 (local) has entry 0x0102, which is not 4-byte aligned");
  EXPECT_EQ(b.ce.State().fault_addr, 0x102u);
}

// A DSD instruction at 0x0100 after loading d0..d4 from the given descriptors.
Prog DsdAt(uint16_t pc, const std::vector<uint64_t>& dsds, const std::string& mn,
           std::vector<Opnd> ops) {
  Prog p(static_cast<uint16_t>(pc - 4 * dsds.size()));
  for (size_t k = 0; k < dsds.size(); ++k) {
    p.Dword(static_cast<uint16_t>(0x800 + 8 * k), dsds[k]);
    p("ldd", {D(static_cast<int>(k)), A(0x800 + 8 * static_cast<int>(k))});
  }
  p(mn, std::move(ops))("tend");
  return p;
}

TEST(CeFault, DsdInvalid) {
  const uint64_t f32 = Mem1d(ElemType::kF32, 0x1000, 4);
  {
    Prog p = DsdAt(0x100, {f32, f32, f32}, "fadds", {D(0), D(3), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: src0 (d3) is not a valid descriptor (kind 0)");
    EXPECT_EQ(arch::FaultInfo::Role(b.ce.State().fault_info),
              static_cast<uint32_t>(arch::DsdRole::kSrc0));
    EXPECT_EQ(arch::FaultInfo::Dsr(b.ce.State().fault_info), 3u);
  }
  {
    Prog p =
        DsdAt(0x100, {FabIn(ElemType::kF32, 2, 4), f32, f32}, "fadds", {D(0), D(1), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: dst (d0) is a fabin descriptor, which dst "
              "cannot be");
  }
  {
    Prog p = DsdAt(0x100, {f32, FabIn(ElemType::kF32, 2, 4), FabIn(ElemType::kF32, 2, 4)}, "fadds",
                   {D(0), D(1), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: src0 (d1) and src1 (d2) both read color 2");
  }
  {
    Prog p = DsdAt(0x100, {f32, f32 | 1ull << 31, f32}, "fadds", {D(0), D(1), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: src0 (d1) is not a valid descriptor (reserved "
              "bits set)");
  }
  {
    Prog p(0x100);
    p("dsetl", {D(1), I(-1)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100}}, 0),
              "PE(3,2) fault: dsetl at pc 0x0100: length 0xFFFFFFFF is outside 0..0x7FFF");
  }
}

TEST(CeFault, DsdTypeRangeMisalignedBadColor) {
  const uint64_t f32 = Mem1d(ElemType::kF32, 0x1000, 4);
  {
    Prog p = DsdAt(0x100, {f32, f32, Mem1d(ElemType::kI16, 0x1100, 4)}, "fadds",
                   {D(0), D(1), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: src1 (d2) has type i16, fadds needs f32");
  }
  {
    Prog p = DsdAt(0x104,
                   {Mem1d(ElemType::kF32, 0x1000, 65), Mem1d(ElemType::kF32, 0x1204, 65),
                    Mem1d(ElemType::kF32, 0xBF00, 65)},
                   "fmacs", {D(0), D(1), D(2), R(5), Async(1)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x104 - 12}}, 0),
              "PE(3,2) fault: fmacs at pc 0x0104 on ut1: element 64 of src1 (d2) at address "
              "0xC000 is outside SRAM");
    // Elements 0..63 were written before the fault; element 64 was not.
    EXPECT_EQ(arch::FaultInfo::Index(b.ce.State().fault_info), 64u);
  }
  {
    Prog p = DsdAt(0x100, {Mem1d(ElemType::kF32, 0x0102, 4), f32, f32}, "fadds",
                   {D(0), D(1), D(2), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x100 - 12}}, 0),
              "PE(3,2) fault: fadds at pc 0x0100: dst (d0) base 0x0102 is not aligned to its "
              "4-byte elements");
  }
  {
    Prog p = DsdAt(0x110, {f32, FabIn(ElemType::kF32, 5, 4)}, "mov32", {D(0), D(1), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x110 - 8}}, 0),
              "PE(3,2) fault: mov32 at pc 0x0110: src0 (d1) reads color 5, which no route of "
              "this PE delivers to the CE");
  }
  {
    Prog p = DsdAt(0x110, {FabOut(ElemType::kF32, 25, 4), f32}, "mov32", {D(0), D(1), Sync()});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x110 - 8}}, 0),
              "PE(3,2) fault: mov32 at pc 0x0110: dst (d0) sends on color 25, which is not a "
              "routable color (0-23)");
  }
  {
    Prog p(0x40);
    p("send", {R(1), I(6)});
    Bench b;
    EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x40}}, 0),
              "PE(3,2) fault: send at pc 0x0040: color 6, which no route of this PE accepts "
              "from the CE");
  }
}

TEST(CeFault, Trap) {
  Prog p(0x11C);
  p("nop")("trap", {I(7)});
  Bench b;
  EXPECT_EQ(RunFault(b, p, {{0, TaskKind::kLocal, 0x11C}}, 0),
            "PE(3,2) fault: trap 0x0007 at pc 0x0120");
}

TEST(CeFault, ScalarFaultRanksBeforeAMicrothreadInTheSameCycle) {
  // ut1's third step (element 2 at 0xC000) and a trap in the same cycle: the trap is recorded.
  Prog p;
  p.Dword(0x800, Mem1d(ElemType::kU32, 0xBFF8, 4));
  p.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, 4));
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})(
      "mov32", {D(0), D(1), Async(1)})("nop")("nop")("trap", {I(1)});
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.RunToQuiet();
  EXPECT_EQ(Cause(b), CeFault::kTrap);
  // Without the trap, the step faults in that cycle.
  Prog q;
  q.Dword(0x800, Mem1d(ElemType::kU32, 0xBFF8, 4));
  q.Dword(0x808, Mem1d(ElemType::kU32, 0x1000, 4));
  q("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)})(
      "mov32", {D(0), D(1), Async(1)})("nop")("nop")("nop")("tend");
  Bench b2;
  b2.Load(q, {{0, TaskKind::kLocal, 0}});
  b2.RunToQuiet();
  EXPECT_EQ(Cause(b2), CeFault::kDsdRange);
  auto f = b2.Records(Kind::kFault);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cycle, 6u);  // mov32 @3, steps 4, 5, 6
  // The nop issued in that cycle took effect (the scalar pipeline comes first).
  EXPECT_EQ(b2.RetireCycle(0x0014), 6u);
}

TEST(CeFault, HostClearsTheFaultRegisters) {
  Prog p(0x11C);
  p("trap", {I(7)});
  Bench b;
  RunFault(b, p, {{0, TaskKind::kLocal, 0x11C}}, 0);
  EXPECT_TRUE(b.ce.Faulted());
  b.ce.HostWrite(arch::FaultStatus::kAddr, 0);
  EXPECT_FALSE(b.ce.Faulted());
  EXPECT_EQ(b.ce.HostRead(arch::FaultPc::kAddr), 0u);
  EXPECT_EQ(b.ce.FaultMessage(), "");
}

}  // namespace
}  // namespace tessera::ce::test
