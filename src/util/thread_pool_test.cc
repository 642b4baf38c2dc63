#include "alkaid/thread_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
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


// Records which thread ran each attempt; items finish at once.
class RecordingTask final : public RacingTask {
 public:
  explicit RecordingTask(int64_t n) : RacingTask(n), runs_(static_cast<size_t>(n)) {}
  void Attempt(int64_t i, int attempt) override {
    runs_[static_cast<size_t>(i)].fetch_add(1);
    if (std::this_thread::get_id() != caller_) off_caller_.fetch_add(1);
    TryFinish(i, attempt);
  }
  std::thread::id caller_ = std::this_thread::get_id();
  std::vector<std::atomic<int>> runs_;
  std::atomic<int> off_caller_{0};
};

TEST(ThreadPoolTest, RacingRunsEveryItemAndEachHasOneResult) {
  for (int threads : {1, 2, 4}) {
    auto task = std::make_shared<RecordingTask>(1000);
    RunRacing(task, threads);
    for (int64_t i = 0; i < task->size(); ++i) {
      ASSERT_TRUE(task->Finished(i)) << "item " << i;
      // Items finish as soon as they start, so a second attempt never finds
      // one in progress on a helper for long; either attempt may stand.
      ASSERT_GE(task->runs_[static_cast<size_t>(i)].load(), 1) << "item " << i;
      ASSERT_LE(task->runs_[static_cast<size_t>(i)].load(), 2) << "item " << i;
      ASSERT_TRUE(task->Winner(i) == 0 || task->Winner(i) == 1) << "item " << i;
    }
  }
  auto alone = std::make_shared<RecordingTask>(50);
  RunRacing(alone, 1);
  EXPECT_EQ(alone->off_caller_.load(), 0) << "one thread means the caller only";
  RunRacing(std::make_shared<RecordingTask>(0), 4);  // nothing to do
}

// A pool thread that stalls in the middle of an item (as when the system
// preempts it) must not hold the caller up beyond its next check of
// Finished: the caller runs the item itself, and the pool thread's attempt
// gives up and has returned before RunRacing does.
class StallingTask final : public RacingTask {
 public:
  StallingTask() : RacingTask(2) {}
  void Attempt(int64_t i, int attempt) override {
    if (std::this_thread::get_id() == caller_) {
      if (attempt == 0) {
        // Let a pool thread claim the other item before finishing this one.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!helper_started_.load() && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::yield();
        }
      }
      TryFinish(i, attempt);
      return;
    }
    stalled_item_.store(i);
    helper_started_.store(true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!release_.load() && !(gives_up_ && Finished(i)) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    helper_won_.store(TryFinish(i, attempt));
    helper_done_.store(true);
  }
  std::thread::id caller_ = std::this_thread::get_id();
  bool gives_up_ = true;  // polls Finished while stalled
  std::atomic<bool> helper_started_{false}, release_{false}, helper_done_{false}, helper_won_{true};
  std::atomic<int64_t> stalled_item_{-1};
};

TEST(ThreadPoolTest, RacingCallerDoesNotWaitForAStalledHelper) {
  auto task = std::make_shared<StallingTask>();
  const auto start = std::chrono::steady_clock::now();
  RunRacing(task, 2);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(task->helper_started_.load()) << "no pool thread took part";
  EXPECT_FALSE(task->release_.load());
  EXPECT_LT(took, std::chrono::seconds(5)) << "the caller waited for the stalled pool thread";
  const int64_t stalled = task->stalled_item_.load();
  ASSERT_GE(stalled, 0);
  EXPECT_TRUE(task->Finished(0));
  EXPECT_TRUE(task->Finished(1));
  EXPECT_EQ(task->Winner(stalled), 1) << "the caller's second attempt supplies the result";
  // The losing attempt saw Finished, gave up, and returned before RunRacing.
  EXPECT_TRUE(task->helper_done_.load()) << "an attempt outlived RunRacing";
  EXPECT_FALSE(task->helper_won_.load()) << "the late attempt must lose";
  EXPECT_EQ(task->Winner(stalled), 1);
}

// An attempt that never checks Finished is waited for: RunRacing never
// returns while an attempt of its task still runs.
TEST(ThreadPoolTest, RacingNeverReturnsBeforeEveryAttemptReturned) {
  auto task = std::make_shared<StallingTask>();
  task->gives_up_ = false;
  std::thread releaser([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!task->helper_started_.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task->release_.store(true);
  });
  RunRacing(task, 2);
  const bool done_at_return = task->helper_done_.load();
  releaser.join();
  ASSERT_TRUE(task->helper_started_.load());
  EXPECT_TRUE(done_at_return) << "RunRacing returned while a pool thread's attempt still ran";
  const int64_t stalled = task->stalled_item_.load();
  ASSERT_GE(stalled, 0);
  EXPECT_EQ(task->Winner(stalled), 1) << "the caller's second attempt finished first";
  EXPECT_FALSE(task->helper_won_.load());
}

