// Typed arrays: thin, read-only views over an ArrayData. They hold no state of
// their own beyond the shared ArrayData, so creating one is cheap and any
// ArrayData can be viewed through MakeArray().
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
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

class Array;
using ArrayPtr = std::shared_ptr<Array>;
using ArrayVector = std::vector<ArrayPtr>;

// Builds the typed view matching data->type (through VisitTypeInline).
ALKAID_EXPORT ArrayPtr MakeArray(const ArrayDataPtr& data);

// Accessors of one slot or one child (Value(i), GetView(i), IsValid(i),
// value_offset(i), type_code(i), field(i), ...) are unchecked, like
// std::vector::operator[], so that per-value loops carry no branch: `i` must
// be in [0, length()) (or [0, num_fields()) for children) and an array from
// untrusted input must have passed ValidateFull(). The checked forms are
// SliceSafe and StructArray::GetField; Slice clamps instead of failing.
//
// Thread safety: a typed array is a view of immutable ArrayData; every const
// member may be called from several threads at once (see alkaid/array_data.h).
class ALKAID_EXPORT Array {
 public:
  explicit Array(ArrayDataPtr data) : data_(std::move(data)) {}
  virtual ~Array() = default;

  const ArrayDataPtr& data() const { return data_; }
  const DataTypePtr& type() const { return data_->type; }
  TypeId type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->GetNullCount(); }
  bool IsValid(int64_t i) const { return data_->IsValid(i); }
  bool IsNull(int64_t i) const { return !data_->IsValid(i); }
  const uint8_t* null_bitmap_data() const { return data_->validity(); }

  // Zero-copy slice (shares all buffers), clamped to the array like
  // ArrayData::Slice: Slice(2, 10) of 3 rows has 1 row. SliceSafe refuses a
  // range outside the array instead.
  ArrayPtr Slice(int64_t offset, int64_t length) const { return MakeArray(data_->Slice(offset, length)); }
  ArrayPtr Slice(int64_t offset) const { return Slice(offset, INT64_MAX); }
  Result<ArrayPtr> SliceSafe(int64_t offset, int64_t length) const {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr sliced, data_->SliceSafe(offset, length));
    return MakeArray(std::move(sliced));
  }

  // Structural checks, O(number of buffers) and full checks, O(length);
  // see alkaid/validate.h.
  Status Validate() const;
  Status ValidateFull() const;
  // Logical equality with default options; see alkaid/compare.h.
  bool Equals(const Array& other) const;
  bool Equals(const ArrayPtr& other) const { return other && Equals(*other); }
  // Multi-line rendering; see alkaid/pretty_print.h.
  std::string ToString() const;

 protected:
  ArrayDataPtr data_;
};

// --- STL-style iteration over typed arrays --------------------------------------------------
//
//   for (std::optional<int32_t> v : int32_array) ...
//   for (std::optional<std::string_view> s : string_array) ...
//   auto nulls = std::ranges::count(int32_array, std::optional<int32_t>());
//
// NumericArray, BooleanArray, the binary and string arrays (plain, large and view) and
// FixedSizeBinaryArray have begin()/end() returning an ArrayIterator: a random-access const
// iterator whose operator* yields std::optional of the value (Value(i)) or view (GetView(i)),
// std::nullopt for a null slot. Slots are relative to the array's offset, like Value(i).
// Dereferencing reads one validity bit and the value in place: no allocation, no virtual call.
// Views point into the array's buffers and live as long as the array's data. The iterator
// holds a pointer to the array, which must outlive it.
namespace internal {

template <typename ArrayT, typename ValueT>
class ArrayIterator {
 public:
  using value_type = std::optional<ValueT>;
  using difference_type = std::ptrdiff_t;
  using reference = value_type;  // values are produced on the fly, not stored
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = std::random_access_iterator_tag;

  ArrayIterator() = default;
  ArrayIterator(const ArrayT& array, int64_t index)
      : array_(&array),
        validity_(array.data()->validity()),
        offset_(array.data()->offset),
        index_(index) {}

