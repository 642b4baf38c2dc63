/// @file
/// Byte sources for the IPC readers: sequential streams and random-access files.
///
/// Reads hand out Buffers. Sources that already hold the bytes in memory (a
/// BufferReader, a memory-mapped file) return zero-copy slices whose owner keeps
/// the underlying memory alive, so a buffer may outlive the reader that made
/// it. Sources backed by a file descriptor copy into 64-byte aligned pool
/// buffers. Every operating-system failure becomes Status::IOError naming the
/// path and the errno text.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "alkaid/visibility.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::io {

/// A sequential source of bytes: each Read continues where the previous one
/// stopped. Implementations are cursors; calls on one stream must not overlap
/// (use separate streams, or RandomAccessFile::ReadAt, from several threads).
class ALKAID_EXPORT InputStream {
 public:
  virtual ~InputStream() = default;

  /// Reads up to `nbytes` bytes; fewer only at the end of the input (an empty
  /// buffer means the end was reached). The buffer is shared: the caller may
  /// keep it after the stream is closed or destroyed. Negative `nbytes`, a
  /// closed stream or an operating-system failure give an error.
  virtual Result<BufferPtr> Read(int64_t nbytes) = 0;
  /// Copies up to `nbytes` bytes into `out` (which must have room for them);
  /// returns how many were read (fewer only at the end of the input).
  virtual Result<int64_t> Read(int64_t nbytes, void* out) = 0;
  /// The number of bytes consumed so far (the position of the next Read).
  virtual Result<int64_t> Tell() const = 0;
  /// Releases the underlying resource (file descriptor, reference to the
  /// memory). Buffers already returned stay valid. Reads after Close fail;
  /// closing twice is allowed.
  virtual Status Close() = 0;
  /// True once Close() has been called.
  virtual bool closed() const = 0;
  /// True when Read(n) returns slices of memory the source already holds (no
  /// copy, no allocation proportional to n).
  virtual bool supports_zero_copy() const { return false; }
};

/// A range of bytes of a file: `length` bytes starting at `offset`.
struct ALKAID_EXPORT ReadRange {
  /// First byte of the range.
  int64_t offset = 0;
  /// Number of bytes.
  int64_t length = 0;
};

/// How a file will be read from now on, told to the operating system so it
/// can choose its readahead (see RandomAccessFile::Advise).
enum class AccessPattern : int8_t {
  kNormal,      ///< the system's default readahead
  kSequential,  ///< front to back: read ahead generously
  kRandom,      ///< scattered ranges (a column projection): no blind readahead
};

/// An input whose bytes can be read at any offset, as the IPC file reader
/// needs (it reads the footer first). ReadAt does not touch the sequential
/// position, so the built-in implementations allow concurrent ReadAt calls
/// from several threads; Read, Seek and Close must not overlap other calls.
class ALKAID_EXPORT RandomAccessFile : public InputStream {
 public:
  /// The total size of the source in bytes.
  virtual Result<int64_t> GetSize() = 0;
  /// Reads up to `nbytes` bytes starting at `offset` (fewer when the file ends
  /// first; empty when `offset` is at or past the end). Does not move the
  /// sequential position. Negative arguments are an error.
  virtual Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) = 0;
  /// Copies up to `nbytes` bytes starting at `offset` into `out` (which must
  /// have room for them); returns how many were copied.
  virtual Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) = 0;
  /// Moves the sequential position used by Read() to `position` bytes from the
  /// start. Negative positions are an error; in-memory sources also refuse
  /// positions past the end.
  virtual Status Seek(int64_t position) = 0;

  /// Hint: the bytes of `ranges` will be read soon, so the source may start
  /// fetching them (in the background where it can) and page them in. Ranges
  /// are clamped to the file; empty ones are ignored. Only a hint: sources
  /// that cannot use it (memory buffers) do nothing, which is the default.
  virtual Status WillNeed(std::span<const ReadRange> ranges);
  /// Hint: how the file will be read from now on (readahead policy). Only a
  /// hint; the default does nothing.
  virtual Status Advise(AccessPattern pattern);
};

/// Reads from a Buffer in memory; every read is a zero-copy slice that keeps
/// the parent buffer alive.
class ALKAID_EXPORT BufferReader final : public RandomAccessFile {
 public:
  /// Reads `buffer`, sharing ownership of it.
  explicit BufferReader(BufferPtr buffer);
  /// Non-owning: the caller keeps the `size` bytes at `data` alive while the
  /// reader or any buffer it returned is in use.
  BufferReader(const uint8_t* data, int64_t size);

  Result<BufferPtr> Read(int64_t nbytes) override;
  Result<int64_t> Read(int64_t nbytes, void* out) override;
  Result<int64_t> Tell() const override;
  Status Close() override;
  bool closed() const override { return closed_; }
  bool supports_zero_copy() const override { return true; }

  Result<int64_t> GetSize() override;
  Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) override;
  Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) override;
  Status Seek(int64_t position) override;

  /// The whole buffer being read.
  const BufferPtr& buffer() const { return buffer_; }

 private:
  Status CheckOpen() const;
  // Clamps [offset, offset + nbytes) to the buffer; errors on negative input.
  Result<int64_t> ClampedLength(int64_t offset, int64_t nbytes) const;

  BufferPtr buffer_;
  int64_t position_ = 0;
  bool closed_ = false;
};

/// A regular file read with pread(2); every read copies into a 64-byte
/// aligned buffer from the pool given to Open.
class ALKAID_EXPORT ReadableFile final : public RandomAccessFile {
 public:
  /// Opens `path` for reading; IOError (naming the path and the errno text)
  /// when it cannot be opened. Buffers returned by reads come from `pool`,
  /// which must outlive them.
  static Result<std::shared_ptr<ReadableFile>> Open(const std::string& path,
                                                    MemoryPool* pool = default_memory_pool());
  ~ReadableFile() override;