// FinishResults returns once every item has a result, leaving a losing
// attempt that has not yet noticed running (lingering), and Release waits
// for it: the split the write-behind writer uses so as not to wait on a
// preempted pool thread while it writes.
TEST(ThreadPoolTest, RacingFinishResultsLeavesTheLoserAndReleaseWaitsForIt) {
  auto task = std::make_shared<StallingTask>();
  task->gives_up_ = false;  // stays inside until released, like a preempted thread
  RacingRun run;
  run.Start(task, 2);
  EXPECT_TRUE(run.started());
  run.FinishResults();
  EXPECT_FALSE(run.started());
  ASSERT_TRUE(task->helper_started_.load()) << "no pool thread took part";
  EXPECT_TRUE(task->Finished(0));
  EXPECT_TRUE(task->Finished(1));
  const int64_t stalled = task->stalled_item_.load();
  ASSERT_GE(stalled, 0);
  EXPECT_EQ(task->Winner(stalled), 1) << "the caller's second attempt supplies the result";
  EXPECT_FALSE(task->helper_done_.load()) << "FinishResults waited for the losing attempt";
  EXPECT_TRUE(run.lingering());
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task->release_.store(true);
  });
  run.Release();
  const bool done_at_return = task->helper_done_.load();
  releaser.join();
  EXPECT_TRUE(done_at_return) << "Release returned while the losing attempt still ran";
  EXPECT_FALSE(run.lingering());
  EXPECT_FALSE(task->helper_won_.load());
  run.Release();  // nothing left: returns at once
  // Finish is FinishResults + Release: nothing lingers after it.
  auto quick = std::make_shared<RecordingTask>(100);
  RacingRun again;
  again.Start(quick, 2);
  again.Finish();
  EXPECT_FALSE(again.lingering());
  EXPECT_FALSE(again.started());
}

// Records whether it was destroyed on the thread that made it.
class OwnedTask final : public RacingTask {
 public:
  explicit OwnedTask(std::atomic<int>* elsewhere)
      : RacingTask(4), elsewhere_(elsewhere), owner_(std::this_thread::get_id()) {}
  ~OwnedTask() override {
    if (std::this_thread::get_id() != owner_) elsewhere_->fetch_add(1);
  }
  void Attempt(int64_t i, int attempt) override { TryFinish(i, attempt); }

 private:
  std::atomic<int>* elsewhere_;
  std::thread::id owner_;
};

// After RunRacing (and Release) no pool thread holds the task: its owner's
// reference is the last, and the task is destroyed where the owner drops
// it. (The buffers of losing attempts come from the caller's memory pool: a
// pool thread letting go of the task later could free them into a pool, or
// a process, that has gone; TSan once saw that at exit.)
TEST(ThreadPoolTest, RacingTasksAreNotKeptByPoolThreads) {
  std::atomic<int> elsewhere{0};
  for (int round = 0; round < 3000; ++round) {
    auto task = std::make_shared<OwnedTask>(&elsewhere);
    if (round % 2 == 0) {
      RunRacing(task, 3);
    } else {
      RacingRun run;
      run.Start(task, 3);
      run.FinishResults();
      run.Release();
    }
    ASSERT_EQ(task.use_count(), 1) << "round " << round << ": a pool thread still holds the task";
  }
  EXPECT_EQ(elsewhere.load(), 0);
}

