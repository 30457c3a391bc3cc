#include "fp/execute.h"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "fp/arith.h"
#include "fp/compare.h"
#include "fp/convert.h"

namespace tessera::fp {
namespace {

using arch::FpFmt;
using arch::FpOp;

constexpr int kNumOps = static_cast<int>(FpOp::kSqrt) + 1;
constexpr int kNumFmts = static_cast<int>(FpFmt::kF16) + 1;

inline uint16_t Lane(uint32_t word, int lane) { return uint16_t(word >> (16 * lane)); }

// One f16 lane of a two-lane operation.
template <FpOp kOp>
inline uint16_t F16Lane(uint16_t a, uint16_t b, uint16_t c, uint8_t& flags) {
  if constexpr (kOp == FpOp::kAdd) return Add<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kSub) return Sub<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kMul) return Mul<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kMulAdd) return MulAdd<F16>(a, b, c, flags);
  if constexpr (kOp == FpOp::kMin) return Min<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kMax) return Max<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kNeg) return Neg<F16>(a);
  if constexpr (kOp == FpOp::kAbs) return Abs<F16>(a);
  if constexpr (kOp == FpOp::kDiv) return Div<F16>(a, b, flags);
  if constexpr (kOp == FpOp::kSqrt) return Sqrt<F16>(a, flags);
  return 0;
}

// The operation (kOp, kFmt) on one FpCase's words; flags[] are zero on entry.
template <FpFmt kFmt, FpOp kOp>
inline uint32_t Exec(uint32_t a, uint32_t b, uint32_t c, uint8_t flags[arch::kF16Lanes]) {
  if constexpr (kFmt == FpFmt::kF32) {
    uint8_t& f = flags[0];
    if constexpr (kOp == FpOp::kAdd) return Add<F32>(a, b, f);
    if constexpr (kOp == FpOp::kSub) return Sub<F32>(a, b, f);
    if constexpr (kOp == FpOp::kMul) return Mul<F32>(a, b, f);
    if constexpr (kOp == FpOp::kMulAdd) return MulAdd<F32>(a, b, c, f);
    if constexpr (kOp == FpOp::kMin) return Min<F32>(a, b, f);
    if constexpr (kOp == FpOp::kMax) return Max<F32>(a, b, f);
    if constexpr (kOp == FpOp::kLt) return Lt<F32>(a, b, f);
    if constexpr (kOp == FpOp::kLe) return Le<F32>(a, b, f);
    if constexpr (kOp == FpOp::kEq) return Eq<F32>(a, b, f);
    if constexpr (kOp == FpOp::kNeg) return Neg<F32>(a);
    if constexpr (kOp == FpOp::kAbs) return Abs<F32>(a);
    if constexpr (kOp == FpOp::kCvtF2F) return ConvertFloat<F32, F16>(a, f);
    if constexpr (kOp == FpOp::kCvtF2I) return ToI32TowardZero<F32>(a, f);
    if constexpr (kOp == FpOp::kCvtI2F) return FromI32<F32>(a, f);
    if constexpr (kOp == FpOp::kDiv) return Div<F32>(a, b, f);
    if constexpr (kOp == FpOp::kSqrt) return Sqrt<F32>(a, f);
  } else if constexpr (IsTwoLane(kOp, kFmt)) {
    const uint32_t lo = F16Lane<kOp>(Lane(a, 0), Lane(b, 0), Lane(c, 0), flags[0]);
    const uint32_t hi = F16Lane<kOp>(Lane(a, 1), Lane(b, 1), Lane(c, 1), flags[1]);
    return lo | hi << 16;
  } else {
    uint8_t& f = flags[0];
    if constexpr (kOp == FpOp::kLt) return Lt<F16>(Lane(a, 0), Lane(b, 0), f);
    if constexpr (kOp == FpOp::kLe) return Le<F16>(Lane(a, 0), Lane(b, 0), f);
    if constexpr (kOp == FpOp::kEq) return Eq<F16>(Lane(a, 0), Lane(b, 0), f);
    if constexpr (kOp == FpOp::kCvtF2F) return ConvertFloat<F16, F32>(Lane(a, 0), f);
    if constexpr (kOp == FpOp::kCvtF2I) return ToI32TowardZero<F16>(Lane(a, 0), f);
    if constexpr (kOp == FpOp::kCvtI2F) return FromI32<F16>(a, f);
  }
  return 0;
}

// Runs n cases that all are (kFmt, kOp): one loop per operation keeps the arithmetic inlined.
template <FpFmt kFmt, FpOp kOp>
void RunAll(const FpCase* in, FpOut* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    out[i].flags[0] = 0;
    out[i].flags[1] = 0;
    out[i].result = Exec<kFmt, kOp>(in[i].a, in[i].b, in[i].c, out[i].flags);
  }
}

// One case, for Execute: no packing into FpCase and FpOut, no loop.
template <FpFmt kFmt, FpOp kOp>
uint32_t RunOne(uint32_t a, uint32_t b, uint32_t c, uint8_t flags[arch::kF16Lanes]) {
  flags[0] = 0;
  flags[1] = 0;
  return Exec<kFmt, kOp>(a, b, c, flags);
}

using RunFn = void (*)(const FpCase*, FpOut*, size_t);

template <size_t... kI>
constexpr auto MakeTable(std::index_sequence<kI...>) {
  return std::array<RunFn, sizeof...(kI)>{
      &RunAll<static_cast<FpFmt>(kI / kNumOps), static_cast<FpOp>(kI % kNumOps)>...};
}
template <size_t... kI>
constexpr auto MakeOneTable(std::index_sequence<kI...>) {
  return std::array<ExecuteFn, sizeof...(kI)>{
      &RunOne<static_cast<FpFmt>(kI / kNumOps), static_cast<FpOp>(kI % kNumOps)>...};
}

// kRun[fmt * kNumOps + op], and kOne the same for one case.
constexpr auto kRun = MakeTable(std::make_index_sequence<kNumFmts * kNumOps>());
constexpr auto kOne = MakeOneTable(std::make_index_sequence<kNumFmts * kNumOps>());

[[noreturn]] void ThrowBadCode(unsigned o, unsigned f) {
  throw std::invalid_argument("fp::Execute: bad operation code " + std::to_string(o) +
                              " / format " + std::to_string(f));
}

// The table index of (op, fmt); throws for codes outside the enums.
inline unsigned Index(FpOp op, FpFmt fmt) {
  const auto o = static_cast<unsigned>(op);
  const auto f = static_cast<unsigned>(fmt);
  if (o >= kNumOps || f >= kNumFmts) ThrowBadCode(o, f);
  return f * kNumOps + o;
}

RunFn Lookup(FpOp op, FpFmt fmt) { return kRun[Index(op, fmt)]; }

}  // namespace

uint32_t Execute(FpOp op, FpFmt fmt, uint32_t a, uint32_t b, uint32_t c,
                 uint8_t flags[arch::kF16Lanes]) {
  return kOne[Index(op, fmt)](a, b, c, flags);
}

ExecuteFn Resolve(FpOp op, FpFmt fmt) { return kOne[Index(op, fmt)]; }

void ExecuteBatch(const FpCase* in, FpOut* out, size_t n) {
  // Runs of cases with the same operation go through that operation's own loop.
  size_t i = 0;
  while (i < n) {
    size_t j = i + 1;
    while (j < n && in[j].op == in[i].op && in[j].fmt == in[i].fmt) ++j;
    Lookup(in[i].op, in[i].fmt)(in + i, out + i, j - i);
    i = j;
  }
}

}  // namespace tessera::fp
