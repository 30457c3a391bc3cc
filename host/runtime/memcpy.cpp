#include "runtime/memcpy.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

#include "arch/arch.h"
#include "asm/object.h"

namespace tessera::runtime {
int ElemBits(arch::ElemType t) {
  switch (t) {
    case arch::ElemType::kF16:
    case arch::ElemType::kI16:
    case arch::ElemType::kU16:
      return 16;
    default:
      return 32;
  }
}

size_t HostIndex(const Region& r, int n, Order order, int px, int py, int i) {
  const auto w = static_cast<size_t>(r.w), h = static_cast<size_t>(r.h);
  if (order == Order::kRowMajor) return (static_cast<size_t>(py) * w + px) * n + i;
  return static_cast<size_t>(py) + h * (static_cast<size_t>(px) + w * static_cast<size_t>(i));
}

std::vector<uint16_t> CheckMemcpy(const layout::Image& image, const std::string& symbol,
                                  const Region& r, int n, size_t count, const MemcpyOptions& o) {
  if (o.elem_bits != 16 && o.elem_bits != 32)
    throw std::invalid_argument(
        fmt::format("memcpy '{}': elements are 16 or 32 bits, not {}", symbol, o.elem_bits));
  if (r.w < 1 || r.h < 1)
    throw std::invalid_argument(
        fmt::format("memcpy '{}': region {}x{} is empty", symbol, r.w, r.h));
  if (r.x < 0 || r.y < 0 || r.x + r.w > image.fabric_w || r.y + r.h > image.fabric_h)
    throw std::invalid_argument(
        fmt::format("memcpy '{}': region at ({},{}) of {}x{} PEs reaches outside the {}x{} fabric",
                    symbol, r.x, r.y, r.w, r.h, image.fabric_w, image.fabric_h));
  if (n < 1)
    throw std::invalid_argument(
        fmt::format("memcpy '{}': {} elements per PE (needs at least 1)", symbol, n));
  const size_t need = static_cast<size_t>(r.w) * r.h * n;
  if (count != need)
    throw std::invalid_argument(fmt::format(
        "memcpy '{}': the host array has {} elements, but {}x{} PEs with {} each need {}", symbol,
        count, r.w, r.h, n, need));
  std::vector<uint16_t> addrs;
  for (int py = 0; py < r.h; ++py) {
    for (int px = 0; px < r.w; ++px) {
      const int x = r.x + px, y = r.y + py;
      if (!image.ProgramAt(x, y))
        throw std::invalid_argument(
            fmt::format("memcpy '{}': PE({},{}) has no program", symbol, x, y));
      const assembler::SymbolInfo* s = image.Symbol(x, y, symbol);
      if (!s || !s->exported)
        throw std::invalid_argument(fmt::format(
            "memcpy '{}': the program on PE({},{}) does not export '{}'", symbol, x, y, symbol));
      if (!s->type)
        throw std::invalid_argument(fmt::format(
            "memcpy '{}': PE({},{}) exports '{}' without a type and count (write `.export {}, "
            "f32, N`)",
            symbol, x, y, symbol, symbol));
      const int bits = ElemBits(*s->type);
      if (bits != o.elem_bits)
        throw std::invalid_argument(fmt::format(
            "memcpy '{}': {}-bit elements, but PE({},{}) exports '{}' as {} ({}-bit)", symbol,
            o.elem_bits, x, y, symbol, assembler::ElemTypeName(*s->type), bits));
      if (static_cast<uint32_t>(n) > s->count)
        throw std::invalid_argument(
            fmt::format("memcpy '{}': {} elements per PE, but PE({},{}) exports only {}", symbol, n,
                        x, y, s->count));
      if (s->address % (bits / 8) != 0)
        throw std::invalid_argument(
            fmt::format("memcpy '{}': PE({},{}) has it at 0x{:04x}, not aligned to {} bytes",
                        symbol, x, y, s->address, bits / 8));
      addrs.push_back(s->address);
    }
  }
  return addrs;
}

namespace {

// Calls fn(pe, px, py, word address, first element, elements in the word (1 or 2), half) for
// every word a copy touches.
template <typename Fn>
void ForEachWord(const std::vector<uint16_t>& addrs, const Region& r, int n, const MemcpyOptions& o,
                 Fn fn) {
  for (int py = 0; py < r.h; ++py) {
    for (int px = 0; px < r.w; ++px) {
      const uint16_t base = addrs[static_cast<size_t>(py) * r.w + px];
      const fabric::Coord pe{r.x + px, r.y + py};
      if (o.elem_bits == 32) {
        for (int i = 0; i < n; ++i) fn(pe, px, py, static_cast<uint16_t>(base + 4 * i), i, 1, 0);
        continue;
      }
      // 16-bit elements: element i at base + 2i; a word may hold the high half of one and the
      // low half of the next.
      int i = 0;
      while (i < n) {
        const uint32_t byte = base + 2u * i;
        const auto word = static_cast<uint16_t>(byte & ~3u);
        const int half = (byte & 2) ? 1 : 0;
        const int k = (half == 0 && i + 1 < n) ? 2 : 1;
        fn(pe, px, py, word, i, k, half);
        i += k;
      }
    }
  }
}

}  // namespace

std::vector<WordTransfer> PlanH2D(const std::vector<uint16_t>& addrs, const Region& r, int n,
                                  const MemcpyOptions& o, const void* data) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  std::vector<WordTransfer> out;
  ForEachWord(addrs, r, n, o,
              [&](fabric::Coord pe, int px, int py, uint16_t addr, int i, int k, int half) {
                WordTransfer t;
                t.pe = pe;
                t.addr = addr;
                if (o.elem_bits == 32) {
                  std::memcpy(&t.value, bytes + 4 * HostIndex(r, n, o.order, px, py, i), 4);
                  out.push_back(t);
                  return;
                }
                t.value = 0;
                t.mask = 0;
                for (int j = 0; j < k; ++j) {
                  uint16_t e;
                  std::memcpy(&e, bytes + 2 * HostIndex(r, n, o.order, px, py, i + j), 2);
                  const int shift = 16 * (half + j);
                  t.value |= static_cast<uint32_t>(e) << shift;
                  t.mask |= 0xFFFFu << shift;
                }
                out.push_back(t);
              });
  return out;
}

