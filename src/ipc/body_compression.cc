// Compression of the body buffers of one message, spread over the thread
// pool (util/thread_pool): pool threads start on the buffers while the
// writer finishes the previous message, and the caller races a second
// attempt against any buffer a preempted pool thread holds up.
#include "alkaid/ipc/compression.h"

#include <chrono>
#include <mutex>

#include "alkaid/thread_pool.h"
#include "body_buffer.h"
#include "stepped_codec.h"

namespace alkaid::ipc {

namespace {

using internal::EncodeBodyBuffer;
using internal::SteppedCodec;

// The buffers of one message compressed as a RacingTask: item k is buffer
// order[k] (largest first). The first attempt writes into the caller's output
// slot, a second attempt (the caller's, of an item a pool thread has in
// progress) into a buffer of its own that replaces the slot if it wins. A
// losing second attempt frees its buffer before it returns.
class CompressRace final : public RacingTask {
 public:
  CompressRace(const SteppedCodec& codec, std::span<const ByteRange> inputs,
               std::vector<std::shared_ptr<ResizableBuffer>>* out, std::vector<int64_t> order,
               MemoryPool* pool)
      : RacingTask(static_cast<int64_t>(inputs.size())),
        codec_(codec),
        inputs_(inputs),
        out_(out),
        order_(std::move(order)),
        pool_(pool),
        first_(out->begin(), out->end()),
        second_(inputs.size()),
        errors_(2 * inputs.size()) {}

  void Attempt(int64_t k, int attempt) override {
    const auto i = static_cast<size_t>(order_[static_cast<size_t>(k)]);
    // First attempts never read *out_: a pool thread may begin one (having
    // claimed the item, then been preempted) after the caller's second
    // attempt won and Collect rewrote the slot. The one first attempt of an
    // item takes the slot's buffer out of first_, so that a losing one frees
    // it as it returns rather than with the task.
    std::shared_ptr<ResizableBuffer> mine =
        attempt == 0 ? std::move(first_[i]) : std::make_shared<ResizableBuffer>(pool_);
    const std::function<bool()> stop = [this, k] { return Finished(k); };
    // An attempt nobody races compresses in one library call, as the
    // one-thread path does.
    const bool raced = MayBeRaced(attempt);
    const auto started = std::chrono::steady_clock::now();
    Result<bool> done = EncodeBodyBuffer(
        codec_, inputs_[i], mine.get(),
        [&](const uint8_t* in, int64_t n, uint8_t* dst, int64_t cap) {
          if (!raced) return codec_.Compress(in, n, dst, cap);
          return codec_.CompressSteps(in, n, dst, cap, stop);
        },
        /*may_stop=*/raced);
    if (done.ok() && !*done) return;  // gave up: the other attempt finished first
    const size_t slot = 2 * i + static_cast<size_t>(attempt);
    if (!done.ok()) errors_[slot] = done.status();
    nanos_[slot] = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - started).count();
    if (TryFinish(k, attempt) && attempt == 1) second_[i] = std::move(mine);
  }

  // Call after RunRacing returned: how long the standing attempt of each
  // buffer took (by buffer index).
  std::vector<int64_t> Nanos() const {
    std::vector<int64_t> nanos(second_.size());
    for (size_t k = 0; k < order_.size(); ++k) {
      const auto i = static_cast<size_t>(order_[k]);
      nanos[i] = nanos_[2 * i + static_cast<size_t>(Winner(static_cast<int64_t>(k)))];
    }
    return nanos;
  }

  // Call once, after RunRacing returned: winning second attempts replace
  // their slots; the first error by buffer index is returned.
  Status Collect() {
    std::vector<int64_t> position(order_.size());
    for (size_t k = 0; k < order_.size(); ++k) position[static_cast<size_t>(order_[k])] = static_cast<int64_t>(k);
    Status first_error;
    for (size_t i = 0; i < second_.size(); ++i) {
      const int winner = Winner(position[i]);
      const Status& st = errors_[2 * i + static_cast<size_t>(winner)];
      if (!st.ok() && first_error.ok()) first_error = st;
      if (winner == 1 && second_[i] != nullptr) (*out_)[i] = std::move(second_[i]);
    }
    return first_error;
  }

 private:
  const SteppedCodec& codec_;
  const std::span<const ByteRange> inputs_;
  std::vector<std::shared_ptr<ResizableBuffer>>* const out_;
  const std::vector<int64_t> order_;
  MemoryPool* const pool_;
  std::vector<std::shared_ptr<ResizableBuffer>> first_;  // the slots of *out_, until taken
  std::vector<std::shared_ptr<ResizableBuffer>> second_;  // winning second attempts
  std::vector<Status> errors_;                            // [2 * i + attempt]
  std::vector<int64_t> nanos_ = std::vector<int64_t>(errors_.size());  // [2 * i + attempt]
};

// The compression time of each buffer in the last threaded call that wrote
// into the same output vector (a writer passes the same one batch after
// batch), for ordering the next call's buffers by their real cost: bytes
// predict it poorly (at zstd level 1, 512 KiB of sequential integers take
// longer than 1 MiB of text). Only an ordering hint: a stale or foreign
// entry (an address reused by another vector) changes which thread takes
// which buffer, never a result.
class CostMemory {
 public:
  // The times for `key` if its last call had `n` buffers, else empty.
  std::vector<int64_t> Get(const void* key, size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Entry& e : entries_) {
      if (e.key == key && e.nanos.size() == n) {
        e.stamp = ++clock_;
        return e.nanos;
      }
    }
    return {};
  }

