#include "waves/wavelet_words.h"

#include <fmt/format.h>

#include <cstdint>

#include "arch/arch.h"

namespace tessera::waves {
namespace {

constexpr size_t Digits(int bits) { return static_cast<size_t>((bits + 3) / 4); }

bool ParseHex(std::string_view s, uint64_t& v) {
  v = 0;
  for (char ch : s) {
    int d;
    if (ch >= '0' && ch <= '9') {
      d = ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      d = ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      d = ch - 'A' + 10;
    } else {
      return false;  // x, z, or anything GTKWave may send for an unknown value
    }
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  return true;
}

}  // namespace

std::string DescribeWaveWord(std::string_view hex) {
  uint64_t v = 0;
  if (hex.empty() || !ParseHex(hex, v)) return std::string(hex);
  if (hex.size() == Digits(arch::Link::kBits)) {
    if (!arch::Link::Valid(v)) return "-";
    return fmt::format("c{} {} 0x{:08x}", arch::Link::Color(v), arch::Link::Ctrl(v) ? "ctl" : "d",
                       arch::Link::Data(v));
  }
  if (hex.size() == Digits(arch::Credit::kBits)) {
    if (!arch::Credit::Valid(v)) return "-";
    return fmt::format("c{}", arch::Credit::Color(v));
  }
  return std::string(hex);
}

}  // namespace tessera::waves
