/// @file
/// Builders: append values one slot at a time and get a valid ArrayData back.
///
/// Every builder derives from ArrayBuilder, whose virtual methods (AppendNull,
/// AppendEmptyValue, Finish, ...) are meant to be called once per builder
/// operation. The typed Append methods of the concrete builders are inline and
/// non-virtual, and grow their buffers geometrically so appends are amortized
/// O(1). The validity bitmap is only allocated when the first null arrives.
///
/// Nested builders own their child builders; the caller appends the parent slot
/// first (ListBuilder::Append, StructBuilder::Append, union Append(code)) and
/// then the child values. MakeBuilder() creates a builder tree for any type:
///
/// @code
///   ALKAID_ASSIGN_OR_RAISE(auto builder, MakeBuilderAs<ListBuilder>(list(int32())));
///   auto* ints = static_cast<Int32Builder*>(builder->value_builder());
///   ALKAID_RETURN_NOT_OK(builder->Append());
///   ALKAID_RETURN_NOT_OK(ints->Append(7));
///   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, builder->Finish());
/// @endcode
///
/// Results: ArrayData is the one physical representation; a typed Array is a
/// cheap view over it. A builder hands out either, whichever the caller wants:
///
/// @code
///   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, builder.Finish());      // the data
///   ALKAID_ASSIGN_OR_RAISE(ArrayPtr array, builder.FinishArray());    // a typed view
///   std::shared_ptr<Int32Array> ints;
///   ALKAID_RETURN_NOT_OK(builder.Finish(&ints));                      // Arrow C++ style
/// @endcode
///
/// and RecordBatch, ChunkedArray and Table accept both ArrayPtr and ArrayDataPtr
/// columns (see alkaid/table.h).
///
/// Every typed builder also takes std::optional values (std::nullopt appends a
/// null), and the binary-like builders take whole vectors of strings:
///
/// @code
///   StringBuilder names;
///   ALKAID_RETURN_NOT_OK(names.AppendValues({"ada", "bob"}));
///   ALKAID_RETURN_NOT_OK(names.AppendValues(more_names, std::vector<bool>{true, false}));
///   ALKAID_RETURN_NOT_OK(names.Append(std::optional<std::string>()));  // a null
/// @endcode
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/array_data.h"
#include "alkaid/bitmap.h"
#include "alkaid/visibility.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid {

namespace internal {

// A growable byte area backed by a ResizableBuffer. Bytes past the written
// size are always zero (the pool buffer zeroes new capacity), which lets
// builders "append" zeros and cleared bits by just moving forward.
class ALKAID_EXPORT BufferBuilder {
 public:
  explicit BufferBuilder(MemoryPool* pool) : pool_(pool) {}

  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  const uint8_t* data() const { return data_; }
  uint8_t* mutable_data() { return data_; }
  bool allocated() const { return buffer_ != nullptr; }

  // Makes room for at least `total_bytes`, exactly (the caller grows geometrically).
  Status EnsureCapacity(int64_t total_bytes) {
    if (total_bytes <= capacity_ && buffer_ != nullptr) return Status::OK();
    return GrowTo(total_bytes);
  }
  // Makes room for `additional` bytes past size(), doubling capacity as needed.
  Status Reserve(int64_t additional) {
    int64_t needed = size_ + additional;
    if (needed <= capacity_ && buffer_ != nullptr) return Status::OK();
    return GrowTo(needed > 2 * capacity_ ? needed : 2 * capacity_);
  }
  Status Append(const void* bytes, int64_t n) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void UnsafeAppendValue(const T& value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += static_cast<int64_t>(sizeof(T));
  }
  // Moves the size forward over bytes that are already zero.
  void UnsafeAdvance(int64_t n) { size_ += n; }

  // Hands out the buffer with logical size `size` (padding stays zero) and
  // forgets it. An untouched builder yields an empty allocated buffer.
  Result<BufferPtr> FinishWithSize(int64_t size);
  Result<BufferPtr> Finish() { return FinishWithSize(size_); }
  void Reset();

 private:
  Status GrowTo(int64_t total_bytes);

  MemoryPool* pool_;
  std::shared_ptr<ResizableBuffer> buffer_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

// Invalid unless a validity vector has one entry per value.
ALKAID_EXPORT Status CheckValidityLength(size_t values, size_t validity);

// The AppendValues overloads of the binary-like builders (binary, utf8, their
// large and view forms), written once. Derived provides
// AppendStrings(const S* values, int64_t n, IsValid is_valid) for S =
// std::string and std::string_view.
template <typename Derived>
class StringValuesAppender {
 public:
  // valid_bytes[i] == 0 marks slot i null; nullptr means all valid.
  Status AppendValues(const std::vector<std::string>& values, const uint8_t* valid_bytes = nullptr) {
    return self()->AppendStrings(values.data(), Size(values), ValidBytes{valid_bytes});
  }
  Status AppendValues(const std::vector<std::string_view>& values,
                      const uint8_t* valid_bytes = nullptr) {
    return self()->AppendStrings(values.data(), Size(values), ValidBytes{valid_bytes});
  }
  // is_valid[i] == false marks slot i null; the sizes must match.
  Status AppendValues(const std::vector<std::string>& values, const std::vector<bool>& is_valid) {
    ALKAID_RETURN_NOT_OK(CheckValidityLength(values.size(), is_valid.size()));
    return self()->AppendStrings(values.data(), Size(values), ValidVector{is_valid});
  }
  Status AppendValues(const std::vector<std::string_view>& values,
                      const std::vector<bool>& is_valid) {
    ALKAID_RETURN_NOT_OK(CheckValidityLength(values.size(), is_valid.size()));
    return self()->AppendStrings(values.data(), Size(values), ValidVector{is_valid});
  }
  // A braced list of literals: AppendValues({"a", "b"}).
  Status AppendValues(std::initializer_list<std::string_view> values) {
    return self()->AppendStrings(values.begin(), static_cast<int64_t>(values.size()),
                                 ValidBytes{nullptr});
  }

