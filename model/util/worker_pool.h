// A fork-join pool for stepping parts of a fabric on several host threads (docs/performance.md,
// "Threads"): For(n, fn) splits [0, n) into one contiguous range per thread, runs them at once
// (the caller takes the first) and returns when all are done. The ranges depend only on n and the
// thread count, so a caller that merges per-item results in index order gets the same result
// whatever the threads' timing. Workers spin briefly between cycles, then sleep.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::util {

class WorkerPool {
 public:
  // The range function: items [begin, end), run by thread `worker` (0: the caller).
  using RangeFn = std::function<void(size_t begin, size_t end, int worker)>;

  explicit WorkerPool(int threads) : threads_(threads < 1 ? 1 : threads) {
    for (int w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { Loop(w); });
  }
  ~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    Signal();
    for (std::thread& t : workers_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return threads_; }

  void For(size_t n, const RangeFn& fn) {
    if (threads_ == 1 || n < 2) {
      fn(0, n, 0);
      return;
    }
    fn_ = &fn;
    n_ = n;
    pending_.store(threads_ - 1, std::memory_order_relaxed);
    Signal();
    Part(0);
    for (int spins = 0; pending_.load(std::memory_order_acquire) != 0; ++spins)
      if (spins > 100000) std::this_thread::yield();
  }

 private:
  static constexpr int kSpins = 200000;  // a worker's busy wait for the next For, then it sleeps

  void Signal() {
    gen_.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(mu_); }  // a worker about to sleep sees the new generation
    cv_.notify_all();
  }
  void Part(int w) {
    const size_t begin = n_ * static_cast<size_t>(w) / static_cast<size_t>(threads_);
    const size_t end = n_ * static_cast<size_t>(w + 1) / static_cast<size_t>(threads_);
    if (begin < end) (*fn_)(begin, end, w);
  }
  void Loop(int w) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t g;
      for (int spins = 0; (g = gen_.load(std::memory_order_acquire)) == seen; ++spins) {
        if (spins < kSpins) continue;
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return gen_.load(std::memory_order_acquire) != seen; });
      }
      seen = g;
      if (stop_.load(std::memory_order_relaxed)) return;
      Part(w);
      pending_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  int threads_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<uint64_t> gen_{0};
  std::atomic<bool> stop_{false};
  const RangeFn* fn_ = nullptr;
  size_t n_ = 0;
  std::atomic<int> pending_{0};
};

}  // namespace tessera::util
