// The ordered parallel block pipeline and the entry points shared by the text
// readers, CSV and JSON Lines (internal).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <string_view>
#include <vector>

#include "alkaid/io/input.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/table.h"
#include "alkaid/thread_pool.h"
#include "loader.h"
#include "../util/catch_out_of_memory.h"

namespace alkaid::text::internal {

// Runs `f` (returning Status or a Result), turning std::bad_alloc from the
// standard containers a reader sizes by its input (columns by the thousand,
// tokens) into OutOfMemory.
template <typename F>
auto NoThrow(F&& f) -> decltype(f()) {
  return alkaid::internal::CatchOutOfMemory("text reader", std::forward<F>(f));
}

// Blocks in flight, parsed on several threads and handed out in input order.
//
// With one thread Next() loads, parses and takes one block at a time on the
// calling thread. With more, Next() starts `threads - 1` helper threads the
// first time (they live until the pipeline is destroyed); every thread, the
// caller of Next() included, repeats one step: when few loaded blocks are
// waiting, load the next one and parse it right away (its bytes are in this
// core's cache), otherwise parse the oldest loaded block. The only serial
// stage is load() (the loader reads the input and finds the last record end
// of the block: a memchr/memrchr quote-parity scan); it runs on whichever
// thread gets there while the others parse, so there is no round of blocks
// to wait for. The caller of Next() takes the oldest block as
// soon as it is parsed and parses others while it waits. At most
// 2 * threads + 1 blocks are in flight (loaded, being parsed, or parsed and
// not yet taken), so memory stays bounded by a few blocks whatever the input
// size. An error sticks: later calls return it again; a load error comes
// after the batches of the blocks before it.
template <typename BlockT>
class BlockPipeline {
 public:
  BlockPipeline() = default;
  BlockPipeline(const BlockPipeline&) = delete;
  BlockPipeline& operator=(const BlockPipeline&) = delete;
  ~BlockPipeline() { StopHelpers(); }

  // Where load() appends: the blocks to parse next. Readers also use it
  // before the first Next() (header, inference sample).
  std::deque<BlockT>& pending() { return *load_into_; }

