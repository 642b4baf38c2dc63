#include "alkaid/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

namespace alkaid {
namespace {

// Upper bound on helper threads, whatever callers ask for.
constexpr int kMaxHelpers = 63;

// Work queued for helpers. A helper that picks a job up calls HelperWork;
// whoever submitted it takes part itself and withdraws it when done.
struct Job {
  int helpers_wanted = 0;  // guarded by the pool's mutex
  virtual ~Job() = default;
  virtual void HelperWork() = 0;
};

// One call of RunParallel. Indices are claimed with an atomic counter, so
// any number of threads can work on it and late arrivals find nothing left.
struct FunctionJob final : Job {
  const std::function<void(int64_t)>* task = nullptr;
  int64_t n = 0;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> finished{0};

  void HelperWork() override { Work(); }

  void Work() {
    for (int64_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) {
      (*task)(i);
      if (finished.fetch_add(1) + 1 == n) finished.notify_all();
    }
  }

  void WaitUntilFinished() {
    for (int64_t seen = finished.load(); seen < n; seen = finished.load()) finished.wait(seen);
  }
};

class Pool {
 public:
  void Run(int64_t n, int helpers, const std::function<void(int64_t)>& task) {
    auto job = std::make_shared<FunctionJob>();
    job->task = &task;
    job->n = n;
    Submit(job, helpers);
    job->Work();
    job->WaitUntilFinished();
    Withdraw(job);
  }

  void Submit(const std::shared_ptr<Job>& job, int helpers) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      StartThreads(helpers);
      job->helpers_wanted = helpers;
      queue_.push_back(job);
    }
    if (helpers == 1) {
      wake_.notify_one();
    } else {
      wake_.notify_all();
    }
  }

  // Helpers that never came must not find the job later.
  void Withdraw(const std::shared_ptr<Job>& job) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = std::find(queue_.begin(), queue_.end(), job);
    if (it != queue_.end()) queue_.erase(it);
  }

  int size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(threads_started_);
  }

 private:
  // Called with the mutex held.
  void StartThreads(int wanted) {
    while (threads_started_ < wanted) {
      // Detached: the pool lives until the process ends.
      std::thread([this] { WorkerLoop(); }).detach();
      ++threads_started_;
    }
  }

  void WorkerLoop() {
    while (true) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        job = queue_.front();
        if (--job->helpers_wanted <= 0) queue_.pop_front();
      }
      job->HelperWork();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> queue_;
  int threads_started_ = 0;
};

Pool& GlobalPool() {
  // Never destroyed: detached workers may still wait on it during exit.
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

namespace {
// One task for one pool thread.
struct BackgroundJob final : Job {
  std::function<void()> task;
  void HelperWork() override { task(); }
};
}  // namespace

void RunInBackground(std::function<void()> task) {
  auto job = std::make_shared<BackgroundJob>();
  job->task = std::move(task);
  GlobalPool().Submit(job, 1);
}

void RunParallel(int64_t n, int max_threads, const std::function<void(int64_t)>& task) {
  if (n <= 0) return;
  const int helpers =
      static_cast<int>(std::min<int64_t>({static_cast<int64_t>(max_threads) - 1, n - 1, kMaxHelpers}));
  if (helpers <= 0) {
    for (int64_t i = 0; i < n; ++i) task(i);
    return;
  }
  GlobalPool().Run(n, helpers, task);
}

int ThreadPoolSize() { return GlobalPool().size(); }

int HardwareThreads() {
  static const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return threads;
}

int64_t ParallelOptions::ThreadsFor(int64_t items) const {
  const int64_t threads = num_threads > 0 ? num_threads : HardwareThreads();
  return std::min(threads, items);
}

std::vector<int64_t> CostliestFirst(std::span<const int64_t> costs) {
  std::vector<int64_t> order(costs.size());
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return costs[static_cast<size_t>(a)] > costs[static_cast<size_t>(b)];
  });
  return order;
}

Status ParallelFor(std::span<const int64_t> costs, const ParallelOptions& parallel,
                   const std::function<Status(int64_t)>& task) {
  const auto n = static_cast<int64_t>(costs.size());
  int64_t total = 0;
  for (int64_t c : costs) total += std::max<int64_t>(c, 0);
  const int64_t threads = parallel.ThreadsFor(n);
  if (!parallel.use_threads || threads <= 1 || total < parallel.min_parallel_bytes) {
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(task(i));
    return Status::OK();
  }
  const std::vector<int64_t> order = CostliestFirst(costs);
  std::vector<Status> results(static_cast<size_t>(n));
  RunParallel(n, static_cast<int>(threads), [&](int64_t k) {
    const int64_t i = order[static_cast<size_t>(k)];
    results[static_cast<size_t>(i)] = task(i);
  });
  for (const Status& st : results) ALKAID_RETURN_NOT_OK(st);
  return Status::OK();
}

RacingTask::RacingTask(int64_t n)
    : n_(n < 0 ? 0 : n),
      claim_(new std::atomic<uint8_t>[static_cast<size_t>(n_)]),
      winner_(new std::atomic<uint8_t>[static_cast<size_t>(n_)]) {
  for (int64_t i = 0; i < n_; ++i) {
    claim_[i].store(0, std::memory_order_relaxed);
    winner_[i].store(0, std::memory_order_relaxed);
  }
}

RacingTask::~RacingTask() = default;

bool RacingTask::TryFinish(int64_t i, int attempt) {
  uint8_t none = 0;
  if (!winner_[i].compare_exchange_strong(none, static_cast<uint8_t>(attempt + 1),
                                          std::memory_order_acq_rel)) {
    return false;
  }
  if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_) finished_.notify_all();
  return true;
}

