// Decompression of the body buffers of one message, spread over the thread
// pool (util/thread_pool): the caller races a second attempt against any
// buffer a preempted pool thread holds up, and each buffer is scanned for
// full validation right after it is decoded, while it is in cache.
#include "body_decompression.h"

#include <functional>
#include <string>

#include "alkaid/thread_pool.h"
#include "body_buffer.h"
#include "stepped_codec.h"

namespace alkaid::ipc {

namespace internal {

namespace {

// The facts scans[i] finds in buffer i, just decoded. Only writable buffers
// are scanned: fresh decompression output, hot in this core's cache. Raw
// buffers come back as slices of the body (read-only as a rule), which the
// data pass reads from memory either way.
uint8_t ScanDecoded(const std::vector<alkaid::internal::BufferScan>& scans, size_t i,
                    const BufferPtr& decoded) {
  if (scans.empty() || decoded == nullptr || !decoded->is_mutable()) return 0;
  return alkaid::internal::ScanBuffer(scans[i], decoded->data(), decoded->size());
}

// The buffers of one message decompressed as a RacingTask: item k is buffer
// order[k] (largest first). An attempt that finds its buffer finished by the
// other one (checked between codec steps) gives up and frees its output;
// RunRacing returns only after it did.
class DecodeRace final : public RacingTask {
 public:
  DecodeRace(const SteppedCodec& codec, std::vector<BufferPtr> encoded,
             std::vector<alkaid::internal::BufferScan> scans, std::vector<int64_t> order,
             int64_t max_size, MemoryPool* pool, int64_t index_base)
      : RacingTask(static_cast<int64_t>(encoded.size())),
        codec_(codec),
        encoded_(std::move(encoded)),
        scans_(std::move(scans)),
        order_(std::move(order)),
        max_size_(max_size),
        pool_(pool),
        index_base_(index_base),
        values_(2 * encoded_.size()),
        errors_(2 * encoded_.size()),
        facts_(2 * encoded_.size(), 0) {}

  void Attempt(int64_t k, int attempt) override {
    const auto i = static_cast<size_t>(order_[static_cast<size_t>(k)]);
    // An attempt nobody races decodes in one library call, as the
    // one-thread path does.
    const bool raced = MayBeRaced(attempt);
    Result<BufferPtr> decoded = Decode(i, k, raced);
    if (decoded.ok() && *decoded == nullptr && encoded_[i] != nullptr) return;  // gave up
    const size_t slot = 2 * i + static_cast<size_t>(attempt);
    if (decoded.ok()) {
      values_[slot] = std::move(*decoded);
    } else {
      errors_[slot] = decoded.status();
    }
    if (!TryFinish(k, attempt)) {
      values_[slot] = nullptr;  // the other attempt was first
      return;
    }
    // Read only by Take, after RunRacing returned (and so after this).
    facts_[slot] = ScanDecoded(scans_, i, values_[slot]);
  }

  // The standing result of buffer i and its scan's facts (call once, after
  // RunRacing returned).
  Result<BufferPtr> Take(size_t i, int64_t k, uint8_t* facts) {
    const size_t slot = 2 * i + static_cast<size_t>(Winner(k));
    *facts = facts_[slot];
    if (!errors_[slot].ok()) return errors_[slot];
    return std::move(values_[slot]);
  }

 private:
  // Null when it gave up because the other attempt finished first.
  Result<BufferPtr> Decode(size_t i, int64_t k, bool raced) {
    const BufferPtr& in = encoded_[i];
    if (in == nullptr) return BufferPtr();
    const std::function<bool()> stop = [this, k] { return Finished(k); };
    Result<BufferPtr> out = DecodeOne(in, raced ? &stop : nullptr);
    if (!out.ok()) {
      return out.status().WithContext("body buffer " +
                                      std::to_string(index_base_ + static_cast<int64_t>(i)));
    }
    return out;
  }

  // Without `stop`, in one library call that cannot give up.
  Result<BufferPtr> DecodeOne(const BufferPtr& in, const std::function<bool()>* stop) {
    if (in->size() == 0) return EmptyBodyBuffer();
    return DecodeBodyBuffer(
        in, max_size_, pool_,
        [&](const uint8_t* src, int64_t src_size, uint8_t* dst, int64_t size) -> Result<bool> {
          ALKAID_ASSIGN_OR_RAISE(int64_t n, codec_.DecompressSteps(src, src_size, dst, size, stop));
          return n == size;  // fewer: stopped early
        });
  }

