// arrow.timestamp_with_offset: a UTC timestamp plus the original zone offset
// in minutes, per value. Storage: struct<timestamp: timestamp[unit, UTC],
// offset_minutes: int16> (the offset may be dictionary- or run-end-encoded).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kTimestampWithOffsetName = "arrow.timestamp_with_offset";
// The offsets the spec allows: -12:59 to +13:00.
inline constexpr int16_t kMinOffsetMinutes = -779;
inline constexpr int16_t kMaxOffsetMinutes = 780;

class ALKAID_EXPORT TimestampWithOffsetType final : public ExtensionType {
 public:
  // struct<timestamp: timestamp[unit, UTC] not null, offset_minutes: int16 not null>.
  static std::shared_ptr<TimestampWithOffsetType> Make(TimeUnit unit);
  // Checks a given storage: exactly two fields in order, "timestamp" of type
  // timestamp[any unit, "UTC"] and "offset_minutes" of int16,
  // dictionary<integer, int16> or run_end_encoded<_, int16>.
  static Result<std::shared_ptr<TimestampWithOffsetType>> MakeFromStorage(DataTypePtr storage_type);

  std::string extension_name() const override { return kTimestampWithOffsetName; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

  TimeUnit unit() const { return unit_; }

 private:
  TimestampWithOffsetType(DataTypePtr storage, TimeUnit unit)
      : ExtensionType(std::move(storage)), unit_(unit) {}
  TimeUnit unit_;
};

class ALKAID_EXPORT TimestampWithOffsetArray {
 public:
  static Result<TimestampWithOffsetArray> Make(ArrayDataPtr data);

  const TimestampWithOffsetType& extension_type() const { return *type_; }
  int64_t length() const { return data_->length; }
  // Null when the struct slot or its timestamp is null.
  bool IsNull(int64_t i) const;
  // UTC timestamp of slot i in the type's unit (slot must be non-null).
  int64_t GetUtc(int64_t i) const;
  // Offset of slot i in minutes; a null offset reads as 0 (as the spec says).
  int16_t GetOffsetMinutes(int64_t i) const;
  // UTC + offset, in the type's unit: the wall-clock time where the value was
  // recorded. nullopt for null slots; an error on overflow.
  Result<std::optional<int64_t>> GetLocalTime(int64_t i) const;
  // Every non-null slot's offset lies in [-779, 780].
  Status ValidateFull() const;

 private:
  TimestampWithOffsetArray(ArrayDataPtr data, std::shared_ptr<const TimestampWithOffsetType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const TimestampWithOffsetType> type_;
};

// Units of `unit` in one minute.
ALKAID_EXPORT int64_t UnitsPerMinute(TimeUnit unit);

}  // namespace alkaid
