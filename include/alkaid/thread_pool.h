/// @file
/// A process-wide pool of helper threads for data-parallel loops (body
/// buffer compression and decompression), and the schedulers that run work
/// on it: RunParallel, ParallelFor (costliest item first, first error by
/// index) and RunRacing (a second attempt of items a preempted thread holds
/// up). Threads are started on first use and then kept, so a loop over a few
/// large buffers does not pay for thread creation, and per-thread codec
/// contexts stay warm between batches. Every function here may be called
/// from any thread, including from a task running on the pool.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Runs task(i) for every i in [0, n) on the calling thread and at most
/// `max_threads - 1` pool threads, and returns when every call has returned.
/// The caller always takes part, so nested or concurrent use cannot stall.
ALKAID_EXPORT void RunParallel(int64_t n, int max_threads, const std::function<void(int64_t)>& task);

/// Runs `task` once on a pool thread, later, and returns at once (starting a
/// pool thread if none was started yet). The task must not wait for work
/// queued behind it; anything it uses must stay valid until it has run.
ALKAID_EXPORT void RunInBackground(std::function<void()> task);

/// Helper threads started so far (they are never stopped).
ALKAID_EXPORT int ThreadPoolSize();

/// The machine's hardware threads (std::thread::hardware_concurrency(), at
/// least 1), found on the first call and remembered for the life of the
/// process: on Linux the library call opens and reads a file in /sys, about
/// 9 us on the VMs CI runs on, which is too much to pay per record batch.
/// Later changes (CPU hotplug) are not seen. Safe to call from any thread.
ALKAID_EXPORT int HardwareThreads();

/// How to spread work over threads. Work smaller than `min_parallel_bytes`
/// in total (or a single buffer) always runs on the calling thread, because
/// starting threads would cost more than it saves.
struct ALKAID_EXPORT ParallelOptions {
  bool use_threads = false;  ///< false: everything runs on the calling thread
  int num_threads = 0;       ///< 0: HardwareThreads()
  /// Total bytes of work below which everything stays on the calling thread.
  int64_t min_parallel_bytes = int64_t{1} << 20;

  /// The threads (the caller's included) `items` items may use:
  /// min(num_threads, or HardwareThreads() when 0, and `items`).
  int64_t ThreadsFor(int64_t items) const;
};

/// The indices of `costs` ordered by decreasing cost (ties keep index order):
/// the order in which threads should take items so that one large item
/// left for last does not run alone while the other threads idle.
ALKAID_EXPORT std::vector<int64_t> CostliestFirst(std::span<const int64_t> costs);

/// Runs task(i) for every i in [0, costs.size()) on up to
/// `parallel.num_threads` threads (or serially, see ParallelOptions); returns
/// the first error by index. costs[i] estimates the work of task i (bytes):
/// threads take the costliest tasks first (CostliestFirst). Serially, stops
/// at the first error.
ALKAID_EXPORT Status ParallelFor(std::span<const int64_t> costs, const ParallelOptions& parallel,
                                 const std::function<Status(int64_t)>& task);

/// `size()` independent items for RunRacing. An item is started once by
/// whichever thread claims it first; the calling thread of RunRacing may start
/// a second attempt of an item that a pool thread is still working on, and the
/// first attempt to call TryFinish supplies the item's result. RunRacing
/// returns only after every attempt it started (winner or loser) has returned,
/// so an attempt may use memory owned by the caller of RunRacing; a losing
/// attempt should therefore poll Finished(i) between steps of its work and
/// give up early, releasing what it allocated, once it is true.
class ALKAID_EXPORT RacingTask {
 public:
  /// A task of `n` items, none started.
  explicit RacingTask(int64_t n);
  /// Not copyable: pool threads refer to the object itself.
  RacingTask(const RacingTask&) = delete;
  /// Not assignable.
  RacingTask& operator=(const RacingTask&) = delete;
  virtual ~RacingTask();

  /// Number of items.
  int64_t size() const { return n_; }

  /// Works on item `i` as attempt `attempt` (0: the first, 1: the caller's
  /// second). It should poll Finished(i) now and then and may give up once it
  /// is true; an attempt that completes stores its result in a place of its
  /// own and then calls TryFinish(i, attempt).
  virtual void Attempt(int64_t i, int attempt) = 0;

