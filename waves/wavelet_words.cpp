#include "waves/wavelet_words.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <system_error>

#include "arch/arch.h"

namespace tessera::waves {
namespace {

constexpr size_t Digits(int bits) { return static_cast<size_t>((bits + 3) / 4); }

// The digits as a number; false for x, z or anything else GTKWave may send for an unknown value.
bool ParseHex(std::string_view s, uint64_t& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return ec == std::errc() && end == s.data() + s.size();
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
