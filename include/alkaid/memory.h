/// @file
/// Memory: pools that count what they hand out, and reference-counted buffers.
///
/// Every allocation is 64-byte aligned and its capacity is padded to a multiple
/// of 64 with the padding zeroed, so SIMD loops may read a whole cache line past
/// the last value. A Buffer never owns memory directly: it holds a shared
/// "owner" that keeps the bytes alive (a pool allocation, a parent buffer, a
/// memory map, ...), so slices are free and zero-copy IPC reads can point into
/// a mapped file.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/status.h"

namespace alkaid {

/// Alignment in bytes of every pool allocation, and the multiple its capacity is
/// padded to (one cache line, and wide enough for any SIMD load).
inline constexpr int64_t kAlignment = 64;

/// `n` rounded up to the next multiple of 64 (`n` must be non-negative and at
/// most INT64_MAX - 63).
inline constexpr int64_t RoundUpToMultipleOf64(int64_t n) { return (n + 63) & ~int64_t{63}; }
/// `n` rounded up to the next multiple of 8 (the IPC body alignment).
inline constexpr int64_t RoundUpToMultipleOf8(int64_t n) { return (n + 7) & ~int64_t{7}; }

/// An allocator of aligned, zero-padded memory that keeps statistics. Pools
/// must be safe to call from several threads at once (the default pool is used
/// by every thread); sizes are in bytes and negative sizes are an error.
class ALKAID_EXPORT MemoryPool {
 public:
  virtual ~MemoryPool() = default;

  /// Allocates `size` bytes aligned to kAlignment, zeroed up to the next
  /// multiple of 64. (Zeroing is the pool's job because a pool may get
  /// memory that is already zero, such as fresh pages from the kernel.)
  virtual Status Allocate(int64_t size, uint8_t** out) = 0;
  /// Like Allocate, except that the first `size` bytes may hold anything
  /// (only the padding up to the next multiple of 64 is zeroed): for a caller
  /// that overwrites all of them before anything reads them, such as a
  /// decompressor. The default implementation calls Allocate.
  virtual Status AllocateForOverwrite(int64_t size, uint8_t** out) { return Allocate(size, out); }
  /// Grows or shrinks an allocation, preserving min(old, new) bytes; bytes
  /// past the old size are zero. On failure *ptr is unchanged and valid.
  virtual Status Reallocate(int64_t old_size, int64_t new_size, uint8_t** ptr) = 0;
  /// Returns an allocation made by this pool; `size` must be the size it was
  /// allocated (or last reallocated) with; it must not be used afterwards.
  virtual void Free(uint8_t* ptr, int64_t size) = 0;

  /// Bytes currently allocated (allocated and not yet freed).
  virtual int64_t bytes_allocated() const = 0;
  /// The highest value bytes_allocated() has reached.
  virtual int64_t max_memory() const = 0;
  /// The sum of every allocation ever made, in bytes (never decreases).
  virtual int64_t total_bytes_allocated() const = 0;
  /// How many allocations the pool has made since it was created.
  virtual int64_t num_allocations() const = 0;
  /// A short name of the allocator behind the pool ("system" for SystemMemoryPool).
  virtual std::string backend_name() const = 0;
};

/// A pool over the system allocator with atomic counters. Each pool keeps its
/// own statistics, so tests can create one and check for leaks.
class ALKAID_EXPORT SystemMemoryPool final : public MemoryPool {
 public:
  /// `limit` caps bytes_allocated(); allocations beyond it get OutOfMemory.
  explicit SystemMemoryPool(int64_t limit = INT64_MAX) : limit_(limit) {}
  Status Allocate(int64_t size, uint8_t** out) override;
  Status AllocateForOverwrite(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t old_size, int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr, int64_t size) override;
  int64_t bytes_allocated() const override { return allocated_.load(std::memory_order_relaxed); }
  int64_t max_memory() const override { return peak_.load(std::memory_order_relaxed); }
  int64_t total_bytes_allocated() const override { return total_.load(std::memory_order_relaxed); }
  int64_t num_allocations() const override { return count_.load(std::memory_order_relaxed); }
  std::string backend_name() const override { return "system"; }

