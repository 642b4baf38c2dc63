/// @file
/// BufferBuilder: a growable, zero-filled byte area that becomes a Buffer. Every
/// builder keeps its buffers in these; code that fills Arrow buffers by hand (a
/// reader of another format, a builder of a user's own) can use it the same way.
///
/// Threads: a BufferBuilder belongs to one thread at a time; different ones are
/// independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// A growable byte area backed by a ResizableBuffer from a MemoryPool.
///
/// Bytes past size() are always zero (the pool zeroes new capacity), so a
/// caller can "append" zeros or cleared bits by moving forward with
/// UnsafeAdvance(). The Unsafe appends check nothing: reserve first. Finish
/// hands the bytes out as a 64-byte aligned, padded Buffer without copying.
///
/// @code
///   BufferBuilder bytes(default_memory_pool());
///   ALKAID_RETURN_NOT_OK(bytes.Reserve(3 * sizeof(int32_t)));
///   for (int32_t v : {1, 2, 3}) bytes.UnsafeAppendValue(v);
///   ALKAID_ASSIGN_OR_RAISE(BufferPtr buffer, bytes.Finish());  // 12 bytes
/// @endcode
class ALKAID_EXPORT BufferBuilder {
 public:
  /// An empty builder allocating from `pool`, which must outlive it. Nothing is
  /// allocated until the first Reserve or append.
  explicit BufferBuilder(MemoryPool* pool) : pool_(pool) {}

  /// Bytes appended so far.
  int64_t size() const { return size_; }
  /// Bytes that fit before the next allocation.
  int64_t capacity() const { return capacity_; }
  /// The bytes, or nullptr before the first allocation.
  const uint8_t* data() const { return data_; }
  /// The bytes for writing in place (up to capacity()), or nullptr before the
  /// first allocation.
  uint8_t* mutable_data() { return data_; }
  /// Whether a buffer has been allocated (after Finish or Reset, none is).
  bool allocated() const { return buffer_ != nullptr; }

  /// Makes room for at least `total_bytes` in all, exactly: for callers that
  /// grow geometrically themselves. OutOfMemory when the pool fails.
  Status EnsureCapacity(int64_t total_bytes) {
    if (total_bytes <= capacity_ && buffer_ != nullptr) return Status::OK();
    return GrowTo(total_bytes);
  }
  /// Makes room for `additional` bytes past size(), at least doubling the
  /// capacity when it grows, so appends are amortized O(1).
  Status Reserve(int64_t additional) {
    int64_t needed = size_ + additional;
    if (needed <= capacity_ && buffer_ != nullptr) return Status::OK();
    return GrowTo(needed > 2 * capacity_ ? needed : 2 * capacity_);
  }
  /// Appends `n` bytes, growing as needed.
  Status Append(const void* bytes, int64_t n) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  /// Appends `n` bytes without growing: capacity() - size() must be at least `n`.
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  /// Appends the bytes of one trivially copyable value without growing.
  template <typename T>
  void UnsafeAppendValue(const T& value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += static_cast<int64_t>(sizeof(T));
  }
  /// Moves size() forward over `n` bytes that are already zero (or were
  /// written through mutable_data()); capacity must have been reserved.
  void UnsafeAdvance(int64_t n) { size_ += n; }

  /// Hands out the buffer with logical size `size` (the padding past it stays
  /// zero) and leaves this builder empty. An untouched builder yields an empty
  /// allocated buffer. OutOfMemory when the pool fails to make room for `size`.
  Result<BufferPtr> FinishWithSize(int64_t size);
  /// FinishWithSize(size()).
  Result<BufferPtr> Finish() { return FinishWithSize(size_); }
  /// Frees the buffer and empties the builder.
  void Reset();

 private:
  Status GrowTo(int64_t total_bytes);

  MemoryPool* pool_;
  std::shared_ptr<ResizableBuffer> buffer_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace alkaid
