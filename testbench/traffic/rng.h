// Deterministic random numbers for `tessera noc` (testbench/traffic). The same seed gives the same
// traffic on every host, compiler and backend: only integer arithmetic and correctly rounded IEEE
// basic operations are used (no std distributions, no libm).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::noc {

// The splitmix64 finalizer: a bijective 64-bit mix.
inline uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A seed for one independent stream (a PE, a pattern) derived from a run's seed.
inline uint64_t StreamSeed(uint64_t seed, uint64_t stream) {
  return Mix64(seed ^ Mix64(stream ^ 0x5DEECE66Dull));
}

// splitmix64: small, fast, and good enough for traffic generation.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed = 0) : state_(seed) {}
  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // A number in [0, n) (multiply-shift; n > 0).
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((Next() >> 32) * n) >> 32); }

 private:
  uint64_t state_;
};

// An event of probability p, drawn as one comparison of a 64-bit random number.
class Chance {
 public:
  explicit Chance(double p = 0) {
    if (!(p > 0)) return;  // also NaN: never
    if (p >= 1) {
      always_ = true;
      return;
    }
    threshold_ = static_cast<uint64_t>(p * 18446744073709551616.0);  // p * 2^64 < 2^64
  }
  bool Draw(SplitMix64& rng) const { return always_ || rng.Next() < threshold_; }
  bool Never() const { return !always_ && threshold_ == 0; }

 private:
  uint64_t threshold_ = 0;
  bool always_ = false;
};

// The gap (>= 1 cycles) from one success of a per-cycle Bernoulli(p) process to the next, i.e. a
// geometric variable G = 1 + F with P(F = n) = p (1-p)^n. It is drawn bit by bit: the binary digits
// of F are independent, digit k being 1 with probability r/(1+r), r = (1-p)^(2^k). Costs about
// log2(1/p) + 6 draws per gap; the thresholds come from IEEE multiplications and divisions only.
class GeometricGap {
 public:
  static constexpr uint64_t kInfinite = ~0ull;

  explicit GeometricGap(double p = 0) {
    if (!(p > 0)) {
      never_ = true;
      return;
    }
    if (p >= 1) return;  // every cycle: no digits
    double r = 1.0 - p;
    for (int k = 0; k < 64; ++k) {
      uint64_t t = static_cast<uint64_t>(r / (1.0 + r) * 18446744073709551616.0);
      if (t == 0) break;
      t_.push_back(t);
      r = r * r;
    }
  }
  // kInfinite when p == 0.
  uint64_t Draw(SplitMix64& rng) const {
    if (never_) return kInfinite;
    uint64_t f = 0;
    for (size_t k = 0; k < t_.size(); ++k) {
      if (rng.Next() < t_[k]) f |= uint64_t{1} << k;
    }
    return f == kInfinite ? kInfinite : f + 1;
  }

 private:
  std::vector<uint64_t> t_;  // per binary digit of F: P(digit = 1) * 2^64
  bool never_ = false;
};

}  // namespace tessera::noc