// Claiming and second attempts, on behalf of RunRacing.
class RacingRunner {
 public:
  // First attempts of every item nobody has started yet.
  static void ClaimAll(RacingTask& task) {
    for (int64_t i = 0; i < task.n_; ++i) {
      uint8_t free = 0;
      if (task.claim_[i].load(std::memory_order_relaxed) == 0 &&
          task.claim_[i].compare_exchange_strong(free, 1, std::memory_order_acq_rel)) {
        task.Attempt(i, 0);
      }
    }
  }

  static void SetCaller(RacingTask& task) { task.caller_ = std::this_thread::get_id(); }

  // The caller's second attempt of every item still in progress elsewhere.
  // Each returns only once the item is finished (by it or by the first
  // attempt), so afterwards nothing is left to wait for.
  static void SecondAttempts(RacingTask& task) {
    for (int64_t i = task.n_ - 1; i >= 0; --i) {
      uint8_t once = 1;
      if (!task.Finished(i) &&
          task.claim_[i].compare_exchange_strong(once, 2, std::memory_order_acq_rel)) {
        task.Attempt(i, 1);
      }
    }
  }

  static void WaitUntilFinished(RacingTask& task) {
    for (int64_t seen = task.finished_.load(std::memory_order_acquire); seen < task.n_;
         seen = task.finished_.load(std::memory_order_acquire)) {
      task.finished_.wait(seen, std::memory_order_acquire);
    }
  }
};

namespace {
// The pool's side of a RacingRun. It does not own the task: a pool thread
// may hold the job (a copy taken from the queue) long after the run was
// released, and were that copy the task's last owner, the task (with the
// buffers of losing attempts, allocated from the caller's memory pool) would
// be destroyed on the pool thread, perhaps after the pool or the process's
// static objects are gone. The run keeps the task instead, and Release
// closes the job: a pool thread enters only while it is open, and Release
// waits for the ones inside.
struct RacingJob final : Job {
  RacingTask* task = nullptr;
  // Pool threads past the check of `closed` (counted before it, so that a
  // Release that sees none after closing knows none will touch the task:
  // one that comes later sees the job closed). Both seq_cst.
  std::atomic<int> active{0};
  std::atomic<bool> closed{false};

  void HelperWork() override {
    active.fetch_add(1, std::memory_order_seq_cst);
    // Once every item is claimed (as it is after FinishResults) an entering
    // thread starts nothing.
    if (!closed.load(std::memory_order_seq_cst)) RacingRunner::ClaimAll(*task);
    // The job outlives this call (the caller of HelperWork holds it).
    if (active.fetch_sub(1, std::memory_order_seq_cst) == 1) active.notify_all();
  }

  // Lets no pool thread enter any more; returns once none is inside.
  void Close() {
    closed.store(true, std::memory_order_seq_cst);
    for (int seen = active.load(std::memory_order_seq_cst); seen != 0;
         seen = active.load(std::memory_order_seq_cst)) {
      active.wait(seen, std::memory_order_seq_cst);
    }
  }
};

RacingJob& AsRacingJob(const std::shared_ptr<void>& job) {
  // Stored as the Job it was made as, so the casts back are exact.
  return static_cast<RacingJob&>(*std::static_pointer_cast<Job>(job));
}
}  // namespace

void RunRacing(const std::shared_ptr<RacingTask>& task, int max_threads, bool second_attempts) {
  RacingRun run;
  run.Start(task, max_threads);
  run.Finish(second_attempts);
}

RacingRun::~RacingRun() { Finish(); }

void RacingRun::Start(std::shared_ptr<RacingTask> task, int max_threads) {
  Finish();
  const int64_t n = task == nullptr ? 0 : task->size();
  if (n <= 0) return;
  RacingRunner::SetCaller(*task);  // before any pool thread sees the task
  const int helpers =
      static_cast<int>(std::min<int64_t>({static_cast<int64_t>(max_threads) - 1, n - 1, kMaxHelpers}));
  if (helpers > 0) {
    auto racing = std::make_shared<RacingJob>();
    racing->task = task.get();  // task_ keeps it until Release closed the job
    std::shared_ptr<Job> job = std::move(racing);
    GlobalPool().Submit(job, helpers);
    job_ = std::move(job);
  }
  task_ = std::move(task);
}

void RacingRun::Finish(bool second_attempts) {
  FinishResults(second_attempts);
  Release();
}

void RacingRun::FinishResults(bool second_attempts) {
  if (task_ == nullptr || results_) return;
  RacingTask& task = *task_;
  RacingRunner::ClaimAll(task);
  if (second_attempts) RacingRunner::SecondAttempts(task);
  RacingRunner::WaitUntilFinished(task);
  // Off the queue: no more pool threads take the job. Those inside leave at
  // their next check of Finished; one that took it earlier and enters late
  // finds every item claimed.
  if (job_ != nullptr) GlobalPool().Withdraw(std::static_pointer_cast<Job>(job_));
  results_ = true;
}

bool RacingRun::lingering() const {
  return results_ && job_ != nullptr &&
         AsRacingJob(job_).active.load(std::memory_order_seq_cst) != 0;
}

void RacingRun::Release() {
  if (task_ == nullptr) return;
  FinishResults();
  // Losing attempts may use the caller's memory and its pool: none may
  // outlive this call, and no pool thread may keep the task.
  if (job_ != nullptr) AsRacingJob(job_).Close();
  job_.reset();
  task_.reset();
  results_ = false;
}

}  // namespace alkaid
