// Tasks, the picker, the control dispatcher, microthreads and completions, and fabric operands at
// the CE side (docs/isa.md 5, 6.3, 6.4, 6.8).
#include <gtest/gtest.h>

#include "ce_test_util.h"
#include "fp/execute.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using arch::TaskKind;
using Kind = TraceRecord::Kind;

std::vector<std::pair<uint64_t, int>> Starts(const Bench& b) {
  std::vector<std::pair<uint64_t, int>> out;
  for (const TraceRecord& r : b.Records(Kind::kTaskStart)) out.push_back({r.cycle, r.task});
  return out;
}

using Starts_t = std::vector<std::pair<uint64_t, int>>;

TEST(CeTasks, PickerTakesTheLowestIdAndTheNextTaskFollowsTwoCyclesAfterTend) {
  Prog p;
  p("addi", {R(1), Z(), I(1)})("tend");
  p.Org(0x10)("addi", {R(2), Z(), I(3)})("tend");
  Bench b;
  b.Load(p, {{1, TaskKind::kLocal, 0x00}, {3, TaskKind::kLocal, 0x10}}, -1);
  b.ce.Activate(3);
  b.ce.Activate(1);
  b.RunToQuiet();
  EXPECT_EQ(Starts(b), (Starts_t{{0, 1}, {3, 3}}));
  EXPECT_EQ(b.RetireCycle(0x04), 2u);  // tend of task 1
  EXPECT_EQ(b.RetireCycle(0x10), 4u);  // first instruction of task 3: tend + 2
  EXPECT_EQ(b.Gpr(1), 1u);
  EXPECT_EQ(b.Gpr(2), 3u);
}

TEST(CeTasks, DataTaskGetsThePayloadInR0AndItsCreditGoesBack) {
  Prog p;
  p.Org(0x40)("sw", {R(0), A(0x200)})("tend");
  Bench b;
  b.NotMirrored("wavelets scripted to reach the CE at chosen cycles");
  b.Load(p, {{5, TaskKind::kData, 0x40}}, -1);
  b.Deliver(10, false, 5, 0xDEADBEEF);
  b.RunToQuiet();
  EXPECT_EQ(Starts(b), (Starts_t{{11, 5}}));
  EXPECT_EQ(b.Word(0x200), 0xDEADBEEFu);
  ASSERT_EQ(b.credits_returned.size(), 1u);
  EXPECT_EQ(b.credits_returned[0], (std::pair<uint64_t, int>{12, 5}));
  EXPECT_TRUE(b.ce.Quiet());
}

TEST(CeTasks, LowestIdWhateverItsKind) {
  Prog p;
  p.Org(0x40)("addi", {R(1), R(1), I(1)})("tend");
  p.Org(0x80)("addi", {R(2), R(1), I(10)})("tend");
  Bench b;
  b.NotMirrored("wavelets scripted to reach the CE at chosen cycles");
  b.Load(p, {{2, TaskKind::kData, 0x40}, {4, TaskKind::kLocal, 0x80}}, -1);
  b.Deliver(0, false, 2, 7);
  b.Run(1);
  b.ce.Activate(4);
  b.RunToQuiet();
  EXPECT_EQ(Starts(b), (Starts_t{{1, 2}, {4, 4}}));
  EXPECT_EQ(b.Gpr(2), 11u);
}

