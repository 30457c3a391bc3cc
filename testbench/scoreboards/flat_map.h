// An open-addressing hash map from a 32-bit key to a 32-bit value, stored in one flat vector:
// no allocation per insert or lookup (only when it doubles). Use it on hot paths where the key
// space is too large for a directly indexed vector; std::unordered_map allocates a node per entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::noc {

class FlatMap32 {
 public:
  static constexpr uint32_t kAbsent = ~0u;  // returned by Find; also not a valid key

  uint32_t Find(uint32_t key) const {
    if (slots_.empty()) return kAbsent;
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].value;
      if (slots_[i].key == kAbsent) return kAbsent;
    }
  }
  // Inserts or overwrites.
  void Insert(uint32_t key, uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Place(key, value);
  }
  size_t size() const { return size_; }

 private:
  struct Entry {
    uint32_t key = kAbsent;
    uint32_t value = 0;
  };
  static size_t Hash(uint32_t k) {
    return static_cast<size_t>((static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ull) >> 32);
  }
  void Place(uint32_t key, uint32_t value) {
    for (size_t i = Hash(key) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return;
      }
      if (slots_[i].key == kAbsent) {
        slots_[i] = {key, value};
        ++size_;
        return;
      }
    }
  }
  void Grow() {
    std::vector<Entry> old;
    old.swap(slots_);
    slots_.resize(old.empty() ? 64 : old.size() * 2);
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Entry& e : old) {
      if (e.key != kAbsent) Place(e.key, e.value);
    }
  }

  std::vector<Entry> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace tessera::noc
