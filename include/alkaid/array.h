/// @file
/// Typed arrays: thin, read-only views over an ArrayData. They hold no state of
/// their own beyond the shared ArrayData, so creating one is cheap and any
/// ArrayData can be viewed through MakeArray().
///
/// Thread safety: every const member of every array class may be called from
/// several threads at once (the viewed ArrayData is immutable once shared).
#pragma once

#include <compare>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

class Array;
/// Shared ownership of a typed array view; the usual way arrays are passed around.
using ArrayPtr = std::shared_ptr<Array>;
/// A sequence of arrays, e.g. the columns of a record batch or the chunks of a column.
using ArrayVector = std::vector<ArrayPtr>;

/// Builds the typed view matching data->type (through VisitTypeInline): an
/// Int32Array for int32 data, a StructArray for structs, an ExtensionArray for
/// extension types, and so on. Zero-copy: the result shares `data`.
/// @param data Must be non-null; its type decides the class of the result.
ALKAID_EXPORT ArrayPtr MakeArray(const ArrayDataPtr& data);

/// Base class of every typed array: a read-only view of one ArrayData.
///
/// Accessors of one slot or one child (Value(i), GetView(i), IsValid(i),
/// value_offset(i), type_code(i), field(i), ...) are unchecked, like
/// std::vector::operator[], so that per-value loops carry no branch: `i` must
/// be in [0, length()) (or [0, num_fields()) for children) and an array from
/// untrusted input must have passed ValidateFull(). The checked forms are
/// SliceSafe and StructArray::GetField; Slice clamps instead of failing.
///
/// Thread safety: a typed array is a view of immutable ArrayData; every const
/// member may be called from several threads at once (see alkaid/array_data.h).
class ALKAID_EXPORT Array {
 public:
  /// Wraps `data` without copying or checking it. Prefer MakeArray(), which
  /// picks the subclass matching the type; a subclass constructed directly
  /// must be given data of its own type (not checked).
  explicit Array(ArrayDataPtr data) : data_(std::move(data)) {}
  virtual ~Array() = default;

  /// The viewed physical representation, shared with every other view of it.
  const ArrayDataPtr& data() const { return data_; }
  /// The logical type, extension types included (not unwrapped to storage).
  const DataTypePtr& type() const { return data_->type; }
  /// Shorthand for type()->id().
  TypeId type_id() const { return data_->type->id(); }
  /// Number of slots (logical rows) in this array, after slicing.
  int64_t length() const { return data_->length; }
  /// Index of slot 0 within the buffers, in elements (non-zero after slicing).
  int64_t offset() const { return data_->offset; }
  /// Number of null slots; computed from the validity bitmap on first call and
  /// cached (thread-safe, see ArrayData::GetNullCount()).
  int64_t null_count() const { return data_->GetNullCount(); }
  /// Whether slot `i` holds a value (unchecked: 0 <= i < length()). Unions and
  /// run-end encoded arrays answer from their children.
  bool IsValid(int64_t i) const { return data_->IsValid(i); }
  /// The negation of IsValid(i) (unchecked: 0 <= i < length()).
  bool IsNull(int64_t i) const { return !data_->IsValid(i); }
  /// The validity bitmap, not adjusted for offset() (slot i is bit offset() + i),
  /// or nullptr when no slot is null or the layout has no validity buffer.
  const uint8_t* null_bitmap_data() const { return data_->validity(); }