 private:
  Status AllocateImpl(int64_t size, bool zeroed, uint8_t** out);
  Status Account(int64_t delta);
  int64_t limit_;
  std::atomic<int64_t> allocated_{0};
  std::atomic<int64_t> peak_{0};
  std::atomic<int64_t> total_{0};
  std::atomic<int64_t> count_{0};
};

/// The process-wide pool used when callers pass none.
ALKAID_EXPORT MemoryPool* default_memory_pool();

/// A contiguous run of bytes, shared by reference count (BufferPtr). The bytes
/// belong to owner(); a buffer made by a pool, a slice of another buffer and a
/// view into a memory-mapped file all look the same to readers. A buffer is not
/// copied when shared: once handed to an array it must not change, and then any
/// number of threads may read it at once. set_size() and writes through
/// mutable_data() are for the single thread that is still filling it.
class ALKAID_EXPORT Buffer {
 public:
  /// A view over memory kept alive by `owner` (may be null for static memory
  /// the caller guarantees outlives the buffer).
  Buffer(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner = nullptr)
      : data_(data), mutable_data_(nullptr), size_(size), capacity_(size), owner_(std::move(owner)) {}
  virtual ~Buffer() = default;

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  /// Non-owning view over a string or vector the caller keeps alive.
  static std::shared_ptr<Buffer> Wrap(std::string_view bytes) {
    return std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                    static_cast<int64_t>(bytes.size()));
  }
  /// Owning buffer that takes the string's bytes (no copy of the characters
  /// beyond the move). Useful for tests and small metadata.
  static std::shared_ptr<Buffer> FromString(std::string bytes);
  /// Copies `size` bytes into a fresh padded pool allocation.
  static Result<std::shared_ptr<Buffer>> Copy(const uint8_t* data, int64_t size,
                                              MemoryPool* pool = default_memory_pool());

  // --- Buffers over memory that did not come from a pool ----------------------------------
  /// FromVector takes ownership of a vector (moved, no copy of the elements); Wrap borrows
  /// memory the caller keeps alive, or that `keep_alive` keeps alive. Unlike pool buffers these
  /// are exactly size() bytes long: not padded to 64 bytes and aligned only as the source is (a
  /// std::vector<T> is aligned for T). That is enough for every reader in alkaid: validation,
  /// the typed arrays, bitmap word loops and the IPC writer never read past size() (the writer
  /// emits its alignment padding from a zero block, and buffers read from files are unpadded
  /// too), so no copy is made. Counts are in elements of T.
  template <typename T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool>)
  static std::shared_ptr<Buffer> FromVector(std::vector<T> values) {
    auto holder = std::make_shared<std::vector<T>>(std::move(values));
    const auto* data = reinterpret_cast<const uint8_t*>(holder->data());
    auto size = static_cast<int64_t>(holder->size() * sizeof(T));
    return std::make_shared<Buffer>(data, size, std::move(holder));
  }
  /// Borrows `count` elements at `data`; the caller keeps them alive and unchanged for as long
  /// as the buffer (and every array built on it) lives.
  template <typename T>
    requires std::is_trivially_copyable_v<T>
  static std::shared_ptr<Buffer> Wrap(const T* data, int64_t count) {
    return std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(data),
                                    count * static_cast<int64_t>(sizeof(T)));
  }
  /// Borrows the elements of `values`, which the caller keeps alive and unchanged
  /// (and unresized) for as long as the buffer lives.
  template <typename T>
    requires(std::is_trivially_copyable_v<T> && !std::is_same_v<T, bool>)
  static std::shared_ptr<Buffer> Wrap(const std::vector<T>& values) {
    return Wrap(values.data(), static_cast<int64_t>(values.size()));
  }
  /// Borrows `count` elements at `data` and holds `keep_alive` (any shared owner, such as a
  /// std::shared_ptr<void> from another library) until the buffer is destroyed.
  template <typename T>
    requires std::is_trivially_copyable_v<T>
  static std::shared_ptr<Buffer> Wrap(const T* data, int64_t count,
                                      std::shared_ptr<const void> keep_alive) {
    return std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(data),
                                    count * static_cast<int64_t>(sizeof(T)), std::move(keep_alive));
  }
  // --- end of the non-pool buffer factories -----------------------------------------------

  /// The first byte of the buffer; may be null for an empty buffer.
  const uint8_t* data() const { return data_; }
  /// The first byte for writing, or null when the buffer is read-only. Only
  /// pool allocations (ResizableBuffer, AllocateBuffer, Copy) are writable;
  /// views, slices and FromString buffers are not.
  uint8_t* mutable_data() const { return mutable_data_; }
  /// True when mutable_data() is not null.
  bool is_mutable() const { return mutable_data_ != nullptr; }
  /// Logical size in bytes (what readers may access).
  int64_t size() const { return size_; }
  /// Bytes of storage behind data(); at least size(). Pool buffers round it up to
  /// a multiple of 64, with the padding zeroed.
  int64_t capacity() const { return capacity_; }
  /// The object keeping the bytes alive (null for borrowed memory).
  const std::shared_ptr<const void>& owner() const { return owner_; }

  /// A typed view of the bytes; T must match how the buffer was filled and the
  /// address must suit T's alignment (pool buffers are 64-byte aligned).
  template <typename T>
  const T* data_as() const { return reinterpret_cast<const T*>(data_); }
  /// The bytes viewed as a mutable T array; null when the buffer is read-only.
  template <typename T>
  T* mutable_data_as() const { return reinterpret_cast<T*>(mutable_data_); }
  /// The bytes as characters, without a copy; valid while the buffer lives.
  std::string_view view() const {
    return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)};
  }
  /// The bytes as lower-case hex digits, two per byte (for messages and tests).
  std::string ToHexString() const;

  /// Byte equality of the first size() bytes.
  bool Equals(const Buffer& other) const;
  /// Byte equality of the first `nbytes` bytes; false when either buffer is shorter.
  bool Equals(const Buffer& other, int64_t nbytes) const;

  /// Shrinks the logical size (used by builders after they finish).
  void set_size(int64_t size) { size_ = size; }

 protected:
  /// An empty buffer, for subclasses that set the fields themselves.
  Buffer() = default;
  const uint8_t* data_ = nullptr;      ///< Start of the bytes (what data() returns).
  uint8_t* mutable_data_ = nullptr;    ///< Same address when writable, else null.
  int64_t size_ = 0;                   ///< Logical size in bytes.
  int64_t capacity_ = 0;               ///< Bytes of storage, at least size_.
  std::shared_ptr<const void> owner_;  ///< Keeps the bytes alive; null for borrowed memory.
};

