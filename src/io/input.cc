#include "alkaid/io/input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

// Linux 5.14; older headers lack the name (an older kernel refuses it with
// EINVAL, which only loses the head start).
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

namespace alkaid::io {

namespace {

Status ErrnoStatus(const std::string& what, const std::string& path, int err) {
  return Status::IOError(what, " '", path, "': ", std::strerror(err), " (errno ", err, ")");
}

Status CheckReadArgs(int64_t offset, int64_t nbytes) {
  if (offset < 0) return Status::Invalid("read at negative offset ", offset);
  if (nbytes < 0) return Status::Invalid("read of negative length ", nbytes);
  return Status::OK();
}

// pread until `nbytes` arrived or the file ended; returns the count read.
Result<int64_t> PreadFully(int fd, const std::string& path, int64_t offset, int64_t nbytes,
                           uint8_t* out) {
  int64_t done = 0;
  while (done < nbytes) {
    // Large single reads are split so each call stays within ssize_t limits.
    size_t chunk = static_cast<size_t>(std::min<int64_t>(nbytes - done, int64_t{1} << 30));
    ssize_t n = ::pread(fd, out + done, chunk, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("failed to read", path, errno);
    }
    if (n == 0) break;
    done += n;
  }
  return done;
}

// read(2) until `nbytes` arrived or the input ended (pipes deliver in pieces).
Result<int64_t> ReadFully(int fd, const std::string& name, int64_t nbytes, uint8_t* out) {
  int64_t done = 0;
  while (done < nbytes) {
    size_t chunk = static_cast<size_t>(std::min<int64_t>(nbytes - done, int64_t{1} << 30));
    ssize_t n = ::read(fd, out + done, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("failed to read", name, errno);
    }
    if (n == 0) break;
    done += n;
  }
  return done;
}

Result<int64_t> FileSize(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus("failed to stat", path, errno);
  return static_cast<int64_t>(st.st_size);
}

Result<int> OpenReadOnly(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return ErrnoStatus("failed to open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return ErrnoStatus("failed to open", path, EISDIR);
  }
  return fd;
}

// Owns a read-only mapping; destroyed when the last buffer pointing into it goes.
struct Mapping {
  void* addr = nullptr;
  size_t length = 0;
  ~Mapping() {
    if (addr != nullptr) ::munmap(addr, length);
  }
};

// Page-aligned [begin, end) of a range clamped to a mapping of `size` bytes;
// false when nothing of it is inside.
bool PageSpan(const ReadRange& r, int64_t size, int64_t page, int64_t* begin, int64_t* end) {
  if (r.length <= 0 || r.offset < 0 || r.offset >= size) return false;
  const int64_t last = r.length > size - r.offset ? size : r.offset + r.length;
  *begin = r.offset / page * page;
  *end = last;
  return true;
}

int64_t PageSize() {
  static const int64_t page = [] {
    long p = ::sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<int64_t>(p) : int64_t{4096};
  }();
  return page;
}

// Maps pages of a mapping ahead of its reader, on a thread of its own:
// while the reader validates the range it was just given, the page tables of
// the range likely read next are filled here, so its page faults are gone by
// the time the reader gets there. Only the most recent request is kept (a
// reader that moved on makes older ones moot), and it works in steps so that
// a newer request soon replaces the one in progress.
class Populator {
 public:
  static Populator& Get() {
    // Never destroyed: the thread may still wait on it during exit.
    static Populator* populator = new Populator();
    return *populator;
  }

  // `region` keeps the mapping alive until the range has been populated. A
  // request for the mapping already pending replaces its start.
  void Request(BufferPtr region, int64_t begin, int64_t end) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (pending_.region != nullptr && pending_.region->data() == region->data()) {
        // The reader's newest position wins; what lies before it is read.
        pending_.begin = begin;
        pending_.end = std::max(pending_.end, end);
      } else {
        pending_ = Range{std::move(region), begin, end};
      }
      if (!started_) {
        started_ = true;
        std::thread([this] { Loop(); }).detach();
      }
    }
    wake_.notify_one();
  }

