// The predefined symbols (asm/predefined.h), taken from the tables model/arch/arch.h generates
// from tessera.def: a register, const or enum item added there is predefined here without an edit.
#include "asm/predefined.h"

#include <fmt/core.h>

#include "arch/arch.h"

namespace tessera::assembler {
namespace {

std::map<std::string, Predefined> Build() {
  std::map<std::string, Predefined> m;
  for (const arch::RegInfo& r : arch::kRegisters) m[r.name] = Predefined{r.addr, "register"};
  for (const arch::ConstInfo& c : arch::kConstants) m[c.name] = Predefined{c.value, "constant"};
  for (const arch::EnumItemInfo& e : arch::kEnumItems) {
    m[fmt::format("{}.{}", e.type, e.name)] = Predefined{e.value, "enum item"};
  }
  // A control wavelet's payload that names no task (docs/isa.md 4.10).
  m["CtrlNone"] = Predefined{int64_t(arch::kNoTask) << arch::kCtrlTaskLsb, "constant"};
  return m;
}

}  // namespace

const std::map<std::string, Predefined>& PredefinedSymbols() {
  static const std::map<std::string, Predefined> symbols = Build();
  return symbols;
}

std::string RegisterName(uint32_t address) {
  for (const arch::RegInfo& r : arch::kRegisters) {
    if (address < r.addr || address >= r.addr + r.count * r.stride) continue;
    const uint32_t delta = address - r.addr;
    if (delta % 4 != 0) return "";
    return delta == 0 ? r.name : fmt::format("{}+{}", r.name, delta);
  }
  return "";
}

}  // namespace tessera::assembler
