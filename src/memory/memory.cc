#include "alkaid/memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace alkaid {

namespace {
// Zero-size allocations all point here so that data() is never null.
alignas(kAlignment) uint8_t zero_size_area[kAlignment];

// No machine has this much memory; refusing it up front keeps the rounding
// and page arithmetic below from overflowing on sizes taken from input.
constexpr int64_t kLargestAllocation = int64_t{1} << 62;

Status TooLarge(int64_t size) {
  return Status::OutOfMemory("allocation of ", size, " bytes is larger than any machine's memory");
}
}  // namespace

Status SystemMemoryPool::Account(int64_t delta) {
  int64_t now = allocated_.fetch_add(delta, std::memory_order_relaxed) + delta;
  if (delta > 0 && now > limit_) {
    allocated_.fetch_sub(delta, std::memory_order_relaxed);
    return Status::OutOfMemory("allocation of ", delta, " bytes exceeds the pool limit of ",
                               limit_, " bytes");
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  if (delta > 0) total_.fetch_add(delta, std::memory_order_relaxed);
  return Status::OK();
}

namespace {

// Allocations of at least this many bytes get pages of their own from the
// kernel: those arrive zeroed, so nothing has to clear them, only the pages
// actually written are ever faulted in, and growing one (an output stream
// doubling its buffer) moves page mappings instead of copying bytes.
constexpr int64_t kMappedMin = int64_t{8} << 20;

bool IsMapped(int64_t size) {
#if defined(__linux__)
  return RoundUpToMultipleOf64(size) >= kMappedMin;
#else
  (void)size;
  return false;
#endif
}

int64_t MappedLength(int64_t size) {
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  return (RoundUpToMultipleOf64(size) + page - 1) / page * page;
}

// `size` bytes plus padding to a multiple of 64. Large blocks come from
// anonymous mappings, which are zero already; otherwise everything (`zeroed`)
// or only the padding past `size` is cleared.
uint8_t* AllocateBlock(int64_t size, bool zeroed) {
  if (IsMapped(size)) {
    void* p = ::mmap(nullptr, static_cast<size_t>(MappedLength(size)), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  const auto padded = static_cast<size_t>(RoundUpToMultipleOf64(size));
  void* p = std::aligned_alloc(kAlignment, padded);
  if (p != nullptr) {
    const size_t from = zeroed ? 0 : static_cast<size_t>(size);
    std::memset(static_cast<uint8_t*>(p) + from, 0, padded - from);
  }
  return static_cast<uint8_t*>(p);
}

void Release(uint8_t* ptr, int64_t size) {
  if (IsMapped(size)) {
    ::munmap(ptr, static_cast<size_t>(MappedLength(size)));
  } else {
    std::free(ptr);
  }
}

// Moves a mapped allocation to a new length; null when the kernel refuses,
// in which case the old mapping is untouched.
uint8_t* Remap(uint8_t* ptr, int64_t old_size, int64_t new_size) {
#if defined(__linux__)
  void* p = ::mremap(ptr, static_cast<size_t>(MappedLength(old_size)),
                     static_cast<size_t>(MappedLength(new_size)), MREMAP_MAYMOVE);
  return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
#else
  (void)ptr, (void)old_size, (void)new_size;
  return nullptr;
#endif
}

}  // namespace

// Allocate and AllocateForOverwrite differ only in whether the bytes are cleared.
Status SystemMemoryPool::AllocateImpl(int64_t size, bool zeroed, uint8_t** out) {
  if (size < 0) return Status::Invalid("negative allocation size ", size);
  if (size > kLargestAllocation) return TooLarge(size);
  if (size == 0) {
    *out = zero_size_area;
    return Status::OK();
  }
  ALKAID_RETURN_NOT_OK(Account(size));
  uint8_t* p = AllocateBlock(size, zeroed);
  if (p == nullptr) {
    allocated_.fetch_sub(size, std::memory_order_relaxed);
    return Status::OutOfMemory("failed to allocate ", size, " bytes");
  }
  count_.fetch_add(1, std::memory_order_relaxed);
  *out = p;
  return Status::OK();
}

Status SystemMemoryPool::Allocate(int64_t size, uint8_t** out) {
  return AllocateImpl(size, /*zeroed=*/true, out);
}

Status SystemMemoryPool::AllocateForOverwrite(int64_t size, uint8_t** out) {
  return AllocateImpl(size, /*zeroed=*/false, out);
}

Status SystemMemoryPool::Reallocate(int64_t old_size, int64_t new_size, uint8_t** ptr) {
  if (new_size < 0) return Status::Invalid("negative allocation size ", new_size);
  if (new_size > kLargestAllocation) return TooLarge(new_size);
  const bool has_old = old_size > 0 && *ptr != zero_size_area;
  if (has_old && new_size > 0 && IsMapped(old_size) && IsMapped(new_size)) {
    ALKAID_RETURN_NOT_OK(Account(new_size - old_size));
    uint8_t* moved = Remap(*ptr, old_size, new_size);
    if (moved != nullptr) {
      // Pages added by the remap are fresh (zero); when shrinking within the
      // last page, clear what the caller gave up so that it reads as zero
      // should the allocation grow again.
      if (new_size < old_size) {
        const int64_t keep = RoundUpToMultipleOf64(new_size);
        const int64_t end = std::min(RoundUpToMultipleOf64(old_size), MappedLength(new_size));
        if (end > keep) std::memset(moved + keep, 0, static_cast<size_t>(end - keep));
      }
      *ptr = moved;
      return Status::OK();
    }
    allocated_.fetch_sub(new_size - old_size, std::memory_order_relaxed);
  }
  // Only the bytes past the kept ones need clearing (fresh mappings are zero already):
  // clearing the whole block first doubled the cost of every growing builder.
  uint8_t* fresh = nullptr;
  ALKAID_RETURN_NOT_OK(AllocateForOverwrite(new_size, &fresh));
  const int64_t kept = has_old ? std::min(old_size, new_size) : 0;
  if (kept > 0) std::memcpy(fresh, *ptr, static_cast<size_t>(kept));
  if (new_size > kept && !IsMapped(new_size)) {
    std::memset(fresh + kept, 0, static_cast<size_t>(new_size - kept));
  }
  Free(*ptr, old_size);
  *ptr = fresh;
  return Status::OK();
}

void SystemMemoryPool::Free(uint8_t* ptr, int64_t size) {
  if (ptr == zero_size_area || size == 0) return;
  Release(ptr, size);
  allocated_.fetch_sub(size, std::memory_order_relaxed);
}

MemoryPool* default_memory_pool() {
  static SystemMemoryPool pool;
  return &pool;
}

std::shared_ptr<Buffer> Buffer::FromString(std::string bytes) {
  auto holder = std::make_shared<std::string>(std::move(bytes));
  const auto* data = reinterpret_cast<const uint8_t*>(holder->data());
  auto size = static_cast<int64_t>(holder->size());
  return std::make_shared<Buffer>(data, size, std::move(holder));
}

Result<std::shared_ptr<Buffer>> Buffer::Copy(const uint8_t* data, int64_t size, MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(auto buf, AllocateBuffer(size, pool));
  if (size > 0) std::memcpy(buf->mutable_data(), data, static_cast<size_t>(size));
  return std::shared_ptr<Buffer>(std::move(buf));
}

std::string Buffer::ToHexString() const {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(static_cast<size_t>(size_) * 2);
  for (int64_t i = 0; i < size_; ++i) {
    out.push_back(digits[data_[i] >> 4]);
    out.push_back(digits[data_[i] & 15]);
  }
  return out;
}

bool Buffer::Equals(const Buffer& other) const {
  return size_ == other.size_ && Equals(other, size_);
}

bool Buffer::Equals(const Buffer& other, int64_t nbytes) const {
  if (nbytes > size_ || nbytes > other.size_) return false;
  return data_ == other.data_ || nbytes == 0 ||
         std::memcmp(data_, other.data_, static_cast<size_t>(nbytes)) == 0;
}

std::shared_ptr<Buffer> SliceBuffer(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                    int64_t length) {
  // Clamped to the parent like array slices, so that no slice ever reaches
  // outside the parent's bytes. The slice's owner is the parent itself, which
  // in turn owns the bytes.
  const int64_t size = std::max<int64_t>(parent->size(), 0);
  offset = std::clamp<int64_t>(offset, 0, size);
  length = std::clamp<int64_t>(length, 0, size - offset);
  return std::make_shared<Buffer>(parent->data() + offset, length, parent);
}

Result<std::shared_ptr<Buffer>> SliceBufferSafe(const std::shared_ptr<Buffer>& parent,
                                                int64_t offset, int64_t length) {
  if (offset < 0 || length < 0 || offset > parent->size() || length > parent->size() - offset) {
    return Status::IndexError("slice [", offset, ", ", offset, " + ", length,
                              ") is outside a buffer of ", parent->size(), " bytes");
  }
  return SliceBuffer(parent, offset, length);
}

ResizableBuffer::~ResizableBuffer() {
  if (mutable_data_ != nullptr) pool_->Free(mutable_data_, capacity_);
}

Status ResizableBuffer::Reserve(int64_t new_capacity) {
  if (new_capacity <= capacity_ && mutable_data_ != nullptr) return Status::OK();
  if (new_capacity > kLargestAllocation) return TooLarge(new_capacity);
  int64_t padded = RoundUpToMultipleOf64(std::max<int64_t>(new_capacity, 0));
  uint8_t* ptr = mutable_data_;
  if (ptr == nullptr) {
    ALKAID_RETURN_NOT_OK(pool_->Allocate(padded, &ptr));
  } else {
    ALKAID_RETURN_NOT_OK(pool_->Reallocate(capacity_, padded, &ptr));
  }
  mutable_data_ = ptr;
  data_ = ptr;
  capacity_ = padded;
  return Status::OK();
}

Status ResizableBuffer::ResizeForOverwrite(int64_t new_size) {
  if (mutable_data_ != nullptr) return Resize(new_size);
  if (new_size < 0) return Status::Invalid("negative buffer size ", new_size);
  if (new_size > kLargestAllocation) return TooLarge(new_size);
  // The pool is asked for the padded size, so it clears nothing; the padding
  // past new_size is cleared here.
  const int64_t padded = RoundUpToMultipleOf64(new_size);
  uint8_t* ptr = nullptr;
  ALKAID_RETURN_NOT_OK(pool_->AllocateForOverwrite(padded, &ptr));
  if (padded > new_size) std::memset(ptr + new_size, 0, static_cast<size_t>(padded - new_size));
  mutable_data_ = ptr;
  data_ = ptr;
  capacity_ = padded;
  size_ = new_size;
  return Status::OK();
}

Status ResizableBuffer::Resize(int64_t new_size, bool shrink_to_fit) {
  if (new_size < 0) return Status::Invalid("negative buffer size ", new_size);
  if (new_size > capacity_ || mutable_data_ == nullptr) {
    ALKAID_RETURN_NOT_OK(Reserve(new_size));
  } else if (new_size < size_) {
    // Keep the invariant that bytes past size() are zero.
    std::memset(mutable_data_ + new_size, 0, static_cast<size_t>(size_ - new_size));
    if (shrink_to_fit && RoundUpToMultipleOf64(new_size) < capacity_) {
      uint8_t* ptr = mutable_data_;
      int64_t padded = RoundUpToMultipleOf64(new_size);
      ALKAID_RETURN_NOT_OK(pool_->Reallocate(capacity_, padded, &ptr));
      mutable_data_ = ptr;
      data_ = ptr;
      capacity_ = padded;
    }
  }
  size_ = new_size;
  return Status::OK();
}

Result<std::shared_ptr<ResizableBuffer>> AllocateBuffer(int64_t size, MemoryPool* pool) {
  auto buf = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(buf->Resize(size));
  return buf;
}

Result<std::shared_ptr<ResizableBuffer>> AllocateBitmap(int64_t length, bool value,
                                                       MemoryPool* pool) {
  if (length < 0) return Status::Invalid("negative bitmap length ", length);
  const int64_t nbytes = length / 8 + (length % 8 != 0 ? 1 : 0);  // no overflow near INT64_MAX
  ALKAID_ASSIGN_OR_RAISE(auto buf, AllocateBuffer(nbytes, pool));
  if (value && length > 0) {
    std::memset(buf->mutable_data(), 0xFF, static_cast<size_t>(nbytes));
    // Trailing bits past `length` stay clear, as the format asks of padding.
    if (length % 8 != 0) buf->mutable_data()[nbytes - 1] = static_cast<uint8_t>((1u << (length % 8)) - 1);
  }
  return buf;
}

}  // namespace alkaid
