#include "asm/real.h"

#include <algorithm>
#include <vector>

#include "arch/arch.h"
#include "fp/format.h"
#include "fp/round_pack.h"

namespace tessera::assembler {
namespace {

// An unsigned integer of any size, just what exact decimal-to-binary conversion needs.
class BigUint {
 public:
  explicit BigUint(uint32_t v = 0) {
    if (v) limbs_.push_back(v);
  }
  bool IsZero() const { return limbs_.empty(); }
  void MulAdd(uint32_t mul, uint32_t add) {
    uint64_t carry = add;
    for (uint32_t& l : limbs_) {
      const uint64_t p = uint64_t(l) * mul + carry;
      l = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) limbs_.push_back(static_cast<uint32_t>(carry));
  }
  void ShiftLeft(int64_t n) {
    if (IsZero() || n == 0) return;
    const size_t words = static_cast<size_t>(n / 32);
    const int bits = static_cast<int>(n % 32);
    limbs_.insert(limbs_.begin(), words, 0);
    if (bits) {
      uint32_t carry = 0;
      for (size_t i = words; i < limbs_.size(); ++i) {
        const uint32_t l = limbs_[i];
        limbs_[i] = (l << bits) | carry;
        carry = l >> (32 - bits);
      }
      if (carry) limbs_.push_back(carry);
    }
  }
  int64_t BitLength() const {
    if (IsZero()) return 0;
    return int64_t(limbs_.size() - 1) * 32 + (32 - __builtin_clz(limbs_.back()));
  }
  bool Bit(int64_t i) const {
    const size_t w = static_cast<size_t>(i / 32);
    return w < limbs_.size() && ((limbs_[w] >> (i % 32)) & 1);
  }
  void SetBit0() {
    if (limbs_.empty()) limbs_.push_back(0);
    limbs_[0] |= 1;
  }
  int Compare(const BigUint& o) const {
    if (limbs_.size() != o.limbs_.size()) return limbs_.size() < o.limbs_.size() ? -1 : 1;
    for (size_t i = limbs_.size(); i-- > 0;) {
      if (limbs_[i] != o.limbs_[i]) return limbs_[i] < o.limbs_[i] ? -1 : 1;
    }
    return 0;
  }
  void Subtract(const BigUint& o) {  // *this >= o
    int64_t borrow = 0;
    for (size_t i = 0; i < limbs_.size(); ++i) {
      int64_t d = int64_t(limbs_[i]) - borrow - (i < o.limbs_.size() ? int64_t(o.limbs_[i]) : 0);
      borrow = d < 0;
      limbs_[i] = static_cast<uint32_t>(d + (borrow << 32));
    }
    Trim();
  }
  // Bits [lsb, lsb + 64) as a number; and whether any bit below lsb is set.
  uint64_t Bits64(int64_t lsb, bool* lower_nonzero) const {
    uint64_t v = 0;
    for (int k = 63; k >= 0; --k) v = (v << 1) | (Bit(lsb + k) ? 1 : 0);
    bool any = false;
    for (int64_t k = 0; k < lsb && !any; ++k) any = Bit(k);
    *lower_nonzero = any;
    return v;
  }

 private:
  void Trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<uint32_t> limbs_;  // little endian
};

// floor(n / d) and whether the remainder is nonzero, by binary long division.
BigUint Divide(const BigUint& n, const BigUint& d, bool* inexact) {
  BigUint q, r;
  for (int64_t i = n.BitLength() - 1; i >= 0; --i) {
    r.ShiftLeft(1);
    if (n.Bit(i)) r.SetBit0();
    q.ShiftLeft(1);
    if (r.Compare(d) >= 0) {
      r.Subtract(d);
      q.SetBit0();
    }
  }
  *inexact = !r.IsZero();
  return q;
}

template <typename F>
RoundedReal Round(const Decimal& d) {
  RoundedReal out;
  const uint32_t sign = d.negative ? F::kSignMask : 0;
  if (d.nan) {
    out.bits = F::kCanonicalNan;
    return out;
  }
  if (d.inf) {
    out.bits = sign | F::kInf;
    return out;
  }
  BigUint m;
  for (const char c : d.digits) m.MulAdd(10, static_cast<uint32_t>(c - '0'));
  if (m.IsZero()) {
    out.bits = sign;
    return out;
  }
  const int64_t magnitude = d.exp10 + static_cast<int64_t>(d.digits.size());  // 10^(mag-1) <= v
  uint8_t flags = 0;
  if (magnitude > 400) {  // far beyond either format
    out.bits = sign | F::kInf;
    out.overflow = true;
    return out;
  }
  if (magnitude < -400) {  // far below half the smallest subnormal: rounds to zero
    out.bits = static_cast<uint32_t>(fp::RoundPack<F>(d.negative, -2000, uint64_t(1) << 63, flags));
    return out;
  }
  // v = m * 10^exp10 = q * 2^-k (+ a remainder), with q of at least 66 bits.
  BigUint num = m, den(1);
  for (int64_t i = 0; i < d.exp10; ++i) num.MulAdd(10, 0);
  for (int64_t i = 0; i < -d.exp10; ++i) den.MulAdd(10, 0);
  const int64_t k = std::max<int64_t>(0, 66 + den.BitLength() - num.BitLength());
  num.ShiftLeft(k);
  bool inexact = false;
  const BigUint q = den.BitLength() == 1 ? num : Divide(num, den, &inexact);
  const int64_t len = q.BitLength();
  bool lower = false;
  uint64_t sig = q.Bits64(len - 64, &lower);
  if (lower || inexact) sig |= 1;  // sticky, far below the round bit
  const int64_t exp = len - 1 - k + F::kBias;
  const int clamped = static_cast<int>(std::clamp<int64_t>(exp, -4000, 4000));
  out.bits = static_cast<uint32_t>(fp::RoundPack<F>(d.negative, clamped, sig, flags));
  out.overflow = (flags & fp::kFlagOverflow) != 0;
  return out;
}

}  // namespace

std::optional<Decimal> ParseDecimal(const std::string& s) {
  Decimal d;
  const std::string lower = [&] {
    std::string l = s;
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  if (lower == "inf") {
    d.inf = true;
    return d;
  }
  if (lower == "nan") {
    d.nan = true;
    return d;
  }
  size_t i = 0;
  bool any = false, point = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      d.digits += c;
      any = true;
      if (point) --d.exp10;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any) return std::nullopt;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return std::nullopt;
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    if (i >= s.size()) return std::nullopt;
    int64_t e = 0;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    d.exp10 += neg ? -e : e;
  }
  const size_t nz = d.digits.find_first_not_of('0');
  d.digits = nz == std::string::npos ? "" : d.digits.substr(nz);
  return d;
}

Decimal DecimalOf(int64_t v) {
  Decimal d;
  d.negative = v < 0;
  const uint64_t mag = d.negative ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  d.digits = mag ? std::to_string(mag) : "";
  return d;
}

RoundedReal RoundDecimal(const Decimal& d, RealFormat format) {
  return format == RealFormat::kF32 ? Round<fp::F32>(d) : Round<fp::F16>(d);
}

const char* FormatName(RealFormat f) { return f == RealFormat::kF32 ? "f32" : "f16"; }

}  // namespace tessera::assembler
