// A small process-wide cache of large receive blocks (see receive_buffer.h).
#include "receive_buffer.h"

#include <cstring>
#include <deque>
#include <memory>
#include <mutex>

namespace alkaid::flight::wire {

namespace {

// Capacities are rounded up to this granule so that bodies of slightly different sizes (batches
// of the same schema with variable-length columns) find each other's blocks.
constexpr int64_t kGranule = int64_t{64} << 10;

struct FreeBlock {
  uint8_t* data;
  int64_t capacity;
};

class BlockCache {
 public:
  // A block of at least `capacity` bytes, reused when one of no more than 1.5 times that size
  // is free.
  Result<FreeBlock> Take(int64_t capacity) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
        if (it->capacity >= capacity && it->capacity <= capacity + capacity / 2) {
          FreeBlock block = *it;
          free_.erase(std::next(it).base());
          cached_ -= block.capacity;
          ++reused_;
          return block;
        }
      }
      ++allocated_;
    }
    FreeBlock block{nullptr, capacity};
    ALKAID_RETURN_NOT_OK(default_memory_pool()->AllocateForOverwrite(capacity, &block.data));
    return block;
  }

  void Give(FreeBlock block) {
    std::deque<FreeBlock> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      free_.push_back(block);
      cached_ += block.capacity;
      while (cached_ > kReusedBytesMax) {
        evicted.push_back(free_.front());
        cached_ -= free_.front().capacity;
        free_.pop_front();
      }
    }
    for (const auto& b : evicted) default_memory_pool()->Free(b.data, b.capacity);
  }

  ReceiveBlockStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return ReceiveBlockStats{cached_, reused_, allocated_};
  }

 private:
  std::mutex mu_;
  std::deque<FreeBlock> free_;  // oldest first
  int64_t cached_ = 0;
  int64_t reused_ = 0;
  int64_t allocated_ = 0;
};

// Never destroyed: buffers handed out may be released during or after static destruction.
BlockCache& Cache() {
  static auto* cache = new BlockCache();
  return *cache;
}

// Owns a block while a buffer uses it, then gives it back to the cache.
class BlockOwner {
 public:
  explicit BlockOwner(FreeBlock block) : block_(block) {}
  ~BlockOwner() { Cache().Give(block_); }
  BlockOwner(const BlockOwner&) = delete;
  BlockOwner& operator=(const BlockOwner&) = delete;

 private:
  FreeBlock block_;
};

}  // namespace

Result<BufferPtr> AllocateReceiveBuffer(int64_t size, uint8_t** data) {
  const int64_t padded = RoundUpToMultipleOf64(size);
  if (padded < kReusedBlockMin || padded > kReusedBlockMax) {
    auto buffer = std::make_shared<ResizableBuffer>(default_memory_pool());
    ALKAID_RETURN_NOT_OK(buffer->ResizeForOverwrite(size));
    *data = buffer->mutable_data();
    return BufferPtr(std::move(buffer));
  }
  const int64_t capacity = (padded + kGranule - 1) / kGranule * kGranule;
  ALKAID_ASSIGN_OR_RAISE(FreeBlock block, Cache().Take(capacity));
  std::memset(block.data + size, 0, static_cast<size_t>(padded - size));
  *data = block.data;
  auto owner = std::make_shared<BlockOwner>(block);
  return std::make_shared<Buffer>(block.data, size, std::move(owner));
}

ReceiveBlockStats GetReceiveBlockStats() { return Cache().stats(); }

}  // namespace alkaid::flight::wire
