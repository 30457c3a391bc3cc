// Scalar instructions: results and cycle counts (docs/isa.md 4.4-4.10, 6.8 item 3).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ce_test_util.h"

namespace tessera::ce::test {
namespace {

using arch::ElemType;
using Kind = TraceRecord::Kind;

const std::vector<TaskBinding> kMain = {{0, arch::TaskKind::kLocal, 0x0000}};

TEST(CeEncode, GoldenEncodingsOfDocsIsa413) {
  EXPECT_EQ(Asm("add", {R(1), R(2), R(3)}), 0x00032101u);
  EXPECT_EQ(Asm("addi", {R(1), Z(), I(-1)}), 0xFFFF0190u);
  EXPECT_EQ(Asm("lw", {R(4), M(0, 1)}), 0x00001424u);
  EXPECT_EQ(Asm("sw", {R(3), A(0xC040)}), 0xC04003A7u);
  EXPECT_EQ(Asm("bne", {R(2), Z(), I(-4)}), 0xFFFC02A9u);
  EXPECT_EQ(Asm("fadd.s", {R(3), R(3), R(4)}), 0x00043302u);
  EXPECT_EQ(Asm("tend", {}), 0x01000003u);
  EXPECT_EQ(Asm("fadds", {D(2), D(0), D(1), Sync()}), 0x1F0102C0u);
  EXPECT_EQ(Asm("fmacs", {D(0), D(0), D(1), R(5), ActivateDone(1, 1)}), 0x21510076u);
}

TEST(CeScalar, TaskStartsInPickerCycleAndFirstInstructionIssuesNext) {
  Prog p;
  p("addi", {R(1), Z(), I(5)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  auto starts = b.Records(Kind::kTaskStart);
  ASSERT_EQ(starts.size(), 1u);
  EXPECT_EQ(starts[0].cycle, 0u);
  EXPECT_EQ(starts[0].task, 0);
  EXPECT_EQ(b.RetireCycle(0x0000), 1u);
  EXPECT_EQ(b.RetireCycle(0x0004), 2u);
  EXPECT_EQ(b.Gpr(1), 5u);
  EXPECT_EQ(b.ce.State().pc, 0x0008);  // after the last tend
  EXPECT_TRUE(b.ce.Quiet());
  EXPECT_EQ(b.ce.NextWake(), fabric::kNever);
}

TEST(CeScalar, AluResultsOneCycleEach) {
  Prog p;
  p("addi", {R(1), Z(), I(-7)})        // r1 = -7
      ("ori", {R(2), Z(), I(0x8003)})  // r2 = 0x8003 (zero-extended)
      ("add", {R(3), R(1), R(2)})      // 0x7FFC
      ("sub", {R(4), Z(), R(1)})       // 7
      ("and", {R(5), R(2), R(1)})      // 0x8001
      ("or", {R(6), R(1), R(4)})       // -1
      ("xor", {R(7), R(6), R(2)})      // ~0x8003
      ("shl", {R(8), R(4), R(4)})      // 7 << 7
      ("shr", {R(9), R(1), R(4)})      // logical
      ("sra", {R(10), R(1), R(4)})     // -1
      ("slt", {R(11), R(1), R(4)})     // 1
      ("sltu", {R(12), R(1), R(4)})    // 0
      ("mul", {R(13), R(1), R(2)})     // -7 * sx(0x8003)
      ("mulu", {R(14), R(1), R(2)})    // 0xFFF9 * 0x8003
      ("lui", {R(15), I(0x1234)})      // 0x12340000
      ("slti", {R(0), R(1), I(-6)})    // 1
      ("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const uint32_t m7 = static_cast<uint32_t>(-7);
  EXPECT_EQ(b.Gpr(1), m7);
  EXPECT_EQ(b.Gpr(2), 0x8003u);
  EXPECT_EQ(b.Gpr(3), m7 + 0x8003u);
  EXPECT_EQ(b.Gpr(4), 7u);
  EXPECT_EQ(b.Gpr(5), 0x8001u);
  EXPECT_EQ(b.Gpr(6), 0xFFFFFFFFu);
  EXPECT_EQ(b.Gpr(7), ~0x8003u);
  EXPECT_EQ(b.Gpr(8), 7u << 7);
  EXPECT_EQ(b.Gpr(9), m7 >> 7);
  EXPECT_EQ(b.Gpr(10), 0xFFFFFFFFu);
  EXPECT_EQ(b.Gpr(11), 1u);
  EXPECT_EQ(b.Gpr(12), 0u);
  EXPECT_EQ(b.Gpr(13), static_cast<uint32_t>(-7 * static_cast<int16_t>(0x8003)));
  EXPECT_EQ(b.Gpr(14), 0xFFF9u * 0x8003u);
  EXPECT_EQ(b.Gpr(15), 0x12340000u);
  EXPECT_EQ(b.Gpr(0), 1u);
  for (int k = 0; k < 17; ++k) EXPECT_EQ(b.RetireCycle(static_cast<uint16_t>(4 * k)), 1u + k);
}

TEST(CeScalar, ImmediateForms) {
  Prog p;
  p("addi", {R(1), Z(), I(0x7FFF)})("sltiu", {R(2), R(1), I(-1)})  // u32(0x7FFF) < 0xFFFFFFFF
      ("andi", {R(3), R(1), I(0xF0F0)})("xori", {R(4), R(1), I(-1)})("shli", {R(5), R(1), I(31)})(
          "shri", {R(6), R(5), I(31)})("srai", {R(7), R(5), I(31)})("muli", {R(8), R(1), I(-2)})(
          "mului", {R(9), R(4), I(0xFFFF)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(2), 1u);
  EXPECT_EQ(b.Gpr(3), 0x7FFFu & 0xF0F0u);
  EXPECT_EQ(b.Gpr(4), ~0x7FFFu);
  EXPECT_EQ(b.Gpr(5), 0x80000000u);
  EXPECT_EQ(b.Gpr(6), 1u);
  EXPECT_EQ(b.Gpr(7), 0xFFFFFFFFu);
  EXPECT_EQ(b.Gpr(8), static_cast<uint32_t>(0x7FFF * -2));
  EXPECT_EQ(b.Gpr(9), 0x8000u * 0xFFFFu);
}

TEST(CeScalar, BranchTakenCostsTwoNotTakenOne) {
  Prog p;
  p("addi", {R(1), Z(), I(3)})  // 1
      .Label("loop")("addi", {R(1), R(1), I(-1)})("bne", {R(1), Z(), L("loop")})(
          "beq", {R(1), Z(), L("next")})  // taken
      ("addi", {R(2), Z(), I(99)})        // skipped
      .Label("next")("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(1), 0u);
  EXPECT_EQ(b.Gpr(2), 0u);
  // addi@1; loop: addi@2 bne@3 (taken) addi@5 bne@6 (taken) addi@8 bne@9 (not taken) beq@10
  EXPECT_EQ(b.RetireCycle(0x0004, 0), 2u);
  EXPECT_EQ(b.RetireCycle(0x0004, 1), 5u);
  EXPECT_EQ(b.RetireCycle(0x0004, 2), 8u);
  EXPECT_EQ(b.RetireCycle(0x0008, 2), 9u);
  EXPECT_EQ(b.RetireCycle(0x000C), 10u);
  EXPECT_EQ(b.RetireCycle(0x0014), 12u);  // beq taken: 2 cycles
}

// Reproducers of the undefined behaviour an AddressSanitizer + UndefinedBehaviorSanitizer build
// found (issue 19): a taken branch and a jump backwards (their offsets were shifted left while
// negative) and an empty image (memcpy from a null pointer). Under the sanitizers these failed;
// here they also pin the targets.
TEST(CeScalar, BackwardBranchAndJumpAndAnEmptyImage) {
  Prog p(0x100);
  p("ori", {R(1), Z(), I(2)})                      // 0x100
      .Label("back")("addi", {R(1), R(1), I(-1)})  // 0x104: twice
      ("bne", {R(1), Z(), L("back")})              // 0x108: offset -1 word
      ("j", {L("fwd")})                            // 0x10C
      .Label("mid")("ori", {R(2), Z(), I(7)})      // 0x110
      ("tend")                                     // 0x114
      .Label("fwd")("j", {L("mid")});              // 0x118: offset -2 words
  Bench b;
  b.Load(p, {{0, arch::TaskKind::kLocal, 0x100}});
  b.RunToQuiet();
  EXPECT_EQ(b.ce.State().gpr[1], 0u);
  EXPECT_EQ(b.ce.State().gpr[2], 7u);
  EXPECT_EQ(b.ce.State().fault_status, 0u);
  Ce empty(0, 0, nullptr);
  empty.Load({}, {});
  EXPECT_EQ(empty.HostRead(0), 0u);
}

TEST(CeScalar, BranchConditions) {
  Prog p;
  p("addi", {R(1), Z(), I(-1)})("addi", {R(2), Z(), I(1)});
  const char* kOps[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
  // r1 = -1, r2 = 1: eq no, ne yes, lt yes, ge no, ltu no (0xFFFFFFFF > 1), geu yes.
  for (int k = 0; k < 6; ++k) {
    const std::string skip = fmt::format("s{}", k);
    p(kOps[k], {R(1), R(2), L(skip)})("ori", {R(3), R(3), I(1 << k)}).Label(skip);
  }
  p("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(3), 0b011001u);  // taken branches skip their ori
}

TEST(CeScalar, JumpsCostTwoAndLink) {
  Prog p;
  p("jal", {R(15), L("f")})                           // 0x00 @1
      ("j", {L("end")})                               // 0x04 @6
          .Label("f")("addi", {R(1), Z(), I(1)})      // 0x08 @3
      ("jr", {M(0, 15)})                              // 0x0C @4 -> 0x04
          .Label("end")("ori", {R(2), Z(), I(0x18)})  // 0x10 @8
      ("jalr", {R(3), M(4, 2)})                       // 0x14 @9 -> 0x1C
      ("tend")                                        // 0x18 (skipped)
      ("tend");                                       // 0x1C @11
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(15), 0x0004u);
  EXPECT_EQ(b.Gpr(3), 0x0018u);
  EXPECT_EQ(b.RetireCycle(0x0000), 1u);
  EXPECT_EQ(b.RetireCycle(0x0008), 3u);
  EXPECT_EQ(b.RetireCycle(0x000C), 4u);
  EXPECT_EQ(b.RetireCycle(0x0004), 6u);
  EXPECT_EQ(b.RetireCycle(0x0010), 8u);
  EXPECT_EQ(b.RetireCycle(0x0014), 9u);
  EXPECT_EQ(b.RetireCycle(0x001C), 11u);
}

TEST(CeScalar, ScalarFpCostsSixAndSetsFlags) {
  Prog q;
  q("lui", {R(1), I(0x3F80)})("lui", {R(2), I(0x4040)})("fadd.s", {R(3), R(1), R(2)})(
      "fmul.s", {R(4), R(3), R(2)})("fma.s", {R(5), R(4), R(2), R(1)})(
      "fsub.s", {R(6), R(1), R(2)})("flt.s", {R(7), R(6), R(1)})("fcvt.w.s", {R(8), R(5)})(
      "fcvt.h.s", {R(9), R(1)})("fadd.h", {R(10), R(9), R(9)})("fcvt.s.w", {R(11), R(8)})(
      "lui", {R(13), I(0x3DCC)})("ori", {R(13), R(13), I(0xCCCD)})  // 0.1f
      ("fadd.s", {R(14), R(13), R(1)})                              // inexact
      ("lw", {R(12), A(0xC018)})                                    // FpFlags
      ("tend");
  Bench b;
  b.Load(q, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(3), F32(4.0f));
  EXPECT_EQ(b.Gpr(4), F32(12.0f));
  EXPECT_EQ(b.Gpr(5), F32(37.0f));
  EXPECT_EQ(b.Gpr(6), F32(-2.0f));
  EXPECT_EQ(b.Gpr(7), 1u);
  EXPECT_EQ(b.Gpr(8), 37u);
  EXPECT_EQ(b.Gpr(9), 0x3C00u);
  EXPECT_EQ(b.Gpr(10), 0x4000u);
  EXPECT_EQ(b.Gpr(11), F32(37.0f));
  EXPECT_EQ(b.Gpr(14), F32(1.1f));
  EXPECT_EQ(b.Gpr(12), static_cast<uint32_t>(arch::FpFlag::kInexact));
  EXPECT_EQ(b.RetireCycle(0x0008), 3u);
  EXPECT_EQ(b.RetireCycle(0x000C), 9u);  // FmacLatency + 2 = 6 cycles
  EXPECT_EQ(b.RetireCycle(0x0010), 15u);
}

TEST(CeScalar, DivisionAndSquareRootCostLikeEveryFpOp) {
  Prog q;
  q("lui", {R(1), I(0x3F80)})("lui", {R(2), I(0x4040)})         // 1.0, 3.0
      ("fdiv.s", {R(3), R(1), R(2)})                            // 1/3, inexact
      ("fsqrt.s", {R(4), R(2)})                                 // sqrt(3)
      ("ori", {R(9), Z(), I(0)})("fdiv.s", {R(5), R(1), R(9)})  // 1/0: infinite
      ("ori", {R(6), Z(), I(0x4400)})                           // f16 4.0
      ("fsqrt.h", {R(7), R(6)})                                 // 2.0
      ("fdiv.h", {R(8), R(6), R(7)})                            // 4/2 = 2.0, exact
      ("lw", {R(12), A(0xC018)})                                // FpFlags
      ("tend");
  Bench b;
  b.Load(q, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(3), 0x3EAAAAABu);
  EXPECT_EQ(b.Gpr(4), 0x3FDDB3D7u);
  EXPECT_EQ(b.Gpr(5), 0x7F800000u);
  EXPECT_EQ(b.Gpr(7), 0x4000u);
  EXPECT_EQ(b.Gpr(8), 0x4000u);
  EXPECT_EQ(b.Gpr(12), static_cast<uint32_t>(arch::FpFlag::kInexact) |
                           static_cast<uint32_t>(arch::FpFlag::kInfinite));
  EXPECT_EQ(b.RetireCycle(0x000C), b.RetireCycle(0x0008) + 6);  // FmacLatency + 2, as fadd.s
}

TEST(CeScalar, LoadsAndStores) {
  Prog p;
  p.Word(0x100, 0x8081F2F3);
  p("lb", {R(1), A(0x100)})("lbu", {R(2), A(0x101)})("lh", {R(3), A(0x102)})(
      "lhu", {R(4), A(0x102)})("lw", {R(5), A(0x100)})("ori", {R(6), Z(), I(0x110)})(
      "sb", {R(5), M(0, 6)})("sh", {R(5), M(2, 6)})("sw", {R(5), M(4, 6)})("lw", {R(7), M(0, 6)})(
      "lw", {R(8), M(4, 6)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(1), 0xFFFFFFF3u);
  EXPECT_EQ(b.Gpr(2), 0xF2u);
  EXPECT_EQ(b.Gpr(3), 0xFFFF8081u);
  EXPECT_EQ(b.Gpr(4), 0x8081u);
  EXPECT_EQ(b.Gpr(5), 0x8081F2F3u);
  EXPECT_EQ(b.Gpr(7), 0xF2F300F3u);
  EXPECT_EQ(b.Gpr(8), 0x8081F2F3u);
  for (int k = 0; k < 12; ++k) EXPECT_EQ(b.RetireCycle(static_cast<uint16_t>(4 * k)), 1u + k);
  auto r = b.Records(Kind::kRetire);
  ASSERT_GT(r.size(), 7u);
  EXPECT_EQ(r[6].num_writes, 1);
  EXPECT_EQ(r[6].writes[0], (TraceWrite{TraceWrite::Kind::kMem, 1, 0x110, 0xF3}));
}

TEST(CeScalar, CycleCounterAndRegisters) {
  Prog p;
  p("lw", {R(1), A(0xC010)})("lw", {R(2), A(0xC014)})("lw", {R(3), A(0xC000)})(
      "lw", {R(4), A(0xC008)})("ori", {R(5), Z(), I(0x1F)})("sw", {R(5), A(0xC018)})(
      "lw", {R(6), A(0xC018)})("lw", {R(7), A(0xC300)})("tend");
  Bench b;
  b.Run(100);  // start later: the counter is the fabric's
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(1), 101u);  // the counter in the load's issue cycle
  EXPECT_EQ(b.Gpr(2), 0u);
  EXPECT_EQ(b.Gpr(3), 2u << 16 | 3u);  // PE(3,2)
  EXPECT_EQ(arch::CeStatus::Task(b.Gpr(4)), 0u);
  EXPECT_EQ(arch::CeStatus::Running(b.Gpr(4)), 1u);
  EXPECT_EQ(b.Gpr(6), 0x1Fu);
  EXPECT_EQ(b.Gpr(7), static_cast<uint32_t>(arch::TaskKind::kLocal) << 16);
}

TEST(CeScalar, DescriptorRegisterInstructions) {
  Prog p;
  const uint64_t d = Mem1d(ElemType::kF32, 0x0100, 32);
  p.Dword(0x200, d);
  p("ldd", {D(1), A(0x200)})       // @1
      ("dmov", {D(2), D(1)})       // @2
      ("drd", {R(1), D(2), I(0)})  // @3
      ("drd", {R(2), D(2), I(1)})  // @4
      ("dincb", {D(2), I(3)})      // base += 3*4
      ("dsetl", {D(2), I(7)})("ori", {R(3), Z(), I(0x300)})("dsetb", {D(3), M(8, 3)})  // base 0x308
      ("dwr", {D(4), R(1), I(0)})("std", {D(2), A(0x208)})  // @10, 2 cycles
      ("ldd", {D(5), A(0x208)})                             // @12
      ("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  const auto& s = b.ce.State();
  EXPECT_EQ(s.dsr[1], d);
  EXPECT_EQ(b.Gpr(1), static_cast<uint32_t>(d));
  EXPECT_EQ(b.Gpr(2), static_cast<uint32_t>(d >> 32));
  const uint64_t d2 = arch::Dsd::WithLength(arch::Dsd::WithBase(d, 0x010C), 7);
  EXPECT_EQ(s.dsr[2], d2);
  EXPECT_EQ(arch::Dsd::Base(s.dsr[3]), 0x308u);
  EXPECT_EQ(s.dsr[4], static_cast<uint32_t>(d));
  EXPECT_EQ(s.dsr[5], d2);
  EXPECT_EQ(b.RetireCycle(0x0024), 10u);
  EXPECT_EQ(b.RetireCycle(0x0028), 12u);
}

TEST(CeScalar, StoreToCodeIsSeenByFetchesFromTheNextCycle) {
  Prog p;
  // 0x00: r1 = the word of "addi r2, 0, 7"; store it over 0x08 (fetched in the store's cycle:
  // the old instruction runs) and over 0x10 (fetched later: the new one runs).
  const uint32_t w = Asm("addi", {R(2), Z(), I(7)});
  p("lui", {R(1), I(w >> 16)})("ori", {R(1), R(1), I(w & 0xFFFF)})("sw", {R(1), A(0x0010)})  // 0x08
      ("sw", {R(1), A(0x0010)})    // 0x0C: fetched while 0x08 issues? no: own fetch
      ("addi", {R(2), Z(), I(1)})  // 0x10: replaced before its fetch
      ("sw", {R(1), A(0x0018)})    // 0x14: fetches 0x18 in its own issue cycle
      ("addi", {R(3), Z(), I(1)})  // 0x18: old word runs
      ("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  EXPECT_EQ(b.Gpr(2), 7u);
  EXPECT_EQ(b.Gpr(3), 1u);
  EXPECT_EQ(b.Word(0x18), w);
}

TEST(CeScalar, SendUsesCreditsAndWaitsForThem) {
  // 17 sends on color 2 in a row: 15 credits (RampInDepth), then each waits for a returned one.
  Prog p;
  p("ori", {R(1), Z(), I(17)});
  for (int k = 0; k < 17; ++k) p("send", {R(1), I(2)});
  p("sendc", {R(1), I(3)})("tend");
  Bench b;
  b.NotMirrored("sent wavelets whose credits the bench returns and the fake router's registers");
  b.router.OpenAll();
  b.credit_delay = 30;
  b.Load(p, kMain);
  b.RunToQuiet();
  ASSERT_EQ(b.sent.size(), 18u);
  for (int k = 0; k < 15; ++k) EXPECT_EQ(b.sent[k].cycle, 2u + k);
  // The first credit comes back at 2 + 30 and is usable from the next cycle.
  EXPECT_EQ(b.sent[15].cycle, 33u);
  EXPECT_EQ(b.sent[16].cycle, 34u);
  EXPECT_EQ(b.sent[17].cycle, 35u);
  EXPECT_EQ(arch::Link::Data(b.sent[0].link), 17u);
  EXPECT_EQ(arch::Link::Color(b.sent[0].link), 2u);
  EXPECT_EQ(arch::Link::Ctrl(b.sent[0].link), 0u);
  EXPECT_EQ(arch::Link::Ctrl(b.sent[17].link), 1u);
  EXPECT_EQ(arch::Link::Color(b.sent[17].link), 3u);
}

TEST(CeScalar, SendStallsWithoutCreditAndReportsIt) {
  Prog p;
  p.Label("l")("send", {R(1), I(4)})("j", {L("l")});
  Bench b;
  b.NotMirrored("sent wavelets whose credits the bench returns and the fake router's registers");
  b.router.OpenAll();
  b.credit_delay = 1000000;  // credits never come back
  b.Load(p, kMain);
  b.Run(200);
  EXPECT_EQ(b.sent.size(), 15u);
  const uint32_t st = b.ce.StatusWord();
  EXPECT_EQ(arch::CeStatus::Stall(st), static_cast<uint32_t>(arch::CeStall::kSend));
  EXPECT_EQ(arch::CeStatus::StallColor(st), 4u);
  EXPECT_EQ(b.ce.OutCredits(4), 0);
}

TEST(CeScalar, DebugPortRecords) {
  Prog p;
  p("addi", {R(1), Z(), I(-5)})("sw", {R(1), A(0xC040)})("sw", {R(1), A(0xC044)})(
      "sw", {R(1), A(0xC048)})("lui", {R(2), I(0x3FC0)})("sw", {R(2), A(0xC04C)})(
      "ori", {R(3), Z(), I(0x3E00)})("sw", {R(3), A(0xC050)})("ori", {R(4), Z(), I('h')})(
      "sw", {R(4), A(0xC054)})("ori", {R(4), Z(), I('i')})("sw", {R(4), A(0xC054)})(
      "ori", {R(4), Z(), I('\n')})("sw", {R(4), A(0xC054)})("lw", {R(5), A(0xC040)})("tend");
  Bench b;
  b.Load(p, kMain);
  b.RunToQuiet();
  auto d = b.ce.DebugRecords();
  ASSERT_EQ(d.size(), 6u);
  EXPECT_EQ(d[0].ToString(), "@2 PE(3,2): 0xfffffffb");
  EXPECT_EQ(d[1].ToString(), "@3 PE(3,2): 4294967291");
  EXPECT_EQ(d[2].ToString(), "@4 PE(3,2): -5");
  EXPECT_EQ(d[3].ToString(), "@6 PE(3,2): 1.5");
  EXPECT_EQ(d[4].ToString(), "@8 PE(3,2): 1.5");
  EXPECT_EQ(d[5].ToString(), "@14 PE(3,2): hi");
  EXPECT_EQ(b.Gpr(5), static_cast<uint32_t>(-5));
  EXPECT_EQ(FormatDebugValue(3, 0x7FC00000), "nan");
  EXPECT_EQ(FormatDebugValue(3, 0xFF800000), "-inf");
  EXPECT_EQ(FormatDebugValue(4, 0x7C00), "inf");
}

TEST(CeScalar, TraceRecordsCompareAndPrint) {
  TraceRecord a;
  a.kind = Kind::kRetire;
  a.cycle = 5;
  a.pc = 0x10;
  a.word = 0x00032101;
  a.AddWrite(TraceWrite::Kind::kGpr, 1, 7);
  TraceRecord b = a;
  EXPECT_EQ(a, b);
  b.writes[0].value = 8;
  EXPECT_NE(a, b);
  EXPECT_EQ(a.ToString(), "@5 retire pc 0x0010 0x00032101 r1=0x00000007");
}

TEST(CeScalar, HostBackDoor) {
  Bench b;
  b.ce.HostWrite(arch::Gpr::Addr(7), 0x1234);
  b.ce.HostWrite(arch::CePc::kAddr, 0x0040);
  b.ce.HostWrite(arch::Dsr::Addr(5), 0xAAAA5555);  // d2 word 1
  b.ce.HostWrite(0x0100, 0xCAFEF00D);
  b.ce.HostWrite(arch::FabricDim::kAddr, 8u << 16 | 4);
  b.ce.HostWrite(0xC0F0, 5);  // unlisted: ignored
  EXPECT_EQ(b.Gpr(7), 0x1234u);
  EXPECT_EQ(b.ce.HostRead(arch::Gpr::Addr(7)), 0x1234u);
  EXPECT_EQ(b.ce.State().pc, 0x0040);
  EXPECT_EQ(b.ce.HostRead(arch::CePc::kAddr), 0x40u);
  EXPECT_EQ(b.ce.State().dsr[2], 0xAAAA555500000000ull);
  EXPECT_EQ(b.ce.HostRead(arch::Dsr::Addr(5)), 0xAAAA5555u);
  EXPECT_EQ(b.ce.HostRead(0x0100), 0xCAFEF00Du);
  EXPECT_EQ(b.ce.HostRead(0xC0F0), 0u);
  EXPECT_EQ(b.ce.HostRead(arch::FabricDim::kAddr), 8u << 16 | 4);
  EXPECT_EQ(b.ce.HostRead(arch::PeCoord::kAddr), 2u << 16 | 3);
  EXPECT_EQ(b.ce.HostRead(arch::CeColor::Addr(0)), arch::kRampInDepth << 8);
  EXPECT_EQ(b.ce.HostRead(arch::CeStatus::kAddr),
            arch::CeStatus::WithSettled(
                arch::CeStatus::WithQuiet(arch::CeStatus::WithTask(0, 31), 1), 1));
  b.ce.HostWrite(arch::TaskCfg::Addr(3), 0x12FFF0);  // Kind 2, Entry 0xFFF0; bit 20: ignored
  EXPECT_EQ(b.ce.HostRead(arch::TaskCfg::Addr(3)), 0x2FFF0u);
  b.ce.HostWrite(arch::TaskActive::kAddr, 0xFFFFFFFF);
  EXPECT_EQ(b.ce.HostRead(arch::TaskActiveSet::kAddr), 0x7FFFFFFFu);
}

}  // namespace
}  // namespace tessera::ce::test
