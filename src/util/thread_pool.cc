#include "alkaid/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
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

  // A pool thread's share: counted as active before it may claim anything,
  // so that a caller that sees no active pool thread after every item has
  // finished knows no attempt is left running (one that enters later finds
  // every item claimed and starts none).
  static void HelperClaimAll(RacingTask& task) {
    task.active_.fetch_add(1, std::memory_order_seq_cst);
    ClaimAll(task);
    if (task.active_.fetch_sub(1, std::memory_order_seq_cst) == 1) task.active_.notify_all();
  }

  static void WaitUntilNoHelper(RacingTask& task) {
    for (int seen = task.active_.load(std::memory_order_seq_cst); seen != 0;
         seen = task.active_.load(std::memory_order_seq_cst)) {
      task.active_.wait(seen, std::memory_order_seq_cst);
    }
  }

  static int HelpersInside(const RacingTask& task) {
    return task.active_.load(std::memory_order_seq_cst);
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
struct RacingJob final : Job {
  std::shared_ptr<RacingTask> task;
  void HelperWork() override { RacingRunner::HelperClaimAll(*task); }
};
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
    racing->task = task;
    std::shared_ptr<Job> job = std::move(racing);
    GlobalPool().Submit(job, helpers);
    job_ = std::move(job);  // stored as the Job it is, so the cast back is exact
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
  // No helper enters the task after this; the ones inside leave at their
  // next check of Finished.
  if (job_ != nullptr) GlobalPool().Withdraw(std::static_pointer_cast<Job>(job_));
  results_ = true;
}

bool RacingRun::lingering() const {
  return results_ && job_ != nullptr && RacingRunner::HelpersInside(*task_) != 0;
}

void RacingRun::Release() {
  if (task_ == nullptr) return;
  FinishResults();
  // Losing attempts may use the caller's memory and its pool: none may
  // outlive this call.
  if (job_ != nullptr) RacingRunner::WaitUntilNoHelper(*task_);
  job_.reset();
  task_.reset();
  results_ = false;
}

}  // namespace alkaid
