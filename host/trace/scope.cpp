#include "trace/scope.h"

#include <fmt/format.h>

#include <regex>
#include <stdexcept>

namespace tessera::trace {

Scope ParseScope(const std::string& region, const std::string& window) {
  Scope s;
  if (!region.empty()) {
    static const std::regex re(R"(^([0-9]{1,5}),([0-9]{1,5}):([0-9]{1,5}),([0-9]{1,5})$)");
    std::smatch m;
    if (!std::regex_match(region, m, re))
      throw std::invalid_argument(
          fmt::format("--trace-region '{}': expected X0,Y0:X1,Y1 (PEs, inclusive)", region));
    s.x0 = std::stoi(m[1]);
    s.y0 = std::stoi(m[2]);
    s.x1 = std::stoi(m[3]);
    s.y1 = std::stoi(m[4]);
    if (s.x0 > s.x1 || s.y0 > s.y1)
      throw std::invalid_argument(fmt::format(
          "--trace-region '{}': the first corner must be north-west of the second", region));
  }
  if (!window.empty()) {
    static const std::regex re(R"(^([0-9]{1,19}):([0-9]{1,19})$)");
    std::smatch m;
    if (!std::regex_match(window, m, re) || std::stoull(m[1]) >= std::stoull(m[2]))
      throw std::invalid_argument(
          fmt::format("--trace-window '{}': expected FROM:TO cycles with FROM < TO", window));
    s.from = std::stoull(m[1]);
    s.to = std::stoull(m[2]);
  }
  return s;
}

}  // namespace tessera::trace
