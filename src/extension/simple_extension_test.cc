// Tests of the parameterless and string-parameter canonical types:
// arrow.json, arrow.uuid, arrow.opaque and arrow.bool8.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "alkaid/array.h"
#include "alkaid/extension/api.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;
using ::testing::HasSubstr;

std::string SerializeOf(const DataTypePtr& type) {
  return checked_cast<ExtensionType>(*type).Serialize();
}

// ---------------------------------------------------------------------------
// arrow.json

TEST(JsonExtensionType, StorageTypes) {
  for (const auto& storage : {utf8(), large_utf8(), utf8_view()}) {
    auto type = JsonExtensionType::Make(storage);
    ASSERT_TRUE(type.ok()) << storage->ToString();
    EXPECT_EQ((*type)->extension_name(), "arrow.json");
    EXPECT_EQ((*type)->Serialize(), "");
    EXPECT_TRUE((*type)->storage_type()->Equals(*storage));
  }
  for (const auto& storage : {binary(), int32(), large_binary()}) {
    auto type = JsonExtensionType::Make(storage);
    ASSERT_FALSE(type.ok());
    EXPECT_THAT(
        type.status().message(),
        HasSubstr("storage must be utf8, large_utf8 or utf8_view, got " + storage->ToString()));
  }
}

TEST(JsonExtensionType, DeserializeAcceptsEmptyOrObject) {
  auto proto = JsonExtensionType::Make().ValueOrDie();
  for (const char* metadata : {"", "{}", " { } ", R"({"future": 1})"}) {
    auto r = proto->Deserialize(large_utf8(), metadata);
    ASSERT_TRUE(r.ok()) << metadata << ": " << r.status();
    EXPECT_EQ(SerializeOf(*r), "");
    EXPECT_TRUE(checked_cast<ExtensionType>(**r).storage_type()->Equals(*large_utf8()));
  }
  EXPECT_THAT(proto->Deserialize(utf8(), "[]").status().message(),
              HasSubstr("arrow.json metadata: must be a JSON object"));
  EXPECT_THAT(proto->Deserialize(utf8(), "nope").status().message(),
              HasSubstr("arrow.json metadata: not valid JSON"));
  EXPECT_FALSE(proto->Deserialize(binary(), "").ok());
}

TEST(JsonExtensionType, Equality) {
  auto a = JsonExtensionType::Make(utf8()).ValueOrDie();
  auto b = JsonExtensionType::Make(utf8()).ValueOrDie();
  auto c = JsonExtensionType::Make(large_utf8()).ValueOrDie();
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_FALSE(a->Equals(*utf8()));
}