 private:
  struct Range {
    BufferPtr region;
    int64_t begin = 0;
    int64_t end = 0;
  };
  static constexpr int64_t kStep = int64_t{2} << 20;

  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [this] { return pending_.region != nullptr; });
      Range r = std::move(pending_);
      pending_ = Range{};
      for (int64_t at = r.begin; at < r.end; at += kStep) {
        if (pending_.region != nullptr) {
          // A request for another mapping replaces this one (its reader
          // moved on); a newer one for this mapping starts where its reader
          // now is, skipping what the reader already went through.
          if (pending_.region->data() != r.region->data()) break;
          at = std::max(at, pending_.begin / kStep * kStep);
          r.end = std::max(r.end, pending_.end);
          pending_ = Range{};
          if (at >= r.end) break;
        }
        lock.unlock();
        uint8_t* base = const_cast<uint8_t*>(r.region->data());
        // A hint: failure (old kernel, or pages the file no longer has)
        // changes nothing about what reads return.
        (void)::madvise(base + at, static_cast<size_t>(std::min(kStep, r.end - at)),
                        MADV_POPULATE_READ);
        lock.lock();
      }
      // The mapping may be unmapped here if this held its last reference.
      lock.unlock();
      r.region.reset();
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  Range pending_;
  bool started_ = false;
};

// Reads at least this large have the range after them mapped ahead, at least
// kPopulateAheadWindow bytes (and four times the read) beyond their end.
constexpr int64_t kPopulateAheadMin = int64_t{256} << 10;
constexpr int64_t kPopulateAheadWindow = int64_t{8} << 20;

// The sequential reads of the random-access files: a positioned read at the cursor, after which
// the cursor moves past what was read. `out` is either nothing (a buffer comes back) or the
// caller's destination (a count comes back).
template <typename File, typename... Out>
auto ReadAtCursor(File* file, int64_t* position, int64_t nbytes, Out... out)
    -> decltype(file->ReadAt(*position, nbytes, out...)) {
  auto got = file->ReadAt(*position, nbytes, out...);
  if (got.ok()) {
    if constexpr (sizeof...(Out) == 0) {
      *position += (*got)->size();
    } else {
      *position += *got;
    }
  }
  return got;
}

}  // namespace

// ---------------------------------------------------------------------------
// RandomAccessFile hints: no-ops unless a source can use them.

Status RandomAccessFile::WillNeed(std::span<const ReadRange>) { return Status::OK(); }
Status RandomAccessFile::Advise(AccessPattern) { return Status::OK(); }

// ---------------------------------------------------------------------------
// BufferReader

BufferReader::BufferReader(BufferPtr buffer) : buffer_(std::move(buffer)) {
  if (!buffer_) buffer_ = std::make_shared<Buffer>(nullptr, 0);
}

BufferReader::BufferReader(const uint8_t* data, int64_t size)
    : buffer_(std::make_shared<Buffer>(data, size)) {}

Status BufferReader::CheckOpen() const {
  if (closed_) return Status::Invalid("read from a closed BufferReader");
  return Status::OK();
}

Result<int64_t> BufferReader::ClampedLength(int64_t offset, int64_t nbytes) const {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  ALKAID_RETURN_NOT_OK(CheckReadArgs(offset, nbytes));
  if (offset > buffer_->size()) return int64_t{0};
  return std::min(nbytes, buffer_->size() - offset);
}

Result<BufferPtr> BufferReader::Read(int64_t nbytes) {
  return ReadAtCursor(this, &position_, nbytes);
}

Result<int64_t> BufferReader::Read(int64_t nbytes, void* out) {
  return ReadAtCursor(this, &position_, nbytes, out);
}

Result<int64_t> BufferReader::Tell() const {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  return position_;
}

Status BufferReader::Close() {
  closed_ = true;
  return Status::OK();
}

