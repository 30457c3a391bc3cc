// The checking loop behind fpcheck (vector_check.h): which vectors it runs, how it packs them into
// cases (f16 lane pairs, the signaling NaN in lane 1 of lane-0-only operations), what it counts
// as a mismatch, and what a mismatch report says.
#include "fp/vector_check.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fp/execute.h"
#include "fp/format.h"
#include "fp/func_fp_backend.h"
#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

using arch::FpFmt;
using arch::FpOp;

// A file of the given (a, b) vectors with the functional model's results, lines 1, 2, ...
TestFloatFile FileOf(const char* op_name, const std::vector<std::pair<uint32_t, uint32_t>>& ab) {
  TestFloatFile file;
  file.path = "mem.tv";
  file.op = Op(op_name);
  for (const auto& [a, b] : ab) {
    const FpCase in{file.op.op, file.op.fmt, a, b, 0};
    uint8_t flags[arch::kF16Lanes];
    uint32_t r = Execute(in.op, in.fmt, in.a, in.b, in.c, flags);
    if (IsTwoLane(in.op, in.fmt)) r &= 0xFFFF;
    file.vectors.push_back({in, r, flags[0], static_cast<int>(file.vectors.size()) + 1});
  }
  return file;
}

// The functional model with one deliberate defect, to see the checker catch it.
class BrokenBackend final : public FpBackend {
 public:
  enum class Defect { kFlipLane1Result, kLane1FlagsOnOneLaneOp, kReadsLane1 };
  explicit BrokenBackend(Defect d) : defect_(d) {}
  const char* Name() const override { return "broken"; }
  void Run(const FpCase* in, FpOut* out, size_t n) override {
    ExecuteBatch(in, out, n);
    for (size_t i = 0; i < n; ++i) {
      switch (defect_) {
        case Defect::kFlipLane1Result:
          out[i].result ^= 1u << 16;
          break;
        case Defect::kLane1FlagsOnOneLaneOp:
          if (!IsTwoLane(in[i].op, in[i].fmt)) out[i].flags[1] = kFlagInexact;
          break;
        case Defect::kReadsLane1:  // as if lane 1's operands took part in a lane-0-only compare
          if (F16::IsSignalingNan(static_cast<uint16_t>(in[i].a >> 16))) out[i].flags[0] |= kNV;
          break;
      }
    }
  }

 private:
  Defect defect_;
};

