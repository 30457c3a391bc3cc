#include "fabric/debug_record.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "arch/arch.h"
#include "fp/scalar_ops.h"

namespace tessera::fabric {
namespace {

float F32Value(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// Text of a floating-point value for the debug port: nan, inf, -inf, else printf's %.Ng.
std::string FloatText(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return fmt::format("{:.{}g}", v, digits);
}

}  // namespace

std::string FormatDebugValue(uint8_t f, uint32_t value) {
  switch (static_cast<arch::DebugFmt>(f)) {
    case arch::DebugFmt::kHex:
      return fmt::format("0x{:08x}", value);
    case arch::DebugFmt::kU32:
      return fmt::format("{}", value);
    case arch::DebugFmt::kI32:
      return fmt::format("{}", static_cast<int32_t>(value));
    case arch::DebugFmt::kF32:
      return FloatText(F32Value(value), 9);
    case arch::DebugFmt::kF16: {
      uint8_t flags = 0;  // f16 -> f32 is exact
      return FloatText(F32Value(fp::F16ToF32(static_cast<uint16_t>(value), flags)), 5);
    }
    case arch::DebugFmt::kChar:
      return std::string(1, static_cast<char>(value & 0xFF));
  }
  return fmt::format("0x{:08x}", value);
}

void AddDebugStore(std::string& line, const DebugRecord& store, std::vector<DebugRecord>& out) {
  if (store.fmt == static_cast<uint8_t>(arch::DebugFmt::kChar)) {
    const char ch = static_cast<char>(store.value & 0xFF);
    if (ch != '\n') {
      line.push_back(ch);
      return;
    }
    out.push_back(store);
    out.back().text.swap(line);
    return;
  }
  out.push_back(store);
}

std::string DebugRecord::ToString() const {
  const std::string v =
      fmt == static_cast<uint8_t>(arch::DebugFmt::kChar) ? text : FormatDebugValue(fmt, value);
  return fmt::format("@{} PE({},{}): {}", cycle, x, y, v);
}

}  // namespace tessera::fabric
