#include "reader_prefetch.h"

#include <condition_variable>
#include <mutex>
#include <optional>

#include "alkaid/thread_pool.h"

namespace alkaid::ipc::internal {

// What the pool thread shares with the reader; the pool thread holds it by
// shared_ptr, so a job that runs after the prefetcher is gone finds it
// cancelled instead of freed.
struct BatchPrefetcher::Shared {
  enum class Stage { kIdle, kQueued, kRunning, kDone };

  Produce produce;
  std::mutex mutex;
  std::condition_variable done;
  Stage stage = Stage::kIdle;
  std::optional<Result<RecordBatchPtr>> result;  // set in kDone

  // Runs on a pool thread: the queued call, unless it was taken back.
  static void Run(const std::shared_ptr<Shared>& self) {
    {
      std::lock_guard<std::mutex> lock(self->mutex);
      if (self->stage != Stage::kQueued) return;
      self->stage = Stage::kRunning;
    }
    Result<RecordBatchPtr> r = self->produce();
    {
      std::lock_guard<std::mutex> lock(self->mutex);
      self->result.emplace(std::move(r));
      self->stage = Stage::kDone;
    }
    self->done.notify_all();
  }
};

BatchPrefetcher::BatchPrefetcher(Produce produce) : shared_(std::make_shared<Shared>()) {
  shared_->produce = std::move(produce);
}

BatchPrefetcher::~BatchPrefetcher() {
  std::unique_lock<std::mutex> lock(shared_->mutex);
  if (shared_->stage == Shared::Stage::kQueued) shared_->stage = Shared::Stage::kIdle;
  shared_->done.wait(lock, [this] { return shared_->stage != Shared::Stage::kRunning; });
  // A batch decoded ahead and never asked for is dropped here.
  shared_->result.reset();
}

std::optional<Result<RecordBatchPtr>> BatchPrefetcher::TakeAhead() {
  Shared& s = *shared_;
  std::unique_lock<std::mutex> lock(s.mutex);
  if (s.stage == Shared::Stage::kQueued) s.stage = Shared::Stage::kIdle;
  s.done.wait(lock, [&s] { return s.stage != Shared::Stage::kRunning; });
  std::optional<Result<RecordBatchPtr>> r;
  if (s.stage == Shared::Stage::kDone) {
    r = std::move(s.result);
    s.result.reset();
    s.stage = Shared::Stage::kIdle;
  }
  return r;
}

Result<RecordBatchPtr> BatchPrefetcher::Next() {
  Shared& s = *shared_;
  std::optional<Result<RecordBatchPtr>> r;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    if (s.stage == Shared::Stage::kQueued) {
      s.stage = Shared::Stage::kIdle;  // not started: the caller runs it below
    } else {
      s.done.wait(lock, [&s] { return s.stage != Shared::Stage::kRunning; });
      if (s.stage == Shared::Stage::kDone) {
        r = std::move(s.result);
        s.result.reset();
        s.stage = Shared::Stage::kIdle;
      }
    }
  }
  if (!r.has_value()) r.emplace(s.produce());
  if (r->ok() && **r != nullptr) {
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      s.stage = Shared::Stage::kQueued;
    }
    std::shared_ptr<Shared> self = shared_;
    RunInBackground([self] { Shared::Run(self); });
  }
  return std::move(*r);
}

}  // namespace alkaid::ipc::internal