  /// Zero-copy slice (shares all buffers), clamped to the array like
  /// ArrayData::Slice: Slice(2, 10) of 3 rows has 1 row. SliceSafe refuses a
  /// range outside the array instead.
  ArrayPtr Slice(int64_t offset, int64_t length) const { return MakeArray(data_->Slice(offset, length)); }
  /// Zero-copy slice from `offset` to the end of the array (clamped as above).
  ArrayPtr Slice(int64_t offset) const { return Slice(offset, INT64_MAX); }
  /// Zero-copy slice of [offset, offset + length); an IndexError when that
  /// range is not inside [0, length()).
  Result<ArrayPtr> SliceSafe(int64_t offset, int64_t length) const {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr sliced, data_->SliceSafe(offset, length));
    return MakeArray(std::move(sliced));
  }

  /// Structural checks, O(number of buffers): buffer counts and sizes, offsets
  /// and lengths in range, children consistent. Enough to read the array's
  /// structure safely, not its values; see alkaid/validate.h.
  Status Validate() const;
  /// Validate() plus checks of every value, O(length): offsets monotonic and in
  /// bounds, UTF-8 well-formed, union type codes and dictionary indices valid,
  /// and so on. Required before unchecked accessors on untrusted data.
  Status ValidateFull() const;
  /// Logical equality with default options (same type, length, nulls and
  /// values; offsets and buffer contents under nulls do not matter); see
  /// alkaid/compare.h.
  bool Equals(const Array& other) const;
  /// Same as Equals(*other); false when `other` is null.
  bool Equals(const ArrayPtr& other) const { return other && Equals(*other); }
  /// Multi-line human-readable rendering; see alkaid/pretty_print.h.
  std::string ToString() const;

 protected:
  ArrayDataPtr data_;  ///< The viewed data; never null in a constructed array.
};

/// STL-style iteration over a typed array: what begin() and end() of
/// NumericArray, BooleanArray, FixedSizeBinaryArray and the binary and string
/// arrays (plain, large and view) return.
///
/// @code
///   for (std::optional<int32_t> v : int32_array) ...
///   for (std::optional<std::string_view> s : string_array) ...
///   auto nulls = std::ranges::count(int32_array, std::optional<int32_t>());
/// @endcode
///
/// A random-access const iterator whose operator* yields std::optional of the
/// value (Value(i)) or view (GetView(i)), std::nullopt for a null slot. Slots
/// are relative to the array's offset, like Value(i). Dereferencing reads one
/// validity bit and the value in place: no allocation, no virtual call. Views
/// point into the array's buffers and live as long as the array's data. The
/// iterator holds a pointer to the array, which must outlive it. Iterators of
/// different arrays do not compare meaningfully (as with containers).
/// @tparam ArrayT The typed array class iterated over.
/// @tparam ValueT What a valid slot yields: the value type or std::string_view.
template <typename ArrayT, typename ValueT>
class ArrayIterator {
 public:
  using value_type = std::optional<ValueT>;  ///< A slot: the value, or nullopt when null.
  using difference_type = std::ptrdiff_t;    ///< Distance between two slots.
  using reference = value_type;  ///< Values are produced on the fly, not stored.
  using pointer = void;          ///< No addressable element to point to.
  using iterator_category = std::random_access_iterator_tag;  ///< For pre-C++20 algorithms.
  using iterator_concept = std::random_access_iterator_tag;   ///< For std::ranges.

  /// A singular iterator (may only be assigned to).
  ArrayIterator() = default;
  /// At slot `index` of `array` (index == length() is the end).
  ArrayIterator(const ArrayT& array, int64_t index)
      : array_(&array),
        validity_(array.data()->validity()),
        offset_(array.data()->offset),
        index_(index) {}

  /// The slot's value or view; std::nullopt when the slot is null.
  value_type operator*() const {
    if (validity_ != nullptr && !bit_util::GetBit(validity_, offset_ + index_)) return std::nullopt;
    if constexpr (requires { array_->GetView(index_); }) {
      return array_->GetView(index_);
    } else {
      return array_->Value(index_);
    }
  }
  /// The slot `n` places further.
  value_type operator[](difference_type n) const { return *(*this + n); }
  /// The slot this iterator is at.
  int64_t index() const { return index_; }

