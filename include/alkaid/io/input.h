// Byte sources for the IPC readers: sequential streams and random-access files.
//
// Reads hand out Buffers. Sources that already hold the bytes in memory (a
// BufferReader, a memory-mapped file) return zero-copy slices whose owner keeps
// the underlying memory alive, so a buffer may outlive the reader that made
// it. Sources backed by a file descriptor copy into 64-byte aligned pool
// buffers. Every operating-system failure becomes Status::IOError naming the
// path and the errno text.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::io {

class ALKAID_EXPORT InputStream {
 public:
  virtual ~InputStream() = default;

  // Up to `nbytes` bytes; fewer only at the end of the input (an empty buffer
  // means the end was reached).
  virtual Result<BufferPtr> Read(int64_t nbytes) = 0;
  // Copies up to `nbytes` bytes into `out`; returns how many were read (fewer
  // only at the end of the input).
  virtual Result<int64_t> Read(int64_t nbytes, void* out) = 0;
  // Bytes consumed so far.
  virtual Result<int64_t> Tell() const = 0;
  virtual Status Close() = 0;
  virtual bool closed() const = 0;
  // True when Read(n) returns slices of memory the source already holds (no
  // copy, no allocation proportional to n).
  virtual bool supports_zero_copy() const { return false; }
};

class ALKAID_EXPORT RandomAccessFile : public InputStream {
 public:
  virtual Result<int64_t> GetSize() = 0;
  // Up to `nbytes` bytes starting at `offset` (fewer when the file ends first).
  // Does not move the sequential position.
  virtual Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) = 0;
  virtual Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) = 0;
  // Moves the sequential position used by Read().
  virtual Status Seek(int64_t position) = 0;
};

// Reads from a Buffer in memory; every read is a zero-copy slice that keeps
// the parent buffer alive.
class ALKAID_EXPORT BufferReader final : public RandomAccessFile {
 public:
  explicit BufferReader(BufferPtr buffer);
  // Non-owning: the caller keeps `bytes` alive while any result is used.
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

  const BufferPtr& buffer() const { return buffer_; }

 private:
  Status CheckOpen() const;
  // Clamps [offset, offset + nbytes) to the buffer; errors on negative input.
  Result<int64_t> ClampedLength(int64_t offset, int64_t nbytes) const;

  BufferPtr buffer_;
  int64_t position_ = 0;
  bool closed_ = false;
};

// A regular file read with pread(2); every read copies into a pool buffer.
class ALKAID_EXPORT ReadableFile final : public RandomAccessFile {
 public:
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

// A read-only memory map of a whole file. ReadAt and Read return zero-copy
// buffers pointing into the mapping; each one keeps the mapping alive, so it
// stays valid after the MemoryMappedFile object (or Close()) goes away. Pages
// that are never read are never faulted in.
class ALKAID_EXPORT MemoryMappedFile final : public RandomAccessFile {
 public:
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

  // The whole mapping as one buffer (empty for an empty file).
  const BufferPtr& buffer() const { return region_; }
  const std::string& path() const { return path_; }

 private:
  MemoryMappedFile(BufferPtr region, std::string path)
      : region_(std::move(region)), reader_(region_), path_(std::move(path)) {}

  BufferPtr region_;
  BufferReader reader_;
  std::string path_;
  bool closed_ = false;
};

// Sequential reads from a file descriptor that may not be seekable (a pipe,
// a socket, standard input). Copies into pool buffers.
class ALKAID_EXPORT FdInputStream final : public InputStream {
 public:
  // `owns_fd`: close the descriptor in Close() and the destructor.
  FdInputStream(int fd, bool owns_fd, std::string name = "fd",
                MemoryPool* pool = default_memory_pool());
  static Result<std::shared_ptr<FdInputStream>> Open(const std::string& path,
                                                     MemoryPool* pool = default_memory_pool());
  // Standard input, not owned.
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
