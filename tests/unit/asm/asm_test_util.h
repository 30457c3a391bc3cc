// Helpers shared by the assembler's unit tests: assemble text, read words back, catch errors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "asm/assembler.h"
#include "asm/diagnostics.h"
#include "asm/object.h"

namespace tessera::assembler::test {

inline Object Asm(const std::string& text, const AssembleOptions& opt = {}) {
  return AssembleText("t.s", text, opt).object;
}

inline uint32_t WordAt(const Object& o, SectionId s, uint32_t off) {
  const std::vector<uint8_t>& b = o.section(s).bytes;
  return uint32_t(b.at(off)) | uint32_t(b.at(off + 1)) << 8 | uint32_t(b.at(off + 2)) << 16 |
         uint32_t(b.at(off + 3)) << 24;
}

inline std::vector<uint32_t> TextWords(const Object& o) {
  std::vector<uint32_t> words;
  for (uint32_t off = 0; off + 4 <= o.section(SectionId::kText).size; off += 4) {
    words.push_back(WordAt(o, SectionId::kText, off));
  }
  return words;
}

// The words of `source` placed in .text.
inline std::vector<uint32_t> Words(const std::string& source) {
  return TextWords(Asm("        .text\n" + source + "\n"));
}

inline uint32_t OneWord(const std::string& insn) {
  const std::vector<uint32_t> w = Words(insn);
  EXPECT_EQ(w.size(), 1u) << insn;
  return w.empty() ? 0 : w[0];
}

// The complete error text of assembling `text` (empty if it assembles).
inline std::string ErrorOf(const std::string& text, const AssembleOptions& opt = {}) {
  try {
    AssembleText("t.s", text, opt);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline const ObjReloc* FindReloc(const Object& o, SectionId s, uint32_t off) {
  for (const ObjReloc& r : o.relocs) {
    if (r.section == s && r.offset == off) return &r;
  }
  return nullptr;
}

}  // namespace tessera::assembler::test
