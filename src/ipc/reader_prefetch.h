// Batch prefetching for the IPC readers: while the caller works on batch k,
// a pool thread reads and decodes batch k + 1.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "alkaid/status.h"
#include "alkaid/table.h"

// The tests call it across the shared library boundary.
#pragma GCC visibility push(default)

namespace alkaid::ipc::internal {

/// Hands out the batches a `produce` function returns, one call ahead: after
/// Next() returned a batch, the following call of `produce` starts on a pool
/// thread, so that it runs while the caller uses the batch.
///
/// - Memory: at most one batch is decoded ahead of the caller.
/// - Order: results (errors included) come out exactly in the order `produce`
///   gave them; after an error or the end (nullptr), nothing is started ahead
///   and the next Next() calls `produce` itself, as a reader without
///   prefetching would.
/// - `produce` is never called by two threads at once, and never after the
///   prefetcher is destroyed: the destructor cancels a call not yet started
///   and waits for one in progress.
/// - A call that a pool thread has not started when Next() asks for it is
///   taken back and run by the caller (no waiting for a busy or preempted
///   pool thread to get to it).
///
/// One thread at a time calls Next() (the readers' own rule).
class BatchPrefetcher {
 public:
  using Produce = std::function<Result<RecordBatchPtr>()>;

  explicit BatchPrefetcher(Produce produce);
  ~BatchPrefetcher();
  BatchPrefetcher(const BatchPrefetcher&) = delete;
  BatchPrefetcher& operator=(const BatchPrefetcher&) = delete;

  /// The next result of `produce`.
  Result<RecordBatchPtr> Next();

  /// Stops working ahead: a call not yet started is cancelled, one in
  /// progress is waited for. Returns the result decoded ahead, if any (the
  /// caller owns it from here; nothing else is started).
  std::optional<Result<RecordBatchPtr>> TakeAhead();

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace alkaid::ipc::internal

#pragma GCC visibility pop