 private:
  struct ValidBytes {
    const uint8_t* bytes;
    bool operator()(int64_t i) const { return bytes == nullptr || bytes[i] != 0; }
  };
  struct ValidVector {
    const std::vector<bool>& bits;
    bool operator()(int64_t i) const { return bits[static_cast<size_t>(i)]; }
  };
  template <typename V>
  static int64_t Size(const V& values) {
    return static_cast<int64_t>(values.size());
  }
  Derived* self() { return static_cast<Derived*>(this); }
};

}  // namespace internal

class ArrayBuilder;
/// Builders are owned uniquely: by the caller, or by their parent builder.
using ArrayBuilderPtr = std::unique_ptr<ArrayBuilder>;

/// Base class of every builder: the slot count, the validity bitmap, the
/// child builders and the type-independent part of the interface.
///
/// A builder appends slots to the end only; Finish() hands everything out as an
/// ArrayData and leaves the builder empty and reusable. Errors come back as
/// Status (CapacityError when offsets or indices of the type would overflow,
/// Invalid for misuse such as a child with the wrong number of values,
/// OutOfMemory when the pool fails); after an error the builder may be
/// inconsistent and should be Reset() or dropped. Not thread-safe.
class ALKAID_EXPORT ArrayBuilder {
 public:
  /// Starts an empty builder of `type` allocating from `pool` (which must
  /// outlive the builder). Prefer MakeBuilder(), which also creates the children.
  ArrayBuilder(DataTypePtr type, MemoryPool* pool)
      : type_(std::move(type)), pool_(pool), validity_(pool) {}
  /// Frees everything appended and not yet finished, children included.
  virtual ~ArrayBuilder() = default;
  /// Builders own buffers and children and are not copyable.
  ArrayBuilder(const ArrayBuilder&) = delete;
  /// Not copy-assignable either.
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  /// The type of the array being built (the finished data carries it).
  const DataTypePtr& type() const { return type_; }
  /// The pool every buffer of this builder is allocated from.
  MemoryPool* pool() const { return pool_; }
  /// Slots appended so far (wrappers such as ExtensionBuilder report their
  /// inner builder's count).
  virtual int64_t length() const { return length_; }
  /// Null slots appended so far (0 for types without a validity bitmap).
  virtual int64_t null_count() const { return null_count_; }
  /// Slots that fit before the per-slot buffers grow again; see Reserve().
  int64_t capacity() const { return capacity_; }

  /// Makes room for `additional` more slots so Unsafe appends need no checks.
  /// Only the per-slot buffers grow (not value data or children), at least
  /// doubling; an OutOfMemory status when the pool fails.
  Status Reserve(int64_t additional) {
    int64_t needed = length_ + additional;
    if (needed <= capacity_) return Status::OK();
    int64_t doubled = capacity_ * 2;
    return Resize(needed > doubled ? needed : (doubled < 32 ? 32 : doubled));
  }

  /// Appends one null slot; see AppendNulls().
  virtual Status AppendNull() { return AppendNulls(1); }
  /// Appends `n` null slots. Nested builders also append whatever their
  /// children need to stay aligned (e.g. struct children get nulls too).
  virtual Status AppendNulls(int64_t n) = 0;
  /// A non-null default value (zero, empty string, empty list, struct of
  /// empty values, ...): what sparse unions put in their unselected children.
  virtual Status AppendEmptyValue() { return AppendEmptyValues(1); }
  /// Appends `n` non-null default values; see AppendEmptyValue().
  virtual Status AppendEmptyValues(int64_t n) = 0;

  /// Appends one value given as its raw bytes: the little-endian value for
  /// fixed-width types (one byte 0/1 for booleans), the bytes themselves for
  /// binary-like types. Dictionary and run-end encoded builders use this to
  /// memoize values of any primitive type. Other builders return TypeError.
  virtual Status AppendValueBytes(std::string_view bytes);

  /// Returns everything appended so far and resets the builder to empty.
  /// The builder is reset even when finishing fails. The data is not
  /// re-validated; builders produce valid data by construction.
  Result<ArrayDataPtr> Finish();
  /// The same as a typed array view (MakeArray of the data).
  Result<ArrayPtr> FinishArray();
  /// Arrow C++ style: stores the finished array in *out, either as the generic
  /// ArrayPtr or as its typed class (std::shared_ptr<StringArray>, ...); a
  /// class that does not match the type is a TypeError (the builder is reset
  /// either way).
  template <typename ArrayT>
    requires std::is_base_of_v<Array, ArrayT>
  Status Finish(std::shared_ptr<ArrayT>* out) {
    ALKAID_ASSIGN_OR_RAISE(ArrayPtr array, FinishArray());
    if constexpr (std::is_same_v<ArrayT, Array>) {
      *out = std::move(array);
    } else {
      auto typed = std::dynamic_pointer_cast<ArrayT>(std::move(array));
      if (typed == nullptr) {
        return Status::TypeError("the finished ", type_->ToString(),
                                 " array is not of the requested array class");
      }
      *out = std::move(typed);
    }
    return Status::OK();
  }
  /// Drops everything appended (children too).
  /// Frees the buffers and sets length, null count and capacity to zero.
  virtual void Reset();

  /// Number of child builders (0 for flat types).
  int num_children() const { return static_cast<int>(children_.size()); }
  /// Child builder `i`, owned by this builder (unchecked: 0 <= i < num_children()).
  ArrayBuilder* child(int i) const { return children_[static_cast<size_t>(i)].get(); }

 protected:
  /// Grows every per-slot buffer to hold `capacity` slots; overrides must call
  /// the base version, which grows the validity bitmap and sets capacity_.
  virtual Status Resize(int64_t capacity);
  /// Fills out->buffers / child_data / dictionary; type, length and
  /// null_count are already set.
  virtual Status FinishInto(ArrayData* out) = 0;

  /// Marks the next slot valid; capacity must have been reserved.
  void UnsafeAppendValid() {
    if (validity_.allocated()) bit_util::SetBit(validity_.mutable_data(), length_);
    ++length_;
  }
  /// Marks the next `n` slots valid; capacity must have been reserved.
  void UnsafeAppendValid(int64_t n) {
    if (validity_.allocated() && n > 0) bit_util::SetBitsTo(validity_.mutable_data(), length_, n, true);
    length_ += n;
  }
  /// Marks the next n slots null (allocating the bitmap the first time);
  /// capacity must have been reserved.
  /// OutOfMemory only when the bitmap has to be allocated.
  Status AppendNullBits(int64_t n) {
    if (!validity_.allocated()) ALKAID_RETURN_NOT_OK(MaterializeValidity());
    length_ += n;  // the bits are already clear
    null_count_ += n;
    return Status::OK();
  }
  /// Marks the next slot valid or null; capacity must have been reserved.
  Status AppendValidity(bool valid) {
    if (valid) {
      UnsafeAppendValid();
      return Status::OK();
    }
    return AppendNullBits(1);
  }
  /// The validity buffer for the finished array: nullptr when nothing is null.
  /// Resets the bitmap builder either way.
  Result<BufferPtr> FinishValidity();
  /// Allocates the validity bitmap (sized for capacity()) and sets the bits of
  /// every slot appended so far; called when the first null arrives.
  Status MaterializeValidity();

