#include "fp/directed_vectors.h"

#include <random>
#include <utility>

#include "fp/execute.h"
#include "fp/format.h"

namespace tessera::fp {
namespace {

constexpr int kRandomValues = 40;
constexpr int kAdjacentPairs = 10;

template <typename F>
std::vector<uint32_t> SpecialValues() {
  const uint32_t one = uint32_t{F::kBias} << F::kFracBits;
  const uint32_t base[] = {0,
                           1,
                           F::kFracMask,
                           F::kHiddenBit,
                           one,
                           one + 1,
                           F::kInf - 1u,
                           F::kInf,
                           F::kInf | F::kQuietBit,
                           F::kInf | F::kQuietBit | 5u,
                           F::kInf | 1u,
                           F::kInf | (F::kQuietBit >> 1)};
  std::vector<uint32_t> v;
  for (uint32_t x : base) {
    v.push_back(x);
    v.push_back(x | F::kSignMask);
  }
  return v;
}

// Random values come from one sequence (std::mt19937, seed 1): f32 takes the first draws, f16 the
// ones after them, so the two formats get different values.
template <typename F>
std::vector<uint32_t> Values(int draws_before) {
  constexpr uint32_t kMask = F::kSignMask | F::kAbsMask;
  std::vector<uint32_t> v = SpecialValues<F>();
  std::mt19937 rng(1);
  rng.discard(static_cast<unsigned long long>(draws_before));
  for (int i = 0; i < kRandomValues; ++i) v.push_back(rng() & kMask);
  for (int i = 0; i < kAdjacentPairs; ++i) {
    const uint32_t x = rng() & kMask;
    v.push_back(x);
    v.push_back((x + 1) & kMask);
  }
  return v;
}

}  // namespace

std::vector<uint32_t> DirectedValues(arch::FpFmt fmt) {
  if (fmt == arch::FpFmt::kF16) return Values<F16>(kRandomValues + kAdjacentPairs);
  return Values<F32>(0);
}

TestFloatFile DirectedVectors(const TestFloatOp& op) {
  TestFloatFile file;
  file.path = "directed";
  file.op = op;
  const std::vector<uint32_t> values =
      DirectedValues(op.operand_type == ValueType::kF16 ? arch::FpFmt::kF16 : arch::FpFmt::kF32);
  const size_t n = values.size();
  std::vector<FpCase> pairs;
  pairs.reserve(n * n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      const uint32_t c = op.operands > 2 ? values[(i + j) % n] : 0u;
      pairs.push_back(FpCase{op.op, op.fmt, values[i], values[j], c});
    }
  }
  const bool two_lane = IsTwoLane(op.op, op.fmt);
  std::vector<FpCase> order;
  if (two_lane) {
    order.reserve(2 * pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
      order.push_back(pairs[i]);
      order.push_back(pairs[pairs.size() - 1 - i]);
    }
  } else {
    order = std::move(pairs);
  }
  file.vectors.reserve(order.size());
  for (const FpCase& in : order) {
    uint8_t flags[arch::kF16Lanes];
    uint32_t result = Execute(in.op, in.fmt, in.a, in.b, in.c, flags);
    if (two_lane) result &= 0xFFFFu;  // lane 0; lane 1 computed on zeros
    const int line = static_cast<int>(file.vectors.size()) + 1;
    file.vectors.push_back(TestFloatVector{in, result, flags[0], line});
  }
  return file;
}

}  // namespace tessera::fp