TEST(CeTasks, ControlWaveletsGoThroughTheDispatcher) {
  Prog p;
  p.Org(0x40)("addi", {R(9), R(9), I(1)})("tend");                            // data task 6
  p.Org(0x80)("sw", {R(0), M(0, 10)})("addi", {R(10), R(10), I(4)})("tend");  // control task 7
  Bench b;
  b.NotMirrored("wavelets scripted to reach the CE at chosen cycles");
  b.Load(p, {{6, TaskKind::kData, 0x40}, {7, TaskKind::kControl, 0x80}}, -1);
  b.ce.HostWrite(arch::Gpr::Addr(10), 0x300);
  b.Deliver(5, true, 6, 7u << 16 | 0x1234);
  b.Deliver(6, true, 6, 7u << 16 | 0x5678);  // names a task already activated: waits
  b.Deliver(7, true, 6, 0x001F0000);         // CtrlNone: consumed, nothing else
  b.Deliver(8, false, 6, 42);                // data: runs the data task
  b.RunToQuiet();
  EXPECT_EQ(Starts(b), (Starts_t{{7, 7}, {11, 6}, {14, 7}}));
  EXPECT_EQ(b.Word(0x300), 0x1234u);
  EXPECT_EQ(b.Word(0x304), 0x5678u);
  EXPECT_EQ(b.Gpr(9), 1u);
  EXPECT_EQ(b.ce.State().task_arg[7], 0x5678u);
  // Each consumed wavelet's credit returns the cycle after it was popped.
  std::vector<uint64_t> cyc;
  for (auto [c, col] : b.credits_returned) cyc.push_back(c);
  EXPECT_EQ(cyc, (std::vector<uint64_t>{7, 9, 10, 12}));
}

TEST(CeTasks, BlockedDataTaskHoldsItsWavelets) {
  Prog p;
  p("block", {I(4)})("ori", {R(2), Z(), I(10)})
      .Label("l")("addi", {R(2), R(2), I(-1)})("bne", {R(2), Z(), L("l")})(
          "lw", {R(5), A(arch::CeColor::Addr(4))})("lw", {R(6), A(arch::CeStatus::kAddr)})(
          "unblock", {I(4)})("tend");
  p.Org(0x40)("addi", {R(1), R(1), I(1)})("tend");
  Bench b;
  b.NotMirrored("wavelets scripted to reach the CE at chosen cycles");
  b.Load(p, {{0, TaskKind::kLocal, 0x00}, {4, TaskKind::kData, 0x40}});
  for (int k = 0; k < 3; ++k) b.Deliver(2 + k, false, 4, k);
  b.RunToQuiet();
  EXPECT_EQ(arch::CeColor::InCount(b.Gpr(5)), 3u);
  EXPECT_EQ(arch::CeColor::OutCredits(b.Gpr(5)), arch::kRampInDepth);
  EXPECT_EQ(arch::CeStatus::Quiet(b.Gpr(6)), 0u);
  EXPECT_EQ(b.Gpr(1), 3u);
  EXPECT_EQ(b.Records(Kind::kTaskStart).size(), 4u);
}

TEST(CeTasks, ActivateWhileRunningRunsAgainWithTheNewArgument) {
  Prog p;
  p.Org(0x20)("add", {R(3), R(3), R(0)})("addi", {R(1), R(1), I(1)})("slti", {R(2), R(1), I(3)})(
       "beq", {R(2), Z(), L("end")})("addi", {R(4), R(0), I(1)})("activate", {I(2), R(4)})
      .Label("end")("tend");
  Bench b;
  b.Load(p, {{2, TaskKind::kLocal, 0x20}}, -1);
  b.ce.HostWrite(arch::TaskArg::Addr(2), 10);
  b.ce.Activate(2);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(1), 3u);
  EXPECT_EQ(b.Gpr(3), 10u + 11 + 12);
  EXPECT_EQ(b.Records(Kind::kTaskStart).size(), 3u);
}

