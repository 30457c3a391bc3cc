// A growable FIFO ring buffer over a flat vector: amortized O(1) push and pop with no per-element
// allocation (std::deque allocates a block every few hundred elements and on every growth of its
// map). Use it for the per-source and per-stream queues; T must be cheap to copy.
#pragma once

#include <cstddef>
#include <vector>

namespace tessera::noc {

template <typename T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& operator[](size_t i) { return buf_[(head_ + i) & (buf_.size() - 1)]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (buf_.size() - 1)]; }

  void push_back(const T& v) {
    if (size_ == buf_.size()) Grow();
    buf_[(head_ + size_) & (buf_.size() - 1)] = v;
    ++size_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (buf_.size() - 1);
    --size_;
  }
  // Removes element i, keeping the order of the others (O(size - i)).
  void erase(size_t i) {
    for (size_t j = i; j + 1 < size_; ++j) (*this)[j] = (*this)[j + 1];
    --size_;
  }
  void clear() { head_ = size_ = 0; }

 private:
  void Grow() {
    std::vector<T> bigger(buf_.empty() ? 4 : buf_.size() * 2);
    for (size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    buf_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buf_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace tessera::noc
