// memcpy between a host array and a symbol on a region of PEs, with the public SDK's semantics
// (docs/runtime.md "memcpy"): a region (x, y, w, h), n elements per PE, 16- or 32-bit elements,
// row-major (host array of shape (h, w, n) in C order) or column-major (the same shape in Fortran
// order). This file turns a copy into word transfers and checks it; the Device performs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "fabric/fabric.h"
#include "layout/image.h"

namespace tessera::runtime {

struct Region {
  int x = 0, y = 0, w = 1, h = 1;
};

enum class Order { kRowMajor, kColMajor };
enum class Timing {
  kBackDoor,  // zero simulated time, the fabric stopped
  kHostPort,  // through the host port of each tile, one word per tile per cycle while it runs
};

struct MemcpyOptions {
  int elem_bits = 32;  // 16 or 32
  Order order = Order::kRowMajor;
  Timing timing = Timing::kBackDoor;
};

// 16 for f16, i16 and u16; 32 for the 32-bit types.
int ElemBits(arch::ElemType t);

// Where element i of PE (px, py) of the region (region-relative) sits in the host array.
size_t HostIndex(const Region& r, int n, Order order, int px, int py, int i);

// One word access: `mask` selects the bits written (16-bit elements may fill half a word; the
// rest of the word keeps its value).
struct WordTransfer {
  fabric::Coord pe;
  uint16_t addr = 0;
  uint32_t value = 0;
  uint32_t mask = 0xFFFFFFFF;
};

// Checks a copy of `count` host elements to or from `symbol` and throws std::invalid_argument
// naming what is wrong (the region, the element size, the count, the PE that lacks the symbol);
// returns the symbol's address on each PE of the region, row by row.
std::vector<uint16_t> CheckMemcpy(const layout::Image& image, const std::string& symbol,
                                  const Region& r, int n, size_t count, const MemcpyOptions& o);

// The word writes of a host-to-device copy (`data` holds count elements of elem_bits / 8 bytes,
// little endian), PE by PE, ascending addresses.
std::vector<WordTransfer> PlanH2D(const std::vector<uint16_t>& addrs, const Region& r, int n,
                                  const MemcpyOptions& o, const void* data);
// The words a device-to-host copy reads, PE by PE (value and mask unused) ...
std::vector<WordTransfer> PlanD2H(const std::vector<uint16_t>& addrs, const Region& r, int n,
                                  const MemcpyOptions& o);
// ... and the host array made from the values read (words[k]: the k-th word of that plan).
void ScatterD2H(const std::vector<uint16_t>& addrs, const Region& r, int n, const MemcpyOptions& o,
                const std::vector<uint32_t>& words, void* out);

// ---- Streaming copies: one element a wavelet (docs/runtime.md "Streaming memcpy") ----
// The payloads of a streaming host-to-device copy: for each PE of the region, row by row, its n
// elements in order (HostIndex), each the payload of one wavelet: a 32-bit element whole, a
// 16-bit one in the low half with the high half zero. `data` holds w * h * n elements of
// elem_bits / 8 bytes, little endian.
std::vector<std::vector<uint32_t>> PlanStreamH2D(const Region& r, int n, const MemcpyOptions& o,
                                                 const void* data);
// The host array of a streaming device-to-host copy from the payloads each PE sent (`words`: per
// PE, row by row, at least n each, the first n taken): a 16-bit element is the low half.
void ScatterStreamD2H(const Region& r, int n, const MemcpyOptions& o,
                      const std::vector<std::vector<uint32_t>>& words, void* out);

}  // namespace tessera::runtime
