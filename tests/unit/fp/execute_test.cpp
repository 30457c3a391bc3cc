// The word-level contract (execute.h, fp_backend.h): f16 lanes, per-lane flags, lane-0-only
// operations, zero-extended 16-bit results, bad codes, and the FuncFpBackend batch path.
#include "fp/execute.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "fp/func_fp_backend.h"
#include "fp_test_util.h"

namespace tessera::fp::fptest {
namespace {

using arch::FpFmt;
using arch::FpOp;

struct Word {
  uint32_t result;
  uint8_t flags0, flags1;
  bool operator==(const Word& o) const {
    return result == o.result && flags0 == o.flags0 && flags1 == o.flags1;
  }
};
void PrintTo(const Word& w, std::ostream* os) {
  *os << fmt::format("0x{:08X} lane0 {} lane1 {}", w.result, FlagNames(w.flags0),
                     FlagNames(w.flags1));
}

Word Exec(FpOp op, FpFmt fmt, uint32_t a, uint32_t b = 0, uint32_t c = 0) {
  uint8_t flags[arch::kF16Lanes] = {0xFF, 0xFF};  // Execute must set both
  const uint32_t r = Execute(op, fmt, a, b, c, flags);
  return {r, flags[0], flags[1]};
}

uint32_t Pack(uint16_t lane0, uint16_t lane1) { return lane0 | uint32_t(lane1) << 16; }

TEST(ExecuteF16Lanes, LanesAreIndependentWithTheirOwnFlags) {
  // lane 0: 1 + 1 = 2 exactly; lane 1: 65504 + 65504 overflows.
  EXPECT_EQ(Exec(FpOp::kAdd, FpFmt::kF16, Pack(kOne16, kMax16), Pack(kOne16, kMax16)),
            (Word{Pack(kTwo16, kInf16), kNone, kOF | kNX}));
}

TEST(ExecuteF16Lanes, MulAddPerLane) {
  // lane 0: 0 * inf + qNaN is invalid; lane 1: 2 * 1 + 1 = 3 (0x4200) exactly.
  EXPECT_EQ(Exec(FpOp::kMulAdd, FpFmt::kF16, Pack(kZero16, kTwo16), Pack(kInf16, kOne16),
                 Pack(kQNaN16, kOne16)),
            (Word{Pack(kQNaN16, 0x4200), kNV, kNone}));
}

TEST(ExecuteF16Lanes, SubMulMinMaxNegAbsUseBothLanes) {
  EXPECT_EQ(Exec(FpOp::kSub, FpFmt::kF16, Pack(kOne16, kTwo16), Pack(kOne16, kOne16)),
            (Word{Pack(kZero16, kOne16), kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kMul, FpFmt::kF16, Pack(kTwo16, kMinSub16), Pack(kTwo16, 0x3800)),
            (Word{Pack(0x4400, kZero16), kNone, kNX | kUF}));
  EXPECT_EQ(Exec(FpOp::kMin, FpFmt::kF16, Pack(kZero16, kSNaN16), Pack(kNegZero16, kOne16)),
            (Word{Pack(kNegZero16, kOne16), kNone, kNV}));
  EXPECT_EQ(Exec(FpOp::kMax, FpFmt::kF16, Pack(kZero16, kQNaN16), Pack(kNegZero16, kQNaN16)),
            (Word{Pack(kZero16, kQNaN16), kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kNeg, FpFmt::kF16, Pack(kOne16, kSNaN16)),
            (Word{Pack(0xBC00, 0xFC01), kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kAbs, FpFmt::kF16, Pack(0xBC00, 0xFE55)),
            (Word{Pack(kOne16, 0x7E55), kNone, kNone}));
}

TEST(ExecuteF16Lane0Only, ComparisonsIgnoreTheUpperHalf) {
  // A signaling NaN in lane 1 must not raise invalid.
  EXPECT_EQ(Exec(FpOp::kLt, FpFmt::kF16, Pack(kOne16, kSNaN16), Pack(kTwo16, kSNaN16)),
            (Word{1, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kLe, FpFmt::kF16, Pack(kTwo16, 0), Pack(kOne16, 0)),
            (Word{0, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kEq, FpFmt::kF16, Pack(kNegZero16, 0x1234), Pack(kZero16, 0x4321)),
            (Word{1, kNone, kNone}));
}

TEST(ExecuteF16Lane0Only, ConversionsFromF16IgnoreTheUpperHalf) {
  EXPECT_EQ(Exec(FpOp::kCvtF2F, FpFmt::kF16, Pack(kOne16, kSNaN16)), (Word{kOne32, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kCvtF2I, FpFmt::kF16, Pack(0xC500, kInf16)),  // -5
            (Word{0xFFFFFFFB, kNone, kNone}));
}

TEST(ExecuteF16Lane0Only, ResultsInF16AreZeroExtended) {
  EXPECT_EQ(Exec(FpOp::kCvtF2F, FpFmt::kF32, kNegOne32), (Word{0x0000BC00, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kCvtI2F, FpFmt::kF16, static_cast<uint32_t>(-2)),
            (Word{0x0000C000, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kCvtI2F, FpFmt::kF16, 65520), (Word{kInf16, kOF | kNX, kNone}));
}

TEST(ExecuteF32, EveryOperation) {
  EXPECT_EQ(Exec(FpOp::kAdd, FpFmt::kF32, kOne32, kOne32), (Word{kTwo32, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kSub, FpFmt::kF32, kOne32, kOne32), (Word{kZero32, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kMul, FpFmt::kF32, kMax32, kTwo32), (Word{kInf32, kOF | kNX, kNone}));
  EXPECT_EQ(Exec(FpOp::kMulAdd, FpFmt::kF32, kTwo32, kTwo32, kNegOne32),
            (Word{0x40400000, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kMin, FpFmt::kF32, kZero32, kNegZero32), (Word{kNegZero32, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kMax, FpFmt::kF32, kSNaN32, kOne32), (Word{kOne32, kNV, kNone}));
  EXPECT_EQ(Exec(FpOp::kLt, FpFmt::kF32, kOne32, kTwo32), (Word{1, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kLe, FpFmt::kF32, kQNaN32, kTwo32), (Word{0, kNV, kNone}));
  EXPECT_EQ(Exec(FpOp::kEq, FpFmt::kF32, kQNaN32, kQNaN32), (Word{0, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kNeg, FpFmt::kF32, kSNaN32), (Word{0xFF800001, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kAbs, FpFmt::kF32, kNegInf32), (Word{kInf32, kNone, kNone}));
  EXPECT_EQ(Exec(FpOp::kCvtF2I, FpFmt::kF32, kNegInf32), (Word{0x80000000, kNV, kNone}));
  EXPECT_EQ(Exec(FpOp::kCvtI2F, FpFmt::kF32, 0x7FFFFFFF), (Word{0x4F000000, kNX, kNone}));
}

TEST(ExecuteBadCode, ThrowsInvalidArgument) {
  EXPECT_THROW(Exec(static_cast<FpOp>(16), FpFmt::kF32, 0), std::invalid_argument);
  EXPECT_THROW(Exec(FpOp::kAdd, static_cast<FpFmt>(2), 0), std::invalid_argument);
}

TEST(FuncFpBackend, RunsMixedBatchesLikeExecute) {
  const std::vector<FpCase> in = {
      {FpOp::kMulAdd, FpFmt::kF32, kOne32, kTwo32, kOne32},
      {FpOp::kMulAdd, FpFmt::kF32, kZero32, kInf32, kQNaN32},
      {FpOp::kAdd, FpFmt::kF16, Pack(kOne16, kMax16), Pack(kOne16, kMax16), 0},
      {FpOp::kLt, FpFmt::kF16, kQNaN16, kOne16, 0},
      {FpOp::kMulAdd, FpFmt::kF32, kMax32, kTwo32, kZero32},
  };
  std::vector<FpOut> out(in.size());
  FuncFpBackend backend;
  EXPECT_STREQ(backend.Name(), "func");
  backend.Run(in.data(), out.data(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(i);
    const Word want = Exec(in[i].op, in[i].fmt, in[i].a, in[i].b, in[i].c);
    EXPECT_EQ((Word{out[i].result, out[i].flags[0], out[i].flags[1]}), want);
  }
  EXPECT_EQ(out[1].result, kQNaN32);
  EXPECT_EQ(out[2].flags[1], kOF | kNX);
}

}  // namespace
}  // namespace tessera::fp::fptest