  value_type operator*() const {
    if (validity_ != nullptr && !bit_util::GetBit(validity_, offset_ + index_)) return std::nullopt;
    if constexpr (requires { array_->GetView(index_); }) {
      return array_->GetView(index_);
    } else {
      return array_->Value(index_);
    }
  }
  value_type operator[](difference_type n) const { return *(*this + n); }
  int64_t index() const { return index_; }

  ArrayIterator& operator++() { ++index_; return *this; }
  ArrayIterator& operator--() { --index_; return *this; }
  ArrayIterator operator++(int) { ArrayIterator old = *this; ++index_; return old; }
  ArrayIterator operator--(int) { ArrayIterator old = *this; --index_; return old; }
  ArrayIterator& operator+=(difference_type n) { index_ += n; return *this; }
  ArrayIterator& operator-=(difference_type n) { index_ -= n; return *this; }
  friend ArrayIterator operator+(ArrayIterator it, difference_type n) { return it += n; }
  friend ArrayIterator operator+(difference_type n, ArrayIterator it) { return it += n; }
  friend ArrayIterator operator-(ArrayIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(const ArrayIterator& a, const ArrayIterator& b) {
    return static_cast<difference_type>(a.index_ - b.index_);
  }
  // Iterators of different arrays do not compare meaningfully (as with containers).
  friend bool operator==(const ArrayIterator& a, const ArrayIterator& b) {
    return a.index_ == b.index_;
  }
  friend std::strong_ordering operator<=>(const ArrayIterator& a, const ArrayIterator& b) {
    return a.index_ <=> b.index_;
  }

 private:
  const ArrayT* array_ = nullptr;
  const uint8_t* validity_ = nullptr;  // nullptr: no slot is null
  int64_t offset_ = 0;
  int64_t index_ = 0;
};

}  // namespace internal
// --- end of the typed-array iterators ----------------------------------------------------------

class ALKAID_EXPORT NullArray final : public Array {
 public:
  using Array::Array;
  explicit NullArray(int64_t length);
};

class ALKAID_EXPORT BooleanArray final : public Array {
 public:
  using TypeClass = BooleanType;
  using Array::Array;
  bool Value(int64_t i) const { return bit_util::GetBit(data_->buffers[1]->data(), data_->offset + i); }
  const uint8_t* values_bitmap() const { return data_->buffers[1]->data(); }
  int64_t true_count() const;  // among non-null slots
  using iterator = internal::ArrayIterator<BooleanArray, bool>;
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, length()}; }
};

// Every fixed-width type with a C value type: ints, floats (half floats as
// raw bits), dates, times, timestamps, durations and intervals.
template <typename T>
class NumericArray final : public Array {
 public:
  using TypeClass = T;
  using value_type = typename T::c_type;
  using Array::Array;
  const value_type* raw_values() const { return data_->GetValues<value_type>(1); }
  value_type Value(int64_t i) const { return raw_values()[i]; }
  using iterator = internal::ArrayIterator<NumericArray, value_type>;
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, length()}; }
};

using Int8Array = NumericArray<Int8Type>;
using Int16Array = NumericArray<Int16Type>;
using Int32Array = NumericArray<Int32Type>;
using Int64Array = NumericArray<Int64Type>;
using UInt8Array = NumericArray<UInt8Type>;
using UInt16Array = NumericArray<UInt16Type>;
using UInt32Array = NumericArray<UInt32Type>;
using UInt64Array = NumericArray<UInt64Type>;
using HalfFloatArray = NumericArray<HalfFloatType>;
using FloatArray = NumericArray<FloatType>;
using DoubleArray = NumericArray<DoubleType>;
using Date32Array = NumericArray<Date32Type>;
using Date64Array = NumericArray<Date64Type>;
using Time32Array = NumericArray<Time32Type>;
using Time64Array = NumericArray<Time64Type>;
using TimestampArray = NumericArray<TimestampType>;
using DurationArray = NumericArray<DurationType>;
using MonthIntervalArray = NumericArray<MonthIntervalType>;
using DayTimeIntervalArray = NumericArray<DayTimeIntervalType>;
using MonthDayNanoIntervalArray = NumericArray<MonthDayNanoIntervalType>;