/// Shared ownership of a buffer; one buffer may back many arrays and slices.
using BufferPtr = std::shared_ptr<Buffer>;

/// A zero-copy window [offset, offset + length) of `parent`; keeps parent alive.
/// The window is clamped to [0, parent->size()] (never reaches outside it).
ALKAID_EXPORT std::shared_ptr<Buffer> SliceBuffer(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                    int64_t length);
/// Same, but fails instead of trusting the caller's range.
ALKAID_EXPORT Result<std::shared_ptr<Buffer>> SliceBufferSafe(const std::shared_ptr<Buffer>& parent,
                                                int64_t offset, int64_t length);

/// A buffer that owns a pool allocation and can grow. Capacity is always a
/// multiple of 64 and bytes between size and capacity are zero.
class ALKAID_EXPORT ResizableBuffer final : public Buffer {
 public:
  /// An empty buffer that allocates from `pool` on the first Reserve or Resize;
  /// the pool must outlive the buffer.
  explicit ResizableBuffer(MemoryPool* pool) : pool_(pool) {}
  ~ResizableBuffer() override;

  /// Ensures capacity >= new_capacity (rounded up to 64), keeping contents.
  Status Reserve(int64_t new_capacity);
  /// Sets the size, growing capacity when needed; new bytes are zeroed.
  Status Resize(int64_t new_size, bool shrink_to_fit = false);
  /// Sets the size of a buffer that has no storage yet to `size` without
  /// clearing those bytes (the padding past them is zeroed): the caller must
  /// write all of them before the buffer is read. A buffer that already has
  /// storage is resized as by Resize.
  Status ResizeForOverwrite(int64_t new_size);
  /// The pool the storage comes from.
  MemoryPool* pool() const { return pool_; }

 private:
  MemoryPool* pool_;
};

/// A new zero-filled buffer of `size` bytes (capacity padded to 64).
ALKAID_EXPORT Result<std::shared_ptr<ResizableBuffer>> AllocateBuffer(int64_t size,
                                                       MemoryPool* pool = default_memory_pool());
/// A new bitmap of `length` bits, all clear (or all set when `value` is true).
ALKAID_EXPORT Result<std::shared_ptr<ResizableBuffer>> AllocateBitmap(int64_t length, bool value = false,
                                                       MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
