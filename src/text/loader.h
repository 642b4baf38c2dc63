// Block loader shared by the text readers, CSV and JSON Lines (internal): reads the
// input and cuts it after the last record end (a line feed outside quotes)
// in each read, so every block holds whole records. Memory: the block being
// filled plus the partial record carried into the next one; a record longer
// than max_record_bytes is an error instead of unbounded buffering. Each byte
// is scanned for quotes once, however many reads a record spans.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "alkaid/io/input.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "record_ends.h"
#include "../util/sanitizers.h"

#if ALKAID_ADDRESS_SANITIZER
#include <sanitizer/asan_interface.h>
#define ALKAID_TEXT_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define ALKAID_TEXT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define ALKAID_TEXT_POISON(p, n) ((void)(p), (void)(n))
#define ALKAID_TEXT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace alkaid::text::internal {

struct LoaderOptions {
  char quote = '"';  // '\0': lines are records (JSON Lines)
  int64_t block_size = 1 << 20;
  int64_t max_record_bytes = 64 << 20;
  const char* max_record_bytes_name = "max_record_bytes";  // as the reader's options spell it
  const char* record_noun = "a record";  // what the error for a long record calls one
  int64_t skip_lines = 0;
  bool lone_cr = true;  // a lone CR ends a record (CSV), or is whitespace (JSON)
  MemoryPool* pool = default_memory_pool();
};


// Bytes of a block's buffer that its readers may touch: the block, then
// padding up to the next multiple of 64 and 64 more (the tokenizer's 64-byte
// masks, the fast parsers' 8-byte loads, simdjson's padding). Under
// AddressSanitizer the rest of the buffer is poisoned while it holds a
// block, so a read past the promised padding is reported.
inline int64_t ReadableBytes(int64_t size) { return ((size + 63) & ~int64_t{63}) + 64; }

inline void UnpoisonBuffer(const std::shared_ptr<ResizableBuffer>& buffer) {
  if (buffer != nullptr) ALKAID_TEXT_UNPOISON(buffer->mutable_data(), buffer->capacity());
}

struct RawBlock {
  RawBlock() = default;
  RawBlock(RawBlock&&) = default;
  RawBlock& operator=(RawBlock&&) = default;
  ~RawBlock() { UnpoisonBuffer(buffer); }

  std::shared_ptr<ResizableBuffer> buffer;  // capacity >= ReadableBytes(size)
  int64_t size = 0;
  Status error;  // a record longer than allowed
};

// Block buffers handed back once their block is parsed (on any thread), for
// the loader to fill again: fresh pool memory arrives zero-filled, and the
// loader overwrites it anyway.
class BufferRecycler {
 public:
  void Give(std::shared_ptr<ResizableBuffer> buffer) {
    if (buffer == nullptr || buffer.use_count() != 1) return;  // still shared: let it go
    UnpoisonBuffer(buffer);
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < kKeep) free_.push_back({std::this_thread::get_id(), std::move(buffer)});
  }
  // A buffer of at least `capacity` bytes, or null. Preferably one that the
  // calling thread gave back: its lines are in this core's cache, so reading
  // the next block into it does not have to take them from another core.
  std::shared_ptr<ResizableBuffer> Take(int64_t capacity) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto self = std::this_thread::get_id();
    for (bool mine : {true, false}) {
      for (size_t i = 0; i < free_.size(); ++i) {
        if ((!mine || free_[i].first == self) && free_[i].second->capacity() >= capacity) {
          auto b = std::move(free_[i].second);
          free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
          return b;
        }
      }
    }
    return nullptr;
  }

 private:
  static constexpr size_t kKeep = 4;
  std::mutex mutex_;
  std::vector<std::pair<std::thread::id, std::shared_ptr<ResizableBuffer>>> free_;
};

class Loader {
 public:
  Loader(std::shared_ptr<io::InputStream> input, const LoaderOptions& options)
      : input_(std::move(input)), options_(options) {}

  // Drops the BOM and skip_rows raw lines; returns how many lines were dropped.
  Result<int64_t> Start() {
    ALKAID_RETURN_NOT_OK(Fill(options_.block_size));
    if (size_ >= 3 && std::memcmp(data(), "\xEF\xBB\xBF", 3) == 0) Consume(3);
    int64_t skipped = 0;
    while (skipped < options_.skip_lines) {
      const void* nl = std::memchr(data(), '\n', static_cast<size_t>(size_));
      if (nl != nullptr) {
        Consume(static_cast<const char*>(nl) - data() + 1);
        ++skipped;
        continue;
      }
      if (eof_) {
        if (size_ > 0) ++skipped;
        Consume(size_);
        break;
      }
      Consume(size_);
      ALKAID_RETURN_NOT_OK(Fill(options_.block_size));
    }
    return skipped;
  }

  bool done() const { return eof_ && size_ == 0; }

  // Bytes a block holds from now on (wide input: BlockSizeForColumns). Not
  // while another thread may be in Next().
  void SetBlockSize(int64_t block_size) { options_.block_size = block_size; }

  // Hands a parsed block's buffer back for reuse (thread-safe).
  void Recycle(std::shared_ptr<ResizableBuffer> buffer) { recycler_.Give(std::move(buffer)); }