Result<int64_t> BufferReader::GetSize() {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  return buffer_->size();
}

Result<BufferPtr> BufferReader::ReadAt(int64_t offset, int64_t nbytes) {
  ALKAID_ASSIGN_OR_RAISE(int64_t n, ClampedLength(offset, nbytes));
  if (n == buffer_->size()) return buffer_;
  return SliceBuffer(buffer_, offset, n);
}

Result<int64_t> BufferReader::ReadAt(int64_t offset, int64_t nbytes, void* out) {
  ALKAID_ASSIGN_OR_RAISE(int64_t n, ClampedLength(offset, nbytes));
  if (n > 0) std::memcpy(out, buffer_->data() + offset, static_cast<size_t>(n));
  return n;
}

Status BufferReader::Seek(int64_t position) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  if (position < 0 || position > buffer_->size()) {
    return Status::IndexError("seek to ", position, " outside a buffer of ", buffer_->size(),
                              " bytes");
  }
  position_ = position;
  return Status::OK();
}

// ---------------------------------------------------------------------------
// ReadableFile

Result<std::shared_ptr<ReadableFile>> ReadableFile::Open(const std::string& path,
                                                         MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(int fd, OpenReadOnly(path));
  return std::shared_ptr<ReadableFile>(new ReadableFile(fd, path, pool));
}

ReadableFile::~ReadableFile() { (void)Close(); }

Status ReadableFile::CheckOpen() const {
  if (fd_ < 0) return Status::Invalid("read from closed file '", path_, "'");
  return Status::OK();
}

Status ReadableFile::Close() {
  if (fd_ < 0) return Status::OK();
  int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) return ErrnoStatus("failed to close", path_, errno);
  return Status::OK();
}

Result<int64_t> ReadableFile::GetSize() {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  return FileSize(fd_, path_);
}

Result<int64_t> ReadableFile::ReadAt(int64_t offset, int64_t nbytes, void* out) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  ALKAID_RETURN_NOT_OK(CheckReadArgs(offset, nbytes));
  return PreadFully(fd_, path_, offset, nbytes, static_cast<uint8_t*>(out));
}

Result<BufferPtr> ReadableFile::ReadAt(int64_t offset, int64_t nbytes) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  ALKAID_RETURN_NOT_OK(CheckReadArgs(offset, nbytes));
  // Never allocate beyond what the file holds: lengths may come from untrusted
  // metadata.
  ALKAID_ASSIGN_OR_RAISE(int64_t size, FileSize(fd_, path_));
  int64_t wanted = offset >= size ? 0 : std::min(nbytes, size - offset);
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(wanted, pool_));
  ALKAID_ASSIGN_OR_RAISE(int64_t n, PreadFully(fd_, path_, offset, wanted, buffer->mutable_data()));
  if (n < wanted) ALKAID_RETURN_NOT_OK(buffer->Resize(n));
  return BufferPtr(std::move(buffer));
}

Result<BufferPtr> ReadableFile::Read(int64_t nbytes) {
  return ReadAtCursor(this, &position_, nbytes);
}

Result<int64_t> ReadableFile::Read(int64_t nbytes, void* out) {
  return ReadAtCursor(this, &position_, nbytes, out);
}

Result<int64_t> ReadableFile::Tell() const {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  return position_;
}

Status ReadableFile::Seek(int64_t position) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  if (position < 0) return Status::Invalid("seek to negative position ", position, " in '", path_, "'");
  position_ = position;
  return Status::OK();
}

Status ReadableFile::WillNeed(std::span<const ReadRange> ranges) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  for (const ReadRange& r : ranges) {
    if (r.length <= 0 || r.offset < 0) continue;
    // Advice only: a failure changes nothing about what reads return.
    (void)::posix_fadvise(fd_, static_cast<off_t>(r.offset), static_cast<off_t>(r.length),
                          POSIX_FADV_WILLNEED);
  }
  return Status::OK();
}