TEST(CeTasks, MaskRegistersFromTheCe) {
  Prog p;
  p("ori", {R(1), Z(), I(0x30)})("sw", {R(1), A(arch::TaskActiveSet::kAddr)})    // tasks 4, 5
      ("ori", {R(1), Z(), I(0x10)})("sw", {R(1), A(arch::TaskBlockSet::kAddr)})  // block 4
      ("lw", {R(2), A(arch::TaskActive::kAddr)})("lw", {R(3), A(arch::TaskBlocked::kAddr)})("tend");
  p.Org(0x40)("addi", {R(5), R(5), I(1)})("tend");
  p.Org(0x50)("addi", {R(6), R(6), I(1)})("sw", {R(6), A(arch::TaskBlockClr::kAddr)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}, {4, TaskKind::kLocal, 0x40}, {5, TaskKind::kLocal, 0x50}});
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(2), 0x30u);
  EXPECT_EQ(b.Gpr(3), 0x10u);
  // Task 5 runs first (4 is blocked); it unblocks 4 by writing r6 = 1 << ... no: 1 to the clear
  // mask does not name task 4, so 4 stays blocked.
  EXPECT_EQ(b.Gpr(6), 1u);
  EXPECT_EQ(b.Gpr(5), 0u);
  EXPECT_EQ(b.ce.State().blocked, 0x10u);
  EXPECT_EQ(b.ce.RunnableTasks(), 0u);
  b.ce.HostWrite(arch::TaskBlockClr::kAddr, 0x10);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(5), 1u);
}

// ---------------------------------------------------------------------------------------------
// Microthreads

Prog TwoDescriptors(uint64_t d0, uint64_t d1) {
  Prog p;
  p.Dword(0x800, d0);
  p.Dword(0x808, d1);
  p("ldd", {D(0), A(0x800)})("ldd", {D(1), A(0x808)});
  return p;
}

TEST(CeUt, AsyncCompletionActivatesATask) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 4), Mem1d(ElemType::kU32, 0x1104, 4));
  p("mov32", {D(0), D(1), ActivateDone(1, 5)})("tend");  // @3, tend @4
  p.Org(0x40)("addi", {R(7), Z(), I(1)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}, {5, TaskKind::kLocal, 0x40}});
  b.RunToQuiet();
  // Steps at 4..7, last result written at 12: completion, task 5 starts at 13.
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, 12u);
  EXPECT_EQ(done[0].ut, 1);
  EXPECT_EQ(done[0].pc, 0x0008);
  EXPECT_EQ(Starts(b), (Starts_t{{0, 0}, {13, 5}}));
  EXPECT_EQ(b.Gpr(7), 1u);
}

TEST(CeUt, AsyncCompletionUnblocksATask) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 2), Mem1d(ElemType::kU32, 0x1104, 2));
  p("block", {I(6)})("activate", {I(6)})("mov32", {D(0), D(1), UnblockDone(2, 6)})("tend");
  p.Org(0x40)("addi", {R(7), Z(), I(1)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}, {6, TaskKind::kLocal, 0x40}});
  b.RunToQuiet();
  // mov32 @5, steps 6, 7, complete 12; task 6 unblocked from 13.
  EXPECT_EQ(Starts(b), (Starts_t{{0, 0}, {13, 6}}));
}