TEST(JsonExtensionArray, ValidityCheckNamesTheSlot) {
  auto type = JsonExtensionType::Make().ValueOrDie();
  auto good = ArrayFromJSON(type, R"(["{\"a\": [1, 2.5, null]}", null, "3", "\"s\"", "true"])");
  ASSERT_NE(good, nullptr);
  EXPECT_TRUE(ValidateJsonArray(*good).ok()) << ValidateJsonArray(*good);

  auto bad = ArrayFromJSON(type, R"(["{}", "[1, 2]", null, "{bad", "[1,]"])");
  ASSERT_NE(bad, nullptr);
  Status st = ValidateJsonArray(*bad);
  EXPECT_EQ(st.message(), "arrow.json: slot 3 is not valid JSON (RFC 8259)");
  EXPECT_EQ(ValidateJsonArray(*bad->Slice(1, 4)).message(),
            "arrow.json: slot 2 is not valid JSON (RFC 8259)");
  EXPECT_THAT(ValidateJsonArray(*bad->Slice(4, 1)).message(), HasSubstr("slot 0"));
  EXPECT_TRUE(ValidateJsonArray(*bad->Slice(0, 3)).ok());
  EXPECT_THAT(ValidateExtensionArray(*bad).message(), HasSubstr("slot 3"));
}

TEST(JsonExtensionArray, EmptyStringIsNotJson) {
  auto data = ArrayFromJSON(JsonExtensionType::Make().ValueOrDie(), R"(["1", ""])");
  ASSERT_NE(data, nullptr);
  EXPECT_THAT(ValidateJsonArray(*data).message(), HasSubstr("slot 1"));
}

TEST(JsonExtensionArray, LargeAndViewStorage) {
  for (const auto& storage : {large_utf8(), utf8_view()}) {
    auto type = JsonExtensionType::Make(storage).ValueOrDie();
    auto data =
        ArrayFromJSON(type, R"(["{\"key\": \"a string longer than twelve bytes\"}", "[", "null"])");
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(ValidateJsonArray(*data).message(), "arrow.json: slot 1 is not valid JSON (RFC 8259)")
        << storage->ToString();
  }
}

TEST(JsonExtensionArray, InvalidUtf8InsideStringIsRejected) {
  // Built by hand: a JSON string literal holding the byte 0xFF.
  std::string bytes = "\"\xff\"";
  int32_t offsets[] = {0, static_cast<int32_t>(bytes.size())};
  auto offsets_buffer = Buffer::Copy(reinterpret_cast<const uint8_t*>(offsets), sizeof(offsets));
  auto data_buffer = Buffer::FromString(bytes);
  auto data = ArrayData::Make(JsonExtensionType::Make().ValueOrDie(), 1,
                              {nullptr, *offsets_buffer, data_buffer}, 0);
  EXPECT_THAT(ValidateJsonArray(*data).message(), HasSubstr("slot 0"));
}

TEST(JsonExtensionArray, RejectsNonStringArrays) {
  auto data = ArrayFromJSON(int32(), "[1]");
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(ValidateJsonArray(*data).code(), StatusCode::kTypeError);
}

// ---------------------------------------------------------------------------
// arrow.uuid

TEST(Uuid, TextRoundTrip) {
  UuidBytes bytes = ParseUuid("123e4567-E89B-12d3-A456-426614174000").ValueOrDie();
  EXPECT_EQ(bytes[0], 0x12);
  EXPECT_EQ(bytes[1], 0x3e);
  EXPECT_EQ(bytes[4], 0xe8);
  EXPECT_EQ(bytes[15], 0x00);
  EXPECT_EQ(UuidToString(bytes), "123e4567-e89b-12d3-a456-426614174000");
  UuidBytes all_ff;
  all_ff.fill(0xff);
  EXPECT_EQ(UuidToString(all_ff), "ffffffff-ffff-ffff-ffff-ffffffffffff");
  EXPECT_EQ(ParseUuid("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF").ValueOrDie(), all_ff);
}

TEST(Uuid, ParseRejectsMalformedText) {
  auto message = [](std::string_view text) {
    auto r = ParseUuid(text);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_THAT(message(""), HasSubstr("expected 36 characters"));
  EXPECT_THAT(message("123e4567e89b12d3a456426614174000"), HasSubstr("got 32"));
  EXPECT_THAT(message("{123e4567-e89b-12d3-a456-426614174000}"), HasSubstr("got 38"));
  EXPECT_THAT(message("123e4567-e89b-12d3-a456_426614174000"),
              HasSubstr("expected '-' at position 23"));
  EXPECT_THAT(message("123e4567-e89b-12d3-a4564-26614174000"), HasSubstr("position 23"));
  EXPECT_THAT(message("123g4567-e89b-12d3-a456-426614174000"),
              HasSubstr("non-hex character at position 3"));
  EXPECT_THAT(message("123e4567-e89b-12d3-a456-42661417400 "), HasSubstr("position 35"));
}

TEST(UuidType, StorageAndMetadata) {
  auto type = UuidType::Make();
  EXPECT_EQ(type->extension_name(), "arrow.uuid");
  EXPECT_TRUE(type->storage_type()->Equals(*fixed_size_binary(16)));
  EXPECT_EQ(type->Serialize(), "");
  auto back = type->Deserialize(fixed_size_binary(16), "").ValueOrDie();
  EXPECT_TRUE(back->Equals(*type));
  EXPECT_THAT(type->Deserialize(fixed_size_binary(16), "{}").status().message(),
              HasSubstr("arrow.uuid metadata: must be empty"));
  EXPECT_THAT(UuidType::MakeFromStorage(fixed_size_binary(8)).status().message(),
              HasSubstr("storage must be fixed_size_binary[16], got fixed_size_binary[8]"));
  EXPECT_FALSE(UuidType::MakeFromStorage(binary()).ok());
}

TEST(UuidArray, BuildAndRead) {
  auto data = MakeUuidArray({"00112233-4455-6677-8899-aabbccddeeff", std::nullopt,
                             "0000000A-0000-0000-0000-00000000000B"})
                  .ValueOrDie();
  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(data->GetNullCount(), 1);
  EXPECT_TRUE(data->type->Equals(*UuidType::Make()));
  auto array = UuidArray::Make(data).ValueOrDie();
  EXPECT_EQ(array.GetText(0), "00112233-4455-6677-8899-aabbccddeeff");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetText(2), "0000000a-0000-0000-0000-00000000000b");
  EXPECT_EQ(array.GetBytes(0)[15], 0xff);

  auto sliced = UuidArray::Make(data->Slice(2, 1)).ValueOrDie();
  EXPECT_EQ(sliced.GetText(0), "0000000a-0000-0000-0000-00000000000b");
}

TEST(UuidArray, BuildReportsBadSlot) {
  auto r = MakeUuidArray({"00112233-4455-6677-8899-aabbccddeeff", "nope"});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("slot 1: arrow.uuid: 'nope' is not a UUID"));
  auto no_nulls = MakeUuidArray({"00112233-4455-6677-8899-aabbccddeeff"}).ValueOrDie();
  EXPECT_EQ(no_nulls->buffers[0], nullptr);
  EXPECT_EQ(no_nulls->GetNullCount(), 0);
  EXPECT_FALSE(UuidArray::Make(ArrayFromJSON(fixed_size_binary(16), "[]")).ok());
}

