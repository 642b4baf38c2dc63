/// @file
/// arrow.timestamp_with_offset: a UTC timestamp plus the original zone offset
/// in minutes, per value. Storage: struct<timestamp: timestamp[unit, UTC],
/// offset_minutes: int16> (the offset may be dictionary- or run-end-encoded).
///
/// Types and TimestampWithOffsetArray are immutable: every function here may
/// be called from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/extension/parameterless.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Extension name of TimestampWithOffsetType.
inline constexpr const char* kTimestampWithOffsetName = "arrow.timestamp_with_offset";
// The offsets the spec allows: -12:59 to +13:00.
/// Smallest offset the spec allows, in minutes (-12:59).
inline constexpr int16_t kMinOffsetMinutes = -779;
/// Largest offset the spec allows, in minutes (+13:00).
inline constexpr int16_t kMaxOffsetMinutes = 780;

/// The arrow.timestamp_with_offset extension type. Its only parameter, the
/// time unit, is taken from the storage's timestamp field.
class ALKAID_EXPORT TimestampWithOffsetType final : public ParameterlessExtensionType {
 public:
  /// struct<timestamp: timestamp[unit, UTC] not null, offset_minutes: int16 not null>.
  static std::shared_ptr<TimestampWithOffsetType> Make(TimeUnit unit);
  /// Checks a given storage: exactly two fields in order, "timestamp" of type
  /// timestamp[any unit, "UTC"] and "offset_minutes" of int16,
  /// dictionary<integer, int16> or run_end_encoded<_, int16>. Invalid otherwise.
  static Result<std::shared_ptr<TimestampWithOffsetType>> MakeFromStorage(DataTypePtr storage_type);

  /// kTimestampWithOffsetName.
  std::string extension_name() const override { return kTimestampWithOffsetName; }

  /// Unit of the UTC timestamps (from the storage's timestamp field).
  TimeUnit unit() const { return unit_; }

 private:
  Result<DataTypePtr> FromStorage(DataTypePtr storage_type) const override {
    return AsDataType(MakeFromStorage(std::move(storage_type)));
  }
  TimestampWithOffsetType(DataTypePtr storage, TimeUnit unit)
      : ParameterlessExtensionType(std::move(storage)), unit_(unit) {}
  TimeUnit unit_;
};

/// Read access to an array whose type is TimestampWithOffsetType. Shares
/// (does not copy) the array data; the accessors taking a slot index `i`
/// count from the array's logical start (its offset is applied for you).
class ALKAID_EXPORT TimestampWithOffsetArray {
 public:
  /// Wraps `data`: TypeError unless its type is arrow.timestamp_with_offset,
  /// Invalid when the struct does not have its two children or an encoded
  /// offset child lacks its dictionary / run arrays. Assumes the array
  /// passed structural validation (ValidateArrayFull).
  static Result<TimestampWithOffsetArray> Make(ArrayDataPtr data);

  /// The array's extension type.
  const TimestampWithOffsetType& extension_type() const { return *type_; }
  /// Number of slots.
  int64_t length() const { return data_->length; }
  /// Null when the struct slot or its timestamp is null.
  /// Precondition: 0 <= i < length() (not checked).
  bool IsNull(int64_t i) const;
  /// UTC timestamp of slot i in the type's unit (slot must be non-null).
  /// Precondition: 0 <= i < length() (not checked).
  int64_t GetUtc(int64_t i) const;
  /// Offset of slot i in minutes; a null offset reads as 0 (as the spec says).
  /// Precondition: 0 <= i < length() (not checked).
  int16_t GetOffsetMinutes(int64_t i) const;
  /// UTC + offset, in the type's unit: the wall-clock time where the value was
  /// recorded. nullopt for null slots; IndexError for i outside
  /// [0, length()), Invalid on int64 overflow.
  Result<std::optional<int64_t>> GetLocalTime(int64_t i) const;
  /// Every slot whose struct entry is valid has an offset in
  /// [kMinOffsetMinutes, kMaxOffsetMinutes] = [-779, 780]; the error names the
  /// first slot that does not.
  Status ValidateFull() const;

 private:
  TimestampWithOffsetArray(ArrayDataPtr data, std::shared_ptr<const TimestampWithOffsetType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const TimestampWithOffsetType> type_;
};

/// Units of `unit` in one minute (60 for seconds ... 6e10 for nanoseconds).
ALKAID_EXPORT int64_t UnitsPerMinute(TimeUnit unit);

}  // namespace alkaid