  /// Next slot.
  ArrayIterator& operator++() { ++index_; return *this; }
  /// Previous slot.
  ArrayIterator& operator--() { --index_; return *this; }
  /// Next slot; returns the iterator as it was.
  ArrayIterator operator++(int) { ArrayIterator old = *this; ++index_; return old; }
  /// Previous slot; returns the iterator as it was.
  ArrayIterator operator--(int) { ArrayIterator old = *this; --index_; return old; }
  /// Moves `n` slots forward.
  ArrayIterator& operator+=(difference_type n) { index_ += n; return *this; }
  /// Moves `n` slots back.
  ArrayIterator& operator-=(difference_type n) { index_ -= n; return *this; }
  /// `n` slots after `it`.
  friend ArrayIterator operator+(ArrayIterator it, difference_type n) { return it += n; }
  /// `n` slots after `it`.
  friend ArrayIterator operator+(difference_type n, ArrayIterator it) { return it += n; }
  /// `n` slots before `it`.
  friend ArrayIterator operator-(ArrayIterator it, difference_type n) { return it -= n; }
  /// Slots from `b` to `a`.
  friend difference_type operator-(const ArrayIterator& a, const ArrayIterator& b) {
    return static_cast<difference_type>(a.index_ - b.index_);
  }
  /// Same slot.
  friend bool operator==(const ArrayIterator& a, const ArrayIterator& b) {
    return a.index_ == b.index_;
  }
  /// Slot order.
  friend std::strong_ordering operator<=>(const ArrayIterator& a, const ArrayIterator& b) {
    return a.index_ <=> b.index_;
  }

 private:
  const ArrayT* array_ = nullptr;
  const uint8_t* validity_ = nullptr;  // nullptr: no slot is null
  int64_t offset_ = 0;
  int64_t index_ = 0;
};

/// Array of the null type: every slot is null and there are no buffers.
class ALKAID_EXPORT NullArray final : public Array {
 public:
  /// Views existing null-typed data.
  using Array::Array;
  /// A fresh array of `length` nulls (allocates nothing but the ArrayData).
  explicit NullArray(int64_t length);
};

/// Array of booleans, stored one bit per value (LSB first) beside the validity bitmap.
class ALKAID_EXPORT BooleanArray final : public Array {
 public:
  using TypeClass = BooleanType;  ///< The DataType class this array views.
  /// Views existing boolean data.
  using Array::Array;
  /// The bit of slot `i` (unchecked: 0 <= i < length()); meaningless for a null slot.
  bool Value(int64_t i) const { return bit_util::GetBit(data_->buffers[1]->data(), data_->offset + i); }
  /// The value bits, not adjusted for offset(): slot i is bit offset() + i.
  const uint8_t* values_bitmap() const { return data_->buffers[1]->data(); }
  /// Number of slots that are both non-null and true (O(length), a word at a time).
  int64_t true_count() const;
  /// Random-access const iterator yielding std::optional<bool> (nullopt for nulls).
  using iterator = ArrayIterator<BooleanArray, bool>;
  /// Iterator at slot 0; the array must outlive it.
  iterator begin() const { return {*this, 0}; }
  /// Iterator one past the last slot.
  iterator end() const { return {*this, length()}; }
};

/// Array of any fixed-width type with a C value type: ints, floats (half floats
/// as raw uint16 bits), dates, times, timestamps, durations and intervals.
/// Values are in the unit of the type (e.g. days for date32, the timestamp's
/// TimeUnit for timestamps).
/// @tparam T The DataType class, e.g. Int32Type; its c_type is the value type.
template <typename T>
class NumericArray final : public Array {
 public:
  using TypeClass = T;  ///< The DataType class this array views.
  using value_type = typename T::c_type;  ///< C type of one value, e.g. int32_t.
  /// Views existing data of type T.
  using Array::Array;
  /// Pointer to the value of slot 0 (already offset-adjusted); values of null
  /// slots are unspecified. May be nullptr for an empty array.
  const value_type* raw_values() const { return data_->GetValues<value_type>(1); }
  /// The value of slot `i` (unchecked: 0 <= i < length()); unspecified for a null slot.
  value_type Value(int64_t i) const { return raw_values()[i]; }
  /// Random-access const iterator yielding std::optional<value_type>.
  using iterator = ArrayIterator<NumericArray, value_type>;
  /// Iterator at slot 0; the array must outlive it.
  iterator begin() const { return {*this, 0}; }
  /// Iterator one past the last slot.
  iterator end() const { return {*this, length()}; }
};