// ---------------------------------------------------------------------------
// arrow.opaque

TEST(OpaqueType, SerializeSpecExample) {
  auto type = OpaqueType::Make(null(), "varray", "Oracle").ValueOrDie();
  EXPECT_EQ(type->extension_name(), "arrow.opaque");
  EXPECT_EQ(type->type_name(), "varray");
  EXPECT_EQ(type->vendor_name(), "Oracle");
  EXPECT_EQ(type->Serialize(), R"({"type_name":"varray","vendor_name":"Oracle"})");
  EXPECT_FALSE(OpaqueType::Make(nullptr, "a", "b").ok());
}

TEST(OpaqueType, DeserializeIgnoresExtraFields) {
  auto proto = OpaqueType::Make(null(), "", "").ValueOrDie();
  auto r = proto->Deserialize(
      binary(), R"({"vendor_name": "PostGIS", "type_name": "geometry", "version": 3})");
  ASSERT_TRUE(r.ok()) << r.status();
  const auto& opaque = checked_cast<OpaqueType>(**r);
  EXPECT_EQ(opaque.type_name(), "geometry");
  EXPECT_EQ(opaque.vendor_name(), "PostGIS");
  EXPECT_TRUE(opaque.storage_type()->Equals(*binary()));
  EXPECT_EQ(opaque.Serialize(), R"({"type_name":"geometry","vendor_name":"PostGIS"})");
}

TEST(OpaqueType, EscapingRoundTrips) {
  auto type = OpaqueType::Make(int32(), "a \"quoted\"\\name", "ü\n").ValueOrDie();
  auto back = type->Deserialize(int32(), type->Serialize()).ValueOrDie();
  EXPECT_EQ(checked_cast<OpaqueType>(*back).type_name(), "a \"quoted\"\\name");
  EXPECT_EQ(checked_cast<OpaqueType>(*back).vendor_name(), "ü\n");
  EXPECT_TRUE(back->Equals(*type));
}

TEST(OpaqueType, DeserializeErrors) {
  auto proto = OpaqueType::Make(null(), "", "").ValueOrDie();
  EXPECT_THAT(proto->Deserialize(null(), R"({"type_name": "x"})").status().message(),
              HasSubstr("arrow.opaque metadata: 'vendor_name' is required"));
  EXPECT_THAT(proto->Deserialize(null(), R"({"vendor_name": "x"})").status().message(),
              HasSubstr("'type_name' is required"));
  EXPECT_THAT(
      proto->Deserialize(null(), R"({"type_name": 1, "vendor_name": "x"})").status().message(),
      HasSubstr("'type_name' must be a string"));
  EXPECT_THAT(proto->Deserialize(null(), "").status().message(), HasSubstr("not valid JSON"));
  EXPECT_THAT(proto->Deserialize(null(), "\"x\"").status().message(),
              HasSubstr("must be a JSON object"));
}

