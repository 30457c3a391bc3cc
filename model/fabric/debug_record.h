// A debug-port record (docs/isa.md 2.6) as the host sees it, whatever the backend: the store's
// cycle, the PE and the value, or for Char a whole line. The functional model's compute engine,
// the RTL fabric and every co-simulation check use this one type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::fabric {

// A debug-port record: the store's cycle, the PE and the value, or for Char a whole line
// (without its '\n', with the cycle of the '\n').
struct DebugRecord {
  uint64_t cycle = 0;
  uint16_t x = 0, y = 0;
  uint8_t fmt = 0;  // arch::DebugFmt
  uint32_t value = 0;
  std::string text;  // Char: the line
  bool operator==(const DebugRecord& o) const {
    return cycle == o.cycle && x == o.x && y == o.y && fmt == o.fmt && value == o.value &&
           text == o.text;
  }
  bool operator!=(const DebugRecord& o) const { return !(*this == o); }
  // "@<cycle> PE(<x>,<y>): <value>", the value formatted per DebugFmt.
  std::string ToString() const;
};

// The value of a debug record as the host prints it (0x%08x, %u, %d, %.9g f32, %.5g f16).
std::string FormatDebugValue(uint8_t fmt, uint32_t value);

// The host's rule for the debug port (docs/isa.md 2.6), for backends that see each debug-port
// store: a Char store adds its byte to the PE's `line`, and a '\n' emits the line as one record
// with the cycle of the '\n'; a store of another format is a record of its own. Appends to `out`.
void AddDebugStore(std::string& line, const DebugRecord& store, std::vector<DebugRecord>& out);

}  // namespace tessera::fabric