  DataTypePtr type_;  ///< Type of the array being built.
  MemoryPool* pool_;  ///< Allocator for every buffer; not owned.
  int64_t length_ = 0;  ///< Slots appended so far.
  int64_t null_count_ = 0;  ///< Null slots appended so far.
  int64_t capacity_ = 0;  ///< Slots the per-slot buffers can hold.
  internal::BufferBuilder validity_;  ///< Validity bitmap; unallocated until the first null.
  std::vector<ArrayBuilderPtr> children_;  ///< Child builders, in the order of the type's children.
};

/// Creates a builder (and recursively its child builders) for `type`.
/// @param type Any type, nested and extension types included.
/// @param pool Allocator for every buffer of the tree; must outlive it.
/// @return The builder; Invalid for a null type, TypeError for a dictionary
///         or run-end encoded type with an unusable index or run-end type.
ALKAID_EXPORT Result<ArrayBuilderPtr> MakeBuilder(const DataTypePtr& type, MemoryPool* pool = default_memory_pool());

/// MakeBuilder, checked down-cast to the concrete builder class.
/// TypeError when the builder MakeBuilder() picks for `type` is not a BuilderT.
template <typename BuilderT>
Result<std::unique_ptr<BuilderT>> MakeBuilderAs(const DataTypePtr& type,
                                                MemoryPool* pool = default_memory_pool()) {
  ALKAID_ASSIGN_OR_RAISE(ArrayBuilderPtr generic, MakeBuilder(type, pool));
  auto* typed = dynamic_cast<BuilderT*>(generic.get());
  if (typed == nullptr) {
    return Status::TypeError("the builder for ", type->ToString(),
                             " is not of the requested builder class");
  }
  generic.release();
  return std::unique_ptr<BuilderT>(typed);
}

// ---------------------------------------------------------------------------

/// Builder of null-typed arrays: only counts slots, allocates no buffers.
class ALKAID_EXPORT NullBuilder final : public ArrayBuilder {
 public:
  /// A builder of the null() type.
  explicit NullBuilder(MemoryPool* pool = default_memory_pool());
  /// A builder of `type`, which must be the null type (as MakeBuilder() passes it).
  NullBuilder(DataTypePtr type, MemoryPool* pool) : ArrayBuilder(std::move(type), pool) {}
  /// Appends `n` slots; Invalid for a negative `n`.
  Status AppendNulls(int64_t n) override;
  /// Null arrays have no other value: same as AppendNulls().
  Status AppendEmptyValues(int64_t n) override { return AppendNulls(n); }

 protected:
  Status FinishInto(ArrayData* out) override;
};

/// Builder of boolean arrays (values packed one bit per slot).
class ALKAID_EXPORT BooleanBuilder final : public ArrayBuilder {
 public:
  /// A builder of the boolean() type.
  explicit BooleanBuilder(MemoryPool* pool = default_memory_pool());
  /// A builder of `type`, which must be boolean.
  BooleanBuilder(DataTypePtr type, MemoryPool* pool) : ArrayBuilder(std::move(type), pool), values_(pool) {}

