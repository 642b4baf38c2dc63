/// @file
/// ArrayData: the one physical representation of an array of any type.
///
/// Its fields map one-to-one onto the Arrow C Data Interface's ArrowArray:
/// length, null_count, offset, buffers, children, dictionary. Buffers follow
/// DataType::layout(): e.g. [validity, offsets, data] for utf8, [] for null
/// and run-end encoded, [type_ids(, offsets)] for unions (no validity), and
/// [validity, views, data...] for view types (the C interface's trailing
/// variadic sizes buffer is derived on export). A missing validity buffer
/// (nullptr) means "no nulls".
///
/// Thread safety: an ArrayData that no thread modifies any more may be read
/// from any number of threads at once, including GetNullCount(), which caches
/// the count it computes (the cache is a relaxed atomic: racing threads compute
/// the same number and store it, and a reader sees either -1 or that number).
/// Writing any field while another thread reads the same ArrayData is a race,
/// as for any C++ object.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/memory.h"
#include "alkaid/small_vector.h"
#include "alkaid/type.h"

namespace alkaid {

/// Null count meaning "not computed yet": ArrayData::GetNullCount() will count
/// the validity bitmap (or apply the type's rules) and cache the result.
inline constexpr int64_t kUnknownNullCount = -1;

/// The cached null count of an ArrayData: an int64_t that const readers may
/// fill in concurrently. Loads and stores are relaxed (a plain mov on x86-64 and
/// AArch64), so `data->null_count = n` and `if (data->null_count == 0)` cost what
/// they did with a plain field; only the race is gone. Copying copies the value.
class NullCountCache {
 public:
  /// Starts at `value`: a known count, or kUnknownNullCount.
  constexpr NullCountCache(int64_t value = kUnknownNullCount) noexcept : value_(value) {}
  /// Copies the other cache's current value.
  NullCountCache(const NullCountCache& other) noexcept : value_(other.load()) {}
  /// Stores the other cache's current value.
  NullCountCache& operator=(const NullCountCache& other) noexcept {
    store(other.load());
    return *this;
  }
  /// Stores `value` (a count, or kUnknownNullCount to force a recount).
  NullCountCache& operator=(int64_t value) noexcept {
    store(value);
    return *this;
  }
  /// The current value, so the cache reads like a plain int64_t.
  operator int64_t() const noexcept { return load(); }

  /// The current value (relaxed load): a count or kUnknownNullCount.
  int64_t load() const noexcept { return value_.load(std::memory_order_relaxed); }
  /// Sets the value (relaxed store). Const so that const readers can fill the
  /// cache; only ever store the true count (or kUnknownNullCount) of the data.
  void store(int64_t value) const noexcept { value_.store(value, std::memory_order_relaxed); }

 private:
  mutable std::atomic<int64_t> value_;
};

struct ArrayData;
/// Shared ownership of an ArrayData; slices, typed arrays and parents share one.
using ArrayDataPtr = std::shared_ptr<ArrayData>;
/// The children of an ArrayData (one per child field of the type).
using ArrayDataVector = std::vector<ArrayDataPtr>;
/// The buffers of an ArrayData, in DataType::layout() order; entries may be
/// nullptr (absent validity bitmap, empty data).
/// Three inline slots hold every layout but views with several data buffers.
using BufferVector = SmallVector<BufferPtr, 3>;

/// The physical representation of an array of any type: type, length, offset,
/// null count, buffers, children and dictionary (see the top of this file).
/// Fields are public and unchecked; data from untrusted input must pass
/// Validate()/ValidateFull() (alkaid/validate.h) before typed accessors use it.
struct ALKAID_EXPORT ArrayData {
  /// An empty ArrayData with no type; fill in the fields before use.
  /// User-provided: value-initializing (make_shared<ArrayData[]>) then skips
  /// zero-filling the whole object before the member initializers run.
  ArrayData() noexcept {}
  /// An array without children (primitive, binary and similar layouts).
  /// Takes the buffers as given; nothing is checked or copied.
  ArrayData(DataTypePtr type_, int64_t length_, BufferVector buffers_,
            int64_t null_count_ = kUnknownNullCount, int64_t offset_ = 0)
      : type(std::move(type_)), length(length_), null_count(null_count_), offset(offset_),
        buffers(std::move(buffers_)) {}
  /// An array with children (nested layouts). Nothing is checked or copied.
  ArrayData(DataTypePtr type_, int64_t length_, BufferVector buffers_, ArrayDataVector child_data_,
            int64_t null_count_ = kUnknownNullCount, int64_t offset_ = 0)
      : type(std::move(type_)), length(length_), null_count(null_count_), offset(offset_),
        buffers(std::move(buffers_)), child_data(std::move(child_data_)) {}

