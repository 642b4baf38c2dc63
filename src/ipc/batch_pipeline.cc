#include "batch_pipeline.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "alkaid/thread_pool.h"

namespace alkaid::ipc::internal {

namespace {
thread_local bool tls_codec_threads_denied = false;

// Marks the calling thread as running a batch beside others for its scope.
class CodecThreadsScope {
 public:
  explicit CodecThreadsScope(bool allowed) : saved_(tls_codec_threads_denied) {
    tls_codec_threads_denied = !allowed;
  }
  ~CodecThreadsScope() { tls_codec_threads_denied = saved_; }
  CodecThreadsScope(const CodecThreadsScope&) = delete;
  CodecThreadsScope& operator=(const CodecThreadsScope&) = delete;

 private:
  bool saved_;
};
}  // namespace

bool CodecThreadsAllowedHere() { return !tls_codec_threads_denied; }

// One more than the threads, so that a pool thread finishing a batch finds
// the next one claimed and waiting: with only as many as the threads, the
// caller (which alone claims) took most batches while pool threads were
// still waking up (2 threads: 55 of 153 batches on the pool thread, ZSTD
// 1.57x; with one more, 76 of 153 and 1.89x).
int PipelineWindow(const IpcReadOptions& options) {
  const int threads = options.num_threads > 0 ? options.num_threads : HardwareThreads();
  return threads < 2 ? 1 : std::min(threads + 1, 9);
}

// One claimed batch. A pool thread holds it by shared_ptr, so a job queued
// when the pipeline goes finds it cancelled instead of freed.
struct BatchPipeline::Slot {
  enum class Stage { kQueued, kRunning, kDone, kCancelled };
  std::mutex mutex;
  std::condition_variable done;
  Stage stage = Stage::kQueued;
  Job job;
  std::optional<Result<RecordBatchPtr>> result;

  // Moves kQueued to kRunning; false when someone else got there first.
  bool Start() {
    std::lock_guard<std::mutex> lock(mutex);
    if (stage != Stage::kQueued) return false;
    stage = Stage::kRunning;
    return true;
  }
  void Run(bool codec_threads) {
    std::optional<Result<RecordBatchPtr>> r;
    {
      CodecThreadsScope scope(codec_threads);
      r.emplace(job());
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      result = std::move(r);
      job = nullptr;  // what the job captured goes with it
      stage = Stage::kDone;
    }
    done.notify_all();
  }
  bool is_done() {
    std::lock_guard<std::mutex> lock(mutex);
    return stage == Stage::kDone;
  }
};

// Claimed batches waiting for a thread, oldest first. Each batch queued
// sends one pool thread here, which takes the oldest batch nobody started
// (not necessarily the one queued with it: the caller may have taken that).
// Held by shared_ptr by pool threads, so it outlives the pipeline.
struct BatchPipeline::Queue {
  std::mutex mutex;
  std::deque<std::shared_ptr<Slot>> waiting;

  void Push(std::shared_ptr<Slot> slot) {
    std::lock_guard<std::mutex> lock(mutex);
    waiting.push_back(std::move(slot));
  }
  // The oldest batch nobody started, now started by the caller of Take, or null.
  std::shared_ptr<Slot> Take() {
    std::lock_guard<std::mutex> lock(mutex);
    while (!waiting.empty()) {
      std::shared_ptr<Slot> slot = std::move(waiting.front());
      waiting.pop_front();
      if (slot->Start()) return slot;
    }
    return nullptr;
  }
};

BatchPipeline::BatchPipeline(Claim claim, int window)
    : claim_(std::move(claim)),
      window_(static_cast<size_t>(window < 1 ? 1 : window)),
      queue_(std::make_shared<Queue>()) {}

BatchPipeline::~BatchPipeline() { TakeAhead(true); }

bool BatchPipeline::RunHereIfQueued(const std::shared_ptr<Slot>& slot, bool codec_threads) {
  if (!slot->Start()) return false;
  slot->Run(codec_threads);
  return true;
}

void BatchPipeline::Wait(const std::shared_ptr<Slot>& slot) {
  std::unique_lock<std::mutex> lock(slot->mutex);
  slot->done.wait(lock, [&] { return slot->stage == Slot::Stage::kDone ||
                                     slot->stage == Slot::Stage::kCancelled; });
}

void BatchPipeline::Drain() {
  for (const auto& slot : slots_) {
    if (!RunHereIfQueued(slot, false)) Wait(slot);
  }
}

bool BatchPipeline::ClaimOne(bool background) {
  if (stopped_) return false;
  Claimed c = claim_([this] { Drain(); });
  auto slot = std::make_shared<Slot>();
  if (!c.job) {
    slot->stage = Slot::Stage::kDone;
    slot->result = c.ready.has_value() ? std::move(c.ready)
                                       : std::optional<Result<RecordBatchPtr>>(RecordBatchPtr());
    slots_.push_back(std::move(slot));
    stopped_ = true;
    return false;
  }
  slot->job = std::move(c.job);
  slots_.push_back(slot);
  // The first slot is the one the caller is about to need: it runs it (a
  // small one at once, with nothing claimed beside it).
  if (slots_.size() == 1) return !c.small;
  queue_->Push(slot);
  if (background) {
    RunInBackground([queue = queue_] {
      if (std::shared_ptr<Slot> next = queue->Take()) next->Run(false);
    });
  }
  return true;
}

Result<RecordBatchPtr> BatchPipeline::Next() {
  while (slots_.size() < window_ && ClaimOne(true)) {
  }
  std::shared_ptr<Slot> head = slots_.front();
  // Alone in flight (the input ends after it): the batch may spread its
  // buffers over the pool itself.
  bool alone = true;
  for (size_t i = 1; i < slots_.size(); ++i) {
    if (!slots_[i]->is_done()) alone = false;
  }
  if (!RunHereIfQueued(head, alone)) {
    // A pool thread has it: rather than wait, do the oldest later batch
    // nobody started, claiming more (up to twice the window) when none is
    // left, so that a busy or preempted pool thread does not leave the
    // caller idle. Each claim also queues work for a pool thread that frees.
    while (!head->is_done()) {
      if (std::shared_ptr<Slot> next = queue_->Take()) {
        next->Run(false);
        continue;
      }
      if (slots_.size() >= 2 * window_ || !ClaimOne(true)) break;
    }
    Wait(head);
  }
  slots_.pop_front();
  if (slots_.empty()) stopped_ = false;
  Result<RecordBatchPtr> r = std::move(*head->result);
  return r;
}

std::vector<Result<RecordBatchPtr>> BatchPipeline::TakeAhead(bool cancel) {
  std::vector<Result<RecordBatchPtr>> out;
  for (const auto& slot : slots_) {
    if (cancel) {
      std::lock_guard<std::mutex> lock(slot->mutex);
      if (slot->stage == Slot::Stage::kQueued) {
        slot->stage = Slot::Stage::kCancelled;
        slot->job = nullptr;
      }
    } else {
      RunHereIfQueued(slot, false);  // claimed but never started
    }
    Wait(slot);
    std::lock_guard<std::mutex> lock(slot->mutex);
    if (slot->stage == Slot::Stage::kDone) out.push_back(std::move(*slot->result));
  }
  slots_.clear();
  stopped_ = true;
  return out;
}

}  // namespace alkaid::ipc::internal