  /// Appends one non-null value.
  Status Append(bool value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, bool>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(static_cast<bool>(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Appends one non-null value without growing: capacity() must exceed length() (see Reserve()).
  void UnsafeAppend(bool value) {
    if (value) bit_util::SetBit(values_.mutable_data(), length_);
    UnsafeAppendValid();
  }
  /// valid_bytes[i] == 0 marks slot i null; nullptr means all valid.
  /// `values` holds `n` entries.
  Status AppendValues(const bool* values, int64_t n, const uint8_t* valid_bytes = nullptr);
  /// Appends every entry of `values` as a non-null slot.
  Status AppendValues(const std::vector<bool>& values);
  /// is_valid[i] == false marks slot i null; the sizes must match.
  /// Invalid when the sizes differ (nothing is appended then).
  Status AppendValues(const std::vector<bool>& values, const std::vector<bool>& is_valid);
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  /// Takes exactly one byte, non-zero meaning true; Invalid otherwise.
  Status AppendValueBytes(std::string_view bytes) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  internal::BufferBuilder values_;  // a bitmap
};

/// Every type whose values are one C scalar or struct of scalars: integers,
/// floats (half floats as raw bits), dates, times, timestamps, durations and
/// the three interval types.
/// Values are taken in the unit of the type (days for date32, the type's
/// TimeUnit for timestamps, ...).
/// @tparam T The DataType class, e.g. Int32Type; its c_type is the value type.
template <typename T>
class NumericBuilder final : public ArrayBuilder {
 public:
  using TypeClass = T;  ///< The DataType class being built.
  using value_type = typename T::c_type;  ///< C type of one value, e.g. int32_t.
  static constexpr int64_t kWidth = static_cast<int64_t>(sizeof(value_type));  ///< Bytes per value.

  /// A builder of `type`, which must be T (parameterized types such as
  /// timestamps need this form to carry their unit and time zone).
  NumericBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), values_(pool) {}
  /// Only for types without parameters (ints, floats, dates, intervals).
  explicit NumericBuilder(MemoryPool* pool = default_memory_pool())
    requires std::is_default_constructible_v<T>
      : NumericBuilder(std::make_shared<T>(), pool) {}

  /// Appends one non-null value.
  Status Append(value_type value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, value_type>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(static_cast<value_type>(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Appends one non-null value without growing: capacity() must exceed length() (see Reserve()).
  void UnsafeAppend(value_type value) {
    std::memcpy(values_.mutable_data() + length_ * kWidth, &value, sizeof(value_type));
    UnsafeAppendValid();
  }
  /// valid_bytes[i] == 0 marks slot i null; nullptr means all valid.
  /// `values` holds `n` entries, copied in one block; values under null slots
  /// are kept as given.
  Status AppendValues(const value_type* values, int64_t n, const uint8_t* valid_bytes = nullptr) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    if (n > 0) {
      std::memcpy(values_.mutable_data() + length_ * kWidth, values, static_cast<size_t>(n * kWidth));
    }
    if (valid_bytes == nullptr) {
      UnsafeAppendValid(n);
      return Status::OK();
    }
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(AppendValidity(valid_bytes[i] != 0));
    return Status::OK();
  }
  /// Appends every entry of `values` as a non-null slot.
  Status AppendValues(const std::vector<value_type>& values) {
    return AppendValues(values.data(), static_cast<int64_t>(values.size()));
  }
  /// is_valid[i] == false marks slot i null; the sizes must match.
  /// Invalid when the sizes differ (nothing is appended then).
  Status AppendValues(const std::vector<value_type>& values, const std::vector<bool>& is_valid) {
    ALKAID_RETURN_NOT_OK(internal::CheckValidityLength(values.size(), is_valid.size()));
    const auto n = static_cast<int64_t>(values.size());
    ALKAID_RETURN_NOT_OK(Reserve(n));
    if (n > 0) {
      std::memcpy(values_.mutable_data() + length_ * kWidth, values.data(),
                  static_cast<size_t>(n * kWidth));
    }
    for (size_t i = 0; i < is_valid.size(); ++i) ALKAID_RETURN_NOT_OK(AppendValidity(is_valid[i]));
    return Status::OK();
  }
  Status AppendNulls(int64_t n) override {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    return AppendNullBits(n);  // value bytes stay zero
  }
  Status AppendEmptyValues(int64_t n) override {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    UnsafeAppendValid(n);
    return Status::OK();
  }
  /// Takes exactly kWidth bytes (the little-endian value); Invalid otherwise.
  Status AppendValueBytes(std::string_view bytes) override {
    if (static_cast<int64_t>(bytes.size()) != kWidth) {
      return Status::Invalid("a ", type_->ToString(), " value takes ", kWidth, " bytes, got ",
                             bytes.size());
    }
    value_type v;
    std::memcpy(&v, bytes.data(), sizeof(v));
    return Append(v);
  }
  /// The value already appended at slot i.
  /// Unchecked: 0 <= i < length(); the value under a null slot is zero.
  value_type GetValue(int64_t i) const {
    value_type v;
    std::memcpy(&v, values_.data() + i * kWidth, sizeof(v));
    return v;
  }
  void Reset() override {
    ArrayBuilder::Reset();
    values_.Reset();
  }

 protected:
  Status Resize(int64_t capacity) override {
    ALKAID_RETURN_NOT_OK(values_.EnsureCapacity(capacity * kWidth));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr values, values_.FinishWithSize(length_ * kWidth));
    out->buffers = {std::move(validity), std::move(values)};
    return Status::OK();
  }

 private:
  internal::BufferBuilder values_;
};

/// Builder of signed 8-bit integers.
using Int8Builder = NumericBuilder<Int8Type>;
/// Builder of signed 16-bit integers.
using Int16Builder = NumericBuilder<Int16Type>;
/// Builder of signed 32-bit integers.
using Int32Builder = NumericBuilder<Int32Type>;
/// Builder of signed 64-bit integers.
using Int64Builder = NumericBuilder<Int64Type>;
/// Builder of unsigned 8-bit integers.
using UInt8Builder = NumericBuilder<UInt8Type>;
/// Builder of unsigned 16-bit integers.
using UInt16Builder = NumericBuilder<UInt16Type>;
/// Builder of unsigned 32-bit integers.
using UInt32Builder = NumericBuilder<UInt32Type>;
/// Builder of unsigned 64-bit integers.
using UInt64Builder = NumericBuilder<UInt64Type>;
/// Builder of half-precision floats, appended as their raw uint16_t bits.
using HalfFloatBuilder = NumericBuilder<HalfFloatType>;
/// Builder of 32-bit floats.
using FloatBuilder = NumericBuilder<FloatType>;
/// Builder of 64-bit floats.
using DoubleBuilder = NumericBuilder<DoubleType>;
/// Builder of dates as int32 days since the UNIX epoch.
using Date32Builder = NumericBuilder<Date32Type>;
/// Builder of dates as int64 milliseconds since the UNIX epoch.
using Date64Builder = NumericBuilder<Date64Type>;
/// Builder of int32 times of day; construct with the type to choose the unit.
using Time32Builder = NumericBuilder<Time32Type>;
/// Builder of int64 times of day; construct with the type to choose the unit.
using Time64Builder = NumericBuilder<Time64Type>;
/// Builder of int64 timestamps; construct with the type to choose unit and time zone.
using TimestampBuilder = NumericBuilder<TimestampType>;
/// Builder of int64 durations; construct with the type to choose the unit.
using DurationBuilder = NumericBuilder<DurationType>;
/// Builder of int32 month intervals.
using MonthIntervalBuilder = NumericBuilder<MonthIntervalType>;
/// Builder of (days, milliseconds) intervals.
using DayTimeIntervalBuilder = NumericBuilder<DayTimeIntervalType>;
/// Builder of (months, days, nanoseconds) intervals.
using MonthDayNanoIntervalBuilder = NumericBuilder<MonthDayNanoIntervalType>;

/// fixed_size_binary[w]; also the base of the decimal builder.
class ALKAID_EXPORT FixedSizeBinaryBuilder : public ArrayBuilder {
 public:
  /// A builder of `type`, which must be fixed_size_binary or a decimal type.
  FixedSizeBinaryBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Bytes per value, from the type.
  int32_t byte_width() const { return width_; }
  /// Fails with Invalid unless value.size() == byte_width().
  Status Append(std::string_view value) {
    if (static_cast<int64_t>(value.size()) != width_) return WrongWidth(value.size());
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    UnsafeAppend(reinterpret_cast<const uint8_t*>(value.data()));
    return Status::OK();
  }
  /// An empty optional appends a null; a value must be byte_width() bytes.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Appends byte_width() bytes from `value`.
  /// No checks: capacity() must exceed length() (see Reserve()).
  void UnsafeAppend(const uint8_t* value) {
    std::memcpy(values_.mutable_data() + length_ * width_, value, static_cast<size_t>(width_));
    UnsafeAppendValid();
  }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  /// Same as Append(bytes): exactly byte_width() bytes.
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;
  /// The Invalid status for a value of `got` bytes, naming the slot.
  Status WrongWidth(size_t got) const;

  int32_t width_;  ///< Bytes per value (byte_width()).
  internal::BufferBuilder values_;  ///< The values, back to back.
};

/// decimal32/64/128/256: values are little-endian two's complement integers
/// scaled by 10^scale.
class ALKAID_EXPORT DecimalBuilder final : public FixedSizeBinaryBuilder {
 public:
  /// A builder of `type`, which must be a decimal type.
  DecimalBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Appends an already-scaled integer (sign-extended to the width).
  /// The precision is not checked; Invalid when a decimal32 cannot hold the
  /// value.
  Status AppendUnscaled(int64_t unscaled);
  /// Parses decimal text such as "-12.34", "5", "1.5e3" at the type's scale.
  /// Fails when digits would be lost or the value exceeds the precision.
  Status AppendString(std::string_view text);
  /// Optional forms: an empty optional appends a null. (Append(optional), from
  /// FixedSizeBinaryBuilder, takes the raw little-endian bytes.)
  template <typename V>
    requires std::is_convertible_v<const V&, int64_t>
  Status AppendUnscaled(const std::optional<V>& unscaled) {
    return unscaled.has_value() ? AppendUnscaled(static_cast<int64_t>(*unscaled)) : AppendNull();
  }
  /// Optional form of AppendString(): an empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status AppendString(const std::optional<V>& text) {
    return text.has_value() ? AppendString(std::string_view(*text)) : AppendNull();
  }

  /// Maximum number of decimal digits, from the type.
  int32_t precision() const { return precision_; }
  /// Digits after the decimal point, from the type (may be negative).
  int32_t scale() const { return scale_; }

 private:
  int32_t precision_;
  int32_t scale_;
};

/// Parses decimal text into the little-endian two's complement integer of
/// `byte_width` bytes (4, 8, 16 or 32) scaled by 10^scale. Exposed for readers
/// of textual formats.
/// `out` must have room for `byte_width` bytes and is written only on
/// success. Invalid when the text is malformed, would lose digits at this
/// scale or needs more than `precision` digits.
ALKAID_EXPORT Status ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int32_t byte_width,
                    uint8_t* out);

/// Builder of variable-length binary and UTF-8 string arrays: binary, utf8,
/// large_binary, large_utf8. Values are copied into one data buffer; the
/// builder does not check UTF-8 (ValidateFull() does). The AppendValues
/// overloads for vectors and braced lists of strings come from
/// internal::StringValuesAppender and reserve slots and bytes once.
/// @tparam T BinaryType, StringType, LargeBinaryType or LargeStringType.
template <typename T>
class BaseBinaryBuilder final : public ArrayBuilder,
                                public internal::StringValuesAppender<BaseBinaryBuilder<T>> {
 public:
  using internal::StringValuesAppender<BaseBinaryBuilder<T>>::AppendValues;
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for the large types.
  /// Most value bytes the offsets can address.
  static constexpr int64_t kMaxDataSize = std::numeric_limits<offset_type>::max();

  /// A builder of `type`, which must be T.
  BaseBinaryBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool), data_(pool) {}
  /// A builder of T's singleton type (binary(), utf8(), ...).
  explicit BaseBinaryBuilder(MemoryPool* pool = default_memory_pool())
      : BaseBinaryBuilder(std::make_shared<T>(), pool) {}