Status ReadableFile::Advise(AccessPattern pattern) {
  ALKAID_RETURN_NOT_OK(CheckOpen());
  int advice = pattern == AccessPattern::kRandom       ? POSIX_FADV_RANDOM
               : pattern == AccessPattern::kSequential ? POSIX_FADV_SEQUENTIAL
                                                       : POSIX_FADV_NORMAL;
  (void)::posix_fadvise(fd_, 0, 0, advice);
  return Status::OK();
}

// ---------------------------------------------------------------------------
// MemoryMappedFile

Result<std::shared_ptr<MemoryMappedFile>> MemoryMappedFile::Open(const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(int fd, OpenReadOnly(path));
  Result<int64_t> size = FileSize(fd, path);
  if (!size.ok()) {
    ::close(fd);
    return size.status();
  }
  BufferPtr region;
  if (*size == 0) {
    // mmap refuses empty ranges; an empty file is an empty buffer.
    region = std::make_shared<Buffer>(nullptr, 0);
  } else {
    void* addr = ::mmap(nullptr, static_cast<size_t>(*size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return ErrnoStatus("failed to memory-map", path, err);
    }
    auto mapping = std::make_shared<Mapping>();
    mapping->addr = addr;
    mapping->length = static_cast<size_t>(*size);
    region = std::make_shared<Buffer>(static_cast<const uint8_t*>(addr), *size, std::move(mapping));
  }
  // The mapping stays valid after the descriptor is closed.
  ::close(fd);
  return std::shared_ptr<MemoryMappedFile>(new MemoryMappedFile(std::move(region), path));
}

MemoryMappedFile::~MemoryMappedFile() = default;

Result<BufferPtr> MemoryMappedFile::Read(int64_t nbytes) {
  ALKAID_ASSIGN_OR_RAISE(int64_t at, reader_.Tell());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr out, reader_.Read(nbytes));
  PopulateAfter(at, out->size());
  return out;
}
Result<int64_t> MemoryMappedFile::Read(int64_t nbytes, void* out) { return reader_.Read(nbytes, out); }
Result<int64_t> MemoryMappedFile::Tell() const { return reader_.Tell(); }

Status MemoryMappedFile::Close() {
  // Buffers already handed out keep the mapping alive through their owners.
  closed_ = true;
  return reader_.Close();
}

Result<int64_t> MemoryMappedFile::GetSize() { return reader_.GetSize(); }
Result<BufferPtr> MemoryMappedFile::ReadAt(int64_t offset, int64_t nbytes) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr out, reader_.ReadAt(offset, nbytes));
  PopulateAfter(offset, out->size());
  return out;
}

void MemoryMappedFile::PopulateAfter(int64_t offset, int64_t nbytes) {
  // A projection reads scattered ranges (kRandom): guessing would map
  // columns it leaves out.
  if (nbytes < kPopulateAheadMin || !populate_ahead_ ||
      random_access_.load(std::memory_order_relaxed)) {
    return;
  }
  const int64_t size = region_->size();
  const int64_t page = PageSize();
  // The ranges after this one: the next batches' bodies when a file reader
  // reads batches in order (their metadata lies in between). The populating
  // thread maps pages about as fast as the reader's faults would, so the two
  // share the work: it skips ahead to the newest request's start whenever
  // the reader has overtaken it.
  const int64_t window = std::max(kPopulateAheadWindow, 4 * nbytes);
  const int64_t begin = (offset + nbytes) / page * page;
  const int64_t end = std::min(size, offset + nbytes + window);
  if (begin >= end) return;
  Populator::Get().Request(region_, begin, end);
}
Result<int64_t> MemoryMappedFile::ReadAt(int64_t offset, int64_t nbytes, void* out) {
  return reader_.ReadAt(offset, nbytes, out);
}
Status MemoryMappedFile::Seek(int64_t position) { return reader_.Seek(position); }

