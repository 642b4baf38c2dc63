// ArrayData: the one physical representation of an array of any type.
//
// Its fields map one-to-one onto the Arrow C Data Interface's ArrowArray:
// length, null_count, offset, buffers, children, dictionary. Buffers follow
// DataType::layout(): e.g. [validity, offsets, data] for utf8, [] for null
// and run-end encoded, [type_ids(, offsets)] for unions (no validity), and
// [validity, views, data...] for view types (the C interface's trailing
// variadic sizes buffer is derived on export). A missing validity buffer
// (nullptr) means "no nulls".
//
// Thread safety: an ArrayData that no thread modifies any more may be read
// from any number of threads at once, including GetNullCount(), which caches
// the count it computes (the cache is a relaxed atomic: racing threads compute
// the same number and store it, and a reader sees either -1 or that number).
// Writing any field while another thread reads the same ArrayData is a race,
// as for any C++ object.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/export.h"
#include "alkaid/memory.h"
#include "alkaid/small_vector.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr int64_t kUnknownNullCount = -1;

// The cached null count of an ArrayData: an int64_t that const readers may
// fill in concurrently. Loads and stores are relaxed (a plain mov on x86-64 and
// AArch64), so `data->null_count = n` and `if (data->null_count == 0)` cost what
// they did with a plain field; only the race is gone. Copying copies the value.
class NullCountCache {
 public:
  constexpr NullCountCache(int64_t value = kUnknownNullCount) noexcept : value_(value) {}
  NullCountCache(const NullCountCache& other) noexcept : value_(other.load()) {}
  NullCountCache& operator=(const NullCountCache& other) noexcept {
    store(other.load());
    return *this;
  }
  NullCountCache& operator=(int64_t value) noexcept {
    store(value);
    return *this;
  }
  operator int64_t() const noexcept { return load(); }

  int64_t load() const noexcept { return value_.load(std::memory_order_relaxed); }
  void store(int64_t value) const noexcept { value_.store(value, std::memory_order_relaxed); }

 private:
  mutable std::atomic<int64_t> value_;
};

struct ArrayData;
using ArrayDataPtr = std::shared_ptr<ArrayData>;
using ArrayDataVector = std::vector<ArrayDataPtr>;
using BufferPtr = std::shared_ptr<Buffer>;
// Three inline slots hold every layout but views with several data buffers.
using BufferVector = SmallVector<BufferPtr, 3>;

struct ALKAID_EXPORT ArrayData {
  // User-provided: value-initializing (make_shared<ArrayData[]>) then skips
  // zero-filling the whole object before the member initializers run.
  ArrayData() noexcept {}
  ArrayData(DataTypePtr type_, int64_t length_, BufferVector buffers_,
            int64_t null_count_ = kUnknownNullCount, int64_t offset_ = 0)
      : type(std::move(type_)), length(length_), null_count(null_count_), offset(offset_),
        buffers(std::move(buffers_)) {}
  ArrayData(DataTypePtr type_, int64_t length_, BufferVector buffers_, ArrayDataVector child_data_,
            int64_t null_count_ = kUnknownNullCount, int64_t offset_ = 0)
      : type(std::move(type_)), length(length_), null_count(null_count_), offset(offset_),
        buffers(std::move(buffers_)), child_data(std::move(child_data_)) {}

  static ArrayDataPtr Make(DataTypePtr type, int64_t length, BufferVector buffers,
                           int64_t null_count = kUnknownNullCount, int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers), null_count,
                                       offset);
  }
  static ArrayDataPtr Make(DataTypePtr type, int64_t length, BufferVector buffers,
                           ArrayDataVector child_data, int64_t null_count = kUnknownNullCount,
                           int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers),
                                       std::move(child_data), null_count, offset);
  }

  // Zero-copy slice sharing every buffer; children are not sliced (offset
  // applies to this level only, as in the C Data Interface). The range is
  // clamped to the array: a negative `off` counts as 0, an `off` past the end
  // gives an empty slice at the end, and a `len` that is negative or reaches
  // past the end stops at the end (no overflow for any pair of values).
  ArrayDataPtr Slice(int64_t off, int64_t len) const;
  // Same, but a range not inside [0, length) is an IndexError.
  Result<ArrayDataPtr> SliceSafe(int64_t off, int64_t len) const;

  // Null count, computed from the validity bitmap (or the type's own rules for
  // null, union, run-end encoded and dictionary-less types) and cached. Safe to
  // call from several threads on one ArrayData (see the top of this file).
  int64_t GetNullCount() const;
  bool MayHaveNulls() const { return null_count != 0 && (null_count > 0 || HasValidityBitmap()); }
  bool HasValidityBitmap() const { return !buffers.empty() && buffers[0] != nullptr && type->layout().has_validity(); }

  // Whether slot i (relative to offset) is non-null according to this level
  // alone (for unions and run-end encoded arrays this asks the children).
  bool IsValid(int64_t i) const;
  bool IsNull(int64_t i) const { return !IsValid(i); }

  // Typed pointer to buffer i, already advanced by `offset` elements of T.
  template <typename T>
  const T* GetValues(int i) const {
    const auto& b = buffers[static_cast<size_t>(i)];
    return b ? reinterpret_cast<const T*>(b->data()) + offset : nullptr;
  }
  template <typename T>
  T* GetMutableValues(int i) const {
    const auto& b = buffers[static_cast<size_t>(i)];
    return b ? reinterpret_cast<T*>(b->mutable_data()) + offset : nullptr;
  }
  // Validity bitmap pointer (not offset-adjusted: use bit index offset + i).
  const uint8_t* validity() const {
    return HasValidityBitmap() ? buffers[0]->data() : nullptr;
  }

  // The type with any extension unwrapped to its storage.
  const DataType& storage_type() const;

  DataTypePtr type;
  int64_t length = 0;
  NullCountCache null_count = kUnknownNullCount;  // kUnknownNullCount until known
  int64_t offset = 0;
  BufferVector buffers;
  ArrayDataVector child_data;
  ArrayDataPtr dictionary;  // values for dictionary-encoded arrays
};

// An ArrayData of `length` nulls of any type (children and buffers allocated
// as the layout needs).
ALKAID_EXPORT Result<ArrayDataPtr> MakeArrayOfNull(const DataTypePtr& type, int64_t length,
                                     MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