/// Array of signed 8-bit integers.
using Int8Array = NumericArray<Int8Type>;
/// Array of signed 16-bit integers.
using Int16Array = NumericArray<Int16Type>;
/// Array of signed 32-bit integers.
using Int32Array = NumericArray<Int32Type>;
/// Array of signed 64-bit integers.
using Int64Array = NumericArray<Int64Type>;
/// Array of unsigned 8-bit integers.
using UInt8Array = NumericArray<UInt8Type>;
/// Array of unsigned 16-bit integers.
using UInt16Array = NumericArray<UInt16Type>;
/// Array of unsigned 32-bit integers.
using UInt32Array = NumericArray<UInt32Type>;
/// Array of unsigned 64-bit integers.
using UInt64Array = NumericArray<UInt64Type>;
/// Array of IEEE half-precision floats, values exposed as their raw uint16_t bits.
using HalfFloatArray = NumericArray<HalfFloatType>;
/// Array of 32-bit IEEE floats.
using FloatArray = NumericArray<FloatType>;
/// Array of 64-bit IEEE floats.
using DoubleArray = NumericArray<DoubleType>;
/// Array of dates as int32 days since the UNIX epoch.
using Date32Array = NumericArray<Date32Type>;
/// Array of dates as int64 milliseconds since the UNIX epoch.
using Date64Array = NumericArray<Date64Type>;
/// Array of times of day as int32 seconds or milliseconds (per the type's unit).
using Time32Array = NumericArray<Time32Type>;
/// Array of times of day as int64 microseconds or nanoseconds (per the type's unit).
using Time64Array = NumericArray<Time64Type>;
/// Array of int64 instants since the UNIX epoch in the type's unit (and optional time zone).
using TimestampArray = NumericArray<TimestampType>;
/// Array of int64 elapsed times in the type's unit.
using DurationArray = NumericArray<DurationType>;
/// Array of int32 month counts.
using MonthIntervalArray = NumericArray<MonthIntervalType>;
/// Array of (days, milliseconds) interval pairs.
using DayTimeIntervalArray = NumericArray<DayTimeIntervalType>;
/// Array of (months, days, nanoseconds) interval triples.
using MonthDayNanoIntervalArray = NumericArray<MonthDayNanoIntervalType>;

/// Array of fixed-size binary values, and base of DecimalArray (decimal values
/// are little-endian two's complement integers of byte_width bytes). Values
/// sit back to back in buffer 1, byte_width() bytes each.
class ALKAID_EXPORT FixedSizeBinaryArray : public Array {
 public:
  /// Views existing fixed-size binary (or decimal, or extension thereof) data.
  using Array::Array;
  /// Bytes per value, from the (storage) type.
  int32_t byte_width() const { return static_cast<const FixedSizeBinaryType&>(data_->storage_type()).byte_width(); }
  /// Pointer to the byte_width() bytes of slot `i` (unchecked: 0 <= i < length()).
  const uint8_t* GetValue(int64_t i) const {
    return data_->buffers[1]->data() + (data_->offset + i) * byte_width();
  }
  /// The bytes of slot `i` as a view into the array's buffer (unchecked);
  /// valid as long as the array's data lives.
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(byte_width())};
  }
  /// Random-access const iterator yielding std::optional<std::string_view>.
  using iterator = ArrayIterator<FixedSizeBinaryArray, std::string_view>;
  /// Iterator at slot 0; the array must outlive it.
  iterator begin() const { return {*this, 0}; }
  /// Iterator one past the last slot.
  iterator end() const { return {*this, length()}; }
};

/// Array of decimal32/64/128/256 values: the raw little-endian integers are
/// reached through the FixedSizeBinaryArray accessors, the scale from the type.
class ALKAID_EXPORT DecimalArray final : public FixedSizeBinaryArray {
 public:
  /// Views existing decimal data.
  using FixedSizeBinaryArray::FixedSizeBinaryArray;
  /// Decimal text of slot i, e.g. "-12.345" for 12345 at scale 3 (unchecked:
  /// 0 <= i < length(); a null slot formats whatever bytes it holds).
  std::string FormatValue(int64_t i) const;
};