TEST(OpaqueType, Equality) {
  auto a = OpaqueType::Make(null(), "t", "v").ValueOrDie();
  auto b = OpaqueType::Make(null(), "t", "v").ValueOrDie();
  auto c = OpaqueType::Make(null(), "t", "w").ValueOrDie();
  auto d = OpaqueType::Make(binary(), "t", "v").ValueOrDie();
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_FALSE(a->Equals(*c));
  EXPECT_FALSE(a->Equals(*d));
}

// ---------------------------------------------------------------------------
// arrow.bool8

TEST(Bool8Type, StorageAndMetadata) {
  auto type = Bool8Type::Make();
  EXPECT_EQ(type->extension_name(), "arrow.bool8");
  EXPECT_TRUE(type->storage_type()->Equals(*int8()));
  EXPECT_EQ(type->Serialize(), "");
  EXPECT_TRUE(type->Deserialize(int8(), "").ValueOrDie()->Equals(*type));
  EXPECT_THAT(type->Deserialize(uint8(), "").status().message(),
              HasSubstr("arrow.bool8: storage must be int8, got uint8"));
  EXPECT_THAT(type->Deserialize(int8(), "1").status().message(),
              HasSubstr("arrow.bool8 metadata: must be empty"));
}

// Bool8 values with zeros, ones, other non-zero bytes (incl. the sign bit)
// and nulls, long enough to use the 8-bytes-at-a-time path and a tail.
constexpr const char* kBool8Values =
    "[0, 1, -1, 2, null, 0, -128, 127, 0, 0, 1, null, 64, 0, 16, 3, 0, 1, 0, 0, -7]";

std::vector<std::optional<bool>> ExpectedBooleans() {
  std::vector<std::optional<bool>> out = {false, true,  true,  true, std::nullopt, false, true,
                                          true,  false, false, true, std::nullopt, true,  false,
                                          true,  true,  false, true, false,        false, true};
  return out;
}

void ExpectBooleans(const ArrayData& data, const std::vector<std::optional<bool>>& expected) {
  ASSERT_EQ(data.length, static_cast<int64_t>(expected.size()));
  ASSERT_EQ(data.type->id(), TypeId::kBool);
  BooleanArray array(std::make_shared<ArrayData>(data));
  int64_t nulls = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    auto slot = static_cast<int64_t>(i);
    if (!expected[i]) {
      EXPECT_TRUE(array.IsNull(slot)) << "slot " << i;
      ++nulls;
    } else {
      ASSERT_TRUE(array.IsValid(slot)) << "slot " << i;
      EXPECT_EQ(array.Value(slot), *expected[i]) << "slot " << i;
    }
  }
  EXPECT_EQ(data.GetNullCount(), nulls);
}

TEST(Bool8Conversion, ToBoolean) {
  auto bool8 = ArrayFromJSON(Bool8Type::Make(), kBool8Values);
  ASSERT_NE(bool8, nullptr);
  auto boolean_data = Bool8ToBoolean(*bool8).ValueOrDie();
  EXPECT_EQ(boolean_data->offset, 0);
  ExpectBooleans(*boolean_data, ExpectedBooleans());
}

TEST(Bool8Conversion, ToBooleanFromSlices) {
  auto bool8 = ArrayFromJSON(Bool8Type::Make(), kBool8Values);
  ASSERT_NE(bool8, nullptr);
  auto expected = ExpectedBooleans();
  for (int64_t offset : {1, 3, 8, 13}) {
    for (int64_t length : {0, 1, 7, 8}) {
      if (offset + length > bool8->length) continue;
      SCOPED_TRACE("offset " + std::to_string(offset) + " length " + std::to_string(length));
      auto converted = Bool8ToBoolean(*bool8->Slice(offset, length)).ValueOrDie();
      ExpectBooleans(*converted,
                     std::vector<std::optional<bool>>(expected.begin() + offset,
                                                      expected.begin() + offset + length));
    }
  }
}

