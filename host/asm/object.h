// The object file (docs/isa.md 8.4): what `tessera asm` writes for one source file and the
// linker reads. A text format, so that golden files diff well:
//
//   tessera-object 1
//   source "gemv.s"
//   section .text align 4 size 0x0048
//     0000: 00032101 ffff0190 ...          32-bit words (little-endian bytes); 2 or 4 hex
//                                          digits for a trailing byte or half
//   section .data align 16 size 0x0108
//   section .bss align 4 size 0x0040       (no bytes)
//   symbol main .text 0x0000 global export
//   symbol y .data 0x0000 global export f32 32
//   symbol loop .text 0x0010 local
//   param RX
//   param N 16
//   task main local 0
//   task rx data RX+0
//   dsd yd .data 0x0100
//   reloc .text 0x0004 U16 y+0
//   line .text 0x0000 "gemv.s" 12
//
// A relocated field holds 0 in the section; the linker inserts SYMBOL+ADDEND there. SYMBOL is
// a symbol of the object, a section name (.text, .data, .bss: that section of this object), a
// param, a global of another object, __end or __sram_end, or id(NAME): the ID of the task whose
// entry is NAME.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch.h"

namespace tessera::assembler {

enum class SectionId : uint8_t { kText = 0, kData = 1, kBss = 2 };
inline constexpr int kNumSections = 3;
const char* SectionName(SectionId s);
std::optional<SectionId> ParseSectionName(const std::string& name);

struct Section {
  uint32_t align = 4;
  uint32_t size = 0;
  std::vector<uint8_t> bytes;  // size bytes; empty for .bss
};

// SYMBOL+ADDEND, or a constant when sym is empty.
struct SymRef {
  std::string sym;
  int64_t addend = 0;
  std::string ToString() const;  // "y+0", "RX-1", "12"
  bool operator==(const SymRef& o) const { return sym == o.sym && addend == o.addend; }
};

struct ObjSymbol {
  std::string name;
  SectionId section = SectionId::kText;
  uint32_t offset = 0;
  bool global = false;
  bool exported = false;
  std::optional<arch::ElemType> type;  // .export NAME, TYPE, COUNT
  uint32_t count = 0;
};

struct ObjParam {
  std::string name;
  std::optional<int64_t> default_value;
};

struct ObjTask {
  std::string entry;
  arch::TaskKind kind = arch::TaskKind::kLocal;
  SymRef id;                             // a constant or param+c
  bool active = false, blocked = false;  // its state when loaded (`.task ..., active, blocked`)
};

struct ObjDsd {
  std::string name;
  SectionId section = SectionId::kData;
  uint32_t offset = 0;
};

enum class RelocKind : uint8_t {
  kU16,      // Imm field, 0..0xFFFF
  kS16,      // Imm field, -32768..32767
  kPC16,     // Imm field: (target - address of the instruction) / 4
  kHI16,     // Imm field: bits 31:16 of the value
  kLO16,     // Imm field: bits 15:0 of the value
  kU5,       // Imm field: a task ID or color, 0..31
  kTID5,     // D format Tid: a completion task, 0..30
  kW32,      // data word
  kH16,      // data half, -32768..65535
  kB8,       // data byte, -128..255
  kDBase,    // descriptor Base, 0..0xFFFF
  kDLen,     // descriptor Length, 0..0x7FFF
  kDStride,  // descriptor Stride, -32768..32767
  kDColor,   // descriptor Color, 0..23
};
const char* RelocKindName(RelocKind k);
// Bytes a relocation of this kind touches, from its offset.
uint32_t RelocSpan(RelocKind k);
std::optional<RelocKind> ParseRelocKind(const std::string& name);

struct ObjReloc {
  SectionId section = SectionId::kText;
  uint32_t offset = 0;  // of the instruction, data item or descriptor
  RelocKind kind = RelocKind::kU16;
  SymRef target;
};

struct ObjLine {
  SectionId section = SectionId::kText;
  uint32_t offset = 0;
  std::string file;
  int line = 0;
};

struct Object {
  std::string name;    // for messages: the object's path, or its source when not read from one
  std::string source;  // the source file it was assembled from
  std::array<Section, kNumSections> sections;
  std::vector<ObjSymbol> symbols;
  std::vector<ObjParam> params;
  std::vector<ObjTask> tasks;
  std::vector<ObjDsd> dsds;
  std::vector<ObjReloc> relocs;
  std::vector<ObjLine> lines;

  Section& section(SectionId s) { return sections[static_cast<int>(s)]; }
  const Section& section(SectionId s) const { return sections[static_cast<int>(s)]; }
  const ObjSymbol* FindSymbol(const std::string& name) const;
  // The source line of a section offset (the last line record at or before it), or nullptr.
  const ObjLine* LineAt(SectionId s, uint32_t offset) const;
};

std::string WriteObject(const Object& obj);
// Throws Error naming name:line for a malformed file.
Object ReadObject(const std::string& text, const std::string& name);
Object ReadObjectFile(const std::string& path);
void WriteObjectFile(const std::string& path, const Object& obj);

// Names in assembly and objects: the arch enums' item names in lower case ("f32", "mem1d").
std::string ElemTypeName(arch::ElemType t);
std::optional<arch::ElemType> ParseElemType(const std::string& name);
std::string DsdKindName(arch::DsdKind k);
std::optional<arch::DsdKind> ParseDsdKind(const std::string& name);  // mem1d, fabin, fabout
const char* TaskKindName(arch::TaskKind k);                          // "data", "local", "control"
std::optional<arch::TaskKind> ParseTaskKind(const std::string& name);

}  // namespace tessera::assembler
