// Tests of arrow.parquet.variant and arrow.timestamp_with_offset.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "alkaid/extension/api.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;
using ::testing::HasSubstr;

// ---------------------------------------------------------------------------
// arrow.parquet.variant

FieldPtr Metadata(DataTypePtr type = binary()) { return field("metadata", std::move(type), false); }
FieldPtr Value(DataTypePtr type = binary()) { return field("value", std::move(type)); }
FieldPtr TypedValue(DataTypePtr type) { return field("typed_value", std::move(type)); }

std::string VariantError(DataTypePtr storage) {
  auto r = VariantType::Make(std::move(storage));
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string() : r.status().message();
}

void ExpectVariantOk(DataTypePtr storage) {
  auto r = VariantType::Make(storage);
  EXPECT_TRUE(r.ok()) << storage->ToString() << ": " << r.status();
}

TEST(VariantType, Unshredded) {
  auto type = VariantType::MakeUnshredded();
  EXPECT_EQ(type->extension_name(), "arrow.parquet.variant");
  EXPECT_EQ(type->Serialize(), "");
  EXPECT_EQ(type->metadata_index(), 0);
  EXPECT_EQ(type->value_index(), 1);
  EXPECT_EQ(type->typed_value_index(), -1);
  auto back = type->Deserialize(type->storage_type(), "").ValueOrDie();
  EXPECT_TRUE(back->Equals(*type));
  EXPECT_THAT(type->Deserialize(type->storage_type(), "{}").status().message(),
              HasSubstr("arrow.parquet.variant metadata: must be empty"));
}

TEST(VariantType, FieldsAreFoundByName) {
  auto type =
      VariantType::Make(struct_({Value(large_binary()), Metadata(binary_view())})).ValueOrDie();
  EXPECT_EQ(type->metadata_index(), 1);
  EXPECT_EQ(type->value_index(), 0);
  ExpectVariantOk(struct_({TypedValue(int64()), Metadata()}));
  ExpectVariantOk(struct_({Metadata(), TypedValue(utf8()), Value()}));
}

TEST(VariantType, MetadataRules) {
  EXPECT_THAT(VariantError(struct_({Value()})), HasSubstr("needs a field named 'metadata'"));
  EXPECT_THAT(VariantError(struct_({field("metadata", binary()), Value()})),
              HasSubstr("'metadata' must be non-nullable"));
  EXPECT_THAT(VariantError(struct_({Metadata(utf8()), Value()})),
              HasSubstr("'metadata' must be binary, large_binary or binary_view"));
  EXPECT_THAT(VariantError(struct_({field("Metadata", binary(), false), Value()})),
              HasSubstr("unexpected field 'Metadata'"));
  ExpectVariantOk(struct_({Metadata(dictionary(int8(), binary())), Value()}));
  ExpectVariantOk(struct_({Metadata(run_end_encoded(int16(), large_binary())), Value()}));
  EXPECT_THAT(VariantError(struct_({Metadata(dictionary(int8(), utf8())), Value()})),
              HasSubstr("'metadata' must be binary"));
  EXPECT_THAT(VariantError(list(binary())), HasSubstr("storage must be a struct"));
}

TEST(VariantType, ValueRules) {
  EXPECT_THAT(VariantError(struct_({Metadata()})),
              HasSubstr("storage needs a field named 'value' or 'typed_value'"));
  EXPECT_THAT(VariantError(struct_({Metadata(), Value(utf8())})),
              HasSubstr("storage.value must be binary, large_binary or binary_view, got string"));
  EXPECT_THAT(VariantError(struct_({Metadata(), Value(), Value()})),
              HasSubstr("more than one field named 'value'"));
  EXPECT_THAT(VariantError(struct_({Metadata(), Value(), field("extra", int8())})),
              HasSubstr("unexpected field 'extra'"));
}

TEST(VariantType, PrimitiveTypedValues) {
  for (const auto& type : {null(),
                           boolean(),
                           int8(),
                           uint8(),
                           int16(),
                           uint16(),
                           int32(),
                           uint32(),
                           int64(),
                           float32(),
                           float64(),
                           decimal32(9, 2),
                           decimal64(18, 3),
                           decimal128(38, 10),
                           date32(),
                           time64(TimeUnit::kMicro),
                           timestamp(TimeUnit::kMicro, "UTC"),
                           timestamp(TimeUnit::kMicro),
                           timestamp(TimeUnit::kNano, "UTC"),
                           timestamp(TimeUnit::kNano),
                           binary(),
                           large_binary(),
                           binary_view(),
                           utf8(),
                           large_utf8(),
                           utf8_view(),
                           DataTypePtr(UuidType::Make())}) {
    ExpectVariantOk(struct_({Metadata(), Value(), TypedValue(type)}));
  }
  for (const auto& type :
       {uint64(), float16(), decimal256(40, 2), date64(), time32(TimeUnit::kMilli),
        timestamp(TimeUnit::kMilli, "UTC"), timestamp(TimeUnit::kNano, "America/New_York"),
        duration(TimeUnit::kMicro), fixed_size_binary(16), map(utf8(), int32()),
        large_list_view(struct_({Value()})), DataTypePtr(Bool8Type::Make())}) {
    EXPECT_THAT(VariantError(struct_({Metadata(), TypedValue(type)})),
                HasSubstr("storage.typed_value has type " + type->ToString()));
  }
}

