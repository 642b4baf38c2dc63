#include "alkaid/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <mutex>
#include <thread>
#include <vector>

namespace alkaid {
namespace {

TEST(ThreadPoolTest, EveryIndexRunsExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    std::vector<std::atomic<int>> runs(1000);
    RunParallel(1000, threads, [&](int64_t i) { runs[static_cast<size_t>(i)].fetch_add(1); });
    for (size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << "index " << i;
  }
}

TEST(ThreadPoolTest, OneThreadMeansTheCallerOnly) {
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> elsewhere{false};
  RunParallel(50, 1, [&](int64_t) {
    if (std::this_thread::get_id() != caller) elsewhere = true;
  });
  EXPECT_FALSE(elsewhere.load());
  RunParallel(0, 4, [&](int64_t) { elsewhere = true; });
  EXPECT_FALSE(elsewhere.load()) << "no task for an empty range";
}

TEST(ThreadPoolTest, HelpersTakePartAndAreKept) {
  // Tasks that wait for a second thread to show up can only finish if a
  // helper really runs alongside the caller.
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::atomic<int> started{0};
  RunParallel(2, 2, [&](int64_t) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      seen.insert(std::this_thread::get_id());
    }
    started.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  });
  EXPECT_EQ(started.load(), 2);
  EXPECT_GE(ThreadPoolSize(), 1);
  const int size = ThreadPoolSize();
  for (int round = 0; round < 20; ++round) RunParallel(8, 2, [](int64_t) {});
  EXPECT_EQ(ThreadPoolSize(), size) << "threads are reused, not started per call";
}

TEST(ThreadPoolTest, ConcurrentAndNestedCallsComplete) {
  std::atomic<int64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int round = 0; round < 50; ++round) {
        RunParallel(10, 3, [&](int64_t) {
          // Nested: the inner call's caller works too, so this cannot stall
          // even when every pool thread is busy with outer tasks.
          RunParallel(5, 2, [&](int64_t) { total.fetch_add(1); });
        });
      }
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 4 * 50 * 10 * 5);
}

}  // namespace
}  // namespace alkaid