Status MemoryMappedFile::WillNeed(std::span<const ReadRange> ranges) {
  if (closed_) return Status::Invalid("read from closed file '", path_, "'");
  const int64_t size = region_->size();
  if (size == 0) return Status::OK();
  uint8_t* base = const_cast<uint8_t*>(region_->data());
  const int64_t page = PageSize();
  for (const ReadRange& r : ranges) {
    int64_t begin, end;
    if (!PageSpan(r, size, page, &begin, &end)) continue;
    // Advice only: a failure changes nothing about what reads return.
    (void)::madvise(base + begin, static_cast<size_t>(end - begin), MADV_WILLNEED);
  }
  return Status::OK();
}

Status MemoryMappedFile::Advise(AccessPattern pattern) {
  if (closed_) return Status::Invalid("read from closed file '", path_, "'");
  if (region_->size() == 0) return Status::OK();
  random_access_.store(pattern == AccessPattern::kRandom, std::memory_order_relaxed);
  int advice = pattern == AccessPattern::kRandom       ? MADV_RANDOM
               : pattern == AccessPattern::kSequential ? MADV_SEQUENTIAL
                                                       : MADV_NORMAL;
  (void)::madvise(const_cast<uint8_t*>(region_->data()), static_cast<size_t>(region_->size()),
                  advice);
  return Status::OK();
}

// ---------------------------------------------------------------------------
// FdInputStream

FdInputStream::FdInputStream(int fd, bool owns_fd, std::string name, MemoryPool* pool)
    : fd_(fd), owns_fd_(owns_fd), name_(std::move(name)), pool_(pool) {}

Result<std::shared_ptr<FdInputStream>> FdInputStream::Open(const std::string& path,
                                                           MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(int fd, OpenReadOnly(path));
  return std::make_shared<FdInputStream>(fd, true, path, pool);
}

std::shared_ptr<FdInputStream> FdInputStream::Stdin() {
  return std::make_shared<FdInputStream>(STDIN_FILENO, false, "<stdin>");
}

FdInputStream::~FdInputStream() { (void)Close(); }

Status FdInputStream::Close() {
  if (fd_ < 0) return Status::OK();
  int fd = fd_;
  fd_ = -1;
  if (owns_fd_ && ::close(fd) != 0) return ErrnoStatus("failed to close", name_, errno);
  return Status::OK();
}

Result<int64_t> FdInputStream::Read(int64_t nbytes, void* out) {
  if (fd_ < 0) return Status::Invalid("read from closed stream '", name_, "'");
  ALKAID_RETURN_NOT_OK(CheckReadArgs(0, nbytes));
  ALKAID_ASSIGN_OR_RAISE(int64_t n, ReadFully(fd_, name_, nbytes, static_cast<uint8_t*>(out)));
  position_ += n;
  return n;
}

Result<BufferPtr> FdInputStream::Read(int64_t nbytes) {
  if (fd_ < 0) return Status::Invalid("read from closed stream '", name_, "'");
  ALKAID_RETURN_NOT_OK(CheckReadArgs(0, nbytes));
  // The size of a pipe is unknown, and `nbytes` may come from untrusted
  // metadata: grow the buffer as bytes actually arrive instead of trusting it.
  constexpr int64_t kFirstChunk = int64_t{1} << 20;
  ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(std::min(nbytes, kFirstChunk), pool_));
  int64_t done = 0;
  while (done < nbytes) {
    if (done == buffer->size()) {
      int64_t grown = std::min(nbytes, std::max<int64_t>(buffer->size() * 2, kFirstChunk));
      ALKAID_RETURN_NOT_OK(buffer->Resize(grown));
    }
    ALKAID_ASSIGN_OR_RAISE(int64_t n, ReadFully(fd_, name_, buffer->size() - done,
                                                buffer->mutable_data() + done));
    done += n;
    if (done < buffer->size()) break;  // end of input
  }
  if (done < buffer->size()) ALKAID_RETURN_NOT_OK(buffer->Resize(done));
  position_ += done;
  return BufferPtr(std::move(buffer));
}

}  // namespace alkaid::io
