#include "alkaid/encode.h"

#include <gtest/gtest.h>

#include "alkaid/compare.h"
#include "alkaid/validate.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;

void ExpectSame(const ArrayDataPtr& expected, const Result<ArrayDataPtr>& got) {
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_TRUE(ValidateArrayFull(**got).ok()) << ValidateArrayFull(**got).ToString();
  EXPECT_TRUE((*got)->type->Equals(*expected->type)) << (*got)->type->ToString();
  EXPECT_TRUE(ArrayEquals(*expected, **got)) << ArrayDiff(*expected, **got);
}

TEST(DictionaryEncode, FirstAppearanceOrderAndNulls) {
  auto values = ArrayFromJSON(utf8(), R"(["b", "a", null, "b", "", "a", null])");
  auto type = dictionary(int8(), utf8());
  auto got = DictionaryEncode(*values, type);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  // Dictionary in first-appearance order: b, a, "".
  EXPECT_TRUE(ArrayEquals(*(*got)->dictionary, *ArrayFromJSON(utf8(), R"(["b", "a", ""])")));
  ExpectSame(ArrayFromJSON(type, R"(["b", "a", null, "b", "", "a", null])"), got);
  EXPECT_EQ((*got)->GetNullCount(), 2);
}

TEST(DictionaryEncode, EveryByteForm) {
  struct Case {
    DataTypePtr value_type;
    const char* json;
  };
  std::vector<Case> cases = {
      {boolean(), "[true, false, null, true]"},
      {int64(), "[5, 5, null, -1, 5]"},
      {float64(), "[1.5, 2.5, 1.5]"},
      {date32(), "[1, 2, 1, null]"},
      {timestamp(TimeUnit::kMicro, "UTC"), "[10, 10, 20]"},
      {decimal128(10, 2), R"(["1.25", "1.25", null, "-3.00"])"},
      {fixed_size_binary(3), R"(["abc", "abd", "abc"])"},
      {large_utf8(), R"(["x", "y", "x", null])"},
      {binary(), R"(["", "", "zz"])"},
      {utf8_view(), R"(["short", "a value longer than twelve", "short", "a value longer than twelve"])"},
      {null(), "[null, null]"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.value_type->ToString());
    auto values = ArrayFromJSON(c.value_type, c.json);
    auto type = dictionary(int32(), c.value_type);
    ExpectSame(ArrayFromJSON(type, c.json), DictionaryEncode(*values, type));
    auto ree = run_end_encoded(int16(), c.value_type);
    ExpectSame(ArrayFromJSON(ree, c.json), RunEndEncode(*values, ree));
  }
}

TEST(DictionaryEncode, SlicedInput) {
  auto values = ArrayFromJSON(utf8(), R"(["z", "a", "b", "a", null, "z"])")->Slice(1, 4);
  auto type = dictionary(int16(), utf8());
  ExpectSame(ArrayFromJSON(type, R"(["a", "b", "a", null])"), DictionaryEncode(*values, type));
  auto ree = run_end_encoded(int32(), utf8());
  ExpectSame(ArrayFromJSON(ree, R"(["a", "b", "a", null])"), RunEndEncode(*values, ree));
}

TEST(DictionaryEncode, IndexTypeTooSmallIsCapacityError) {
  std::string json = "[";
  for (int i = 0; i < 300; ++i) json += (i ? "," : "") + std::to_string(i);
  json += "]";
  auto values = ArrayFromJSON(int32(), json);
  auto got = DictionaryEncode(*values, dictionary(int8(), int32()));
  ASSERT_FALSE(got.ok());
  EXPECT_TRUE(got.status().code() == StatusCode::kCapacityError) << got.status().ToString();
  // uint8 numbers 256 entries, int16 all of them.
  EXPECT_TRUE(DictionaryEncode(*values, dictionary(int16(), int32())).ok());
}