  // The next run of whole records, or an empty block at the end.
  Result<RawBlock> Next() {
    ALKAID_RETURN_NOT_OK(TakeBuffer());
    while (true) {
      if (size_ < options_.block_size && !eof_) {
        ALKAID_RETURN_NOT_OK(Fill(options_.block_size));
      }
      if (eof_ && size_ == 0) return RawBlock();
      int64_t end = FindLastRecordEnd(data(), scanned_, size_, options_.quote, &in_quote_,
                                      options_.lone_cr);
      scanned_ = size_;
      if (end > 0) best_ = end;
      if (best_ > 0 && (!eof_ || best_ == size_)) return Cut(best_);
      if (eof_) return Cut(size_);
      if (size_ > options_.max_record_bytes + options_.block_size) {
        RawBlock b;
        b.error = Status::Invalid(options_.record_noun, " is longer than ",
                                  options_.max_record_bytes_name, " (",
                                  options_.max_record_bytes, " bytes)",
                                  in_quote_ ? "; a quote opened in it is never closed" : "")
                      .WithDetail({StatusDetail::Kind::kLimit, {options_.max_record_bytes_name}});
        eof_ = true;
        size_ = 0;
        return b;
      }
      ALKAID_RETURN_NOT_OK(Fill(size_ + options_.block_size));
    }
  }

 private:
  const char* data() const { return reinterpret_cast<const char*>(buffer_->data()) + start_; }

  void Consume(int64_t n) {
    start_ += n;
    size_ -= n;
    scanned_ = std::max<int64_t>(0, scanned_ - n);
  }

  // Reads until size_ >= target or the input ends, into a buffer that keeps
  // the unconsumed bytes at its front.
  Status Fill(int64_t target) {
    if (eof_) return Status::OK();
    int64_t need = target + 128;
    if (buffer_ == nullptr || start_ + need > buffer_->capacity()) {
      auto fresh = std::make_shared<ResizableBuffer>(options_.pool);
      ALKAID_RETURN_NOT_OK(fresh->Reserve(std::max(need, size_ * 2 + 128)));
      if (size_ > 0) std::memcpy(fresh->mutable_data(), data(), static_cast<size_t>(size_));
      buffer_ = std::move(fresh);
      start_ = 0;
    }
    while (size_ < target) {
      char* dst = reinterpret_cast<char*>(buffer_->mutable_data()) + start_ + size_;
      ALKAID_ASSIGN_OR_RAISE(int64_t got, input_->Read(target - size_, dst));
      if (got <= 0) {
        eof_ = true;
        break;
      }
      size_ += got;
    }
    return Status::OK();
  }

  // The buffer the next block is read into, taken by the thread that reads
  // it (Next() runs on any thread, one at a time): the recycler prefers a
  // buffer this thread gave back, whose lines are in this core's cache, so
  // the copy out of the page cache does not fetch them from the other
  // core's. The carried partial record moves into it.
  Status TakeBuffer() {
    if (buffer_ != nullptr || (eof_ && size_ == 0)) return Status::OK();
    const int64_t capacity = options_.block_size + size_ + 128;
    std::shared_ptr<ResizableBuffer> next = recycler_.Take(capacity);
    if (next == nullptr) next = std::make_shared<ResizableBuffer>(options_.pool);
    ALKAID_RETURN_NOT_OK(next->Reserve(capacity));
    if (size_ > 0) std::memcpy(next->mutable_data(), carry_.data(), static_cast<size_t>(size_));
    buffer_ = std::move(next);
    start_ = 0;
    return Status::OK();
  }

  // Hands out [0, n) as a block; the rest waits in carry_ for TakeBuffer().
  Result<RawBlock> Cut(int64_t n) {
    RawBlock b;
    int64_t rest = size_ - n;
    carry_.assign(data() + n, static_cast<size_t>(rest));
    if (start_ != 0) {
      // Only after Start() dropped a prefix: move the block to the front so
      // the tokenizer's reads stay inside the allocation's padding.
      std::memmove(buffer_->mutable_data(), data(), static_cast<size_t>(n));
    }
    // The fast parsers read a few bytes past a field: past the last one,
    // they must find no digits left from the buffer's previous use.
    std::memset(buffer_->mutable_data() + n, 0, 64);
    if (buffer_->capacity() > ReadableBytes(n)) {
      ALKAID_TEXT_POISON(buffer_->mutable_data() + ReadableBytes(n),
                         buffer_->capacity() - ReadableBytes(n));
    }
    b.buffer = std::move(buffer_);
    b.size = n;
    // The parity at the end of the scanned range stays valid for the rest:
    // the cut was outside quotes.
    start_ = 0;
    size_ = rest;
    scanned_ = rest;
    best_ = -1;
    return b;
  }

  std::shared_ptr<io::InputStream> input_;
  LoaderOptions options_;
  std::shared_ptr<ResizableBuffer> buffer_;  // null between Cut() and TakeBuffer()
  std::string carry_;  // the bytes after the last cut, until TakeBuffer()
  int64_t start_ = 0;
  int64_t size_ = 0;
  int64_t scanned_ = 0;
  int64_t best_ = -1;
  bool in_quote_ = false;
  bool eof_ = false;
  BufferRecycler recycler_;
};

}  // namespace alkaid::text::internal
