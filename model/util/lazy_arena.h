// Storage for the big per-PE arrays of a fabric (docs/performance.md, "Memory"): the compute
// engines' SRAMs, the routers' queue storage. One anonymous mapping, reserved but not committed,
// so the host backs only the pages that are touched; an untouched page reads as zero and costs no
// memory. A fabric of the whole wafer (745,500 PEs, 34 GiB of SRAM) reserves its address space
// once and keeps the few kilobytes per PE that its programs and wavelets use.
#pragma once

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tessera::util {

class LazyArena {
 public:
  // Reserves `blocks` zeroed blocks of `bytes` each; throws std::runtime_error naming `what` if
  // the address space cannot be reserved.
  LazyArena(size_t blocks, size_t bytes, const char* what) : bytes_(bytes), size_(blocks * bytes) {
    if (size_ == 0) return;
    void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error(fmt::format("cannot reserve {:.1f} GiB of address space for {} {}",
                                           double(size_) / double(1ull << 30), blocks, what));
    base_ = static_cast<uint8_t*>(p);
  }
  ~LazyArena() {
    if (base_) ::munmap(base_, size_);
  }
  LazyArena(const LazyArena&) = delete;
  LazyArena& operator=(const LazyArena&) = delete;

  uint8_t* At(size_t i) const { return base_ + i * bytes_; }
  // Host memory the arena holds now (pages touched), in bytes.
  size_t ResidentBytes() const {
    if (!base_) return 0;
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> in((size_ + page - 1) / page);
    if (::mincore(base_, size_, in.data()) != 0) return 0;
    size_t n = 0;
    for (unsigned char c : in) n += c & 1;
    return n * page;
  }

 private:
  uint8_t* base_ = nullptr;
  size_t bytes_ = 0, size_ = 0;
};

}  // namespace tessera::util