  void Put(const void* key, std::vector<int64_t> nanos) {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry* slot = &entries_[0];
    for (Entry& e : entries_) {
      if (e.key == key) {
        slot = &e;
        break;
      }
      if (e.stamp < slot->stamp) slot = &e;  // least recently used
    }
    slot->key = key;
    slot->nanos = std::move(nanos);
    slot->stamp = ++clock_;
  }

 private:
  struct Entry {
    const void* key = nullptr;
    std::vector<int64_t> nanos;
    uint64_t stamp = 0;
  };
  std::mutex mutex_;
  Entry entries_[8];
  uint64_t clock_ = 0;
};

CostMemory& CompressionCosts() {
  static auto* memory = new CostMemory();  // never destroyed: used until exit
  return *memory;
}

}  // namespace

struct BodyCompression::State {
  const Codec* codec = nullptr;
  std::span<const ByteRange> inputs;
  std::vector<std::shared_ptr<ResizableBuffer>>* out = nullptr;
  ParallelOptions parallel;
  std::vector<int64_t> costs;
  std::shared_ptr<CompressRace> race;  // null: Finish compresses on its thread
  RacingRun run;                       // last: finished before the rest goes away
};

BodyCompression::BodyCompression() = default;
BodyCompression::~BodyCompression() = default;  // each State's RacingRun finishes its race

Status BodyCompression::Start(const Codec& codec, std::span<const ByteRange> inputs,
                              std::vector<std::shared_ptr<ResizableBuffer>>* out,
                              const ParallelOptions& parallel, MemoryPool* pool) {
  if (started()) return Status::Invalid("BodyCompression::Start called twice without Finish");
  Release();
  auto state = std::make_unique<State>();
  state->codec = &codec;
  state->inputs = inputs;
  state->out = out;
  state->parallel = parallel;
  out->resize(inputs.size());
  state->costs.resize(inputs.size());
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    state->costs[i] = inputs[i].size;
    total += inputs[i].size;
    // A buffer still referenced elsewhere is left to its holder.
    std::shared_ptr<ResizableBuffer>& slot = (*out)[i];
    if (slot == nullptr || slot.use_count() > 1 || slot->pool() != pool) {
      slot = std::make_shared<ResizableBuffer>(pool);
    }
  }
  const int64_t threads = parallel.ThreadsFor(static_cast<int64_t>(inputs.size()));
  const SteppedCodec* stepped = internal::AsSteppedCodec(codec);
  if (parallel.use_threads && threads > 1 && total >= parallel.min_parallel_bytes &&
      stepped != nullptr) {
    // Pool threads claim buffers now; the caller joins in Finish, then
    // compresses again, into a buffer of its own, each one still in progress
    // on a pool thread (a thread the system may have preempted while a core
    // is busy elsewhere), so it never waits for more than the work it could
    // do alone. The slower attempt sees Finished between steps and gives up;
    // Finish returns after it did, so the inputs and `pool` are not touched
    // afterwards. Costliest first by the previous call's times when there is
    // one (so that the threads finish together), else by size.
    const std::vector<int64_t> nanos = CompressionCosts().Get(out, inputs.size());
    state->race = std::make_shared<CompressRace>(
        *stepped, inputs, out,
        CostliestFirst(nanos.empty() ? std::span<const int64_t>(state->costs) : nanos), pool);
    state->run.Start(state->race, static_cast<int>(threads));
  }
  state_ = std::move(state);
  return Status::OK();
}

Status BodyCompression::Finish() {
  Status st = FinishResults();
  Release();
  return st;
}

Status BodyCompression::FinishResults() {
  if (!started()) return Status::OK();
  std::unique_ptr<State> state = std::move(state_);
  if (state->race == nullptr) {
    return ParallelFor(state->costs, state->parallel, [&](int64_t i) {
      const auto at = static_cast<size_t>(i);
      return internal::CompressBodyBufferInto(*state->codec, state->inputs[at], (*state->out)[at].get());
    });
  }
  state->run.FinishResults();
  CompressionCosts().Put(state->out, state->race->Nanos());
  Status st = state->race->Collect();
  // A losing attempt keeps its own output buffer, never a slot of *out.
  if (state->run.lingering()) lingering_ = std::move(state);
  return st;
}

bool BodyCompression::lingering() const {
  return lingering_ != nullptr && lingering_->run.lingering();
}

void BodyCompression::Release() { lingering_.reset(); }  // the State's RacingRun waits

Status CompressBodyBuffers(const Codec& codec, std::span<const ByteRange> inputs,
                           std::vector<std::shared_ptr<ResizableBuffer>>* out,
                           const ParallelOptions& parallel, MemoryPool* pool) {
  BodyCompression compression;
  ALKAID_RETURN_NOT_OK(compression.Start(codec, inputs, out, parallel, pool));
  return compression.Finish();
}

}  // namespace alkaid::ipc
