// The symbols every program sees (docs/isa.md 8.1): each memory-mapped register by name (the
// address of element 0, e.g. DebugPort = 0xC040), each constant of model/arch/tessera.def, each
// enum item as Enum.Item (DebugFmt.F32 = 3), and CtrlNone = 0x001F0000.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace tessera::assembler {

struct Predefined {
  int64_t value = 0;
  const char* what = "";  // "register", "constant" or "enum item", for messages
};

const std::map<std::string, Predefined>& PredefinedSymbols();

// The register at a CE-visible MMIO address as assembly text ("CycleLo", "DebugPort+12"), or ""
// when the address is not a register's.
std::string RegisterName(uint32_t address);

}  // namespace tessera::assembler
