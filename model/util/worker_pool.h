// A fork-join pool for stepping parts of a fabric on several host threads (docs/performance.md,
// "Threads"). For(n, fn) cuts [0, n) into Parts(n) contiguous parts, runs them on the threads
// (the caller is one of them) and returns when all are done. The parts depend only on n and the
// thread count, never on the threads' timing, so a caller that keeps each part's results apart
// (indexed by part) and merges them in part order gets the same result with any threads.
//
// Each thread owns a contiguous run of parts and takes them in order; a thread done with its own
// takes the next untaken part of the others. When the threads run alike, every thread steps the
// same items each time (its caches stay warm); when one is slowed (a shared host core, a larger
// part), the others take over its remaining parts instead of waiting for them. A worker joins a
// call only while it is open, so one the host has not scheduled yet is never waited for: the
// caller closes the call once every part is claimed and waits only for the workers that joined.
// Workers wait for calls by a short busy wait that yields the core, then sleep.
//
// For(n, fn, merge) also calls merge(part) on the calling thread for every part, in part order,
// each as soon as that part is done: the merging of the first parts overlaps the stepping of the
// last ones (and the other threads take over more parts meanwhile), instead of waiting for all.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::util {

class WorkerPool {
 public:
  // The part function: items [begin, end), which are part `part` of For's Parts(n).
  using PartFn = std::function<void(size_t begin, size_t end, size_t part)>;
  // What the caller does with a part's results once it is done (on the calling thread).
  using MergeFn = std::function<void(size_t part)>;
  // Parts per thread: enough that a slowed thread's share can be taken over, few enough that
  // claiming a part (one atomic add) costs nothing next to stepping it.
  static constexpr size_t kPartsPerThread = 32;

