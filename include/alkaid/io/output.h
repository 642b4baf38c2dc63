/// @file
/// Byte sinks for the IPC writers: a growing in-memory buffer, a fixed
/// caller-owned buffer, a POSIX file, and a counter that only measures.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "alkaid/visibility.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::io {

/// One piece of a gather write (like struct iovec).
struct ALKAID_EXPORT IoSlice {
  /// First byte of the slice; may be null when `size` is 0. Not owned.
  const void* data = nullptr;
  /// Number of bytes at `data`.
  int64_t size = 0;
};

/// A sequential sink of bytes. Writes append at the current position; the built-in
/// sinks copy (or count) the bytes before returning, so the caller may reuse its
/// memory at once. Calls on one stream must not overlap.
class ALKAID_EXPORT OutputStream {
 public:
  virtual ~OutputStream() = default;

  /// Appends `nbytes` bytes. Fails on a closed stream.
  virtual Status Write(const void* data, int64_t nbytes) = 0;
  /// Appends a buffer's bytes. Streams that can (none of ours today, but
  /// queueing sinks may) keep a reference to `buffer` instead of copying.
  virtual Status Write(const BufferPtr& buffer);
  /// Gather write: appends every slice in order, as one call where the sink
  /// supports it (writev for files). Empty slices are allowed.
  virtual Status WriteV(std::span<const IoSlice> slices);

  /// Bytes written so far (the position of the next byte).
  virtual Result<int64_t> Tell() const = 0;
  /// Pushes bytes buffered in the stream to the underlying sink. The built-in
  /// sinks keep no buffer, so this is a no-op for them.
  virtual Status Flush() { return Status::OK(); }
  /// Flushes and releases the sink; later writes fail. Closing twice is OK.
  virtual Status Close() = 0;
  /// True once Close() has been called.
  virtual bool closed() const = 0;
};

/// Writes into a growing pool allocation; Finish() hands it over.
class ALKAID_EXPORT BufferOutputStream final : public OutputStream {
 public:
  /// An open stream with no storage yet; the first write allocates from `pool`.
  explicit BufferOutputStream(MemoryPool* pool = default_memory_pool());
  /// A stream with `initial_capacity` bytes allocated up front from `pool`
  /// (OutOfMemory when the pool refuses).
  static Result<std::unique_ptr<BufferOutputStream>> Create(
      int64_t initial_capacity = 4096, MemoryPool* pool = default_memory_pool());

  Status Write(const void* data, int64_t nbytes) override;
  using OutputStream::Write;
  Status WriteV(std::span<const IoSlice> slices) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return closed_; }

  /// Ensures room for `additional` more bytes without reallocating.
  Status Reserve(int64_t additional);
  /// The bytes written (shrunk to size) and closes the stream; the stream can
  /// be reused after Reset().
  Result<BufferPtr> Finish();
  /// Starts over with a fresh buffer.
  Status Reset(int64_t initial_capacity = 4096);
  /// Bytes the current allocation can hold before the next write grows it.
  int64_t capacity() const { return buffer_ ? buffer_->capacity() : 0; }

 private:
  Status Grow(int64_t min_capacity);
  void PopulateAhead(int64_t end);
  MemoryPool* pool_;
  std::shared_ptr<ResizableBuffer> buffer_;
  uint8_t* data_ = nullptr;
  int64_t position_ = 0;
  int64_t capacity_ = 0;
  int64_t populated_ = 0;  // bytes of the allocation asked to be faulted in
  bool closed_ = false;
};

/// Writes into a caller's pre-sized mutable buffer; writing past its end fails
/// (nothing is written by the failing call).
class ALKAID_EXPORT FixedSizeBufferWriter final : public OutputStream {
 public:
  /// `buffer` must be mutable.
  /// The writer shares ownership of `buffer` and starts at offset 0.
  explicit FixedSizeBufferWriter(BufferPtr buffer);

  Status Write(const void* data, int64_t nbytes) override;
  using OutputStream::Write;
  Status WriteV(std::span<const IoSlice> slices) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { closed_ = true; return Status::OK(); }
  bool closed() const override { return closed_; }
  /// Moves the write position (0 <= position <= size).
  Status Seek(int64_t position);

 private:
  BufferPtr buffer_;
  uint8_t* data_;
  int64_t size_;
  int64_t position_ = 0;
  bool closed_ = false;
};

/// Writes to a POSIX file descriptor, retrying interrupted and partial writes.
///
/// By default every write reaches the file before it returns. With aligned
/// writes (opt-in) the stream holds back the bytes after the last 2 MiB
/// boundary of the file and writes only whole, aligned 2 MiB stretches until
/// Flush() or Close(): the kernel then caches the file in 2 MiB folios, which
/// a later memory mapping maps several times faster than the small folios
/// that unaligned writes leave. Right for files read only once complete (an
/// IPC file, a temporary file renamed when done); wrong for a stream another
/// process follows as it grows. Only regular files are held back; pipes,
/// sockets and terminals get every write at once.
///
/// Not thread-safe: one thread at a time.
class ALKAID_EXPORT FileOutputStream final : public OutputStream {
 public:
  ~FileOutputStream() override;
  /// Creates or truncates (or, with `append`, appends to) the file at `path`;
  /// `aligned_writes` as described above.
  static Result<std::unique_ptr<FileOutputStream>> Open(const std::string& path,
                                                        bool append = false,
                                                        bool aligned_writes = false);
  /// Wraps an open descriptor; with `owns_fd` Close() closes it.
  /// `aligned_writes` as described above (only for a regular file).
  static Result<std::unique_ptr<FileOutputStream>> FromDescriptor(int fd, bool owns_fd,
                                                                  bool aligned_writes = false);

  Status Write(const void* data, int64_t nbytes) override;
  using OutputStream::Write;
  Status WriteV(std::span<const IoSlice> slices) override;
  Result<int64_t> Tell() const override;
  /// Writes the bytes held back (see above); fsync is not implied.
  Status Flush() override;
  /// Flushes, then closes the descriptor if owned.
  Status Close() override;
  bool closed() const override { return fd_ < 0; }
  /// The descriptor written to, or -1 once closed.
  int fd() const { return fd_; }

 private:
  FileOutputStream(int fd, bool owns_fd, int64_t position, std::string path, bool aligned);
  Status WriteAll(std::span<const IoSlice> slices);
  int fd_;
  bool owns_fd_;
  int64_t position_;  // including the bytes held back
  std::string path_;
  bool aligned_;  // hold back the bytes past the last 2 MiB boundary
  std::unique_ptr<uint8_t[]> held_;  // allocated on first use
  int64_t held_size_ = 0;
};

/// Discards the bytes and only counts them, to size a buffer before writing.
/// Tell() gives the byte count; Write(BufferPtr) and WriteV count without reading
/// the bytes.
class ALKAID_EXPORT MockOutputStream final : public OutputStream {
 public:
  Status Write(const void* data, int64_t nbytes) override;
  using OutputStream::Write;
  Status WriteV(std::span<const IoSlice> slices) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override { closed_ = true; return Status::OK(); }
  bool closed() const override { return closed_; }

 private:
  int64_t position_ = 0;
  bool closed_ = false;
};

}  // namespace alkaid::io