  /// make_shared of the constructor without children.
  static ArrayDataPtr Make(DataTypePtr type, int64_t length, BufferVector buffers,
                           int64_t null_count = kUnknownNullCount, int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers), null_count,
                                       offset);
  }
  /// make_shared of the constructor with children.
  static ArrayDataPtr Make(DataTypePtr type, int64_t length, BufferVector buffers,
                           ArrayDataVector child_data, int64_t null_count = kUnknownNullCount,
                           int64_t offset = 0) {
    return std::make_shared<ArrayData>(std::move(type), length, std::move(buffers),
                                       std::move(child_data), null_count, offset);
  }

  /// Zero-copy slice sharing every buffer; children are not sliced (offset
  /// applies to this level only, as in the C Data Interface). The range is
  /// clamped to the array: a negative `off` counts as 0, an `off` past the end
  /// gives an empty slice at the end, and a `len` that is negative or reaches
  /// past the end stops at the end (no overflow for any pair of values).
  ArrayDataPtr Slice(int64_t off, int64_t len) const;
  /// Same, but a range not inside [0, length) is an IndexError.
  Result<ArrayDataPtr> SliceSafe(int64_t off, int64_t len) const;

  /// Null count, computed from the validity bitmap (or the type's own rules for
  /// null, union, run-end encoded and dictionary-less types) and cached. Safe to
  /// call from several threads on one ArrayData (see the top of this file).
  int64_t GetNullCount() const;
  /// False only when there are certainly no nulls (count known to be 0, or
  /// unknown with no validity bitmap); cheap, never counts. True does not
  /// mean a null exists.
  bool MayHaveNulls() const { return null_count != 0 && (null_count > 0 || HasValidityBitmap()); }
  /// Whether buffer 0 is a present validity bitmap (the layout has one and it
  /// is not nullptr). Precondition: `type` is set.
  bool HasValidityBitmap() const { return !buffers.empty() && buffers[0] != nullptr && type->layout().has_validity(); }

  /// Whether slot i (relative to offset) is non-null according to this level
  /// alone (for unions and run-end encoded arrays this asks the children).
  /// Unchecked: 0 <= i < length.
  bool IsValid(int64_t i) const;
  /// The negation of IsValid(i); same preconditions.
  bool IsNull(int64_t i) const { return !IsValid(i); }

  /// Typed pointer to buffer i, already advanced by `offset` elements of T;
  /// nullptr when the buffer is absent. Unchecked: i < buffers.size(), and T
  /// must match the buffer's element type (for bitmaps use validity() and bit
  /// indices instead, since offset counts bits there).
  template <typename T>
  const T* GetValues(int i) const {
    const auto& b = buffers[static_cast<size_t>(i)];
    return b ? reinterpret_cast<const T*>(b->data()) + offset : nullptr;
  }
  /// Writable form of GetValues(), for code that owns the buffer and fills it
  /// (builders, readers). Writing through a buffer shared with other arrays
  /// changes them too. Same preconditions as GetValues().
  template <typename T>
  T* GetMutableValues(int i) const {
    const auto& b = buffers[static_cast<size_t>(i)];
    return b ? reinterpret_cast<T*>(b->mutable_data()) + offset : nullptr;
  }
  /// Validity bitmap pointer (not offset-adjusted: use bit index offset + i),
  /// or nullptr when there is none.
  const uint8_t* validity() const {
    return HasValidityBitmap() ? buffers[0]->data() : nullptr;
  }

  /// The type with any extension unwrapped to its storage.
  const DataType& storage_type() const;

  DataTypePtr type;  ///< Logical type (extension types included); must be set.
  int64_t length = 0;  ///< Number of slots, counted from `offset`.
  NullCountCache null_count = kUnknownNullCount;  ///< kUnknownNullCount until known
  /// Index of slot 0 within the buffers, in elements (bits for bitmaps).
  int64_t offset = 0;
  BufferVector buffers;  ///< Buffers in DataType::layout() order.
  /// One child per child field of the type (list values, struct fields, ...);
  /// children keep their own offset and length.
  ArrayDataVector child_data;
  ArrayDataPtr dictionary;  ///< values for dictionary-encoded arrays (nullptr otherwise)
};

/// An ArrayData of `length` nulls of any type (children and buffers allocated
/// as the layout needs).
/// @param type Any type, nested, union, dictionary and extension types included.
/// @param length Number of slots, >= 0.
/// @param pool Allocates the buffers (zero-filled validity, offsets, ...).
/// @return The array; Invalid for a null type or a negative length,
///         CapacityError for a length near INT64_MAX, OutOfMemory when the
///         pool fails.
ALKAID_EXPORT Result<ArrayDataPtr> MakeArrayOfNull(const DataTypePtr& type, int64_t length,
                                     MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