TEST(VariantType, ShreddedArrays) {
  auto element = field("element", struct_({Value(), TypedValue(int32())}), false);
  for (const auto& list_type : {list(element), large_list(element), list_view(element)}) {
    ExpectVariantOk(struct_({Metadata(), Value(), TypedValue(list_type)}));
  }
  EXPECT_THAT(VariantError(struct_({Metadata(), TypedValue(list(struct_({Value()})))})),
              HasSubstr("storage.typed_value[item] (list element) must be non-nullable"));
  EXPECT_THAT(
      VariantError(struct_({Metadata(), TypedValue(list(field("element", struct_({}), false)))})),
      HasSubstr("storage.typed_value[element] needs a field named 'value' or 'typed_value'"));
  EXPECT_THAT(
      VariantError(struct_({Metadata(), TypedValue(list(field("element", binary(), false)))})),
      HasSubstr("storage.typed_value[element] must be a struct"));
}

TEST(VariantType, ShreddedObjects) {
  auto object = struct_({field("a", struct_({Value(), TypedValue(int64())}), false),
                         field("b", struct_({Value()}), false)});
  ExpectVariantOk(struct_({Metadata(), Value(), TypedValue(object)}));

  // Nested: an object holding an array of objects.
  auto inner_object = struct_({field("x", struct_({TypedValue(utf8())}), false)});
  auto array_of_objects =
      list(field("element", struct_({Value(), TypedValue(inner_object)}), false));
  auto nested = struct_({field("items", struct_({Value(), TypedValue(array_of_objects)}), false)});
  ExpectVariantOk(struct_({Metadata(), TypedValue(nested)}));

  EXPECT_THAT(VariantError(struct_(
                  {Metadata(), TypedValue(struct_({field("a", struct_({Value()}), true)}))})),
              HasSubstr("storage.typed_value.a (shredded object field) must be non-nullable"));
  EXPECT_THAT(
      VariantError(struct_(
          {Metadata(), TypedValue(struct_({field("a", struct_({TypedValue(uint64())}), false)}))})),
      HasSubstr("storage.typed_value.a.typed_value has type uint64"));
  EXPECT_THAT(
      VariantError(struct_(
          {Metadata(), TypedValue(struct_({field("a", struct_({Metadata(), Value()}), false)}))})),
      HasSubstr("storage.typed_value.a has an unexpected field 'metadata'"));
  auto deep_bad = struct_({field(
      "items", struct_({TypedValue(list(field("element", struct_({Value(utf8())}), false)))}),
      false)});
  EXPECT_THAT(VariantError(struct_({Metadata(), TypedValue(deep_bad)})),
              HasSubstr("storage.typed_value.items.typed_value[element].value must be binary"));
}

TEST(VariantType, DeserializeChecksStorage) {
  auto proto = VariantType::MakeUnshredded();
  EXPECT_FALSE(proto->Deserialize(struct_({Value()}), "").ok());
  auto ok = proto->Deserialize(struct_({Metadata(), TypedValue(int32())}), "");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(checked_cast<VariantType>(**ok).typed_value_index(), 1);
}

// ---------------------------------------------------------------------------
// arrow.timestamp_with_offset

TEST(TimestampWithOffsetType, MakeBuildsStorage) {
  auto type = TimestampWithOffsetType::Make(TimeUnit::kMilli);
  EXPECT_EQ(type->extension_name(), "arrow.timestamp_with_offset");
  EXPECT_EQ(type->unit(), TimeUnit::kMilli);
  EXPECT_EQ(type->Serialize(), "");
  auto expected = struct_({field("timestamp", timestamp(TimeUnit::kMilli, "UTC"), false),
                           field("offset_minutes", int16(), false)});
  EXPECT_TRUE(type->storage_type()->Equals(*expected)) << type->storage_type()->ToString();
  auto back = type->Deserialize(type->storage_type(), "").ValueOrDie();
  EXPECT_TRUE(back->Equals(*type));
  EXPECT_FALSE(type->Equals(*TimestampWithOffsetType::Make(TimeUnit::kSecond)));
  EXPECT_THAT(type->Deserialize(type->storage_type(), "{}").status().message(),
              HasSubstr("arrow.timestamp_with_offset metadata: must be empty"));
}