TEST(Bool8Conversion, ToBooleanWithoutNulls) {
  auto plain = ArrayFromJSON(int8(), "[0, 5, 0, 0, 0, 0, 0, 0, 9]");
  ASSERT_NE(plain, nullptr);
  auto converted = Bool8ToBoolean(*plain).ValueOrDie();
  EXPECT_EQ(converted->buffers[0], nullptr);
  ExpectBooleans(*converted, {false, true, false, false, false, false, false, false, true});
  EXPECT_EQ(Bool8ToBoolean(*ArrayFromJSON(int16(), "[1]")).status().code(), StatusCode::kTypeError);
}

TEST(Bool8Conversion, FromBooleanAndBack) {
  auto boolean_data = ArrayFromJSON(
      boolean(), "[true, false, null, true, true, false, false, true, true, null, false, true]");
  ASSERT_NE(boolean_data, nullptr);
  auto bool8 = BooleanToBool8(*boolean_data).ValueOrDie();
  EXPECT_TRUE(bool8->type->Equals(*Bool8Type::Make()));
  EXPECT_EQ(bool8->GetNullCount(), 2);
  const int8_t* bytes = bool8->GetValues<int8_t>(1);
  std::vector<int8_t> valid_bytes;
  for (int64_t i = 0; i < bool8->length; ++i) {
    if (bool8->IsValid(i)) valid_bytes.push_back(bytes[i]);
  }
  EXPECT_EQ(valid_bytes, (std::vector<int8_t>{1, 0, 1, 1, 0, 0, 1, 1, 0, 1}));
  EXPECT_TRUE(bool8->IsNull(2));
  EXPECT_TRUE(bool8->IsNull(9));

  auto sliced = BooleanToBool8(*boolean_data->Slice(3, 6)).ValueOrDie();
  EXPECT_EQ(sliced->offset, 0);
  ASSERT_EQ(sliced->length, 6);
  const int8_t* s = sliced->GetValues<int8_t>(1);
  EXPECT_EQ(std::vector<int8_t>(s, s + 6), (std::vector<int8_t>{1, 1, 0, 0, 1, 1}));
  EXPECT_EQ(sliced->GetNullCount(), 0);
  auto sliced_with_null = BooleanToBool8(*boolean_data->Slice(9, 3)).ValueOrDie();
  EXPECT_TRUE(sliced_with_null->IsNull(0));
  EXPECT_EQ(sliced_with_null->GetNullCount(), 1);
  EXPECT_EQ(sliced_with_null->GetValues<int8_t>(1)[2], 1);

  auto round_trip = Bool8ToBoolean(*bool8).ValueOrDie();
  ExpectBooleans(*round_trip, {true, false, std::nullopt, true, true, false, false, true, true,
                               std::nullopt, false, true});
  EXPECT_EQ(BooleanToBool8(*ArrayFromJSON(int8(), "[1]")).status().code(), StatusCode::kTypeError);
}

TEST(Bool8Conversion, LongRandomPattern) {
  // 1000 slots: exercises many whole words in both directions.
  std::string json = "[";
  std::vector<std::optional<bool>> expected;
  uint32_t state = 12345;
  for (int i = 0; i < 1000; ++i) {
    state = state * 1103515245u + 12345u;
    int value = static_cast<int>((state >> 16) % 5) - 2;  // -2..2
    bool is_null = ((state >> 8) & 15) == 0;
    if (i) json += ",";
    if (is_null) {
      json += "null";
      expected.emplace_back();
    } else {
      json += std::to_string(value);
      expected.emplace_back(value != 0);
    }
  }
  json += "]";
  auto bool8 = ArrayFromJSON(Bool8Type::Make(), json);
  ASSERT_NE(bool8, nullptr);
  auto booleans = Bool8ToBoolean(*bool8->Slice(5, 995)).ValueOrDie();
  ExpectBooleans(*booleans, std::vector<std::optional<bool>>(expected.begin() + 5, expected.end()));
  auto back = Bool8ToBoolean(*BooleanToBool8(*booleans).ValueOrDie()).ValueOrDie();
  ExpectBooleans(*back, std::vector<std::optional<bool>>(expected.begin() + 5, expected.end()));
}

}  // namespace
}  // namespace alkaid