TEST(CeUt, SyncOperationWaitsForAnEarlierAsyncOneOnTheSameUt) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 8), Mem1d(ElemType::kU32, 0x1104, 8));
  p.Dword(0x810, Mem1d(ElemType::kU32, 0x1200, 1));
  p("ldd", {D(2), A(0x810)});
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Async(1)})("mov32", {D(2), D(1), Sync(1)})(
      "lw", {R(1), A(arch::CeStatus::kAddr)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.Run(op / 4 + 3);  // the sync mov32 is waiting for ut1
  EXPECT_EQ(arch::CeStatus::Stall(b.ce.StatusWord()), static_cast<uint32_t>(arch::CeStall::kUt));
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  EXPECT_EQ(b.RetireCycle(op + 4), t + 14);  // ut1: steps t+1..t+8, idle after t+13
  EXPECT_EQ(b.RetireCycle(op + 8), t + 28);  // src0's 8 steps at t+15..t+22, done t+27
  EXPECT_EQ(arch::CeStatus::UtBusy(b.Gpr(1)), 0u);
}

TEST(CeUt, UtwaitWaitsForTheNamedMicrothreads) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 4), Mem1d(ElemType::kU32, 0x1104, 4));
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Async(3)})("utwait", {I(0x04)})("utwait", {I(0x08)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  EXPECT_EQ(b.RetireCycle(op + 4), t + 1);   // ut2 is idle
  EXPECT_EQ(b.RetireCycle(op + 8), t + 10);  // ut3 completes at t+9
}

TEST(CeUt, MicrothreadKeepsRunningAcrossTend) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 16), Mem1d(ElemType::kU32, 0x1104, 16));
  p("mov32", {D(0), D(1), Async(0)})("tend");
  p.Org(0x40)("lw", {R(1), A(arch::UtStatus::Addr(0))})("lw",
                                                        {R(2), A(arch::UtInfo::Addr(0))})("tend");
  for (int i = 0; i < 16; ++i) p.Word(static_cast<uint16_t>(0x1104 + 4 * i), 100 + i);
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}, {1, TaskKind::kLocal, 0x40}});
  b.ce.Activate(1);
  b.RunToQuiet();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1000 + 4 * i)), 100u + i);
  // Task 1 read ut0's state while it ran: busy, async, opcode of mov32, some elements done.
  using U = arch::UtStatus;
  EXPECT_EQ(U::Busy(b.Gpr(1)), 1u);
  EXPECT_EQ(U::Sync(b.Gpr(1)), 0u);
  EXPECT_EQ(U::Opcode(b.Gpr(1)), 0x6Cu);
  EXPECT_EQ(U::Done(b.Gpr(1)), 2u);  // task 1 starts at 5 and reads at 6: steps at 4 and 5
  EXPECT_EQ(arch::UtInfo::Pc(b.Gpr(2)), 0x0008u);
  EXPECT_EQ(arch::UtInfo::Tid(b.Gpr(2)), 31u);
}

TEST(CeUt, FdotResultWinsOverAScalarWriteInTheSameCycle) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kF32, 0x1000, 4), Mem1d(ElemType::kF32, 0x1104, 4));
  for (int i = 0; i < 4; ++i) {
    p.Word(static_cast<uint16_t>(0x1000 + 4 * i), F32(1.0f));
    p.Word(static_cast<uint16_t>(0x1104 + 4 * i), F32(2.0f));
  }
  const uint16_t op = p.Here();
  p("fdots", {R(6), D(0), D(1), Async(1)});  // R6 written at t + 4 + 13
  for (int k = 0; k < 16; ++k) p("nop");
  p("addi", {R(6), Z(), I(99)})("addi", {R(7), R(6), I(0)})("tend");
  Bench b;
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  auto done = b.Records(Kind::kUtDone);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].cycle, t + 17);
  EXPECT_EQ(b.RetireCycle(op + 68), t + 17);
  EXPECT_EQ(b.Gpr(6), F32(8.0f));
  EXPECT_EQ(b.Gpr(7), F32(8.0f));
}

// ---------------------------------------------------------------------------------------------
// Fabric operands at the CE side

TEST(CeFabricOps, FabinToMemoryOneWaveletPerCycle) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 4), FabIn(ElemType::kU32, 3, 4));
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Sync()})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  for (int k = 0; k < 4; ++k) b.Deliver(20 + k, false, 3, 0xA0 + k);
  b.RunToQuiet();
  EXPECT_EQ(b.RetireCycle(op + 4), 30u);  // steps 21..24, done 29
  for (int k = 0; k < 4; ++k) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1000 + 4 * k)), 0xA0u + k);
  ASSERT_EQ(b.credits_returned.size(), 4u);
  EXPECT_EQ(b.credits_returned[0].first, 22u);
  EXPECT_EQ(b.credits_returned[3].first, 25u);
}