// Runs of valid and null slots that cross 64-bit words of the bitmap, read
// from a slice that does not start on a byte boundary.
TEST(DictionaryEncode, NullRunsAcrossBitmapWords) {
  std::string json = "[";
  for (int i = 0; i < 203; ++i) {
    if (i) json += ", ";
    const bool null = (i >= 60 && i < 70) || (i >= 120 && i < 200) || i % 17 == 0;
    json += null ? "null" : "\"v" + std::to_string(i % 5) + "\"";
  }
  json += "]";
  auto whole = ArrayFromJSON(utf8(), json);
  auto values = whole->Slice(3, 199);
  for (const auto& type : {dictionary(int16(), utf8()), run_end_encoded(int32(), utf8())}) {
    SCOPED_TRACE(type->ToString());
    auto expected = ArrayFromJSON(type, json)->Slice(3, 199);
    auto got = type->id() == TypeId::kDictionary ? DictionaryEncode(*values, type)
                                                 : RunEndEncode(*values, type);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_TRUE(ValidateArrayFull(**got).ok());
    EXPECT_TRUE(ArrayEquals(*expected, **got)) << ArrayDiff(*expected, **got);
    EXPECT_EQ((*got)->length, 199);
  }
}

TEST(RunEndEncode, RunsOfValuesAndNulls) {
  auto values = ArrayFromJSON(int32(), "[1, 1, 1, null, null, 2, 1, 1]");
  auto type = run_end_encoded(int32(), int32());
  auto got = RunEndEncode(*values, type);
  ExpectSame(ArrayFromJSON(type, "[1, 1, 1, null, null, 2, 1, 1]"), got);
  // Four runs: 1 x3, null x2, 2, 1 x2.
  EXPECT_EQ((*got)->child_data[0]->length, 4);
}

TEST(Encode, WrongTypesAreTypeErrors) {
  auto values = ArrayFromJSON(int32(), "[1, 2]");
  EXPECT_TRUE(DictionaryEncode(*values, dictionary(int8(), int64())).status().IsTypeError());
  EXPECT_TRUE(DictionaryEncode(*values, int32()).status().IsTypeError());
  EXPECT_TRUE(RunEndEncode(*values, run_end_encoded(int32(), utf8())).status().IsTypeError());
  auto lists = ArrayFromJSON(list(int8()), "[[1], [2]]");
  auto st = DictionaryEncode(*lists, dictionary(int8(), list(int8()))).status();
  EXPECT_TRUE(st.IsTypeError());
  EXPECT_NE(st.message().find("byte form"), std::string::npos) << st.ToString();
}

TEST(Encode, DecodedTypeThroughNesting) {
  auto leaf = dictionary(int8(), utf8());
  auto type = struct_({field("a", leaf), field("b", list(run_end_encoded(int32(), int64()))),
                       field("c", map(utf8(), leaf)), field("d", float32())});
  auto decoded = DecodedType(type);
  auto expected = struct_({field("a", utf8()), field("b", list(int64())), field("c", map(utf8(), utf8())),
                           field("d", float32())});
  EXPECT_TRUE(decoded->Equals(*expected)) << decoded->ToString();
  EXPECT_TRUE(HasEncodedParts(*type));
  EXPECT_FALSE(HasEncodedParts(*expected));
  auto plain = int64();
  EXPECT_EQ(DecodedType(plain), plain);
}

TEST(Encode, EncodeAsNested) {
  auto leaf = dictionary(int8(), utf8());
  auto type = struct_({field("a", leaf), field("b", list(run_end_encoded(int32(), int64())))});
  const char* json = R"([{"a": "x", "b": [1, 1, 2]}, null, {"a": "x", "b": []}, {"a": null, "b": null}])";
  auto plain = ArrayFromJSON(DecodedType(type), json);
  ExpectSame(ArrayFromJSON(type, json), EncodeAs(plain, type));
  // No encoded parts: the same array comes back.
  auto got = EncodeAs(plain, plain->type);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, plain);
  // Mismatched plain type.
  EXPECT_TRUE(EncodeAs(ArrayFromJSON(int32(), "[1]"), type).status().IsTypeError());
}

}  // namespace
}  // namespace alkaid
