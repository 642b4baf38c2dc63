// Output stream implementations.
#include "alkaid/io/output.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Linux 5.14; older headers lack the name (an older kernel refuses it with
// EINVAL, and the pages are then faulted in one at a time as before).
#if defined(__linux__) && !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23
#endif

namespace alkaid::io {

namespace {

// Pieces at least this large are copied with stores that bypass the cache:
// a record batch body streamed into memory is not read back soon, and
// ordinary stores would first read every destination line into the cache
// (and evict the data being copied). glibc's memcpy makes the same switch
// only above a threshold derived from the cache size (hundreds of megabytes
// on the machines we build on), far above one IPC buffer.
constexpr int64_t kStreamingCopyMin = 256 * 1024;

#if defined(__SSE2__)
void StreamingCopy(uint8_t* dst, const uint8_t* src, size_t n) {
  // Bring the destination to a 16-byte boundary, which streaming stores need.
  const size_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
  std::memcpy(dst, src, head);
  dst += head, src += head, n -= head;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const auto* from = reinterpret_cast<const __m128i*>(src + i);
    auto* to = reinterpret_cast<__m128i*>(dst + i);
    const __m128i a = _mm_loadu_si128(from), b = _mm_loadu_si128(from + 1);
    const __m128i c = _mm_loadu_si128(from + 2), d = _mm_loadu_si128(from + 3);
    _mm_stream_si128(to, a);
    _mm_stream_si128(to + 1, b);
    _mm_stream_si128(to + 2, c);
    _mm_stream_si128(to + 3, d);
  }
  std::memcpy(dst + i, src + i, n - i);
}
#endif

// Copies a gather list into `dst`, which has room for all of it.
void CopySlices(uint8_t* dst, std::span<const IoSlice> slices) {
  bool streamed = false;
  for (const IoSlice& s : slices) {
    if (s.size <= 0) continue;
#if defined(__SSE2__)
    if (s.size >= kStreamingCopyMin) {
      StreamingCopy(dst, static_cast<const uint8_t*>(s.data), static_cast<size_t>(s.size));
      streamed = true;
      dst += s.size;
      continue;
    }
#endif
    std::memcpy(dst, s.data, static_cast<size_t>(s.size));
    dst += s.size;
  }
#if defined(__SSE2__)
  // Streaming stores are weakly ordered: make them visible before the
  // caller hands the buffer to anyone else.
  if (streamed) _mm_sfence();
#else
  (void)streamed;
#endif
}

int64_t TotalSize(std::span<const IoSlice> slices) {
  int64_t total = 0;
  for (const IoSlice& s : slices) {
    if (s.size > 0) total += s.size;  // empty pieces are skipped, as CopySlices does
  }
  return total;
}

Status CheckWritable(bool closed, int64_t nbytes) {
  if (closed) return Status::IOError("write to a closed output stream");
  if (nbytes < 0) return Status::Invalid("write of a negative byte count (", nbytes, ")");
  return Status::OK();
}

// Write(data, nbytes) of the in-memory streams: one piece through their
// WriteV, which skips negative sizes as empty pieces, so those are refused here.
template <typename Stream>
Status WriteOne(Stream* stream, bool closed, const void* data, int64_t nbytes) {
  ALKAID_RETURN_NOT_OK(CheckWritable(closed, nbytes));
  const IoSlice piece{data, nbytes};
  return stream->WriteV({&piece, 1});
}

Status ErrnoStatus(const char* what, const std::string& path) {
  return Status::IOError(what, " '", path, "' failed: ", std::strerror(errno));
}

}  // namespace

// ---------------------------------------------------------------------------
// OutputStream defaults

Status OutputStream::Write(const BufferPtr& buffer) {
  if (buffer == nullptr) return Status::Invalid("write of a null buffer");
  return Write(buffer->data(), buffer->size());
}