TEST(TimestampWithOffsetType, StorageRules) {
  auto message = [](DataTypePtr storage) {
    auto r = TimestampWithOffsetType::MakeFromStorage(std::move(storage));
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  auto ts = [](std::string tz) {
    return field("timestamp", timestamp(TimeUnit::kNano, std::move(tz)));
  };
  auto offset = [](DataTypePtr type) { return field("offset_minutes", std::move(type)); };
  // Nullable children are permitted, as are encoded offsets.
  for (const auto& offset_type :
       {int16(), dictionary(int8(), int16()), dictionary(uint32(), int16()),
        run_end_encoded(int32(), int16())}) {
    auto r = TimestampWithOffsetType::MakeFromStorage(struct_({ts("UTC"), offset(offset_type)}));
    ASSERT_TRUE(r.ok()) << offset_type->ToString() << ": " << r.status();
    EXPECT_EQ((*r)->unit(), TimeUnit::kNano);
  }
  EXPECT_THAT(message(struct_({ts("+00:00"), offset(int16())})),
              HasSubstr("'timestamp' must be a timestamp with time zone \"UTC\""));
  EXPECT_THAT(message(struct_({ts(""), offset(int16())})), HasSubstr("time zone \"UTC\""));
  EXPECT_THAT(message(struct_({field("timestamp", int64()), offset(int16())})),
              HasSubstr("'timestamp' must be a timestamp"));
  EXPECT_THAT(message(struct_({offset(int16()), ts("UTC")})), HasSubstr("in that order"));
  EXPECT_THAT(message(struct_({ts("UTC")})), HasSubstr("in that order"));
  EXPECT_THAT(message(struct_({ts("UTC"), offset(int16()), field("x", int8())})),
              HasSubstr("in that order"));
  EXPECT_THAT(message(struct_({ts("UTC"), offset(int32())})),
              HasSubstr("'offset_minutes' must be int16"));
  EXPECT_THAT(message(struct_({ts("UTC"), offset(dictionary(int8(), int32()))})),
              HasSubstr("'offset_minutes' must be int16"));
  EXPECT_THAT(message(int64()), HasSubstr("storage must be struct"));
}

TEST(TimestampWithOffsetArray, LocalTime) {
  auto type = TimestampWithOffsetType::Make(TimeUnit::kSecond);
  auto data = ArrayFromJSON(type, R"([
      {"timestamp": 0, "offset_minutes": 60},
      null,
      {"timestamp": 100000, "offset_minutes": -420},
      {"timestamp": 5, "offset_minutes": 0}])");
  ASSERT_NE(data, nullptr);
  auto array = TimestampWithOffsetArray::Make(data).ValueOrDie();
  EXPECT_EQ(array.GetLocalTime(0).ValueOrDie(), 3600);
  EXPECT_EQ(array.GetLocalTime(1).ValueOrDie(), std::nullopt);
  EXPECT_EQ(array.GetLocalTime(2).ValueOrDie(), 100000 - 420 * 60);
  EXPECT_EQ(array.GetLocalTime(3).ValueOrDie(), 5);
  EXPECT_EQ(array.GetUtc(2), 100000);
  EXPECT_EQ(array.GetOffsetMinutes(2), -420);
  EXPECT_EQ(array.GetLocalTime(4).status().code(), StatusCode::kIndexError);
  EXPECT_TRUE(array.ValidateFull().ok());

  auto sliced = TimestampWithOffsetArray::Make(data->Slice(2, 2)).ValueOrDie();
  EXPECT_EQ(sliced.GetLocalTime(0).ValueOrDie(), 100000 - 420 * 60);
  EXPECT_EQ(sliced.GetOffsetMinutes(1), 0);
}

