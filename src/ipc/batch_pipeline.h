// Batch pipelining for the IPC readers with use_threads: whole record batches
// are decoded on the calling thread and on pool threads at once, and handed
// out in order. A batch's buffers are few and unequal, so splitting one batch
// across threads leaves threads idle; several batches in flight do not.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>

#include "alkaid/ipc/options.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/visibility.h"

namespace alkaid::ipc::internal {

/// Batches at least this large are worth decoding beside another one; smaller
/// ones are decoded by the caller as they come, when nothing is in flight.
inline constexpr int64_t kPipelineMinBody = 64 * 1024;

/// How many batches a reader's pipeline keeps in flight for `options`; 1: no
/// pipeline.
int PipelineWindow(const IpcReadOptions& options);

// The tests call what is marked ALKAID_EXPORT across the shared library
// boundary.

/// True while the calling thread runs a batch that another batch of the same
/// pipeline runs beside: the loader then decompresses that batch's buffers
/// itself instead of spreading them over the pool.
ALKAID_EXPORT bool CodecThreadsAllowedHere();

/// Hands out record batches in order while up to `window` of them are decoded
/// at once.
///
/// - `claim` runs only on the thread calling Next(), one call at a time, in
///   order: it does the reader's serial part (framing the next message,
///   applying dictionaries) and returns either a job that decodes one batch,
///   or a result to hand out as it is (end of input: nullptr, or an error).
///   Before changing anything a claimed job reads (a dictionary), it calls
///   `drain`, which returns once every job claimed so far has finished.
/// - Jobs run on pool threads or on the caller: a job no pool thread has
///   started when the caller needs it (or while the caller would otherwise
///   wait) is run by the caller, so a busy or preempted pool never stalls it.
/// - Results, errors included, come out exactly in claim order. After a
///   ready result (end or error) nothing more is claimed until it was handed
///   out, so the calls of `claim` are those a serial reader would make.
/// - Memory: at most `window` batches are decoded ahead of the caller.
/// - The destructor cancels jobs not started and waits for running ones, so
///   jobs may use the reader that owns the pipeline.
///
/// One thread at a time calls Next() (the readers' own rule).
class ALKAID_EXPORT BatchPipeline {
 public:
  /// Decodes one claimed batch (CodecThreadsAllowedHere() tells it whether
  /// it may spread its own buffers over the pool).
  using Job = std::function<Result<RecordBatchPtr>()>;
  /// What one call of the claim function returns.
  struct Claimed {
    Job job;                                       ///< a batch to decode, or
    std::optional<Result<RecordBatchPtr>> ready;   ///< a result as it is
    /// The job is too small to gain from running beside another: when
    /// nothing else is in flight the caller runs it at once, alone.
    bool small = false;
  };
  using Claim = std::function<Claimed(const std::function<void()>& drain)>;

  BatchPipeline(Claim claim, int window);
  ~BatchPipeline();
  BatchPipeline(const BatchPipeline&) = delete;
  BatchPipeline& operator=(const BatchPipeline&) = delete;

  /// The next result, in claim order.
  Result<RecordBatchPtr> Next();

  /// Stops: waits for running jobs, runs the claimed ones no one started
  /// (or, with `cancel`, drops them), and returns the results not handed out
  /// yet, in order (the caller owns them; nothing more is claimed).
  std::vector<Result<RecordBatchPtr>> TakeAhead(bool cancel);

 private:
  struct Slot;
  struct Queue;
  // Claims the next batch (queued for a pool thread when `background`);
  // false when nothing more is to be claimed now.
  bool ClaimOne(bool background);
  void Drain();
  // Runs `slot` here if no one started it; false if someone had.
  bool RunHereIfQueued(const std::shared_ptr<Slot>& slot, bool codec_threads);
  void Wait(const std::shared_ptr<Slot>& slot);

  Claim claim_;
  size_t window_;
  bool stopped_ = false;  // a ready result is in `slots_`
  std::deque<std::shared_ptr<Slot>> slots_;  // claimed, in order, until handed out
  std::shared_ptr<Queue> queue_;
};

}  // namespace alkaid::ipc::internal