TEST(SelectVectors, AllOrEvenlySpaced) {
  EXPECT_EQ(SelectVectors(4, 0), (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(SelectVectors(4, 9), (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(SelectVectors(10, 3), (std::vector<size_t>{0, 3, 6}));
}

TEST(PackCase, TwoLaneOperationsPairVectors) {
  const TestFloatOp& op = Op("f16_mulAdd");
  const TestFloatVector lo{{op.op, op.fmt, 0x3C00, 0x4000, 0x4200}, 0, 0, 1};
  const TestFloatVector hi{{op.op, op.fmt, 0xBC00, 0xC000, 0xC200}, 0, 0, 2};
  const FpCase both = PackCase(op, lo, &hi);
  EXPECT_EQ(both.a, 0xBC003C00u);
  EXPECT_EQ(both.b, 0xC0004000u);
  EXPECT_EQ(both.c, 0xC2004200u);
  const FpCase alone = PackCase(op, lo, nullptr);
  EXPECT_EQ(alone.a, 0x3C00u);
  EXPECT_EQ(alone.c, 0x4200u);
}

TEST(PackCase, LaneZeroOnlyF16OperandsCarryASignalingNanInLane1) {
  ASSERT_TRUE(F16::IsSignalingNan(kUnusedLanePoison));
  const TestFloatOp& lt = Op("f16_lt");
  const FpCase c = PackCase(lt, {{lt.op, lt.fmt, 0x3C00, 0x4000, 0}, 1, 0, 1}, nullptr);
  EXPECT_EQ(c.a, 0x7D003C00u);
  EXPECT_EQ(c.b, 0x7D004000u);
  EXPECT_EQ(c.c, 0u);  // not an operand
  const TestFloatOp& cvt = Op("f16_to_i32_rminMag");
  EXPECT_EQ(PackCase(cvt, {{cvt.op, cvt.fmt, 0xC500, 0, 0}, 0, 0, 1}, nullptr).a, 0x7D00C500u);
  EXPECT_EQ(PackCase(cvt, {{cvt.op, cvt.fmt, 0xC500, 0, 0}, 0, 0, 1}, nullptr).b, 0u);
}

TEST(PackCase, WordOperandsAreUntouched) {
  for (const char* name : {"f32_add", "f32_to_f16", "i32_to_f16", "i32_to_f32"}) {
    SCOPED_TRACE(name);
    const TestFloatOp& op = Op(name);
    const FpCase c = PackCase(op, {{op.op, op.fmt, 0x00012345, 0x3F800000, 0}, 0, 0, 1}, nullptr);
    EXPECT_EQ(c.a, 0x00012345u);
    EXPECT_EQ(c.b, 0x3F800000u);
  }
}

TEST(CheckVectors, CountsVectorsCasesAndLanes) {
  FuncFpBackend func;
  const TestFloatFile add = FileOf("f16_add", {{0x3C00, 0x3C00}, {0x7BFF, 0x7BFF}, {0, 0x8000}});
  const VectorCheckReport r = CheckVectors(func, add);
  EXPECT_EQ(r.checked, 3u);
  EXPECT_EQ(r.cases, 2u);
  EXPECT_EQ(r.lanes, 2);
  EXPECT_EQ(r.passed, 3u);
  EXPECT_EQ(r.failed, 0u);

  const TestFloatFile lt = FileOf("f32_lt", {{kOne32, kTwo32}, {kQNaN32, kOne32}, {0, 0}});
  const VectorCheckReport s = CheckVectors(func, lt, {2, 5});
  EXPECT_EQ(s.checked, 2u);
  EXPECT_EQ(s.cases, 2u);
  EXPECT_EQ(s.lanes, 1);
  EXPECT_EQ(s.passed, 2u);
}

TEST(CheckVectors, AWrongExpectationFailsInItsLane) {
  TestFloatFile mul = FileOf("f16_mul", {{0x3C00, 0x4000}, {0x4000, 0x4000}, {0x3C00, 0x3C00}});
  mul.vectors[1].flags = kNX;  // checked in lane 1 of case 0
  FuncFpBackend func;
  const VectorCheckReport r = CheckVectors(func, mul);
  EXPECT_EQ(r.passed, 2u);
  EXPECT_EQ(r.failed, 1u);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].vector, 1u);
  EXPECT_EQ(r.mismatches[0].lane, 1);
  EXPECT_EQ(r.mismatches[0].result, 0x4400u);
  EXPECT_EQ(r.mismatches[0].flags, kNone);
}

TEST(CheckVectors, KeepsTheFirstShowMismatches) {
  BrokenBackend broken(BrokenBackend::Defect::kFlipLane1Result);
  const TestFloatFile add =
      FileOf("f16_add", {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}});
  const VectorCheckReport r = CheckVectors(broken, add, {0, 2});
  EXPECT_EQ(r.passed, 4u);  // the lane-0 vectors
  EXPECT_EQ(r.failed, 3u);
  ASSERT_EQ(r.mismatches.size(), 2u);
  EXPECT_EQ(r.mismatches[0].vector, 1u);
  EXPECT_EQ(r.mismatches[1].vector, 3u);
}

TEST(CheckVectors, LaneOneFlagsOfAOneLaneOperationFail) {
  BrokenBackend broken(BrokenBackend::Defect::kLane1FlagsOnOneLaneOp);
  const VectorCheckReport r = CheckVectors(broken, FileOf("f32_add", {{kOne32, kOne32}}));
  EXPECT_EQ(r.failed, 1u);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].result, kTwo32);
  EXPECT_EQ(r.mismatches[0].other_lane_flags, kNX);
}

TEST(CheckVectors, TheLane1PoisonRevealsALeak) {
  BrokenBackend broken(BrokenBackend::Defect::kReadsLane1);
  const VectorCheckReport r = CheckVectors(broken, FileOf("f16_eq", {{kOne16, kOne16}}));
  EXPECT_EQ(r.failed, 1u);
  FuncFpBackend func;
  EXPECT_EQ(CheckVectors(func, FileOf("f16_eq", {{kOne16, kOne16}})).failed, 0u);
}

TEST(FormatMismatch, NamesVectorOperationValuesAndFlags) {
  TestFloatFile mul = FileOf("f16_mul", {{0x3C00, 0x4000}, {0x7BFF, 0x4000}});
  mul.vectors[1].flags = kOF;  // the model says overflow|inexact
  FuncFpBackend func;
  const VectorCheckReport r = CheckVectors(func, mul);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(FormatMismatch(mul, r.mismatches[0]),
            "FAIL mem.tv:2 (lane 1): f16_mul a=0x7BFF (65504) b=0x4000 (2)\n"
            "  expected 0x7C00 (inf) flags overflow\n"
            "  got      0x7C00 (inf) flags inexact|overflow\n");
}

TEST(FormatMismatch, OneLaneNotes) {
  const TestFloatFile lt = FileOf("f16_lt", {{kOne16, kTwo16}});
  EXPECT_EQ(FormatMismatch(lt, {0, 0, 0, kNV, kNX}),
            "FAIL mem.tv:1: f16_lt a=0x3C00 (1) b=0x4000 (2), bits 31:16 of each operand 0x7D00 "
            "(sNaN)\n"
            "  expected 1 (true) flags none\n"
            "  got      0 (false) flags invalid\n"
            "  and lane 1 flags inexact (a one-lane operation must leave them 0)\n");
  TestFloatFile neg = FileOf("f32_neg", {{kOne32, kSNaN32}});
  EXPECT_EQ(FormatMismatch(neg, {0, 0, kOne32, 0, 0}),
            "FAIL mem.tv:1: f32_neg a=0x3F800000 (1) b=0x7F800001 (not an operand, ignored)\n"
            "  expected 0xBF800000 (-1) flags none\n"
            "  got      0x3F800000 (1) flags none\n");
}

}  // namespace
}  // namespace tessera::fp::fptest