  /// True once an attempt of item `i` has called TryFinish.
  bool Finished(int64_t i) const { return winner_[i].load(std::memory_order_acquire) != 0; }
  /// Claims item `i` for `attempt`: true when it is the first attempt to
  /// finish (its result stands), false when another attempt finished first
  /// (the caller should then drop its result).
  bool TryFinish(int64_t i, int attempt);
  /// The attempt whose result stands; valid once RunRacing has returned.
  int Winner(int64_t i) const { return winner_[i].load(std::memory_order_acquire) - 1; }
  /// Whether attempt `attempt`, running on the calling thread, may have a
  /// rival and so should poll Finished: false only for a first attempt on the
  /// thread that called RunRacing (second attempts are only ever started by
  /// that thread, of items a pool thread started). Call from Attempt.
  bool MayBeRaced(int attempt) const {
    return attempt == 1 || std::this_thread::get_id() != caller_;
  }

 private:
  friend class RacingRunner;
  std::thread::id caller_;  // RunRacing's caller, set before any attempt starts
  int64_t n_;
  std::unique_ptr<std::atomic<uint8_t>[]> claim_;   // 0 free, 1 started, 2 started twice
  std::unique_ptr<std::atomic<uint8_t>[]> winner_;  // 0 none, else winning attempt + 1
  std::atomic<int64_t> finished_{0};
};

/// Runs every item of `task` on the calling thread and at most
/// `max_threads - 1` pool threads. The caller claims items like any pool
/// thread; once none is left unstarted, it starts a second attempt of each
/// item still in progress on a pool thread (when `second_attempts` is true)
/// instead of waiting for it, so a pool thread that the system has preempted
/// delays the caller only until it next runs and sees (Finished) that its
/// item is done. With `second_attempts` false the caller waits for items in
/// progress. Returns when every item has a result and every attempt has
/// returned: nothing of the task runs after the call, and no pool thread
/// keeps a reference to it.
ALKAID_EXPORT void RunRacing(const std::shared_ptr<RacingTask>& task, int max_threads,
                             bool second_attempts = true);

/// RunRacing in two halves, for a caller with other work to do while pool
/// threads start on a task: Start hands the task to at most `max_threads - 1`
/// pool threads and returns at once; Finish then does the rest of RunRacing on
/// the calling thread (claims the items nobody started, races the ones still
/// in progress, waits). Start(task, k) followed by Finish() is RunRacing(task,
/// k). One run is used by one thread at a time (Start and Finish may be called
/// from different threads, one after the other).
class ALKAID_EXPORT RacingRun {
 public:
  /// A run with no task.
  RacingRun() = default;
  /// Not copyable: it stands for work in progress.
  RacingRun(const RacingRun&) = delete;
  /// Not assignable.
  RacingRun& operator=(const RacingRun&) = delete;
  /// Finishes a started run (the task may use memory of the run's owner).
  ~RacingRun();

  /// Starts `task`; a run already started is finished first (Finish).
  void Start(std::shared_ptr<RacingTask> task, int max_threads);
  /// Runs what is left of the task on this thread and returns when every
  /// item has a result and every attempt has returned: FinishResults, then
  /// Release. Does nothing when the run was not started; afterwards it is not.
  void Finish(bool second_attempts = true);
  /// The first half of Finish: returns when every item has a result, without
  /// waiting for attempts that lost their race and are still returning on
  /// pool threads. Such an attempt stops at its next check of Finished, but
  /// a pool thread that the system preempted makes that check only when it
  /// runs again, and waiting for it is what a loaded machine makes slow.
  /// Until Release, those attempts may still read whatever the task reads.
  void FinishResults(bool second_attempts = true);
  /// True after FinishResults while an attempt that lost may still be
  /// running (Release would wait for it).
  bool lingering() const;
  /// Waits until no attempt of the run is left and drops the task. No pool
  /// thread holds the task afterwards, so it is destroyed on the thread that
  /// drops the last reference its owner keeps (never on a pool thread, after
  /// the memory it holds may have gone). Nothing to do after Finish, or
  /// before Start.
  void Release();
  /// True between Start and FinishResults (or Finish).
  bool started() const { return task_ != nullptr && !results_; }

 private:
  std::shared_ptr<RacingTask> task_;
  std::shared_ptr<void> job_;  // the pool's job for the helpers, if any
  bool results_ = false;       // FinishResults has returned; Release is left
};

}  // namespace alkaid