  explicit WorkerPool(int threads)
      : threads_(threads < 1 ? 1 : threads),
        next_(new Claim[static_cast<size_t>(threads_)]),
        done_(new Done[MaxParts()]) {
    for (int w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { Loop(w); });
  }
  ~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    Signal();
    for (std::thread& t : workers_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // How many parts For(n, ...) makes, and the most it makes for any n.
  size_t Parts(size_t n) const { return n < 2 ? n : std::min(n, MaxParts()); }
  size_t MaxParts() const {
    return threads_ == 1 ? 1 : static_cast<size_t>(threads_) * kPartsPerThread;
  }

  void For(size_t n, const PartFn& fn, const MergeFn* merge = nullptr) {
    const size_t parts = Parts(n);
    if (parts < 2) {
      if (n) fn(0, n, 0);
      if (n && merge) (*merge)(0);
      return;
    }
    fn_ = &fn;
    n_ = n;
    parts_ = parts;
    // On a busy host, waiting for a worker the scheduler has put aside costs more than its help:
    // after waits that long, the calls run on the caller alone for a while (the same parts in
    // the same order, so the same results), then try the workers again.
    if (solo_left_ > 0) {
      --solo_left_;
      for (size_t p = 0; p < parts_; ++p) {
        fn(n_ * p / parts_, n_ * (p + 1) / parts_, p);
        if (merge) (*merge)(p);
      }
      return;
    }
    for (int w = 0; w < threads_; ++w) next_[w].part.store(Home(w), std::memory_order_relaxed);
    for (size_t p = 0; p < parts_; ++p) done_[p].done.store(false, std::memory_order_relaxed);
    // Open the call: workers that wake while it is open join it (and are waited for); one that
    // wakes after it closed never touches it. So a worker the host has not scheduled (a busy
    // machine) costs nothing: the caller takes its parts over and does not wait for it.
    gen_.fetch_add(1, std::memory_order_relaxed);
    state_.store(kOpen, std::memory_order_release);
    Signal();
    size_t merged = 0;  // parts merged so far, in order
    auto merge_ready = [&] {
      while (merge && merged < parts_ && done_[merged].done.load(std::memory_order_acquire))
        (*merge)(merged++);
    };
    Work(0, merge_ready);
    // Every part is claimed: close, then wait for the workers that joined (each finishes the part
    // it holds).
    state_.fetch_and(~kOpen, std::memory_order_acq_rel);
    if (state_.load(std::memory_order_acquire) != 0) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int spins = 0; state_.load(std::memory_order_acquire) != 0; ++spins) {
        merge_ready();
        if (spins > 64) std::this_thread::yield();
      }
      const auto waited = std::chrono::steady_clock::now() - t0;
      // A wait of a scheduler's time slice means a worker was descheduled mid-part.
      if (waited > std::chrono::microseconds(kSlowWaitUs)) {
        if (++slow_waits_ >= kSlowWaitsToSolo) {
          slow_waits_ = 0;
          solo_left_ = kSoloCalls;
        }
      } else if (slow_waits_ > 0 && ++fast_calls_ >= kSoloCalls) {
        slow_waits_ = 0;
        fast_calls_ = 0;
      }
    }
    merge_ready();
  }

 private:
  static constexpr int kSpins = 20000;  // a worker's busy wait for the next For, then it sleeps
  static constexpr uint32_t kOpen = 1u << 31;  // state_: the call takes workers; low bits: joined
  // Waiting longer than this for joined workers counts as slow; this many slow waits switch to
  // the caller alone for kSoloCalls calls.
  static constexpr int kSlowWaitUs = 500, kSlowWaitsToSolo = 3, kSoloCalls = 2000;
  struct alignas(64) Claim {      // one per thread, each on its own cache line
    std::atomic<size_t> part{0};  // the next untaken part of the thread's own run
  };
  struct alignas(64) Done {  // one per part: its items are stepped
    std::atomic<bool> done{false};
  };

  // Thread w owns parts [Home(w), Home(w + 1)).
  size_t Home(int w) const {
    return parts_ * static_cast<size_t>(w) / static_cast<size_t>(threads_);
  }
  void Signal() {
    gen_.fetch_add(1, std::memory_order_release);
    { std::lock_guard<std::mutex> lock(mu_); }  // a worker about to sleep sees the new generation
    cv_.notify_all();
  }
  // Thread w's own parts in order, then what is left of the others' (the next thread's first).
  // Before each part, `between()` (the caller merges what is done).
  template <typename Between>
  void Work(int w, const Between& between) {
    for (int k = 0; k < threads_; ++k) {
      const int owner = (w + k) % threads_;
      const size_t end = Home(owner + 1);
      for (;;) {
        between();
        const size_t p = next_[owner].part.fetch_add(1, std::memory_order_relaxed);
        if (p >= end) break;
        (*fn_)(n_ * p / parts_, n_ * (p + 1) / parts_, p);
        done_[p].done.store(true, std::memory_order_release);
      }
    }
  }
  void Loop(int w) {
    uint64_t seen = 0;
    for (;;) {
      uint64_t g;
      // Wait for the next call: a short busy wait that yields the core to whoever else wants it
      // (a loaded machine), then sleep.
      for (int spins = 0; (g = gen_.load(std::memory_order_acquire)) == seen; ++spins) {
        if (stop_.load(std::memory_order_relaxed)) return;
        if (spins < kSpins) {
          if (spins > 64) std::this_thread::yield();
          continue;
        }
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] {
          return gen_.load(std::memory_order_acquire) != seen ||
                 stop_.load(std::memory_order_relaxed);
        });
      }
      seen = g;
      if (stop_.load(std::memory_order_relaxed)) return;
      // Join the call if it is still open (and still the one this thread woke for).
      uint32_t st = state_.load(std::memory_order_acquire);
      bool joined = false;
      while ((st & kOpen) && gen_.load(std::memory_order_acquire) == g) {
        if (state_.compare_exchange_weak(st, st + 1, std::memory_order_acq_rel)) {
          joined = true;
          break;
        }
      }
      if (!joined) continue;
      if (gen_.load(std::memory_order_acquire) == g) Work(w, [] {});
      state_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }

  int threads_;
  std::unique_ptr<Claim[]> next_;
  std::unique_ptr<Done[]> done_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<uint64_t> gen_{0};
  std::atomic<bool> stop_{false};
  const PartFn* fn_ = nullptr;
  size_t n_ = 0, parts_ = 0;
  std::atomic<uint32_t> state_{0};  // kOpen while a call takes workers, plus the workers in it
  int slow_waits_ = 0, fast_calls_ = 0, solo_left_ = 0;  // the caller's (For's) own state
};

}  // namespace tessera::util