std::vector<WordTransfer> PlanD2H(const std::vector<uint16_t>& addrs, const Region& r, int n,
                                  const MemcpyOptions& o) {
  std::vector<WordTransfer> out;
  ForEachWord(addrs, r, n, o, [&](fabric::Coord pe, int, int, uint16_t addr, int, int, int) {
    WordTransfer t;
    t.pe = pe;
    t.addr = addr;
    out.push_back(t);
  });
  return out;
}

void ScatterD2H(const std::vector<uint16_t>& addrs, const Region& r, int n, const MemcpyOptions& o,
                const std::vector<uint32_t>& words, void* out) {
  auto* bytes = static_cast<uint8_t*>(out);
  size_t k_word = 0;
  ForEachWord(addrs, r, n, o, [&](fabric::Coord, int px, int py, uint16_t, int i, int k, int half) {
    const uint32_t w = words.at(k_word++);
    if (o.elem_bits == 32) {
      std::memcpy(bytes + 4 * HostIndex(r, n, o.order, px, py, i), &w, 4);
      return;
    }
    for (int j = 0; j < k; ++j) {
      const auto e = static_cast<uint16_t>(w >> (16 * (half + j)));
      std::memcpy(bytes + 2 * HostIndex(r, n, o.order, px, py, i + j), &e, 2);
    }
  });
}

std::vector<std::vector<uint32_t>> PlanStreamH2D(const Region& r, int n, const MemcpyOptions& o,
                                                 const void* data) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  const int eb = o.elem_bits / 8;
  std::vector<std::vector<uint32_t>> out(static_cast<size_t>(r.w) * r.h);
  for (int py = 0; py < r.h; ++py) {
    for (int px = 0; px < r.w; ++px) {
      std::vector<uint32_t>& words = out[static_cast<size_t>(py) * r.w + px];
      words.resize(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) {
        uint32_t v = 0;
        std::memcpy(&v, bytes + eb * HostIndex(r, n, o.order, px, py, i), eb);
        words[i] = v;
      }
    }
  }
  return out;
}

void ScatterStreamD2H(const Region& r, int n, const MemcpyOptions& o,
                      const std::vector<std::vector<uint32_t>>& words, void* out) {
  auto* bytes = static_cast<uint8_t*>(out);
  const int eb = o.elem_bits / 8;
  for (int py = 0; py < r.h; ++py) {
    for (int px = 0; px < r.w; ++px) {
      const std::vector<uint32_t>& from = words.at(static_cast<size_t>(py) * r.w + px);
      if (from.size() < static_cast<size_t>(n))
        throw std::logic_error("ScatterStreamD2H: fewer payloads than elements");
      for (int i = 0; i < n; ++i)
        std::memcpy(bytes + eb * HostIndex(r, n, o.order, px, py, i), &from[i], eb);
    }
  }
}

}  // namespace tessera::runtime
