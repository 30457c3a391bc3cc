// Decoding a 32-bit instruction word against the generated instruction table
// (model/arch/isa_table.h). The interpreter, the disassembler and the fuzzer's checks use this one
// decoder; the RTL decoder is generated from the same table and applies the same rules.
#pragma once

#include <atomic>
#include <cstdint>

#include "arch/isa_table.h"

namespace tessera::isa {

// The fields of a word, named as in docs/isa.md 4.1 (each format uses some of them).
struct Fields {
  uint32_t word = 0;
  uint8_t op = 0, z = 0, a = 0, b = 0, c = 0, d = 0, funct = 0;
  uint16_t imm = 0;
  // D format
  uint8_t u = 0, dst = 0, src0 = 0, src1 = 0, s = 0, tid = 0, ut = 0;
};

inline Fields SplitFields(uint32_t w) {
  Fields f;
  f.word = w;
  f.op = w & 0x7F;
  f.z = (w >> 7) & 1;
  f.a = (w >> 8) & 0xF;
  f.b = (w >> 12) & 0xF;
  f.c = (w >> 16) & 0xF;
  f.d = (w >> 20) & 0xF;
  f.funct = static_cast<uint8_t>(w >> 24);
  f.imm = static_cast<uint16_t>(w >> 16);
  f.u = f.z;
  f.dst = f.a;
  f.src0 = f.b;
  f.src1 = f.c;
  f.s = f.d;
  f.tid = (w >> 24) & 0x1F;
  f.ut = static_cast<uint8_t>(w >> 29);
  return f;
}

// The table line a word encodes, or nullptr when the word is illegal (docs/isa.md 4.1: unknown
// opcode or funct, a nonzero field no operand names, Z = 1 with B != 0, an immediate out of range).
const arch::InsnInfo* Decode(uint32_t word);

// Decode through a cache shared by every PE and thread (predecoded code costs no memory per PE,
// and PEs running the same program share its lines): direct-mapped by a hash of the word, each
// entry the word and its line's index in arch::kInsns packed in one atomic 64-bit word, so a
// racing update is never seen torn. Words that do not decode are not cached.
inline constexpr int kDecodeCacheBits = 14;
namespace detail {
extern std::atomic<uint64_t> g_decode_cache[1u << kDecodeCacheBits];
const arch::InsnInfo* DecodeAndCache(uint32_t w, uint32_t slot);
}  // namespace detail
inline const arch::InsnInfo* DecodeCached(uint32_t w) {
  const uint32_t slot = (w * 0x9E3779B1u) >> (32 - kDecodeCacheBits);
  const uint64_t e = detail::g_decode_cache[slot].load(std::memory_order_relaxed);
  if (static_cast<uint32_t>(e >> 32) == w && (e & 0xFFFF) != 0)
    return &arch::kInsns[(e & 0xFFFF) - 1];
  return detail::DecodeAndCache(w, slot);
}

// The line with this opcode and funct (-1: none), legal or not; nullptr if there is none.
const arch::InsnInfo* Lookup(uint32_t op, int funct);

inline int Index(const arch::InsnInfo* info) { return static_cast<int>(info - arch::kInsns); }

}  // namespace tessera::isa