Status OutputStream::WriteV(std::span<const IoSlice> slices) {
  for (const IoSlice& s : slices) {
    if (s.size > 0) ALKAID_RETURN_NOT_OK(Write(s.data, s.size));
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// BufferOutputStream

BufferOutputStream::BufferOutputStream(MemoryPool* pool)
    : pool_(pool), buffer_(std::make_shared<ResizableBuffer>(pool)) {}

Result<std::unique_ptr<BufferOutputStream>> BufferOutputStream::Create(int64_t initial_capacity,
                                                                       MemoryPool* pool) {
  auto stream = std::make_unique<BufferOutputStream>(pool);
  ALKAID_RETURN_NOT_OK(stream->Reset(initial_capacity));
  return stream;
}

Status BufferOutputStream::Reset(int64_t initial_capacity) {
  buffer_ = std::make_shared<ResizableBuffer>(pool_);
  data_ = nullptr;
  position_ = 0;
  capacity_ = 0;
  populated_ = 0;
  closed_ = false;
  if (initial_capacity > 0) ALKAID_RETURN_NOT_OK(Grow(initial_capacity));
  return Status::OK();
}

Status BufferOutputStream::Grow(int64_t min_capacity) {
  // Doubling keeps appends amortized O(1).
  int64_t target = std::max<int64_t>(min_capacity, capacity_ * 2);
  ALKAID_RETURN_NOT_OK(buffer_->Reserve(target));
  data_ = buffer_->mutable_data();
  capacity_ = buffer_->capacity();
  return Status::OK();
}

namespace {
// Large allocations are page-aligned mappings of fresh pages (see
// memory.cc); writing into one faults its pages in one at a time, which on
// the virtual machines we measure on costs several times the copy itself.
// Asking the kernel to fault in a window ahead in one call costs about a
// third less per page. At most this many bytes past the write position are
// asked for; Finish gives back the ones never written.
constexpr int64_t kPopulateMinCapacity = int64_t{8} << 20;
constexpr int64_t kPopulateWindow = int64_t{4} << 20;
}  // namespace

void BufferOutputStream::PopulateAhead(int64_t end) {
#if defined(__linux__)
  if (end <= populated_ || capacity_ < kPopulateMinCapacity) return;
  // Only a SystemMemoryPool's large allocations are known to be private
  // anonymous pages, which Finish may give back (they read as zero again).
  if (dynamic_cast<SystemMemoryPool*>(pool_) == nullptr) return;
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  if (page <= 0 || reinterpret_cast<uintptr_t>(data_) % static_cast<uintptr_t>(page) != 0) return;
  // Pages below the write position are already in (written).
  const int64_t from = std::max(populated_, position_ / page * page);
  const int64_t to = std::min(capacity_ / page * page, (end + kPopulateWindow) / page * page);
  // A hint: a refusal leaves the pages to be faulted in by the copy.
  if (to > from) (void)::madvise(data_ + from, static_cast<size_t>(to - from), MADV_POPULATE_WRITE);
  populated_ = std::max(populated_, to);
#else
  (void)end;
#endif
}

Status BufferOutputStream::Reserve(int64_t additional) {
  if (position_ + additional > capacity_) return Grow(position_ + additional);
  return Status::OK();
}

Status BufferOutputStream::Write(const void* data, int64_t nbytes) {
  return WriteOne(this, closed_, data, nbytes);
}

Status BufferOutputStream::WriteV(std::span<const IoSlice> slices) {
  const int64_t total = TotalSize(slices);
  ALKAID_RETURN_NOT_OK(CheckWritable(closed_, total));
  if (position_ + total > capacity_) ALKAID_RETURN_NOT_OK(Grow(position_ + total));
  if (position_ + total > populated_) PopulateAhead(position_ + total);
  CopySlices(data_ + position_, slices);
  position_ += total;
  return Status::OK();
}

Status BufferOutputStream::Close() {
  closed_ = true;
  return Status::OK();
}

Result<BufferPtr> BufferOutputStream::Finish() {
  if (buffer_ == nullptr) return Status::Invalid("BufferOutputStream was already finished");
  ALKAID_RETURN_NOT_OK(buffer_->Resize(position_, /*shrink_to_fit=*/false));
#if defined(__linux__)
  if (populated_ > 0) {
    // Pages faulted in ahead but never written: still zero, so dropping them
    // changes no byte (they read as zero again).
    static const int64_t page = ::sysconf(_SC_PAGESIZE);
    const int64_t keep = (position_ + page - 1) / page * page;
    // Where the system backs anonymous memory with transparent huge pages
    // (THP mode "always"), populating brought in whole 2 MiB pages (aligned
    // in the address space): give back up to the end of the last one.
    constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
    const uintptr_t last = (reinterpret_cast<uintptr_t>(data_ + populated_) + kHugePage - 1) & ~(kHugePage - 1);
    const int64_t end = std::min(capacity_ / page * page,
                                 static_cast<int64_t>(last - reinterpret_cast<uintptr_t>(data_)));
    if (end > keep) {
      (void)::madvise(data_ + keep, static_cast<size_t>(end - keep), MADV_DONTNEED);
    }
  }
#endif
  BufferPtr out = std::move(buffer_);
  buffer_ = nullptr;
  data_ = nullptr;
  capacity_ = 0;
  populated_ = 0;
  closed_ = true;
  return out;
}

// ---------------------------------------------------------------------------
// FixedSizeBufferWriter

FixedSizeBufferWriter::FixedSizeBufferWriter(BufferPtr buffer)
    : buffer_(std::move(buffer)),
      data_(buffer_ ? buffer_->mutable_data() : nullptr),
      size_(buffer_ && buffer_->is_mutable() ? buffer_->size() : 0) {}

Status FixedSizeBufferWriter::Write(const void* data, int64_t nbytes) {
  return WriteOne(this, closed_, data, nbytes);
}

Status FixedSizeBufferWriter::WriteV(std::span<const IoSlice> slices) {
  const int64_t total = TotalSize(slices);
  ALKAID_RETURN_NOT_OK(CheckWritable(closed_, total));
  if (total > size_ - position_) {
    return Status::IOError("write of ", total, " bytes at position ", position_,
                           " overflows the fixed buffer of ", size_, " bytes");
  }
  CopySlices(data_ + position_, slices);
  position_ += total;
  return Status::OK();
}

Status FixedSizeBufferWriter::Seek(int64_t position) {
  if (position < 0 || position > size_) {
    return Status::IndexError("seek to ", position, " outside the fixed buffer of ", size_,
                              " bytes");
  }
  position_ = position;
  return Status::OK();
}

// ---------------------------------------------------------------------------
// FileOutputStream

namespace {

// The stretch the page cache keeps in one large folio when a write covers it
// whole and starts on its boundary.
constexpr int64_t kAlignedStretch = int64_t{2} << 20;

bool IsRegularFile(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

FileOutputStream::FileOutputStream(int fd, bool owns_fd, int64_t position, std::string path,
                                   bool aligned)
    : fd_(fd),
      owns_fd_(owns_fd),
      position_(position),
      path_(std::move(path)),
      aligned_(aligned && IsRegularFile(fd)) {}

FileOutputStream::~FileOutputStream() {
  if (fd_ < 0) return;
  (void)Flush();  // best effort: Close() is where errors are reported
  if (owns_fd_) ::close(fd_);
}

Result<std::unique_ptr<FileOutputStream>> FileOutputStream::Open(const std::string& path,
                                                                 bool append, bool aligned_writes) {
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
  int fd;
  do {
    fd = ::open(path.c_str(), flags, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus("opening", path);
  int64_t position = 0;
  if (append) {
    off_t end = ::lseek(fd, 0, SEEK_END);
    if (end < 0) {
      Status st = ErrnoStatus("seeking in", path);
      ::close(fd);
      return st;
    }
    position = static_cast<int64_t>(end);
  }
  return std::unique_ptr<FileOutputStream>(
      new FileOutputStream(fd, true, position, path, aligned_writes));
}

Result<std::unique_ptr<FileOutputStream>> FileOutputStream::FromDescriptor(int fd, bool owns_fd,
                                                                           bool aligned_writes) {
  if (fd < 0) return Status::Invalid("invalid file descriptor ", fd);
  off_t pos = ::lseek(fd, 0, SEEK_CUR);
  // Pipes and sockets cannot seek; count from zero for them.
  int64_t position = pos < 0 ? 0 : static_cast<int64_t>(pos);
  return std::unique_ptr<FileOutputStream>(new FileOutputStream(
      fd, owns_fd, position, "fd " + std::to_string(fd), aligned_writes && pos >= 0));
}

Status FileOutputStream::Write(const void* data, int64_t nbytes) {
  ALKAID_RETURN_NOT_OK(CheckWritable(fd_ < 0, nbytes));
  const IoSlice slice{data, nbytes};
  return WriteV(std::span<const IoSlice>(&slice, 1));
}

Status FileOutputStream::WriteV(std::span<const IoSlice> slices) {
  ALKAID_RETURN_NOT_OK(CheckWritable(fd_ < 0, 0));
  int64_t total = 0;
  for (const IoSlice& s : slices) total += s.size;
  if (!aligned_) {
    ALKAID_RETURN_NOT_OK(WriteAll(slices));
    position_ += total;
    return Status::OK();
  }
  // The held bytes start at position_ - held_size_ and end before the next
  // boundary. Write them and the new bytes up to the last boundary the new
  // bytes reach, in one call; hold back the rest.
  const int64_t end = position_ + total;
  const int64_t boundary = end / kAlignedStretch * kAlignedStretch;
  int64_t to_write = boundary - position_;  // of the new bytes; <= 0: none
  if (to_write > 0) {
    std::vector<IoSlice> parts;
    parts.reserve(slices.size() + 1);
    if (held_size_ > 0) parts.push_back({held_.get(), held_size_});
    int64_t left = to_write;
    for (const IoSlice& s : slices) {
      if (left == 0) break;
      const int64_t take = std::min(left, s.size);
      parts.push_back({s.data, take});
      left -= take;
    }
    ALKAID_RETURN_NOT_OK(WriteAll(parts));
    held_size_ = 0;
  } else {
    to_write = 0;
  }
  // Hold back the bytes past `boundary` (fewer than kAlignedStretch).
  if (end > position_ + to_write) {
    if (!held_) held_ = std::make_unique_for_overwrite<uint8_t[]>(kAlignedStretch);
    int64_t skip = to_write;
    for (const IoSlice& s : slices) {
      if (skip >= s.size) {
        skip -= s.size;
        continue;
      }
      const int64_t n = s.size - skip;
      std::memcpy(held_.get() + held_size_, static_cast<const uint8_t*>(s.data) + skip,
                  static_cast<size_t>(n));
      held_size_ += n;
      skip = 0;
    }
  }
  position_ = end;
  return Status::OK();
}

// Writes every byte of `slices`: iovecs in chunks of IOV_MAX, empty slices
// skipped, resuming mid-slice after a partial write.
Status FileOutputStream::WriteAll(std::span<const IoSlice> slices) {
  constexpr size_t kMaxIov = IOV_MAX < 1024 ? IOV_MAX : 1024;
  iovec iov[kMaxIov];
  size_t next = 0;          // next slice to queue
  int64_t next_offset = 0;  // bytes of slices[next] already written
  while (true) {
    size_t count = 0;
    size_t scan = next;
    int64_t scan_offset = next_offset;
    while (scan < slices.size() && count < kMaxIov) {
      const IoSlice& s = slices[scan];
      if (s.size > scan_offset) {
        // Linux caps one call at about 2 GiB; a larger slice goes in pieces.
        const int64_t len = std::min<int64_t>(s.size - scan_offset, int64_t{1} << 30);
        iov[count].iov_base =
            const_cast<uint8_t*>(static_cast<const uint8_t*>(s.data) + scan_offset);
        iov[count].iov_len = static_cast<size_t>(len);
        ++count;
        if (len < s.size - scan_offset) break;
      }
      ++scan;
      scan_offset = 0;
    }
    if (count == 0) return Status::OK();
    ssize_t n = ::writev(fd_, iov, static_cast<int>(count));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("writing to", path_);
    }
    if (n == 0) return Status::IOError("writing to '", path_, "' made no progress");
    // Advance (next, next_offset) by n bytes.
    int64_t remaining = n;
    while (remaining > 0 && next < slices.size()) {
      int64_t left = slices[next].size - next_offset;
      if (left <= 0) {
        ++next;
        next_offset = 0;
        continue;
      }
      if (remaining >= left) {
        remaining -= left;
        ++next;
        next_offset = 0;
      } else {
        next_offset += remaining;
        remaining = 0;
      }
    }
  }
}

Result<int64_t> FileOutputStream::Tell() const {
  if (fd_ < 0) return Status::IOError("Tell() on a closed file '", path_, "'");
  return position_;
}

Status FileOutputStream::Flush() {
  if (fd_ < 0) return Status::IOError("flush of a closed file '", path_, "'");
  if (held_size_ == 0) return Status::OK();
  const IoSlice held{held_.get(), held_size_};
  ALKAID_RETURN_NOT_OK(WriteAll(std::span<const IoSlice>(&held, 1)));
  held_size_ = 0;
  return Status::OK();
}

Status FileOutputStream::Close() {
  if (fd_ < 0) return Status::OK();
  Status flushed = Flush();
  if (!flushed.ok()) {
    if (owns_fd_) ::close(fd_);
    fd_ = -1;
    return flushed;
  }
  int fd = fd_;
  fd_ = -1;
  if (owns_fd_ && ::close(fd) != 0) return ErrnoStatus("closing", path_);
  return Status::OK();
}

// ---------------------------------------------------------------------------
// MockOutputStream

Status MockOutputStream::Write(const void* data, int64_t nbytes) {
  ALKAID_RETURN_NOT_OK(CheckWritable(closed_, nbytes));
  position_ += nbytes;
  return Status::OK();
}

Status MockOutputStream::WriteV(std::span<const IoSlice> slices) {
  const int64_t total = TotalSize(slices);
  ALKAID_RETURN_NOT_OK(CheckWritable(closed_, total));
  position_ += total;
  return Status::OK();
}

}  // namespace alkaid::io