  const SteppedCodec& codec_;
  const std::vector<BufferPtr> encoded_;
  const std::vector<alkaid::internal::BufferScan> scans_;  // empty: scan nothing
  const std::vector<int64_t> order_;
  const int64_t max_size_;
  MemoryPool* const pool_;
  const int64_t index_base_;
  // Two per buffer, [2 * i + attempt]: the buffer, or the error.
  std::vector<BufferPtr> values_;
  std::vector<Status> errors_;
  std::vector<uint8_t> facts_;  // [2 * i + attempt], as values_
};

}  // namespace

Status DecompressAndScanBodyBuffers(
    const Codec& codec, const std::vector<BufferPtr>& encoded,
    const std::vector<alkaid::internal::BufferScan>& scans, std::vector<BufferPtr>* out,
    std::vector<uint8_t>* facts, int64_t max_total_decompressed_size,
    const ParallelOptions& parallel, MemoryPool* pool, int64_t buffer_index_base) {
  if (!scans.empty() && scans.size() != encoded.size()) {
    return Status::Invalid("one scan per body buffer expected");
  }
  // Check every declared size first so corrupt input never allocates.
  int64_t total = 0;
  std::vector<int64_t> costs(encoded.size(), 0);
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == nullptr) continue;
    auto declared = ReadBodyBufferPrefix({encoded[i]->data(), encoded[i]->size()});
    if (!declared.ok()) {
      return declared.status().WithContext("body buffer " +
                                           std::to_string(buffer_index_base + int64_t(i)));
    }
    if (*declared > 0) {
      if (*declared > max_total_decompressed_size - total) {
        return Status::OutOfMemory("body buffer ", buffer_index_base + int64_t(i),
                                   " declares ", *declared, " bytes; the buffers of this message "
                                   "would need more than the allowed ",
                                   max_total_decompressed_size);
      }
      total += *declared;
      costs[i] = *declared;
    }
  }
  out->assign(encoded.size(), nullptr);
  facts->assign(encoded.size(), 0);
  const auto n = static_cast<int64_t>(encoded.size());
  const int64_t threads = parallel.ThreadsFor(n);
  const SteppedCodec* stepped = AsSteppedCodec(codec);
  if (parallel.use_threads && threads > 1 && total >= parallel.min_parallel_bytes &&
      stepped != nullptr) {
    const std::vector<int64_t> order = CostliestFirst(costs);
    auto race = std::make_shared<DecodeRace>(*stepped, encoded, scans, order,
                                             max_total_decompressed_size, pool, buffer_index_base);
    // The caller claims unstarted buffers like any pool thread, then decodes
    // a second time each buffer still in progress on a pool thread (one the
    // system may have preempted). The slower attempt sees Finished between
    // steps, gives up and frees its output before RunRacing returns, so no
    // allocation of a losing attempt outlives this call (or `pool`).
    RunRacing(race, static_cast<int>(threads));
    std::vector<int64_t> position(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) position[static_cast<size_t>(order[static_cast<size_t>(k)])] = k;
    Status first_error;
    for (size_t i = 0; i < encoded.size(); ++i) {
      Result<BufferPtr> r = race->Take(i, position[i], &(*facts)[i]);
      if (!r.ok()) {
        if (first_error.ok()) first_error = r.status();
        continue;
      }
      (*out)[i] = std::move(*r);
    }
    return first_error;
  }
  return ParallelFor(costs, parallel, [&](int64_t i) {
    const BufferPtr& in = encoded[static_cast<size_t>(i)];
    if (in == nullptr) return Status::OK();
    auto decoded = DecompressBodyBuffer(codec, in, max_total_decompressed_size, pool);
    if (!decoded.ok()) {
      return decoded.status().WithContext("body buffer " + std::to_string(buffer_index_base + i));
    }
    (*facts)[static_cast<size_t>(i)] = ScanDecoded(scans, static_cast<size_t>(i), *decoded);
    (*out)[static_cast<size_t>(i)] = std::move(*decoded);
    return Status::OK();
  });
}

}  // namespace internal

Status DecompressBodyBuffers(const Codec& codec, const std::vector<BufferPtr>& encoded,
                             std::vector<BufferPtr>* out, int64_t max_total_decompressed_size,
                             const ParallelOptions& parallel, MemoryPool* pool,
                             int64_t buffer_index_base) {
  std::vector<uint8_t> facts;
  return internal::DecompressAndScanBodyBuffers(codec, encoded, {}, out, &facts,
                                                max_total_decompressed_size, parallel, pool,
                                                buffer_index_base);
}

}  // namespace alkaid::ipc