/// Array of variable-length binary or UTF-8 string values addressed by an
/// offsets buffer (buffer 1, length() + 1 entries) into one data buffer
/// (buffer 2). String arrays are not re-checked for UTF-8 here; ValidateFull()
/// does that.
/// @tparam T BinaryType, StringType, LargeBinaryType or LargeStringType
///           (32- or 64-bit offsets).
template <typename T>
class BaseBinaryArray final : public Array {
 public:
  using TypeClass = T;  ///< The DataType class this array views.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for the large types.
  /// Views existing data of type T.
  using Array::Array;
  /// The offsets of slot 0 onward (offset-adjusted); length() + 1 entries, in
  /// bytes into raw_data().
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  /// Start of the value bytes (not offset-adjusted: offsets index it directly),
  /// or nullptr when the data buffer is absent (no bytes at all).
  const uint8_t* raw_data() const { return data_->buffers[2] ? data_->buffers[2]->data() : nullptr; }
  /// Byte position of slot `i`'s value in raw_data() (unchecked: 0 <= i <= length()).
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  /// Length in bytes of slot `i`'s value (unchecked: 0 <= i < length()).
  offset_type value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  /// The bytes of slot `i`, viewed in place (unchecked); empty for a null slot
  /// of valid data. Valid as long as the array's data lives.
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(raw_data()) + value_offset(i),
            static_cast<size_t>(value_length(i))};
  }
  /// Copy of GetView(i) (unchecked); allocates.
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  /// Random-access const iterator yielding std::optional<std::string_view>.
  using iterator = ArrayIterator<BaseBinaryArray, std::string_view>;
  /// Iterator at slot 0; the array must outlive it.
  iterator begin() const { return {*this, 0}; }
  /// Iterator one past the last slot.
  iterator end() const { return {*this, length()}; }
};

/// Array of binary values with 32-bit offsets.
using BinaryArray = BaseBinaryArray<BinaryType>;
/// Array of UTF-8 strings with 32-bit offsets.
using StringArray = BaseBinaryArray<StringType>;
/// Array of binary values with 64-bit offsets.
using LargeBinaryArray = BaseBinaryArray<LargeBinaryType>;
/// Array of UTF-8 strings with 64-bit offsets.
using LargeStringArray = BaseBinaryArray<LargeStringType>;

/// Array of binary or string views: buffer 1 holds one 16-byte BinaryViewValue
/// per slot, either the whole value inline (up to 12 bytes) or a prefix plus a
/// (buffer index, offset) reference into data buffers 2 and up.
/// @tparam T BinaryViewType or StringViewType.
template <typename T>
class BinaryViewArrayOf final : public Array {
 public:
  using TypeClass = T;  ///< The DataType class this array views.
  /// Views existing data of type T.
  using Array::Array;
  /// The view structs of slot 0 onward (offset-adjusted).
  const BinaryViewValue* raw_views() const { return data_->GetValues<BinaryViewValue>(1); }
  /// Number of variadic data buffers that out-of-line views point into.
  int64_t num_data_buffers() const { return static_cast<int64_t>(data_->buffers.size()) - 2; }
  /// The bytes of slot `i`, inline or in a data buffer (unchecked: 0 <= i <
  /// length(), and the view's buffer index and range must be valid, which
  /// ValidateFull() ensures). Valid as long as the array's data lives.
  std::string_view GetView(int64_t i) const {
    const BinaryViewValue& v = raw_views()[i];
    if (v.is_inline())
      return {reinterpret_cast<const char*>(v.inlined.data), static_cast<size_t>(v.size())};
    const auto& buf = data_->buffers[static_cast<size_t>(2 + v.ref.buffer_index)];
    return {reinterpret_cast<const char*>(buf->data()) + v.ref.offset, static_cast<size_t>(v.size())};
  }
  /// Copy of GetView(i) (same preconditions); allocates.
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  /// Random-access const iterator yielding std::optional<std::string_view>.
  using iterator = ArrayIterator<BinaryViewArrayOf, std::string_view>;
  /// Iterator at slot 0; the array must outlive it.
  iterator begin() const { return {*this, 0}; }
  /// Iterator one past the last slot.
  iterator end() const { return {*this, length()}; }
};
/// Array of binary views.
using BinaryViewArray = BinaryViewArrayOf<BinaryViewType>;
/// Array of UTF-8 string views.
using StringViewArray = BinaryViewArrayOf<StringViewType>;