// Fixed-size binary and decimals (decimal values are little-endian two's
// complement integers of byte_width bytes).
class ALKAID_EXPORT FixedSizeBinaryArray : public Array {
 public:
  using Array::Array;
  int32_t byte_width() const { return static_cast<const FixedSizeBinaryType&>(data_->storage_type()).byte_width(); }
  const uint8_t* GetValue(int64_t i) const {
    return data_->buffers[1]->data() + (data_->offset + i) * byte_width();
  }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(byte_width())};
  }
  using iterator = internal::ArrayIterator<FixedSizeBinaryArray, std::string_view>;
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, length()}; }
};

class ALKAID_EXPORT DecimalArray final : public FixedSizeBinaryArray {
 public:
  using FixedSizeBinaryArray::FixedSizeBinaryArray;
  // Decimal text of slot i, e.g. "-12.345" for 12345 at scale 3.
  std::string FormatValue(int64_t i) const;
};

template <typename T>
class BaseBinaryArray final : public Array {
 public:
  using TypeClass = T;
  using offset_type = typename T::offset_type;
  using Array::Array;
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  const uint8_t* raw_data() const { return data_->buffers[2] ? data_->buffers[2]->data() : nullptr; }
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  offset_type value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(raw_data()) + value_offset(i),
            static_cast<size_t>(value_length(i))};
  }
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  using iterator = internal::ArrayIterator<BaseBinaryArray, std::string_view>;
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, length()}; }
};

using BinaryArray = BaseBinaryArray<BinaryType>;
using StringArray = BaseBinaryArray<StringType>;
using LargeBinaryArray = BaseBinaryArray<LargeBinaryType>;
using LargeStringArray = BaseBinaryArray<LargeStringType>;

template <typename T>
class BinaryViewArrayOf final : public Array {
 public:
  using TypeClass = T;
  using Array::Array;
  const BinaryViewValue* raw_views() const { return data_->GetValues<BinaryViewValue>(1); }
  int64_t num_data_buffers() const { return static_cast<int64_t>(data_->buffers.size()) - 2; }
  std::string_view GetView(int64_t i) const {
    const BinaryViewValue& v = raw_views()[i];
    if (v.is_inline())
      return {reinterpret_cast<const char*>(v.inlined.data), static_cast<size_t>(v.size())};
    const auto& buf = data_->buffers[static_cast<size_t>(2 + v.ref.buffer_index)];
    return {reinterpret_cast<const char*>(buf->data()) + v.ref.offset, static_cast<size_t>(v.size())};
  }
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  using iterator = internal::ArrayIterator<BinaryViewArrayOf, std::string_view>;
  iterator begin() const { return {*this, 0}; }
  iterator end() const { return {*this, length()}; }
};
using BinaryViewArray = BinaryViewArrayOf<BinaryViewType>;
using StringViewArray = BinaryViewArrayOf<StringViewType>;

// List, large list and map (offsets + child).
template <typename T>
class BaseListArray : public Array {
 public:
  using TypeClass = T;
  using offset_type = typename T::offset_type;
  explicit BaseListArray(ArrayDataPtr data) : Array(std::move(data)) {}
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  offset_type value_length(int64_t i) const {
    return raw_value_offsets()[i + 1] - raw_value_offsets()[i];
  }
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  // The child slice holding slot i's elements.
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), value_length(i)); }
};
using ListArray = BaseListArray<ListType>;
using LargeListArray = BaseListArray<LargeListType>;

class ALKAID_EXPORT MapArray final : public BaseListArray<ListType> {
 public:
  using BaseListArray::BaseListArray;
  ArrayPtr keys() const { return MakeArray(data_->child_data[0]->child_data[0]); }
  ArrayPtr items() const { return MakeArray(data_->child_data[0]->child_data[1]); }
};