  /// Appends one non-null value (copied); CapacityError when the data would
  /// exceed kMaxDataSize bytes.
  Status Append(std::string_view value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(ReserveData(static_cast<int64_t>(value.size())));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// Appends the `n` bytes at `value` as one non-null value.
  Status Append(const uint8_t* value, int64_t n) {
    return Append(std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(n)));
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Slot and data capacity must have been reserved.
  /// Appends one non-null value without growing anything (see Reserve() and ReserveData()).
  void UnsafeAppend(std::string_view value) {
    WriteOffset();
    data_.UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
    UnsafeAppendValid();
  }
  /// Makes room for `additional` value bytes; CapacityError if the offsets
  /// could no longer address them.
  Status ReserveData(int64_t additional) {
    if (data_.size() + additional > kMaxDataSize) return DataOverflow(additional);
    return data_.Reserve(additional);
  }
  Status AppendNulls(int64_t n) override {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) WriteOffsetAt(length_ + i);
    return AppendNullBits(n);
  }
  Status AppendEmptyValues(int64_t n) override {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) WriteOffsetAt(length_ + i);
    UnsafeAppendValid(n);
    return Status::OK();
  }
  /// Same as Append(bytes).
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  /// Value bytes appended so far (the offset the next value starts at).
  int64_t value_data_length() const { return data_.size(); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
    data_.Reset();
  }
  /// Used by the AppendValues overloads: n values, slot i null unless
  /// is_valid(i). Slots and value bytes are reserved once.
  template <typename S, typename IsValid>
  Status AppendStrings(const S* values, int64_t n, IsValid is_valid) {
    int64_t bytes = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (is_valid(i)) bytes += static_cast<int64_t>(std::string_view(values[i]).size());
    }
    ALKAID_RETURN_NOT_OK(Reserve(n));
    ALKAID_RETURN_NOT_OK(ReserveData(bytes));
    for (int64_t i = 0; i < n; ++i) {
      if (is_valid(i)) {
        UnsafeAppend(std::string_view(values[i]));
      } else {
        WriteOffset();
        ALKAID_RETURN_NOT_OK(AppendNullBits(1));
      }
    }
    return Status::OK();
  }

 protected:
  Status Resize(int64_t capacity) override {
    // One more offset than slots: the end of the last value.
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(offset_type)));
    WriteOffsetAt(length_);
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets,
                           offsets_.FinishWithSize((length_ + 1) * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr data, data_.Finish());
    out->buffers = {std::move(validity), std::move(offsets), std::move(data)};
    return Status::OK();
  }

 private:
  void WriteOffset() { WriteOffsetAt(length_); }
  void WriteOffsetAt(int64_t slot) {
    auto offset = static_cast<offset_type>(data_.size());
    std::memcpy(offsets_.mutable_data() + slot * sizeof(offset_type), &offset, sizeof(offset));
  }
  Status DataOverflow(int64_t additional) const {
    return Status::CapacityError(type_->ToString(), " builder: appending ", additional,
                                 " bytes to ", data_.size(), " would exceed the largest offset ",
                                 kMaxDataSize);
  }

  internal::BufferBuilder offsets_;
  internal::BufferBuilder data_;
};

/// Builder of binary values with 32-bit offsets (at most 2 GiB of data per array).
using BinaryBuilder = BaseBinaryBuilder<BinaryType>;
/// Builder of UTF-8 strings with 32-bit offsets (at most 2 GiB of data per array).
using StringBuilder = BaseBinaryBuilder<StringType>;
/// Builder of binary values with 64-bit offsets.
using LargeBinaryBuilder = BaseBinaryBuilder<LargeBinaryType>;
/// Builder of UTF-8 strings with 64-bit offsets.
using LargeStringBuilder = BaseBinaryBuilder<LargeStringType>;

/// binary_view and utf8_view. Values of up to 12 bytes live inside their view;
/// longer ones are copied into data blocks that start at 32 KiB and double
/// (up to 2 MiB) each time a block fills up.
/// The type decides binary_view or utf8_view; UTF-8 is not checked. Finish
/// hands the data blocks out without copying (a block's unused capacity stays
/// allocated with it).
class ALKAID_EXPORT BinaryViewBuilder final : public ArrayBuilder,
                                public internal::StringValuesAppender<BinaryViewBuilder> {
 public:
  using internal::StringValuesAppender<BinaryViewBuilder>::AppendValues;
  static constexpr int64_t kInitialBlockSize = 32 * 1024;  ///< Bytes of the first data block.
  /// Bytes beyond which blocks stop doubling (a longer value gets a block of its own size).
  static constexpr int64_t kMaxBlockSize = 2 * 1024 * 1024;

  /// A builder of `type`, which must be binary_view or utf8_view.
  BinaryViewBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Appends one non-null value (copied: into the view when short, else into
  /// the current data block); CapacityError for a value over 2^31 - 1 bytes.
  Status Append(std::string_view value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    BinaryViewValue view;
    if (static_cast<int64_t>(value.size()) <= BinaryViewValue::kInlineSize) {
      std::memset(&view, 0, sizeof(view));
      view.inlined.size = static_cast<int32_t>(value.size());
      if (!value.empty()) std::memcpy(view.inlined.data, value.data(), value.size());
    } else {
      ALKAID_RETURN_NOT_OK(StoreOutOfLine(value, &view));
    }
    std::memcpy(views_.mutable_data() + length_ * sizeof(BinaryViewValue), &view, sizeof(view));
    UnsafeAppendValid();
    return Status::OK();
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Used by the AppendValues overloads: n values, slot i null unless is_valid(i).
  template <typename S, typename IsValid>
  Status AppendStrings(const S* values, int64_t n, IsValid is_valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      ALKAID_RETURN_NOT_OK(is_valid(i) ? Append(std::string_view(values[i])) : AppendNull());
    }
    return Status::OK();
  }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  /// Same as Append(bytes).
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  /// Data blocks started so far (including the one being filled).
  int64_t num_data_blocks() const;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  // Copies a value longer than 12 bytes into the current block and fills
  // size, prefix, buffer index and offset of `view`.
  Status StoreOutOfLine(std::string_view value, BinaryViewValue* view);

  internal::BufferBuilder views_;
  std::vector<BufferPtr> finished_blocks_;
  internal::BufferBuilder current_block_;
  int64_t next_block_size_ = kInitialBlockSize;
};

/// list and large_list: Append() opens a slot, then the caller appends that
/// slot's elements to value_builder().
/// @tparam T ListType or LargeListType (32- or 64-bit offsets).
template <typename T>
class BaseListBuilder final : public ArrayBuilder {
 public:
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large lists.
  /// Largest child length the offsets can address.
  static constexpr int64_t kMaxOffset = std::numeric_limits<offset_type>::max();

  /// A builder of `type` (list or large_list) that owns `value_builder`,
  /// which must build the list's value type.
  BaseListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                  MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool) {
    children_.push_back(std::move(value_builder));
  }

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }

  /// Opens slot length(): the values appended to value_builder() from now until
  /// the next slot opens belong to it. A null slot (`valid` false) should get no
  /// values. CapacityError when the child is longer than kMaxOffset.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    return AppendValidity(valid);
  }
  /// Appends `n` null, empty slots.
  Status AppendNulls(int64_t n) override { return AppendSlots(n, false); }
  /// Appends `n` non-null empty lists.
  Status AppendEmptyValues(int64_t n) override { return AppendSlots(n, true); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
  }

 protected:
  Status Resize(int64_t capacity) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(offset_type)));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets,
                           offsets_.FinishWithSize((length_ + 1) * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
    out->buffers = {std::move(validity), std::move(offsets)};
    out->child_data = {std::move(values)};
    return Status::OK();
  }

 private:
  Status WriteOffsetAt(int64_t slot) {
    int64_t child_length = value_builder()->length();
    if (child_length > kMaxOffset) {
      return Status::CapacityError(type_->ToString(), " builder: child length ", child_length,
                                   " exceeds the largest offset ", kMaxOffset);
    }
    auto offset = static_cast<offset_type>(child_length);
    std::memcpy(offsets_.mutable_data() + slot * sizeof(offset_type), &offset, sizeof(offset));
    return Status::OK();
  }
  Status AppendSlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_ + i));
    if (valid) {
      UnsafeAppendValid(n);
      return Status::OK();
    }
    return AppendNullBits(n);
  }

  internal::BufferBuilder offsets_;
};

