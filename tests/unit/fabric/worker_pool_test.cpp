// util::WorkerPool, the fork-join pool both fabrics step their parts on: every item is stepped
// exactly once, in parts that depend only on the item count and the threads, and the caller's
// merge sees every part once, in part order, only after the part is done, even when one thread is
// slowed and the others take over its parts.
#include "util/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace tessera::util {
namespace {

struct PartSeen {
  size_t begin = 0, end = 0;
  std::thread::id thread;
};

// Runs For(n) `rounds` times; `slow(part)` says which parts sleep (to let other threads take
// over). Checks coverage, the parts' bounds and the merges' order; returns how many parts ran on
// another thread than the caller's.
size_t CheckFor(WorkerPool& pool, size_t n, int rounds, bool (*slow)(size_t part)) {
  size_t stolen_or_worker = 0;
  for (int r = 0; r < rounds; ++r) {
    const size_t parts = pool.Parts(n);
    std::vector<std::atomic<int>> stepped(n);
    std::vector<PartSeen> seen(parts);
    std::vector<std::atomic<bool>> done(parts);
    std::vector<size_t> merged;
    const WorkerPool::MergeFn merge = [&](size_t part) {
      EXPECT_TRUE(done[part].load()) << "part " << part << " merged before it was done";
      merged.push_back(part);
    };
    pool.For(
        n,
        [&](size_t begin, size_t end, size_t part) {
          EXPECT_LT(part, parts);
          seen[part] = {begin, end, std::this_thread::get_id()};
          if (slow && slow(part)) std::this_thread::sleep_for(std::chrono::milliseconds(2));
          for (size_t i = begin; i < end; ++i) stepped[i].fetch_add(1);
          done[part].store(true);
        },
        &merge);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(stepped[i].load(), 1) << "item " << i;
    EXPECT_EQ(merged.size(), parts);
    if (merged.size() != parts) return 0;
    for (size_t p = 0; p < parts; ++p) {
      EXPECT_EQ(merged[p], p) << "merges out of part order";
      // Contiguous parts in order, the same whatever the timing: [n*p/P, n*(p+1)/P).
      EXPECT_EQ(seen[p].begin, n * p / parts) << "part " << p;
      EXPECT_EQ(seen[p].end, n * (p + 1) / parts) << "part " << p;
      if (seen[p].thread != std::this_thread::get_id()) ++stolen_or_worker;
    }
  }
  return stolen_or_worker;
}

TEST(WorkerPool, OneThreadStepsEverythingAsOnePart) {
  WorkerPool pool(1);
  EXPECT_EQ(pool.Parts(1000), 1u);
  EXPECT_EQ(CheckFor(pool, 1000, 3, nullptr), 0u);
}

TEST(WorkerPool, EveryItemOnceInFixedPartsMergedInOrder) {
  for (int threads : {2, 3}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    WorkerPool pool(threads);
    EXPECT_EQ(pool.MaxParts(), static_cast<size_t>(threads) * WorkerPool::kPartsPerThread);
    for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{5}, size_t{97}, size_t{4096}}) {
      SCOPED_TRACE(testing::Message() << n << " items");
      CheckFor(pool, n, 20, nullptr);
    }
  }
}

TEST(WorkerPool, OthersTakeOverTheSlowThreadsParts) {
  // The caller's own parts come first; with each of them slowed, a worker finishes its own run
  // and takes over some of the caller's. Merges stay in part order.
  WorkerPool pool(2);
  const size_t n = 4096;
  const size_t home = pool.Parts(n) / 2;  // the caller owns parts [0, home)
  static size_t caller_parts;
  caller_parts = home;
  const size_t elsewhere = CheckFor(pool, n, 2, [](size_t part) { return part < caller_parts; });
  EXPECT_GT(elsewhere, 2 * home) << "no part of the caller's run was taken over";
}

}  // namespace
}  // namespace tessera::util