  // load(): Status, appends at most one block to pending() (none at the end).
  // parse(BlockT*): Status, called on any thread, concurrently with load()
  // and other parse() calls (on other blocks).
  // take(BlockT&): Result<RecordBatchPtr>, in order, on the caller's thread;
  // null for no batch. The functions must stay valid for the pipeline's
  // lifetime (readers pass lambdas that capture only the reader).
  template <typename Load, typename Parse, typename Take>
  Result<RecordBatchPtr> Next(const Loader& loader, int threads, Load&& load, Parse&& parse,
                              Take&& take) {
    if (!error_.ok()) return error_;
    // Helpers only pay off with two blocks or more: a small input, all of it
    // loaded in one block, is parsed here without starting a thread.
    if (threads <= 1 || (!started_ && loader.done() && blocks_.size() <= 1)) {
      return NextSerial(loader, load, parse, take);
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (!started_) {
      started_ = true;
      load_ = load;
      parse_ = [parse](BlockT* b) { return parse(b); };
      loader_ = &loader;
      loader_done_ = loader.done();
      states_.assign(blocks_.size(), kLoaded);
      front_status_.resize(blocks_.size());
      load_into_ = &staging_;
      max_in_flight_ = 2 * static_cast<size_t>(threads) + 1;
      want_loaded_ = static_cast<size_t>(threads);
      for (int i = 1; i < threads; ++i) helpers_.emplace_back([this] { HelperLoop(); });
      work_.notify_all();
    }
    while (true) {
      if (!states_.empty() && states_.front() == kParsed) {
        Status st = std::move(front_status_.front());
        front_status_.pop_front();
        BlockT block = std::move(blocks_.front());
        blocks_.pop_front();
        states_.pop_front();
        ++base_;
        work_.notify_all();  // room for another load
        lock.unlock();
        if (!st.ok()) return Remember(std::move(st));
        Result<RecordBatchPtr> batch = NoThrow([&] { return take(block); });
        if (!batch.ok()) return Remember(batch.status());
        if (*batch != nullptr && (*batch)->num_rows() > 0) return std::move(*batch);
        lock.lock();
        continue;
      }
      if (states_.empty() && !loading_ && (loader_done_ || !load_status_.ok())) {
        if (!load_status_.ok()) return Remember(load_status_);
        return RecordBatchPtr();
      }
      if (!Step(lock)) done_.wait(lock);
    }
  }

 private:
  enum State : uint8_t { kLoaded, kParsing, kParsed };

  template <typename Load, typename Parse, typename Take>
  Result<RecordBatchPtr> NextSerial(const Loader& loader, Load& load, Parse& parse, Take& take) {
    std::deque<BlockT>& blocks = blocks_;
    while (true) {
      if (blocks.empty()) {
        if (loader.done()) return RecordBatchPtr();
        ALKAID_RETURN_NOT_OK(Remember(NoThrow(load)));
        if (blocks.empty()) continue;
      }
      ALKAID_RETURN_NOT_OK(Remember(NoThrow([&] { return parse(&blocks.front()); })));
      Result<RecordBatchPtr> batch = NoThrow([&] { return take(blocks.front()); });
      blocks.pop_front();
      if (!batch.ok()) return Remember(batch.status());
      if (*batch != nullptr && (*batch)->num_rows() > 0) return std::move(*batch);
    }
  }

  // One unit of work under `lock` (released while it runs): parse the oldest
  // loaded block, or load the next block. False when there was nothing to do.
  bool Step(std::unique_lock<std::mutex>& lock) {
    size_t loaded = 0, first = states_.size();
    for (size_t i = 0; i < states_.size(); ++i) {
      if (states_[i] != kLoaded) continue;
      if (first == states_.size()) first = i;
      ++loaded;
    }
    const bool can_load = !loading_ && !loader_done_ && load_status_.ok() && !stop_ &&
                          states_.size() < max_in_flight_;
    if (can_load && (loaded < want_loaded_ || first == states_.size())) {
      loading_ = true;
      lock.unlock();
      Status st = NoThrow(load_);
      const bool done = loader_->done();  // only the loading thread changes the loader
      lock.lock();
      const size_t added_at = blocks_.size();
      // Only the loading thread touches staging_ (loading_ is a lock).
      for (BlockT& b : staging_) {
        blocks_.push_back(std::move(b));
        states_.push_back(kLoaded);
        front_status_.emplace_back();
      }
      staging_.clear();
      loader_done_ = done;
      loading_ = false;
      if (!st.ok()) load_status_ = std::move(st);
      work_.notify_all();
      done_.notify_all();
      // The thread that read a block parses it while its bytes are still in
      // this core's cache (the copy out of the page cache just wrote them).
      if (added_at == blocks_.size()) return true;
      first = added_at;  // the lock was held since it was added: still unclaimed
    }
    if (first == states_.size()) return false;
    states_[first] = kParsing;
    BlockT* block = &blocks_[first];
    const size_t seq = base_ + first;
    lock.unlock();
    Status st = NoThrow([&] { return parse_(block); });
    lock.lock();
    const size_t at = seq - base_;
    states_[at] = kParsed;
    front_status_[at] = std::move(st);
    done_.notify_all();
    work_.notify_all();
    return true;
  }

  void HelperLoop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      if (!Step(lock)) work_.wait(lock);
    }
  }

  void StopHelpers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    work_.notify_all();
    for (std::thread& t : helpers_) t.join();
    helpers_.clear();
  }

  Status Remember(Status st) {
    if (!st.ok()) error_ = st;
    return st;
  }

  // Blocks in input order (before the first Next(): the blocks loaded by the
  // reader's Init); element references stay valid across push_back and
  // pop_front, so a parsing thread keeps its pointer while others add and
  // take blocks.
  std::deque<BlockT> blocks_;
  std::deque<State> states_;          // per block of blocks_ (threads > 1)
  std::deque<Status> front_status_;   // parse() result per block
  std::deque<BlockT> staging_;        // load() appends here, then moved to blocks_
  std::deque<BlockT>* load_into_ = &blocks_;
  size_t base_ = 0;                   // sequence number of blocks_.front()
  size_t max_in_flight_ = 1;
  size_t want_loaded_ = 1;
  const Loader* loader_ = nullptr;
  std::function<Status()> load_;
  std::function<Status(BlockT*)> parse_;
  std::mutex mutex_;
  std::condition_variable work_;  // helpers: something to do, or stop
  std::condition_variable done_;  // the caller: a block parsed or loaded
  std::vector<std::thread> helpers_;
  bool started_ = false;
  bool loading_ = false;
  bool loader_done_ = false;
  bool stop_ = false;
  Status load_status_;
  Status error_;
};

