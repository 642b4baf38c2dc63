/// @file
/// Builders of the flat fixed-width types: null, boolean, and NumericBuilder for
/// integers, floats, dates, times, timestamps, durations and intervals. Their
/// typed appends are inline and non-virtual (see alkaid/builder.h).
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

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
  BufferBuilder values_;  // a bitmap
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
    ALKAID_RETURN_NOT_OK(CheckValidityLength(values.size(), is_valid.size()));
    const auto n = static_cast<int64_t>(values.size());
    ALKAID_RETURN_NOT_OK(Reserve(n));
    if (n > 0) {
      std::memcpy(values_.mutable_data() + length_ * kWidth, values.data(),
                  static_cast<size_t>(n * kWidth));
    }
    for (size_t i = 0; i < is_valid.size(); ++i) ALKAID_RETURN_NOT_OK(AppendValidity(is_valid[i]));
    return Status::OK();
  }
  /// Appends `n` null slots (value bytes zero under them).
  Status AppendNulls(int64_t n) override { return AppendZeroedSlots(n, false); }
  /// Appends `n` zeros.
  Status AppendEmptyValues(int64_t n) override { return AppendZeroedSlots(n, true); }
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
  BufferBuilder values_;
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

}  // namespace alkaid