/// Builder of lists with 32-bit offsets.
using ListBuilder = BaseListBuilder<ListType>;
/// Builder of lists with 64-bit offsets.
using LargeListBuilder = BaseListBuilder<LargeListType>;

/// list_view and large_list_view built in list order: each slot's offset is
/// the child length when it was opened and its size is what the caller
/// appended to value_builder() before the next slot (or Finish).
/// @tparam T ListViewType or LargeListViewType (32- or 64-bit offsets and sizes).
template <typename T>
class BaseListViewBuilder final : public ArrayBuilder {
 public:
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large list views.
  /// Largest child length the offsets and sizes can address.
  static constexpr int64_t kMaxOffset = std::numeric_limits<offset_type>::max();

  /// A builder of `type` (list_view or large_list_view) that owns
  /// `value_builder`, which must build the value type.
  BaseListViewBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                      MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool), sizes_(pool) {
    children_.push_back(std::move(value_builder));
  }

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }

  /// Closes the previous slot (its size becomes what was appended since it
  /// opened) and opens slot length(). A null slot gets size 0 whatever follows.
  /// CapacityError when the child is longer than kMaxOffset.
  Status Append(bool valid = true) {
    ALKAID_RETURN_NOT_OK(AppendSlots(1, valid));
    open_slot_ = valid ? length_ - 1 : -1;
    return Status::OK();
  }
  /// Appends `n` null slots of size 0.
  Status AppendNulls(int64_t n) override { return AppendSlots(n, false); }
  /// Appends `n` non-null empty list views.
  Status AppendEmptyValues(int64_t n) override { return AppendSlots(n, true); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
    sizes_.Reset();
    open_slot_ = -1;
  }

 protected:
  Status Resize(int64_t capacity) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity(capacity * sizeof(offset_type)));
    ALKAID_RETURN_NOT_OK(sizes_.EnsureCapacity(capacity * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(CloseOpenSlot());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize(length_ * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr sizes, sizes_.FinishWithSize(length_ * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
    out->buffers = {std::move(validity), std::move(offsets), std::move(sizes)};
    out->child_data = {std::move(values)};
    return Status::OK();
  }

 private:
  Status CheckedChildLength(offset_type* out) const {
    int64_t child_length = value_builder()->length();
    if (child_length > kMaxOffset) {
      return Status::CapacityError(type_->ToString(), " builder: child length ", child_length,
                                   " exceeds the largest offset ", kMaxOffset);
    }
    *out = static_cast<offset_type>(child_length);
    return Status::OK();
  }
  // The size of the slot opened last is only known once the next one opens.
  Status CloseOpenSlot() {
    if (open_slot_ < 0) return Status::OK();
    offset_type end = 0;
    ALKAID_RETURN_NOT_OK(CheckedChildLength(&end));
    offset_type start = 0;
    std::memcpy(&start, offsets_.data() + open_slot_ * sizeof(offset_type), sizeof(start));
    offset_type size = end - start;
    std::memcpy(sizes_.mutable_data() + open_slot_ * sizeof(offset_type), &size, sizeof(size));
    open_slot_ = -1;
    return Status::OK();
  }
  // Slots with size zero at the current child end.
  Status AppendSlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(CloseOpenSlot());
    ALKAID_RETURN_NOT_OK(Reserve(n));
    offset_type start = 0;
    ALKAID_RETURN_NOT_OK(CheckedChildLength(&start));
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(offsets_.mutable_data() + (length_ + i) * sizeof(offset_type), &start,
                  sizeof(start));
    }
    if (valid) {
      UnsafeAppendValid(n);
      return Status::OK();
    }
    return AppendNullBits(n);
  }

  internal::BufferBuilder offsets_;
  internal::BufferBuilder sizes_;
  int64_t open_slot_ = -1;
};

/// Builder of list views with 32-bit offsets and sizes.
using ListViewBuilder = BaseListViewBuilder<ListViewType>;
/// Builder of list views with 64-bit offsets and sizes.
using LargeListViewBuilder = BaseListViewBuilder<LargeListViewType>;

/// fixed_size_list<T>[n]: after Append(valid) the caller appends exactly n
/// values to value_builder(); the count is checked at the next append and at
/// Finish. Nulls and empty values append n child nulls / empty values.
class ALKAID_EXPORT FixedSizeListBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a fixed-size list) that owns `value_builder`, which
  /// must build the value type.
  FixedSizeListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                       MemoryPool* pool = default_memory_pool());

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }
  /// Child values per slot, from the type.
  int32_t list_size() const { return list_size_; }

  /// Appends a slot whose list_size() values the caller appends next (also for
  /// a null slot). Invalid when the child does not hold exactly list_size()
  /// values for every earlier slot.
  Status Append(bool valid = true) {
    ALKAID_RETURN_NOT_OK(CheckChildLength());
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    return AppendValidity(valid);
  }
  /// Appends `n` null slots and n * list_size() child nulls.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots of n * list_size() child empty values.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  // The child must hold list_size values per slot appended so far.
  Status CheckChildLength() const;

  int32_t list_size_;
};