// What a text reader (CSV, JSON Lines) keeps of its input while it reads:
// the loader of raw blocks, the pipeline that parses them on `threads`
// threads, and the line the next batch starts at. BlockT has a `RawBlock raw`.
// A reader declares it as its last member, so that the pipeline's helpers
// stop before the members its parse() uses are destroyed.
template <typename BlockT>
struct BlockReading {
  BlockReading(std::shared_ptr<io::InputStream> input, const LoaderOptions& options,
               int num_threads)
      : loader(std::move(input), options),
        threads(num_threads > 0 ? num_threads : HardwareThreads()) {}

  // Appends the next raw block to pipeline.pending() (nothing at the end of
  // input; a read error travels in the block).
  Status LoadBlock() {
    ALKAID_ASSIGN_OR_RAISE(RawBlock raw, loader.Next());
    if (raw.buffer == nullptr && raw.error.ok()) return Status::OK();
    BlockT b;
    b.raw = std::move(raw);
    pipeline.pending().push_back(std::move(b));
    return Status::OK();
  }

  // The next batch: see BlockPipeline::Next.
  template <typename Parse, typename Take>
  Result<RecordBatchPtr> Next(Parse&& parse, Take&& take) {
    return pipeline.Next(
        loader, threads, [this] { return LoadBlock(); }, std::forward<Parse>(parse),
        std::forward<Take>(take));
  }

  Loader loader;
  int threads;
  BlockPipeline<BlockT> pipeline;
  int64_t next_line = 1;
};

// A ReaderT (constructed from input and options, then Init()) as a
// RecordBatchReader.
template <typename ReaderT, typename Options>
Result<std::unique_ptr<RecordBatchReader>> MakeTextReader(std::shared_ptr<io::InputStream> input,
                                                          const Options& options) {
  if (input == nullptr) return Status::Invalid("text reader: no input");
  return NoThrow([&]() -> Result<std::unique_ptr<RecordBatchReader>> {
    auto reader = std::make_unique<ReaderT>(std::move(input), options);
    ALKAID_RETURN_NOT_OK(reader->Init());
    return std::unique_ptr<RecordBatchReader>(std::move(reader));
  });
}

template <typename ReaderT, typename Options>
Result<TablePtr> ReadTextTable(std::shared_ptr<io::InputStream> input, const Options& options) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, (MakeTextReader<ReaderT>(std::move(input), options)));
  return reader->ToTable();
}

template <typename ReaderT, typename Options>
Result<TablePtr> ReadTextString(std::string_view text, const Options& options) {
  auto buffer = Buffer::FromString(std::string(text));
  // A text shorter than a block is one block whatever the block size: the
  // buffers reserved for it need not be bigger than the text.
  Options sized = options;
  const int64_t whole = static_cast<int64_t>(text.size()) + 1;
  if (whole < sized.block_size) {
    sized.block_size = std::max<int64_t>(whole, std::min<int64_t>(sized.block_size, 4096));
  }
  return ReadTextTable<ReaderT>(std::make_shared<io::BufferReader>(buffer), sized);
}

}  // namespace alkaid::text::internal

// Defines the four entry points every text format's api.h declares (MakeReader, OpenReader,
// ReadTable, ReadString) for the format's reader class, in the format's namespace: the CSV and
// JSON Lines modules state them once here rather than twice by hand.
#define ALKAID_TEXT_READER_ENTRY_POINTS(ReaderT)                                             \
  Result<std::unique_ptr<RecordBatchReader>> MakeReader(std::shared_ptr<io::InputStream> input, \
                                                        const ReadOptions& options) {          \
    return ::alkaid::text::internal::MakeTextReader<ReaderT>(std::move(input), options);     \
  }                                                                                          \
  Result<std::unique_ptr<RecordBatchReader>> OpenReader(const std::string& path,             \
                                                        const ReadOptions& options) {        \
    ALKAID_ASSIGN_OR_RAISE(auto file, io::ReadableFile::Open(path, options.pool));           \
    return MakeReader(std::move(file), options);                                             \
  }                                                                                          \
  Result<TablePtr> ReadTable(std::shared_ptr<io::InputStream> input, const ReadOptions& options) { \
    return ::alkaid::text::internal::ReadTextTable<ReaderT>(std::move(input), options);      \
  }                                                                                          \
  Result<TablePtr> ReadString(std::string_view text, const ReadOptions& options) {           \
    return ::alkaid::text::internal::ReadTextString<ReaderT>(text, options);                 \
  }