/// Array of lists: list, large list and map (offsets + child). Slot i holds the
/// child elements [value_offset(i), value_offset(i + 1)).
/// @tparam T ListType or LargeListType (32- or 64-bit offsets).
template <typename T>
class BaseListArray : public Array {
 public:
  using TypeClass = T;  ///< The DataType class this array views.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large lists.
  /// Views existing list data (no copy, no check).
  explicit BaseListArray(ArrayDataPtr data) : Array(std::move(data)) {}
  /// The offsets of slot 0 onward (offset-adjusted); length() + 1 entries,
  /// indexing the child array.
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  /// First child index of slot `i` (unchecked: 0 <= i <= length()).
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  /// Number of child elements in slot `i` (unchecked: 0 <= i < length()).
  offset_type value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  /// The whole child array, unsliced: offsets index it directly.
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  /// The child slice holding slot i's elements (unchecked: 0 <= i < length()).
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), value_length(i)); }
};
/// Array of lists with 32-bit offsets.
using ListArray = BaseListArray<ListType>;
/// Array of lists with 64-bit offsets.
using LargeListArray = BaseListArray<LargeListType>;

/// Array of maps: a list of struct<key, value> entries; values() is that struct array.
class ALKAID_EXPORT MapArray final : public BaseListArray<ListType> {
 public:
  /// Views existing map data.
  using BaseListArray::BaseListArray;
  /// The keys of all entries (unsliced, indexed by the offsets).
  ArrayPtr keys() const { return MakeArray(data_->child_data[0]->child_data[0]); }
  /// The values of all entries (unsliced, indexed by the offsets).
  ArrayPtr items() const { return MakeArray(data_->child_data[0]->child_data[1]); }
};

/// Array of list views: slot i holds the child elements [value_offset(i),
/// value_offset(i) + value_length(i)); ranges may overlap and come in any order.
/// @tparam T ListViewType or LargeListViewType (32- or 64-bit offsets and sizes).
template <typename T>
class BaseListViewArray final : public Array {
 public:
  using TypeClass = T;  ///< The DataType class this array views.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large list views.
  /// Views existing list-view data.
  using Array::Array;
  /// The offsets of slot 0 onward (offset-adjusted); length() entries.
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  /// The sizes of slot 0 onward (offset-adjusted); length() entries.
  const offset_type* raw_value_sizes() const { return data_->GetValues<offset_type>(2); }
  /// First child index of slot `i` (unchecked: 0 <= i < length()).
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  /// Number of child elements in slot `i` (unchecked: 0 <= i < length()).
  offset_type value_length(int64_t i) const { return raw_value_sizes()[i]; }
  /// The whole child array, unsliced: offsets index it directly.
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  /// The child slice holding slot i's elements (unchecked: 0 <= i < length()).
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), value_length(i)); }
};
/// Array of list views with 32-bit offsets and sizes.
using ListViewArray = BaseListViewArray<ListViewType>;
/// Array of list views with 64-bit offsets and sizes.
using LargeListViewArray = BaseListViewArray<LargeListViewType>;

/// Array of fixed-size lists: slot i holds child elements
/// [(offset() + i) * list_size(), (offset() + i + 1) * list_size()).
class ALKAID_EXPORT FixedSizeListArray final : public Array {
 public:
  /// Views existing fixed-size list data.
  using Array::Array;
  /// Number of child elements in every slot, from the (storage) type.
  int32_t list_size() const { return static_cast<const FixedSizeListType&>(data_->storage_type()).list_size(); }
  /// First child index of slot `i`, this array's offset included (unchecked).
  int64_t value_offset(int64_t i) const { return (data_->offset + i) * list_size(); }
  /// The whole child array, unsliced: value_offset() indexes it directly.
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  /// The child slice holding slot i's elements (unchecked: 0 <= i < length()).
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), list_size()); }
};

/// Array of structs: one child array per field, each at least as long as this
/// array; a slot is null when this array's validity bit says so, whatever the
/// children hold.
class ALKAID_EXPORT StructArray final : public Array {
 public:
  /// Views existing struct data.
  using Array::Array;
  /// Number of fields (child arrays).
  int num_fields() const { return static_cast<int>(data_->child_data.size()); }
  /// The i-th child with this struct's offset and length applied
  /// (unchecked: 0 <= i < num_fields()). The struct's own nulls are not merged
  /// into the child.
  ArrayPtr field(int i) const;
  /// Same, but an IndexError for i outside [0, num_fields()).
  Result<ArrayPtr> GetField(int i) const {
    if (i < 0 || i >= num_fields())
      return Status::IndexError("field ", i, " of a struct array with ", num_fields(), " fields");
    return field(i);
  }
  /// The child of the field called `name`, sliced like field(); nullptr when
  /// no field has that name (the first match wins when several do).
  ArrayPtr GetFieldByName(std::string_view name) const;
};

