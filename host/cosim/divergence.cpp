#include "cosim/divergence.h"

#include <fmt/format.h>

#include "util/enum_names.h"

namespace tessera::cosim {

constexpr util::EnumName<RunEnd> kRunEndNameTable[] = {
    {RunEnd::kQuiet, "quiet"},
    {RunEnd::kFault, "fault"},
    {RunEnd::kTimeout, "timeout"},
    {RunEnd::kSettled, "settled"},
};

const char* RunEndName(RunEnd e) { return util::NameOf(kRunEndNameTable, e); }

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