TEST(ThreadPoolTest, RacingWithoutSecondAttemptsWaitsForTheHelper) {
  auto task = std::make_shared<StallingTask>();
  std::thread releaser([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!task->helper_started_.load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task->release_.store(true);
  });
  RunRacing(task, 2, /*second_attempts=*/false);
  releaser.join();
  ASSERT_TRUE(task->helper_started_.load());
  const int64_t stalled = task->stalled_item_.load();
  ASSERT_GE(stalled, 0);
  // Finished by the pool thread's attempt, the only one there was.
  EXPECT_TRUE(task->Finished(stalled)) << "returned before the pool thread's item finished";
  EXPECT_EQ(task->Winner(stalled), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!task->helper_done_.load() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_TRUE(task->helper_won_.load());
}

// With every pool thread busy elsewhere, the caller does all the work alone
// and does not wait for a pool thread to become free.
TEST(ThreadPoolTest, RacingCallerDoesEverythingWhenThePoolIsBusy) {
  const int busy = std::max(ThreadPoolSize(), 1) + 1;  // caller of the blocker + every pool thread
  std::atomic<int> blocked{0};
  std::atomic<bool> release{false};
  std::thread blocker([&] {
    RunParallel(busy, busy, [&](int64_t) {
      blocked.fetch_add(1);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (!release.load() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
      }
    });
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (blocked.load() < busy && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  ASSERT_EQ(blocked.load(), busy);
  const int pool_threads = ThreadPoolSize();
  auto task = std::make_shared<RecordingTask>(64);
  RunRacing(task, 2);
  const int off_caller = task->off_caller_.load();
  release.store(true);
  blocker.join();
  EXPECT_EQ(off_caller, 0) << "every pool thread was busy";
  for (int64_t i = 0; i < task->size(); ++i) {
    EXPECT_EQ(task->runs_[static_cast<size_t>(i)].load(), 1) << "item " << i;
    EXPECT_EQ(task->Winner(i), 0) << "item " << i;
  }
  EXPECT_EQ(ThreadPoolSize(), pool_threads) << "no thread was started for a queued job";
}

// HardwareThreads is asked per record batch by readers that were given no
// thread count, so it must not go back to the system on each call: on Linux
// std::thread::hardware_concurrency() opens and reads a /sys file each time
// (1-9 us measured), which makes 100,000 uncached calls take 100 ms or more;
// cached, they take well under 1 ms even under sanitizers.
TEST(ThreadPoolTest, HardwareThreadsIsAskedOnceAndRemembered) {
  const int first = HardwareThreads();
  EXPECT_GE(first, 1);
  const unsigned reported = std::thread::hardware_concurrency();
  if (reported != 0) {
    EXPECT_EQ(first, static_cast<int>(reported));
  }
  const auto start = std::chrono::steady_clock::now();
  int64_t sum = 0;
  for (int i = 0; i < 100000; ++i) sum += HardwareThreads();
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(sum, int64_t{100000} * first);
  EXPECT_LT(took, std::chrono::milliseconds(25))
      << "HardwareThreads seems to ask the system on every call";
}


TEST(ParallelForTest, ReportsFirstErrorByIndex) {
  ParallelOptions threads;
  threads.use_threads = true;
  threads.num_threads = 3;
  threads.min_parallel_bytes = 0;
  std::atomic<int> calls{0};
  const std::vector<int64_t> costs(20, 0);
  Status st = ParallelFor(costs, threads, [&](int64_t i) {
    ++calls;
    if (i == 7 || i == 15) return Status::Invalid("task ", i);
    return Status::OK();
  });
  EXPECT_EQ(calls.load(), 20);
  EXPECT_EQ(st.message(), "task 7");
  // Serial fallback stops at the first failure.
  calls = 0;
  st = ParallelFor(costs, ParallelOptions{}, [&](int64_t i) {
    ++calls;
    return i == 3 ? Status::Invalid("stop") : Status::OK();
  });
  EXPECT_EQ(calls.load(), 4);
  EXPECT_TRUE(st.IsInvalid());
}

// Every cheap task waits for the costly one to have started. Taken in index
// order, both threads would sit in cheap tasks waiting for it (until the
// timeout); taken costliest first, it starts at once.
TEST(ParallelForTest, StartsTheCostliestTaskFirst) {
  ParallelOptions threads;
  threads.use_threads = true;
  threads.num_threads = 2;
  threads.min_parallel_bytes = 0;
  const std::vector<int64_t> costs{1, 1, 1, 100, 1};
  std::atomic<bool> costly_started{false};
  std::atomic<int> timed_out{0};
  Status st = ParallelFor(costs, threads, [&](int64_t i) {
    if (i == 3) {
      costly_started = true;
      return Status::OK();
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!costly_started && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (!costly_started) ++timed_out;
    return Status::OK();
  });
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(timed_out.load(), 0);
}

TEST(ParallelForTest, CostliestFirstKeepsIndexOrderAmongEqualCosts) {
  const std::vector<int64_t> costs{5, 1, 5, 9, 1};
  EXPECT_EQ(CostliestFirst(costs), (std::vector<int64_t>{3, 0, 2, 1, 4}));
  EXPECT_TRUE(CostliestFirst({}).empty());
}

TEST(ParallelForTest, ThreadsForIsBoundedByTheItems) {
  ParallelOptions options;
  options.num_threads = 4;
  EXPECT_EQ(options.ThreadsFor(2), 2);
  EXPECT_EQ(options.ThreadsFor(10), 4);
  options.num_threads = 0;
  EXPECT_EQ(options.ThreadsFor(1000), std::min<int64_t>(HardwareThreads(), 1000));
}

}  // namespace
}  // namespace alkaid