/// struct: Append(valid) adds the parent slot only; the caller appends one
/// value to every field_builder(i). AppendNull(s)/AppendEmptyValue(s) append
/// to the children as well.
/// Finish checks that every child has exactly length() values (Invalid
/// otherwise).
class ALKAID_EXPORT StructBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a struct) that owns `field_builders`, one per field
  /// in field order, each building that field's type.
  StructBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> field_builders,
                MemoryPool* pool = default_memory_pool());

  /// Builder of field `i`; owned by this builder (unchecked: 0 <= i < num_fields()).
  ArrayBuilder* field_builder(int i) const { return child(i); }
  /// Number of fields (child builders).
  int num_fields() const { return num_children(); }

  /// Appends the parent slot only; the caller appends one value to every field
  /// builder, even for a null slot.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    return AppendValidity(valid);
  }
  /// n parent slots (valid_bytes[i] == 0 marks null) without touching children.
  Status AppendValues(int64_t n, const uint8_t* valid_bytes = nullptr);
  /// Appends `n` null slots and `n` nulls to every field.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` valid slots and `n` empty values to every field.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;
};

/// map<K, V>: Append() opens a map slot, then the caller appends each entry's
/// key to key_builder() and its value to item_builder().
/// Finish fails with Invalid when the key and item builders hold different
/// numbers of values.
class ALKAID_EXPORT MapBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a map) that owns the key and item builders, which
  /// must build the key and item types.
  MapBuilder(DataTypePtr type, ArrayBuilderPtr key_builder, ArrayBuilderPtr item_builder,
             MemoryPool* pool = default_memory_pool());

  /// Builder of the keys of all entries; keys must not be null.
  ArrayBuilder* key_builder() const { return entries()->field_builder(0); }
  /// Builder of the values of all entries.
  ArrayBuilder* item_builder() const { return entries()->field_builder(1); }
  /// The struct<key, value> builder holding both; its slots are appended for
  /// you as keys arrive, so callers rarely need it.
  StructBuilder* entries() const { return static_cast<StructBuilder*>(children_[0].get()); }

  /// Opens slot length(): the entries appended from now until the next slot
  /// opens belong to it. CapacityError when there are more than 2^31 - 1 keys.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    return AppendValidity(valid);
  }
  /// Appends `n` null slots with no entries.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` empty maps.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status WriteOffsetAt(int64_t slot);
  // Entry structs are never null; they are appended as keys arrive.
  Status SyncEntries();

  internal::BufferBuilder offsets_;
};

/// Shared by both union modes: child builders addressed by type code.
/// Type codes are the ones the union type declares, not child indices.
class ALKAID_EXPORT UnionBuilderBase : public ArrayBuilder {
 public:
  /// The union type being built.
  const UnionType& union_type() const { return checked_cast<UnionType>(*type_); }
  /// The builder of the child declared with `type_code` (nullptr if undeclared).
  ArrayBuilder* child_builder(int8_t type_code) const {
    int index = union_type().child_index(type_code);
    return index < 0 ? nullptr : child(index);
  }
  /// Unions have no validity bitmap: the children carry the nulls.
  int64_t null_count() const override { return 0; }
  void Reset() override;

 protected:
  /// Takes ownership of one builder per child of the union type, in child
  /// order.
  UnionBuilderBase(DataTypePtr type, std::vector<ArrayBuilderPtr> children, MemoryPool* pool);
  Status Resize(int64_t capacity) override;
  /// Invalid unless the type declares `type_code`.
  Status CheckTypeCode(int8_t type_code) const;
  /// Writes the type code of slot length() and counts the slot; capacity must have been reserved.
  void UnsafeAppendTypeCode(int8_t code) {
    types_.mutable_data()[length_] = static_cast<uint8_t>(code);
    ++length_;
  }

  internal::BufferBuilder types_;  ///< One int8 type code per slot.
};

/// sparse_union: Append(code) records the code and appends an empty value to
/// every other child; the caller then appends the value to child_builder(code).
/// AppendNull appends a null to the first child (empty values to the rest).
/// Finish fails with Invalid unless every child holds one value per slot.
class ALKAID_EXPORT SparseUnionBuilder final : public UnionBuilderBase {
 public:
  /// A builder of `type` (a sparse union) owning one builder per child, in child order.
  SparseUnionBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                     MemoryPool* pool = default_memory_pool())
      : UnionBuilderBase(std::move(type), std::move(children), pool) {}

  /// Invalid for a type code the union does not declare. After it, exactly one
  /// value goes to child_builder(type_code).
  Status Append(int8_t type_code);
  /// Appends `n` slots selecting the first child, holding nulls there (empty
  /// values in the other children); Invalid for a union without children.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots selecting the first child, every child getting its
  /// empty value; Invalid for a union without children.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;
};

/// dense_union: Append(code) records the code and the selected child's current
/// length as the offset; the caller then appends the value to child_builder(code).
class ALKAID_EXPORT DenseUnionBuilder final : public UnionBuilderBase {
 public:
  /// A builder of `type` (a dense union) owning one builder per child, in child order.
  DenseUnionBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                    MemoryPool* pool = default_memory_pool())
      : UnionBuilderBase(std::move(type), std::move(children), pool), offsets_(pool) {}

  /// Invalid for a type code the union does not declare; CapacityError when the
  /// child's length no longer fits an int32 offset. After it, exactly one value
  /// goes to child_builder(type_code).
  Status Append(int8_t type_code);
  /// Appends `n` nulls to the first child and slots pointing at them; Invalid
  /// for a union without children.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` empty values to the first child and slots pointing at them.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status AppendToFirstChild(int64_t n, bool null);

  internal::BufferBuilder offsets_;
};

namespace internal {
// Hash and equality over bytes that accept both std::string and
// std::string_view, so lookups need no allocation.
struct ALKAID_EXPORT BytesHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
struct ALKAID_EXPORT BytesEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};
}  // namespace internal