  Result<BufferPtr> Read(int64_t nbytes) override;
  Result<int64_t> Read(int64_t nbytes, void* out) override;
  Result<int64_t> Tell() const override;
  Status Close() override;
  bool closed() const override { return fd_ < 0; }

  Result<int64_t> GetSize() override;
  Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) override;
  Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) override;
  Status Seek(int64_t position) override;
  /// posix_fadvise(POSIX_FADV_WILLNEED) on each range: the kernel starts
  /// reading them into the page cache in the background.
  Status WillNeed(std::span<const ReadRange> ranges) override;
  /// posix_fadvise with the matching POSIX_FADV_* advice on the whole file.
  Status Advise(AccessPattern pattern) override;

  /// The path given to Open.
  const std::string& path() const { return path_; }

 private:
  ReadableFile(int fd, std::string path, MemoryPool* pool)
      : fd_(fd), path_(std::move(path)), pool_(pool) {}
  Status CheckOpen() const;

  int fd_;
  std::string path_;
  MemoryPool* pool_;
  int64_t position_ = 0;
};

/// A read-only memory map of a whole file. ReadAt and Read return zero-copy
/// buffers pointing into the mapping; each one keeps the mapping alive, so it
/// stays valid after the MemoryMappedFile object (or Close()) goes away. Pages
/// that are never read are never faulted in.
///
/// The file must not be truncated while mapped: reading pages past the new
/// end raises SIGBUS, which no library can turn into a Status.
class ALKAID_EXPORT MemoryMappedFile final : public RandomAccessFile {
 public:
  /// Maps the whole of `path` read-only; IOError when it cannot be opened or
  /// mapped.
  static Result<std::shared_ptr<MemoryMappedFile>> Open(const std::string& path);
  ~MemoryMappedFile() override;

  Result<BufferPtr> Read(int64_t nbytes) override;
  Result<int64_t> Read(int64_t nbytes, void* out) override;
  Result<int64_t> Tell() const override;
  Status Close() override;
  bool closed() const override { return closed_; }
  bool supports_zero_copy() const override { return true; }

  Result<int64_t> GetSize() override;
  Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) override;
  Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) override;
  Status Seek(int64_t position) override;
  /// madvise(MADV_WILLNEED) on each range (widened to whole pages): the
  /// kernel starts reading exactly those pages in the background. (Mapping
  /// them on the reader's thread with MADV_POPULATE_READ or MAP_POPULATE was
  /// measured slower than the page faults it saves; see
  /// set_populate_ahead for mapping ahead on another thread.)
  Status WillNeed(std::span<const ReadRange> ranges) override;
  /// madvise on the whole mapping: MADV_NORMAL, MADV_SEQUENTIAL or
  /// MADV_RANDOM (the last stops the kernel from reading ahead of each page
  /// fault, which would bring in columns a projection does not need).
  Status Advise(AccessPattern pattern) override;

  /// Whether a read of 256 KiB or more has the 8 MiB (at least four times
  /// its size) after it mapped ahead (MADV_POPULATE_READ) on a background
  /// thread, so that a reader going through the file in order finds the page
  /// tables of its next batches filled instead of faulting on them. On by default; never
  /// done while the access pattern is AccessPattern::kRandom (a projection).
  /// Only the page tables change: what reads return is the same either way.
  void set_populate_ahead(bool on) { populate_ahead_ = on; }

  /// The whole mapping as one buffer (empty for an empty file).
  const BufferPtr& buffer() const { return region_; }
  /// The path given to Open.
  const std::string& path() const { return path_; }

 private:
  MemoryMappedFile(BufferPtr region, std::string path)
      : region_(std::move(region)), reader_(region_), path_(std::move(path)) {}

  void PopulateAfter(int64_t offset, int64_t nbytes);

  BufferPtr region_;
  BufferReader reader_;
  std::string path_;
  bool closed_ = false;
  bool populate_ahead_ = true;
  std::atomic<bool> random_access_{false};  // Advise(kRandom) in force
};

/// Sequential reads from a file descriptor that may not be seekable (a pipe,
/// a socket, standard input). Copies into pool buffers.
class ALKAID_EXPORT FdInputStream final : public InputStream {
 public:
  /// Reads from the open descriptor `fd`. `owns_fd`: close the descriptor in
  /// Close() and the destructor. `name` appears in error messages; buffers
  /// come from `pool`.
  FdInputStream(int fd, bool owns_fd, std::string name = "fd",
                MemoryPool* pool = default_memory_pool());
  /// Opens `path` (a file, FIFO or device) for reading and owns the
  /// descriptor; IOError when it cannot be opened.
  static Result<std::shared_ptr<FdInputStream>> Open(const std::string& path,
                                                     MemoryPool* pool = default_memory_pool());
  /// Standard input (descriptor 0), not owned: Close() leaves it open.
  static std::shared_ptr<FdInputStream> Stdin();
  ~FdInputStream() override;

  Result<BufferPtr> Read(int64_t nbytes) override;
  Result<int64_t> Read(int64_t nbytes, void* out) override;
  Result<int64_t> Tell() const override { return position_; }
  Status Close() override;
  bool closed() const override { return fd_ < 0; }

 private:
  int fd_;
  bool owns_fd_;
  std::string name_;
  MemoryPool* pool_;
  int64_t position_ = 0;
};

}  // namespace alkaid::io