TEST(TimestampWithOffsetArray, UnitsScaleTheOffset) {
  for (auto [unit, per_minute] : {std::pair{TimeUnit::kMilli, int64_t{60'000}},
                                  std::pair{TimeUnit::kMicro, int64_t{60'000'000}},
                                  std::pair{TimeUnit::kNano, int64_t{60'000'000'000}}}) {
    auto data = ArrayFromJSON(TimestampWithOffsetType::Make(unit),
                              R"([{"timestamp": 7, "offset_minutes": 90}])");
    ASSERT_NE(data, nullptr);
    auto array = TimestampWithOffsetArray::Make(data).ValueOrDie();
    EXPECT_EQ(array.GetLocalTime(0).ValueOrDie(), 7 + 90 * per_minute);
    EXPECT_EQ(UnitsPerMinute(unit), per_minute);
  }
}

TEST(TimestampWithOffsetArray, NullChildren) {
  auto storage = struct_(
      {field("timestamp", timestamp(TimeUnit::kSecond, "UTC")), field("offset_minutes", int16())});
  auto type = TimestampWithOffsetType::MakeFromStorage(storage).ValueOrDie();
  auto data = ArrayFromJSON(type, R"([
      {"timestamp": null, "offset_minutes": 30},
      {"timestamp": 10, "offset_minutes": null}])");
  ASSERT_NE(data, nullptr);
  auto array = TimestampWithOffsetArray::Make(data).ValueOrDie();
  // A null timestamp nulls the value; a null offset reads as zero.
  EXPECT_TRUE(array.IsNull(0));
  EXPECT_EQ(array.GetLocalTime(0).ValueOrDie(), std::nullopt);
  EXPECT_EQ(array.GetLocalTime(1).ValueOrDie(), 10);
}

TEST(TimestampWithOffsetArray, EncodedOffsets) {
  for (const auto& offset_type : {dictionary(int8(), int16()), run_end_encoded(int16(), int16()),
                                  run_end_encoded(int64(), int16())}) {
    SCOPED_TRACE(offset_type->ToString());
    auto storage = struct_({field("timestamp", timestamp(TimeUnit::kSecond, "UTC"), false),
                            field("offset_minutes", offset_type, false)});
    auto type = TimestampWithOffsetType::MakeFromStorage(storage).ValueOrDie();
    auto data = ArrayFromJSON(type, R"([
        {"timestamp": 0, "offset_minutes": 60},
        {"timestamp": 0, "offset_minutes": 60},
        {"timestamp": 0, "offset_minutes": -60},
        {"timestamp": 1, "offset_minutes": 120},
        {"timestamp": 2, "offset_minutes": 120}])");
    ASSERT_NE(data, nullptr);
    auto array = TimestampWithOffsetArray::Make(data).ValueOrDie();
    std::vector<int16_t> offsets;
    for (int64_t i = 0; i < array.length(); ++i) offsets.push_back(array.GetOffsetMinutes(i));
    EXPECT_EQ(offsets, (std::vector<int16_t>{60, 60, -60, 120, 120}));
    EXPECT_EQ(array.GetLocalTime(3).ValueOrDie(), 1 + 120 * 60);
    auto sliced = TimestampWithOffsetArray::Make(data->Slice(2, 3)).ValueOrDie();
    EXPECT_EQ(sliced.GetOffsetMinutes(0), -60);
    EXPECT_EQ(sliced.GetOffsetMinutes(2), 120);
    EXPECT_TRUE(sliced.ValidateFull().ok());
  }
}

TEST(TimestampWithOffsetArray, OffsetRangeAndOverflow) {
  auto type = TimestampWithOffsetType::Make(TimeUnit::kNano);
  auto data = ArrayFromJSON(type, R"([
      {"timestamp": 0, "offset_minutes": 780},
      {"timestamp": 0, "offset_minutes": -779},
      {"timestamp": 0, "offset_minutes": 781}])");
  ASSERT_NE(data, nullptr);
  auto array = TimestampWithOffsetArray::Make(data).ValueOrDie();
  EXPECT_EQ(
      array.ValidateFull().message(),
      "arrow.timestamp_with_offset: slot 2: offset_minutes is 781; it must lie in [-779, 780]");
  EXPECT_THAT(ValidateExtensionArray(*data).message(), HasSubstr("slot 2"));
  EXPECT_TRUE(ValidateExtensionArray(*data->Slice(0, 2)).ok());

  auto near_max = ArrayFromJSON(
      type, "[{\"timestamp\": " + std::to_string(std::numeric_limits<int64_t>::max() - 5) +
                ", \"offset_minutes\": 1}]");
  ASSERT_NE(near_max, nullptr);
  auto overflow = TimestampWithOffsetArray::Make(near_max).ValueOrDie().GetLocalTime(0);
  EXPECT_THAT(overflow.status().message(), HasSubstr("overflows"));
}

TEST(TimestampWithOffsetArray, RejectsOtherTypes) {
  auto data = ArrayFromJSON(int64(), "[1]");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(TimestampWithOffsetArray::Make(data).status().code(), StatusCode::kTypeError);
}

}  // namespace
}  // namespace alkaid
