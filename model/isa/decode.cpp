#include "isa/decode.h"

#include <array>

namespace tessera::isa {
namespace {

// Per opcode: the line (formats without funct) or a 256-entry funct table.
// Opcodes with a funct (R format) or a sub-operation in an unused field (D format) keep where
// it is: funct_lsb and a mask of funct_bits.
struct Index128 {
  std::array<const arch::InsnInfo*, 128> by_op{};
  std::array<std::array<const arch::InsnInfo*, 256>, 128>* by_funct = nullptr;
  std::array<uint8_t, 128> funct_lsb{};
  std::array<uint32_t, 128> funct_mask{};
  Index128() {
    static std::array<std::array<const arch::InsnInfo*, 256>, 128> funct_table{};
    by_funct = &funct_table;
    for (const auto& n : arch::kInsns) {
      if (n.funct < 0) {
        by_op[n.op] = &n;
      } else {
        funct_table[n.op][n.funct] = &n;
        funct_lsb[n.op] = n.funct_lsb;
        funct_mask[n.op] = (1u << n.funct_bits) - 1;
      }
    }
  }
};

const Index128& Idx() {
  static const Index128 idx;
  return idx;
}

}  // namespace

const arch::InsnInfo* Lookup(uint32_t op, int funct) {
  if (op >= 128) return nullptr;
  if (funct < 0) return Idx().by_op[op];
  if (funct > 255) return nullptr;
  return (*Idx().by_funct)[op][funct];
}

const arch::InsnInfo* Decode(uint32_t w) {
  const uint32_t op = w & 0x7F;
  const arch::InsnInfo* n = Idx().by_op[op];
  if (!n) n = (*Idx().by_funct)[op][(w >> Idx().funct_lsb[op]) & Idx().funct_mask[op]];
  if (!n) return nullptr;
  if (w & ~(n->fixed_mask | n->field_mask)) return nullptr;
  const uint32_t z = (w >> 7) & 1, b = (w >> 12) & 0xF, imm = w >> 16;
  if (n->zeroable && z && b) return nullptr;
  if (n->imm_limit && imm >= n->imm_limit) return nullptr;
  if (n->tid_like && (z ? imm >= 32 : imm != 0)) return nullptr;
  return n;
}

namespace detail {
std::atomic<uint64_t> g_decode_cache[1u << kDecodeCacheBits];

const arch::InsnInfo* DecodeAndCache(uint32_t w, uint32_t slot) {
  const arch::InsnInfo* n = Decode(w);
  if (n)
    g_decode_cache[slot].store(
        static_cast<uint64_t>(w) << 32 | static_cast<uint64_t>(n - arch::kInsns + 1),
        std::memory_order_relaxed);
  return n;
}
}  // namespace detail

}  // namespace tessera::isa