TEST(CeFabricOps, FaboutSendsDsdLatencyAfterEachStep) {
  Prog p = TwoDescriptors(FabOut(ElemType::kU32, 5, 4), Mem1d(ElemType::kU32, 0x1000, 4));
  p.Dword(0x810, FabOut(ElemType::kU16, 6, 3, false, true, 100));
  p.Dword(0x818, Mem1d(ElemType::kI16, 0x1100, 3));
  p.Dword(0x820, FabOut(ElemType::kU32, 7, 1, true));
  p("ldd", {D(2), A(0x810)})("ldd", {D(3), A(0x818)})("ldd", {D(4), A(0x820)});
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Sync()})("mov16", {D(2), D(3), Sync()})("mov32",
                                                                  {D(4), D(1), Sync()})("tend");
  for (int k = 0; k < 4; ++k) p.Word(static_cast<uint16_t>(0x1000 + 4 * k), 0x1F0000u + k);
  for (int k = 0; k < 3; ++k) p.Half(static_cast<uint16_t>(0x1100 + 2 * k), 0xBEE0 + k);
  Bench b;
  b.NotMirrored("sent wavelets whose credits the bench returns and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.RunToQuiet();
  const uint64_t t = b.RetireCycle(op);
  // The third operation's length is that of its src0 (4), not of its dst.
  ASSERT_EQ(b.sent.size(), 11u);
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(b.sent[k].cycle, t + 6 + k);
    EXPECT_EQ(arch::Link::Data(b.sent[k].link), 0x1F0000u + k);
    EXPECT_EQ(arch::Link::Color(b.sent[k].link), 5u);
  }
  EXPECT_EQ(b.RetireCycle(op + 4), t + 10);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(arch::Link::Data(b.sent[4 + k].link), (100u + k) << 16 | (0xBEE0u + k));
    EXPECT_EQ(arch::Link::Color(b.sent[4 + k].link), 6u);
  }
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(arch::Link::Ctrl(b.sent[7 + k].link), 1u);
    EXPECT_EQ(arch::Link::Color(b.sent[7 + k].link), 7u);
    EXPECT_EQ(arch::Link::Data(b.sent[7 + k].link), 0x1F0000u + k);
  }
}

TEST(CeFabricOps, ControlWaveletEndsAnUnboundedRead) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 100),
                          FabIn(ElemType::kU32, 3, arch::kUnboundedLength));
  const uint16_t op = p.Here();
  p("mov32", {D(0), D(1), Sync()})("lw", {R(1), A(arch::CeColor::Addr(3))})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  for (int k = 0; k < 3; ++k) b.Deliver(30 + k, false, 3, 7 + k);
  b.Deliver(33, true, 3, 0x001F0000);
  b.RunToQuiet();
  // Steps 31..33; at 34 the control wavelet ends the operation; the last result is written at 38.
  EXPECT_EQ(b.RetireCycle(op + 4), 39u);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1000 + 4 * k)), 7u + k);
  EXPECT_EQ(b.Word(0x100C), 0u);
  // The dispatcher takes the control wavelet once no busy microthread reads color 3: the
  // operation completed at 38, the wavelet is popped at 39 and its credit returned at 40.
  EXPECT_EQ(arch::CeColor::InCount(b.Gpr(1)), 1u);
  EXPECT_EQ(b.credits_returned.back().first, 40u);
}

TEST(CeFabricOps, TwoFabinOperandsTakeHalfARate) {
  Prog p = TwoDescriptors(FabIn(ElemType::kU32, 1, 3), FabIn(ElemType::kU32, 2, 3));
  p.Dword(0x810, Mem1d(ElemType::kU32, 0x1000, 3));
  p("ldd", {D(2), A(0x810)});
  const uint16_t op = p.Here();
  p("add32", {D(2), D(0), D(1), Sync()})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  for (int k = 0; k < 3; ++k) {  // the ramp brings one wavelet per cycle
    b.Deliver(10 + 2 * k, false, 1, 100 * k);
    b.Deliver(11 + 2 * k, false, 2, k);
  }
  b.RunToQuiet();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(b.Word(static_cast<uint16_t>(0x1000 + 4 * k)), 101u * k);
  EXPECT_EQ(b.RetireCycle(op + 4), 16u + 6);  // steps at 12, 14, 16
}