/// Array of unions, sparse or dense: buffer 0 holds an int8 type code per slot,
/// dense unions add an int32 offset per slot (buffer 1). There is no validity
/// bitmap; a slot is null when the selected child's value is.
class ALKAID_EXPORT UnionArray final : public Array {
 public:
  /// Views existing union data.
  using Array::Array;
  /// The (storage) type, which maps type codes to children.
  const UnionType& union_type() const { return static_cast<const UnionType&>(data_->storage_type()); }
  /// Sparse or dense.
  UnionMode mode() const { return union_type().mode(); }
  /// The type codes of slot 0 onward (offset-adjusted).
  const int8_t* raw_type_codes() const { return data_->GetValues<int8_t>(0); }
  /// Type code of slot `i` (unchecked: 0 <= i < length()); not a child index.
  int8_t type_code(int64_t i) const { return raw_type_codes()[i]; }
  /// Index of the child selected by slot `i` (unchecked; the type code must be
  /// one the type declares, which ValidateFull() ensures).
  int child_id(int64_t i) const { return union_type().child_index(type_code(i)); }
  /// Dense unions: offset into the selected child. Sparse: offset + i.
  /// Unchecked: 0 <= i < length().
  int32_t value_offset(int64_t i) const {
    return mode() == UnionMode::kDense ? data_->GetValues<int32_t>(1)[i]
                                       : static_cast<int32_t>(data_->offset + i);
  }
  /// Child `i` (a child index, not a type code), unsliced (unchecked: 0 <= i <
  /// number of children).
  ArrayPtr field(int i) const { return MakeArray(data_->child_data[static_cast<size_t>(i)]); }
};

/// Array of dictionary-encoded values: integer indices per slot (this data's
/// buffers) into a separate dictionary array (ArrayData::dictionary).
class ALKAID_EXPORT DictionaryArray final : public Array {
 public:
  /// Views existing dictionary-encoded data.
  using Array::Array;
  /// The (storage) type: index type, value type and ordered flag.
  const DictionaryType& dict_type() const { return static_cast<const DictionaryType&>(data_->storage_type()); }
  /// The indices as an integer array of the index type, sharing this data's
  /// buffers, offset and validity.
  ArrayPtr indices() const;
  /// The dictionary values (never sliced with this array).
  ArrayPtr dictionary() const { return MakeArray(data_->dictionary); }
  /// The index stored in slot i, widened to int64 (unchecked: 0 <= i < length();
  /// unspecified for a null slot).
  int64_t GetValueIndex(int64_t i) const;
};

/// Array of run-end encoded values: child 0 holds the increasing run ends
/// (int16/32/64), child 1 the value of each run. No buffers of its own.
class ALKAID_EXPORT RunEndEncodedArray final : public Array {
 public:
  /// Views existing run-end encoded data.
  using Array::Array;
  /// The run ends, unsliced: logical positions relative to the unsliced array.
  ArrayPtr run_ends() const { return MakeArray(data_->child_data[0]); }
  /// The run values, unsliced; a null here makes the whole run null.
  ArrayPtr values() const { return MakeArray(data_->child_data[1]); }
  /// Index into values() of the run holding logical slot i (binary search,
  /// O(log runs); unchecked: 0 <= i < length()).
  int64_t FindPhysicalIndex(int64_t i) const;
};

/// Array of an extension type: the data is laid out as the storage type; this
/// view keeps the extension type attached.
class ALKAID_EXPORT ExtensionArray final : public Array {
 public:
  /// Views existing extension-typed data.
  using Array::Array;
  /// The extension type (type(), downcast).
  const ExtensionType& extension_type() const { return static_cast<const ExtensionType&>(*data_->type); }
  /// The same data viewed as its storage type (zero-copy).
  ArrayPtr storage() const;
};

}  // namespace alkaid
