// The directed vectors for the operations TestFloat has none for (directed_vectors.h): which
// values, every pair in both f16 lanes, expected results by the RISC-V rules, and that the
// checking loop finds a defect with them.
#include "fp/directed_vectors.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "fp/execute.h"
#include "fp/func_fp_backend.h"
#include "fp/vector_check.h"
#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

using arch::FpFmt;
using arch::FpOp;

bool Has(const std::vector<uint32_t>& v, uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The vector with operands (a, b), first one found.
const TestFloatVector& Find(const TestFloatFile& f, uint32_t a, uint32_t b) {
  for (const TestFloatVector& v : f.vectors) {
    if (v.in.a == a && v.in.b == b) return v;
  }
  ADD_FAILURE() << "no vector " << a << " " << b;
  return f.vectors.front();
}

TEST(DirectedValues, SpecialRandomAndAdjacentValuesPerFormat) {
  const std::vector<uint32_t> f32 = DirectedValues(FpFmt::kF32);
  const std::vector<uint32_t> f16 = DirectedValues(FpFmt::kF16);
  ASSERT_EQ(f32.size(), 84u);
  ASSERT_EQ(f16.size(), 84u);
  for (uint32_t x :
       {kZero32, kNegZero32, kMinSub32, kMaxSub32, kMinNorm32, kOne32, kNegOne32, 0x3F800001u,
        kMax32, kInf32, kNegInf32, kQNaN32, 0xFFC00005u, kSNaN32, 0x7FA00000u}) {
    EXPECT_TRUE(Has(f32, x)) << std::hex << x;
  }
  for (uint32_t x : {kZero16, kNegZero16, kMinSub16, kMaxSub16, kMinNorm16, kOne16, kMax16, kInf16,
                     kNegInf16, kQNaN16, kSNaN16, uint16_t{0xFD00}}) {
    EXPECT_TRUE(Has(f16, x)) << std::hex << x;
  }
  for (uint32_t x : f16) EXPECT_LE(x, 0xFFFFu);
  // The 10 adjacent pairs close each list.
  for (size_t i = 64; i < 84; i += 2) {
    EXPECT_EQ(f32[i + 1], f32[i] + 1);
    EXPECT_EQ(f16[i + 1], (f16[i] + 1) & 0xFFFF);
  }
  EXPECT_EQ(DirectedValues(FpFmt::kF32), f32);  // the same on every call
  EXPECT_NE(std::vector<uint32_t>(f32.begin() + 24, f32.end()),
            std::vector<uint32_t>(f16.begin() + 24, f16.end()));
}

TEST(DirectedVectors, EveryPairOnceForAOneLaneOperation) {
  const TestFloatFile f = DirectedVectors(Op("f32_min"));
  EXPECT_EQ(f.path, "directed");
  EXPECT_STREQ(f.op.name, "f32_min");
  ASSERT_EQ(f.vectors.size(), 84u * 84u);
  const std::vector<uint32_t> v = DirectedValues(FpFmt::kF32);
  EXPECT_EQ(f.vectors[85].in.a, v[1]);
  EXPECT_EQ(f.vectors[85].in.b, v[1]);
  EXPECT_EQ(f.vectors[85].in.c, 0u);
  EXPECT_EQ(f.vectors[85].line, 86);
  EXPECT_EQ(f.vectors[85].in.op, FpOp::kMin);
}

TEST(DirectedVectors, EveryPairInBothLanesForATwoLaneOperation) {
  const TestFloatFile f = DirectedVectors(Op("f16_max"));
  constexpr size_t kPairs = 84 * 84;
  ASSERT_EQ(f.vectors.size(), 2 * kPairs);
  // Packed two a case, vector 2i goes to lane 0 and 2i + 1 to lane 1.
  std::map<std::pair<uint32_t, uint32_t>, int> lanes_seen;  // bit l: seen in lane l
  for (size_t i = 0; i < f.vectors.size(); ++i) {
    lanes_seen[{f.vectors[i].in.a, f.vectors[i].in.b}] |= 1 << (i % 2);
  }
  for (const auto& [pair, seen] : lanes_seen)
    EXPECT_EQ(seen, 3) << pair.first << " " << pair.second;
  EXPECT_EQ(f.vectors[1].in.a, f.vectors[2 * kPairs - 2].in.a);
}

TEST(DirectedVectors, ExpectedResultsFollowTheRiscVRules) {
  const TestFloatFile min32 = DirectedVectors(Op("f32_min"));
  EXPECT_EQ(Find(min32, kSNaN32, kOne32).result, kOne32);
  EXPECT_EQ(Find(min32, kSNaN32, kOne32).flags, kNV);
  EXPECT_EQ(Find(min32, kZero32, kNegZero32).result, kNegZero32);
  EXPECT_EQ(Find(min32, kQNaN32, 0xFFC00005).result, kQNaN32);
  EXPECT_EQ(Find(min32, kQNaN32, 0xFFC00005).flags, kNone);

  const TestFloatFile max16 = DirectedVectors(Op("f16_max"));
  EXPECT_EQ(Find(max16, kNegZero16, kZero16).result, kZero16);
  EXPECT_EQ(Find(max16, kSNaN16, 0xFE00).result, kQNaN16);
  EXPECT_EQ(Find(max16, kSNaN16, 0xFE00).flags, kNV);
  EXPECT_EQ(Find(max16, kNegInf16, kMax16).result, kMax16);

  // One-operand operations ignore b, which sweeps the values too; a signaling NaN stays one.
  const TestFloatFile neg16 = DirectedVectors(Op("f16_neg"));
  EXPECT_EQ(Find(neg16, kSNaN16, kOne16).result, 0xFC01u);
  EXPECT_EQ(Find(neg16, kSNaN16, kOne16).flags, kNone);
  const TestFloatFile abs32 = DirectedVectors(Op("f32_abs"));
  EXPECT_EQ(Find(abs32, kNegInf32, kSNaN32).result, kInf32);
  EXPECT_EQ(Find(abs32, 0xFFC00005, kZero32).result, 0x7FC00005u);
}

TEST(DirectedVectors, OtherOperationsWork) {
  const TestFloatFile lt = DirectedVectors(Op("f16_lt"));
  EXPECT_EQ(lt.vectors.size(), 84u * 84u);         // lane 0 only: each pair once
  EXPECT_EQ(Find(lt, kOne16, 0x3C01).result, 1u);  // 1 < 1 + ulp
  const TestFloatFile fma = DirectedVectors(Op("f32_mulAdd"));
  const std::vector<uint32_t> v = DirectedValues(FpFmt::kF32);
  EXPECT_EQ(fma.vectors[84 + 5].in.c, v[6]);  // c = values[(i + j) % n]
  EXPECT_EQ(DirectedVectors(Op("i32_to_f16")).vectors[0].in.fmt, FpFmt::kF16);
}

// The functional model with Min wrong in lane 1 only.
class Lane1MinBackend final : public FpBackend {
 public:
  const char* Name() const override { return "lane1-min"; }
  void Run(const FpCase* in, FpOut* out, size_t n) override {
    ExecuteBatch(in, out, n);
    for (size_t i = 0; i < n; ++i) {
      if (in[i].op == FpOp::kMin && in[i].a >> 16 == kNegZero16 && in[i].b >> 16 == kZero16) {
        out[i].result = (out[i].result & 0xFFFF) | uint32_t{kZero16} << 16;
      }
    }
  }
};

TEST(DirectedVectors, CheckingWithThemFindsALane1Defect) {
  FuncFpBackend func;
  for (const char* name :
       {"f32_min", "f32_max", "f32_neg", "f32_abs", "f16_min", "f16_max", "f16_neg", "f16_abs"}) {
    SCOPED_TRACE(name);
    const VectorCheckReport r = CheckVectors(func, DirectedVectors(Op(name)));
    EXPECT_EQ(r.failed, 0u);
    EXPECT_EQ(r.passed, r.checked);
  }
  Lane1MinBackend broken;
  const TestFloatFile min16 = DirectedVectors(Op("f16_min"));
  const VectorCheckReport r = CheckVectors(broken, min16);
  EXPECT_EQ(r.failed, 1u);  // (-0, +0) in lane 1; in lane 0 it passes
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].lane, 1);
  EXPECT_EQ(min16.vectors[r.mismatches[0].vector].in.a, kNegZero16);
}

}  // namespace
}  // namespace tessera::fp::fptest