/// dictionary<values: V, indices: I>. Append(value) looks the value up in a
/// memo table keyed by its bytes, adds it to the dictionary when new, and
/// appends its index. Works for every value type whose builder accepts
/// AppendValueBytes (fixed-width and binary-like). For other value types
/// append the dictionary values to value_builder() yourself and use
/// AppendIndex. Finish puts the dictionary in ArrayData::dictionary.
/// Indices are kept as int64 while building and narrowed to the index type at
/// Finish; a dictionary that outgrows the index type is a CapacityError.
class ALKAID_EXPORT DictionaryBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a dictionary type with an integer index type) that
  /// owns `value_builder`, which must build the value type.
  DictionaryBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                    MemoryPool* pool = default_memory_pool());

  /// The dictionary type being built.
  const DictionaryType& dictionary_type() const { return checked_cast<DictionaryType>(*type_); }
  /// Builder of the dictionary values (not of the indices).
  ArrayBuilder* value_builder() const { return children_[0].get(); }
  /// Distinct values in the dictionary so far.
  int64_t dictionary_length() const { return value_builder()->length(); }

  /// The value as raw bytes (see ArrayBuilder::AppendValueBytes); returns its index.
  /// TypeError from the value builder when it does not take raw bytes;
  /// CapacityError when a new value's index would not fit the index type.
  Result<int64_t> AppendBytes(std::string_view value_bytes);
  /// A binary or string value; returns its dictionary index.
  Result<int64_t> Append(std::string_view value) { return AppendBytes(value); }
  /// A NUL-terminated string value; returns its dictionary index.
  Result<int64_t> Append(const char* value) { return AppendBytes(value); }
  /// Scalars of the value type's C type (int32_t for int32, double, ...).
  /// Returns the dictionary index. The C type must match the value type
  /// exactly: its size decides the bytes, so an int for an int64 dictionary
  /// is an Invalid status from the value builder.
  template <typename V>
    requires(std::is_arithmetic_v<V> || std::is_same_v<V, DayTimeInterval> ||
             std::is_same_v<V, MonthDayNanoInterval>)
  Result<int64_t> Append(V value) {
    if constexpr (std::is_same_v<V, bool>) {
      char byte = value ? 1 : 0;
      return AppendBytes(std::string_view(&byte, 1));
    } else {
      return AppendBytes(std::string_view(reinterpret_cast<const char*>(&value), sizeof(V)));
    }
  }
  /// A raw index into the dictionary built so far (checked against its length).
  /// IndexError outside [0, dictionary_length()); CapacityError when the index
  /// type cannot hold it.
  Status AppendIndex(int64_t index);
  /// Appends `n` null slots (index 0 under each).
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots pointing at one new dictionary entry holding the value
  /// type's empty value. Each call adds an entry (no deduplication);
  /// CapacityError when the index type has no index left.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status UnsafeAppendIndex(int64_t index) {
    std::memcpy(indices_.mutable_data() + length_ * sizeof(int64_t), &index, sizeof(index));
    UnsafeAppendValid();
    return Status::OK();
  }

  int64_t max_index_;
  internal::BufferBuilder indices_;  // int64 until Finish narrows them
  std::unordered_map<std::string, int64_t, internal::BytesHash, internal::BytesEqual> memo_;
};

/// run_end_encoded<run_ends: R, values: V>. Appending a value equal (byte for
/// byte) to the previous one, or a null after a null, extends the current run.
/// Typed appends work for every value type whose builder accepts
/// AppendValueBytes. For any other value type append one value to
/// values_builder() and call AppendRun(n); ExtendRun(n) lengthens the last run.
/// Run ends are kept as int64 while building and narrowed to the run-end
/// type at Finish; a logical length the run-end type cannot hold is a
/// CapacityError.
class ALKAID_EXPORT RunEndEncodedBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (run_end_encoded) that owns `values_builder`, which
  /// must build the value type.
  RunEndEncodedBuilder(DataTypePtr type, ArrayBuilderPtr values_builder,
                       MemoryPool* pool = default_memory_pool());

  /// Builder of the run values (one per run); owned by this builder.
  ArrayBuilder* values_builder() const { return children_[0].get(); }
  /// The run-end encoded type being built.
  const RunEndEncodedType& ree_type() const { return checked_cast<RunEndEncodedType>(*type_); }

  /// Appends `repeat` slots holding the value given as raw bytes (see
  /// ArrayBuilder::AppendValueBytes); extends the current run when the bytes
  /// equal the previous value's. TypeError when the value builder does not take
  /// raw bytes, Invalid for a negative `repeat`.
  Status AppendBytes(std::string_view value_bytes, int64_t repeat = 1);
  /// Appends one slot holding a binary or string value.
  Status Append(std::string_view value) { return AppendBytes(value); }
  /// Appends one slot holding a NUL-terminated string value.
  Status Append(const char* value) { return AppendBytes(value); }
  /// Appends one slot holding a scalar of the value type's C type; the C type
  /// must match the value type exactly (its size decides the bytes).
  template <typename V>
    requires(std::is_arithmetic_v<V> || std::is_same_v<V, DayTimeInterval> ||
             std::is_same_v<V, MonthDayNanoInterval>)
  Status Append(V value) {
    if constexpr (std::is_same_v<V, bool>) {
      char byte = value ? 1 : 0;
      return AppendBytes(std::string_view(&byte, 1));
    } else {
      return AppendBytes(std::string_view(reinterpret_cast<const char*>(&value), sizeof(V)));
    }
  }
  /// Starts a run of `run_length` slots for the value the caller has just
  /// appended to values_builder().
  /// Invalid unless exactly one value was appended to values_builder() since
  /// the last run started.
  Status AppendRun(int64_t run_length);
  /// Lengthens the current run by n slots.
  /// Invalid when no run has been started.
  Status ExtendRun(int64_t n);
  /// Appends `n` null slots, extending the current run when it is null.
  Status AppendNulls(int64_t n) override;
  /// Appends a run of `n` slots holding the value type's empty value.
  Status AppendEmptyValues(int64_t n) override;
  /// The logical length is always known; there is no validity bitmap.
  int64_t null_count() const override { return 0; }
  /// Runs so far, the open one included.
  int64_t num_runs() const;
  void Reset() override;

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  enum class RunKind : int8_t { kNone, kNull, kBytes, kOpaque };
  Status CheckRunEnd(int64_t added) const;
  Status CloseRun();
  Status StartRun(RunKind kind, int64_t run_length);

  int64_t max_run_end_;
  RunKind run_kind_ = RunKind::kNone;
  std::string run_bytes_;
  internal::BufferBuilder run_ends_;  // int64 until Finish narrows them
};

/// An extension type over a builder of its storage type; the finished array
/// carries the extension type.
/// Every append goes straight to storage_builder().
class ALKAID_EXPORT ExtensionBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (an extension type) that owns `storage_builder`, which
  /// must build the extension's storage type.
  ExtensionBuilder(DataTypePtr type, ArrayBuilderPtr storage_builder,
                   MemoryPool* pool = default_memory_pool());

  /// Builder of the storage array; append the values here with its typed methods.
  ArrayBuilder* storage_builder() const { return children_[0].get(); }
  /// Slots appended to the storage builder.
  int64_t length() const override { return storage_builder()->length(); }
  /// Nulls appended to the storage builder.
  int64_t null_count() const override { return storage_builder()->null_count(); }
  Status AppendNulls(int64_t n) override { return storage_builder()->AppendNulls(n); }
  Status AppendEmptyValues(int64_t n) override { return storage_builder()->AppendEmptyValues(n); }
  Status AppendValueBytes(std::string_view bytes) override {
    return storage_builder()->AppendValueBytes(bytes);
  }

 protected:
  Status FinishInto(ArrayData* out) override;
};

}  // namespace alkaid
