#include "alkaid/extension/timestamp_with_offset.h"

#include <algorithm>

#include "alkaid/bitmap.h"
#include "extension_internal.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kTimestampWithOffsetName;

Status CheckOffsetType(const DataType& type) {
  const DataType* values = &type;
  if (type.id() == TypeId::kDictionary) {
    values = checked_cast<DictionaryType>(type).value_type().get();
  } else if (type.id() == TypeId::kRunEndEncoded) {
    values = checked_cast<RunEndEncodedType>(type).value_type().get();
  }
  if (values->id() != TypeId::kInt16) {
    return Status::Invalid(kExt,
                           ": storage field 'offset_minutes' must be int16 (optionally "
                           "dictionary- or run-end-encoded), got ",
                           type.ToString());
  }
  return Status::OK();
}

Result<TimeUnit> CheckStorage(const DataTypePtr& storage) {
  ALKAID_RETURN_NOT_OK(
      ei::ExpectStorageId(kExt, storage, TypeId::kStruct,
                          "struct<timestamp: timestamp[unit, tz=UTC], offset_minutes: int16>"));
  if (storage->num_fields() != 2 || storage->field(0)->name() != "timestamp" ||
      storage->field(1)->name() != "offset_minutes") {
    return Status::Invalid(kExt,
                           ": storage must be a struct of the fields 'timestamp' and "
                           "'offset_minutes' in that order, got ",
                           storage->ToString());
  }
  const DataType& ts = *storage->field(0)->type();
  if (ts.id() != TypeId::kTimestamp || checked_cast<TimestampType>(ts).timezone() != "UTC") {
    return Status::Invalid(kExt,
                           ": storage field 'timestamp' must be a timestamp with time "
                           "zone \"UTC\", got ",
                           ts.ToString());
  }
  ALKAID_RETURN_NOT_OK(CheckOffsetType(*storage->field(1)->type()));
  return checked_cast<TimestampType>(ts).unit();
}

// Index into the values child of the run holding logical position `pos`.
int64_t RunIndex(const ArrayData& ree, int64_t pos) {
  const ArrayData& ends = *ree.child_data[0];
  // Run ends are sorted; binary search over them whatever their width.
  int64_t lo = 0, hi = ends.length;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (ei::ReadInteger(ends, mid) <= pos) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

int64_t UnitsPerMinute(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond:
      return 60;
    case TimeUnit::kMilli:
      return 60'000;
    case TimeUnit::kMicro:
      return 60'000'000;
    case TimeUnit::kNano:
      return 60'000'000'000;
  }
  return 60;
}

std::shared_ptr<TimestampWithOffsetType> TimestampWithOffsetType::Make(TimeUnit unit) {
  auto storage = struct_({alkaid::field("timestamp", timestamp(unit, "UTC"), false),
                          alkaid::field("offset_minutes", int16(), false)});
  return std::shared_ptr<TimestampWithOffsetType>(
      new TimestampWithOffsetType(std::move(storage), unit));
}

Result<std::shared_ptr<TimestampWithOffsetType>> TimestampWithOffsetType::MakeFromStorage(
    DataTypePtr storage_type) {
  ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, CheckStorage(storage_type));
  return std::shared_ptr<TimestampWithOffsetType>(
      new TimestampWithOffsetType(std::move(storage_type), unit));
}

// ---------------------------------------------------------------------------
// Array access

Result<TimestampWithOffsetArray> TimestampWithOffsetArray::Make(ArrayDataPtr data) {
  ALKAID_ASSIGN_OR_RAISE(auto type, ei::ArrayTypeOf<TimestampWithOffsetType>(kExt, data, 2));
  const ArrayData& offsets = *data->child_data[1];
  if (offsets.type->id() == TypeId::kDictionary && offsets.dictionary == nullptr) {
    return Status::Invalid(kExt, ": dictionary-encoded offset_minutes has no dictionary");
  }
  if (offsets.type->id() == TypeId::kRunEndEncoded && offsets.child_data.size() != 2) {
    return Status::Invalid(kExt, ": run-end-encoded offset_minutes needs two children");
  }
  return TimestampWithOffsetArray(std::move(data), std::move(type));
}

bool TimestampWithOffsetArray::IsNull(int64_t i) const {
  // The spec reads a null inner timestamp as a null value.
  return data_->IsNull(i) || data_->child_data[0]->IsNull(data_->offset + i);
}

int64_t TimestampWithOffsetArray::GetUtc(int64_t i) const {
  const ArrayData& ts = *data_->child_data[0];
  return ts.GetValues<int64_t>(1)[data_->offset + i];
}

int16_t TimestampWithOffsetArray::GetOffsetMinutes(int64_t i) const {
  const ArrayData& offsets = *data_->child_data[1];
  int64_t pos = data_->offset + i;
  switch (offsets.type->id()) {
    case TypeId::kDictionary: {
      if (offsets.IsNull(pos)) return 0;
      int64_t index = ei::ReadInteger(offsets, pos);
      const ArrayData& dict = *offsets.dictionary;
      if (index < 0 || index >= dict.length || dict.IsNull(index)) return 0;
      return dict.GetValues<int16_t>(1)[index];
    }
    case TypeId::kRunEndEncoded: {
      // Run ends count logical positions from the start of the REE array.
      int64_t run = RunIndex(offsets, offsets.offset + pos);
      const ArrayData& values = *offsets.child_data[1];
      return values.IsNull(run) ? int16_t{0} : values.GetValues<int16_t>(1)[run];
    }
    default:
      return offsets.IsNull(pos) ? int16_t{0} : offsets.GetValues<int16_t>(1)[pos];
  }
}

Result<std::optional<int64_t>> TimestampWithOffsetArray::GetLocalTime(int64_t i) const {
  if (i < 0 || i >= data_->length) {
    return Status::IndexError(kExt, ": slot ", i, " is outside an array of length ", data_->length);
  }
  if (IsNull(i)) return std::optional<int64_t>();
  int64_t shift = static_cast<int64_t>(GetOffsetMinutes(i)) * UnitsPerMinute(type_->unit());
  int64_t local;
  if (__builtin_add_overflow(GetUtc(i), shift, &local)) {
    return Status::Invalid(kExt, ": slot ", i, ": local time overflows int64");
  }
  return std::optional<int64_t>(local);
}

Status TimestampWithOffsetArray::ValidateFull() const {
  const uint8_t* validity = data_->MayHaveNulls() ? data_->validity() : nullptr;
  Status status;
  bit_util::VisitSetBits(validity, data_->offset, data_->length, [&](int64_t i) {
    if (!status.ok()) return;
    int16_t minutes = GetOffsetMinutes(i);
    if (minutes < kMinOffsetMinutes || minutes > kMaxOffsetMinutes) {
      status =
          Status::Invalid(kExt, ": slot ", i, ": offset_minutes is ", minutes, "; it must lie in [",
                          kMinOffsetMinutes, ", ", kMaxOffsetMinutes, "]");
    }
  });
  return status;
}

}  // namespace alkaid
