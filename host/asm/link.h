// The single-PE linker: places the sections of one PE's objects in its SRAM, resolves their
// relocations and binds their tasks, giving what a backend loads into one PE. The layout linker
// (host/layout/link_layout.cpp: many PEs, routes, per-PE params) links each program with it. Rules:
//
// - all .text sections first from address 0, in object order, then all .data, then all .bss,
//   each at its section's alignment; the program must end at or below 0xC000;
// - `__end` is the first free byte after the sections, `__sram_end` is 0xC000;
// - a param takes the value given, else its default; one with neither is an error, and so is a
//   value for a param no object declares;
// - every relocation is range-checked; errors name the source line, the object and the section;
// - task IDs are 0..30, unique; a data task's ID is its color, so at most 23.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "asm/object.h"

namespace tessera::assembler {

struct SymbolInfo {
  uint16_t address = 0;
  std::string section;  // ".text", ".data", ".bss"; "" for __end and __sram_end
  bool global = false;
  bool exported = false;
  std::optional<arch::ElemType> type;  // .export NAME, TYPE, COUNT
  uint32_t count = 0;
};

struct LineInfo {
  uint16_t address = 0;
  std::string file;
  int line = 0;
};

struct TaskBinding {
  int id = 0;
  arch::TaskKind kind = arch::TaskKind::kNone;
  uint16_t entry = 0;
  // The task's state when the program is loaded (TaskActive, TaskBlocked): a task active from the
  // start runs as soon as it is picked; a blocked one does not until it is unblocked.
  bool active = false, blocked = false;
};

struct PeProgram {            // what a backend loads into one PE
  std::vector<uint8_t> sram;  // arch::kSramBytes bytes, zero where nothing is placed
  std::vector<TaskBinding> tasks;
  // Globals by name; a local symbol by name too when no other object has one of that name,
  // else as "SOURCE:name".
  std::map<std::string, SymbolInfo> symbols;
  std::vector<LineInfo> lines;  // sorted by address; an address belongs to the last line at or
                                // before it
  uint16_t end = 0;             // __end: first free byte

  const LineInfo* LineAt(uint16_t address) const;
  uint32_t Word(uint16_t address) const;  // little endian, address a multiple of 4
  // The tasks bound active or blocked at load (`.task ..., active, blocked`): bit t for task t.
  // A loader writes TaskBlockSet and then TaskActiveSet with them, after everything else.
  uint32_t ActiveAtLoad() const;
  uint32_t BlockedAtLoad() const;
};

// Throws Error listing every problem found.
PeProgram LinkSingle(const std::vector<Object>& objects,
                     const std::map<std::string, int64_t>& params);

// Assembles one source file (no -D defines: params get their values here) and links it alone.
PeProgram AssembleAndLink(const std::string& path, const std::vector<std::string>& include_dirs,
                          const std::map<std::string, int64_t>& params);

}  // namespace tessera::assembler