TEST(CeFabricOps, DataTaskWaitsWhileAnOperationReadsItsColor) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 2), FabIn(ElemType::kU32, 3, 2));
  p("mov32", {D(0), D(1), Sync()})("tend");
  p.Org(0x40)("sw", {R(0), A(0x1100)})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}, {3, TaskKind::kData, 0x40}});
  for (int k = 0; k < 3; ++k) b.Deliver(1 + k, false, 3, 50 + k);
  b.RunToQuiet();
  EXPECT_EQ(b.Word(0x1000), 50u);
  EXPECT_EQ(b.Word(0x1004), 51u);
  EXPECT_EQ(b.Word(0x1100), 52u);
}

TEST(CeFabricOps, FdothWithAFabinOperandStepsOneLaneAtATime) {
  const int n = 9;
  Prog p = TwoDescriptors(FabIn(ElemType::kF16, 2, n), Mem1d(ElemType::kF16, 0x1000, n));
  uint8_t fl[2];
  auto h = [&](float f) {
    return static_cast<uint16_t>(
        fp::Execute(arch::FpOp::kCvtF2F, arch::FpFmt::kF32, F32(f), 0, 0, fl));
  };
  std::vector<uint16_t> a, c;
  for (int i = 0; i < n; ++i) {
    a.push_back(h(0.5f + i));
    c.push_back(h(1.0f - 0.125f * i));
    p.Half(static_cast<uint16_t>(0x1000 + 2 * i), c.back());
  }
  p("ori", {R(6), Z(), I(h(2.0f))})("fdoth", {R(6), D(0), D(1), Sync()})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  for (int i = 0; i < n; ++i) b.Deliver(10 + i, false, 2, 0xABCD0000u | a[i]);  // 31:16 ignored
  b.RunToQuiet();
  uint16_t part[8] = {h(2.0f), 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000};
  auto fp16 = [&](arch::FpOp op, uint16_t x, uint16_t y, uint16_t z) {
    return static_cast<uint16_t>(fp::Execute(op, arch::FpFmt::kF16, x, y, z, fl));
  };
  for (int i = 0; i < n; ++i) part[i % 8] = fp16(arch::FpOp::kMulAdd, a[i], c[i], part[i % 8]);
  auto add = [&](uint16_t x, uint16_t y) { return fp16(arch::FpOp::kAdd, x, y, 0); };
  const uint16_t want = add(add(add(part[0], part[2]), add(part[4], part[6])),
                            add(add(part[1], part[3]), add(part[5], part[7])));
  EXPECT_EQ(b.Gpr(6), want);
}

TEST(CeFabricOps, QuietAfterEverything) {
  Prog p = TwoDescriptors(Mem1d(ElemType::kU32, 0x1000, 2), FabIn(ElemType::kU32, 3, 2));
  p("mov32", {D(0), D(1), Async(4)})("tend");
  Bench b;
  b.NotMirrored(
      "wavelets scripted to reach the CE at chosen cycles and the fake router's registers");
  b.router.OpenAll();
  b.Load(p, {{0, TaskKind::kLocal, 0}});
  b.Run(20);
  EXPECT_FALSE(b.ce.Quiet());  // ut4 waits for wavelets on color 3
  using U = arch::UtStatus;
  EXPECT_EQ(U::Wait(b.ce.HostRead(U::Addr(4))), static_cast<uint32_t>(arch::UtWait::kFabIn));
  EXPECT_EQ(arch::UtInfo::Color(b.ce.HostRead(arch::UtInfo::Addr(4))), 3u);
  EXPECT_EQ(arch::CeColor::Reader(b.ce.HostRead(arch::CeColor::Addr(3))), 1u);
  b.Deliver(b.cycle, false, 3, 1);
  b.Deliver(b.cycle + 1, false, 3, 2);
  b.RunToQuiet();
  EXPECT_TRUE(b.ce.Quiet());
  EXPECT_EQ(b.ce.NextWake(), fabric::kNever);
  EXPECT_EQ(b.ce.OwedCredits(), 0);
  EXPECT_EQ(arch::CeStatus::Quiet(b.ce.StatusWord()), 1u);
}

}  // namespace
}  // namespace tessera::ce::test
