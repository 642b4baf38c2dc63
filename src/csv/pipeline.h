// The ordered parallel block pipeline and the entry points shared by the CSV
// and JSON Lines readers (internal).
#pragma once

#include <deque>
#include <memory>
#include <string_view>
#include <vector>

#include "alkaid/io/input.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"
#include "alkaid/thread_pool.h"
#include "loader.h"

namespace alkaid::csv::internal {

// Blocks in flight and batches ready, in input order. Next() parses the
// loaded blocks (up to `threads` of them) on the thread pool and, with more
// than one thread, loads the next round of blocks at the same time as one
// more pool task (loading is serial: the loader must see the input in
// order, so only that task calls load()), then hands the parsed blocks to
// `take` in input order. Memory: two rounds of 3 * `threads` blocks (one
// with one thread) plus their batches. An error sticks: later calls return it again.
template <typename BlockT>
class BlockPipeline {
 public:
  // Where load() appends: the blocks to parse next. Readers also use it
  // before the first Next() (header, inference sample).
  std::deque<BlockT>& pending() { return *load_into_; }

  // load(): Status, appends at most one block to pending() (none at the end).
  // parse(BlockT*): Status, called on any thread, concurrently with load().
  // take(BlockT&): Result<RecordBatchPtr>, in order; null for no batch.
  template <typename Load, typename Parse, typename Take>
  Result<RecordBatchPtr> Next(const Loader& loader, int threads, Load&& load, Parse&& parse,
                              Take&& take) {
    if (!error_.ok()) return error_;
    while (ready_.empty()) {
      if (!deferred_.ok()) return Remember(deferred_);
      // With several threads a round holds a few blocks per thread, so the
      // serial loading task (one block's worth of work at a time) and the
      // parsing tasks even out across the threads before the round ends.
      const int round = threads > 1 ? 3 * threads : 1;
      if (pending_.empty()) {
        if (loader.done()) return RecordBatchPtr();
        while (static_cast<int>(pending_.size()) < round && !loader.done()) {
          ALKAID_RETURN_NOT_OK(Remember(load()));
        }
      }
      std::vector<BlockT*> work;
      for (BlockT& b : pending_) work.push_back(&b);
      std::vector<Status> statuses(work.size());
      // Task 0 loads the next round (while the other thread parses) so that
      // reading the input overlaps parsing; one thread parses only.
      const bool overlap = threads > 1 && !loader.done();
      const int64_t first_parse = overlap ? 1 : 0;
      Status load_status;
      load_into_ = &next_;
      RunParallel(static_cast<int64_t>(work.size()) + first_parse, threads, [&](int64_t i) {
        if (i < first_parse) {
          while (static_cast<int>(next_.size()) < round && !loader.done() && load_status.ok()) {
            load_status = load();
          }
          return;
        }
        auto k = static_cast<size_t>(i - first_parse);
        statuses[k] = parse(work[k]);
      });
      load_into_ = &pending_;
      for (Status& st : statuses) {
        ALKAID_RETURN_NOT_OK(Remember(std::move(st)));
        Result<RecordBatchPtr> batch = take(pending_.front());
        if (!batch.ok()) return Remember(batch.status());
        if (*batch != nullptr && (*batch)->num_rows() > 0) ready_.push_back(std::move(*batch));
        pending_.pop_front();
      }
      // Batches before a failed read are still handed out first.
      deferred_ = std::move(load_status);
      for (BlockT& b : next_) pending_.push_back(std::move(b));
      next_.clear();
    }
    RecordBatchPtr out = std::move(ready_.front());
    ready_.pop_front();
    return out;
  }

 private:
  Status Remember(Status st) {
    if (!st.ok()) error_ = st;
    return st;
  }

  std::deque<BlockT> pending_;
  std::deque<BlockT> next_;  // loaded while pending_ is parsed
  std::deque<BlockT>* load_into_ = &pending_;
  std::deque<RecordBatchPtr> ready_;
  Status error_;
  Status deferred_;  // a load error, returned once the batches before it are out
};

// A ReaderT (constructed from input and options, then Init()) as a
// RecordBatchReader.
template <typename ReaderT, typename Options>
Result<std::unique_ptr<RecordBatchReader>> MakeTextReader(std::shared_ptr<io::InputStream> input,
                                                          const Options& options) {
  if (input == nullptr) return Status::Invalid("text reader: no input");
  auto reader = std::make_unique<ReaderT>(std::move(input), options);
  ALKAID_RETURN_NOT_OK(reader->Init());
  return std::unique_ptr<RecordBatchReader>(std::move(reader));
}

template <typename ReaderT, typename Options>
Result<TablePtr> ReadTextTable(std::shared_ptr<io::InputStream> input, const Options& options) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, (MakeTextReader<ReaderT>(std::move(input), options)));
  return reader->ToTable();
}

template <typename ReaderT, typename Options>
Result<TablePtr> ReadTextString(std::string_view text, const Options& options) {
  auto buffer = Buffer::FromString(std::string(text));
  return ReadTextTable<ReaderT>(std::make_shared<io::BufferReader>(buffer), options);
}

}  // namespace alkaid::csv::internal
