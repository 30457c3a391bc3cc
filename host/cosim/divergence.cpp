#include "cosim/divergence.h"

#include <fmt/format.h>

namespace tessera::cosim {

const char* RunEndName(RunEnd e) {
  switch (e) {
    case RunEnd::kQuiet:
      return "quiet";
    case RunEnd::kFault:
      return "fault";
    case RunEnd::kTimeout:
      return "timeout";
  }
  return "?";
}

std::string Divergence::Describe(const std::string& name_a, const std::string& name_b) const {
  std::string s = fmt::format("PE({},{}) cycle {}", coord.x, coord.y, cycle);
  if (has_pc) s += fmt::format(", pc 0x{:04x}: {} (0x{:08x})", pc, insn, word);
  s += fmt::format(": {} differ", what);
  if (!history.empty()) {
    s += "\n  last events:";
    for (const std::string& h : history) s += "\n    " + h;
  }
  for (const Difference& d : diffs) {
    if (d.a.empty() && d.b.empty()) {
      s += fmt::format("\n  {}", d.what);
    } else {
      s += fmt::format("\n  {}: {} {}, {} {}", d.what, name_a, d.a, name_b, d.b);
    }
  }
  return s;
}

}  // namespace tessera::cosim