template <typename T>
class BaseListViewArray final : public Array {
 public:
  using TypeClass = T;
  using offset_type = typename T::offset_type;
  using Array::Array;
  const offset_type* raw_value_offsets() const { return data_->GetValues<offset_type>(1); }
  const offset_type* raw_value_sizes() const { return data_->GetValues<offset_type>(2); }
  offset_type value_offset(int64_t i) const { return raw_value_offsets()[i]; }
  offset_type value_length(int64_t i) const { return raw_value_sizes()[i]; }
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), value_length(i)); }
};
using ListViewArray = BaseListViewArray<ListViewType>;
using LargeListViewArray = BaseListViewArray<LargeListViewType>;

class ALKAID_EXPORT FixedSizeListArray final : public Array {
 public:
  using Array::Array;
  int32_t list_size() const { return static_cast<const FixedSizeListType&>(data_->storage_type()).list_size(); }
  int64_t value_offset(int64_t i) const { return (data_->offset + i) * list_size(); }
  ArrayPtr values() const { return MakeArray(data_->child_data[0]); }
  ArrayPtr value_slice(int64_t i) const { return values()->Slice(value_offset(i), list_size()); }
};

class ALKAID_EXPORT StructArray final : public Array {
 public:
  using Array::Array;
  int num_fields() const { return static_cast<int>(data_->child_data.size()); }
  // The i-th child with this struct's offset and length applied
  // (unchecked: 0 <= i < num_fields()).
  ArrayPtr field(int i) const;
  // Same, but an IndexError for i outside [0, num_fields()).
  Result<ArrayPtr> GetField(int i) const {
    if (i < 0 || i >= num_fields())
      return Status::IndexError("field ", i, " of a struct array with ", num_fields(), " fields");
    return field(i);
  }
  ArrayPtr GetFieldByName(std::string_view name) const;
};

class ALKAID_EXPORT UnionArray final : public Array {
 public:
  using Array::Array;
  const UnionType& union_type() const { return static_cast<const UnionType&>(data_->storage_type()); }
  UnionMode mode() const { return union_type().mode(); }
  const int8_t* raw_type_codes() const { return data_->GetValues<int8_t>(0); }
  int8_t type_code(int64_t i) const { return raw_type_codes()[i]; }
  int child_id(int64_t i) const { return union_type().child_index(type_code(i)); }
  // Dense unions: offset into the selected child. Sparse: offset + i.
  int32_t value_offset(int64_t i) const {
    return mode() == UnionMode::kDense ? data_->GetValues<int32_t>(1)[i]
                                       : static_cast<int32_t>(data_->offset + i);
  }
  ArrayPtr field(int i) const { return MakeArray(data_->child_data[static_cast<size_t>(i)]); }
};

class ALKAID_EXPORT DictionaryArray final : public Array {
 public:
  using Array::Array;
  const DictionaryType& dict_type() const { return static_cast<const DictionaryType&>(data_->storage_type()); }
  ArrayPtr indices() const;
  ArrayPtr dictionary() const { return MakeArray(data_->dictionary); }
  // The index stored in slot i, widened to int64.
  int64_t GetValueIndex(int64_t i) const;
};

class ALKAID_EXPORT RunEndEncodedArray final : public Array {
 public:
  using Array::Array;
  ArrayPtr run_ends() const { return MakeArray(data_->child_data[0]); }
  ArrayPtr values() const { return MakeArray(data_->child_data[1]); }
  // Index into values() of the run holding logical slot i.
  int64_t FindPhysicalIndex(int64_t i) const;
};

class ALKAID_EXPORT ExtensionArray final : public Array {
 public:
  using Array::Array;
  const ExtensionType& extension_type() const { return static_cast<const ExtensionType&>(*data_->type); }
  // The same data viewed as its storage type.
  ArrayPtr storage() const;
};

}  // namespace alkaid
