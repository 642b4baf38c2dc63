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

// One call of RunParallel. Indices are claimed with an atomic counter, so
// any number of threads can work on it and late arrivals find nothing left.
struct Job {
  const std::function<void(int64_t)>* task = nullptr;
  int64_t n = 0;
  int helpers_wanted = 0;  // guarded by the pool's mutex
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> finished{0};

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
    auto job = std::make_shared<Job>();
    job->task = &task;
    job->n = n;
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
    job->Work();
    job->WaitUntilFinished();
    // Helpers that never came must not find the job later.
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
      job->Work();
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

}  // namespace alkaid
