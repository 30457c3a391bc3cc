// The assembly listing (`tessera asm -l`): per statement its source line, section, offset and
// the words or bytes it produced, with macro and .rept expansions shown line by line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asm/diagnostics.h"

namespace tessera::assembler {

struct ListingEntry {
  Location origin;        // the line of the program (a macro invocation for expanded lines)
  std::string text;       // the statement as assembled (after macro substitution)
  bool expanded = false;  // produced by a macro
  int section = -1;       // -1: before any section; else a SectionId
  uint32_t offset = 0;
  uint32_t size = 0;           // bytes produced (for .bss: reserved)
  std::vector<uint8_t> bytes;  // empty for .bss
};

std::string FormatListing(const std::string& source, const std::vector<ListingEntry>& entries);

}  // namespace tessera::assembler
