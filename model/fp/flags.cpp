#include "fp/flags.h"

#include <fmt/format.h>

namespace tessera::fp {

std::string FlagNames(uint8_t flags) {
  static constexpr struct {
    uint8_t bit;
    const char* name;
  } kNames[] = {{kFlagInexact, "inexact"},
                {kFlagUnderflow, "underflow"},
                {kFlagOverflow, "overflow"},
                {kFlagInfinite, "infinite"},
                {kFlagInvalid, "invalid"}};
  if (flags == 0) return "none";
  std::string out;
  for (const auto& n : kNames) {
    if (flags & n.bit) {
      if (!out.empty()) out += '|';
      out += n.name;
    }
  }
  if (flags & ~kFlagMask) {
    if (!out.empty()) out += '|';
    out += fmt::format("0x{:02X}", flags & ~kFlagMask);
  }
  return out;
}

}  // namespace tessera::fp
