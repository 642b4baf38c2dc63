// Integration JSON on small hand-written snippets: each type's encoding is
// read into the expected buffers and written back in the reference form, and
// malformed input fails with a message that says what and where.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "alkaid/array.h"
#include "alkaid/bitmap.h"
#include "alkaid/extension_registry.h"
#include "alkaid/integration_json/integration.h"
#include "integration_internal.h"

namespace alkaid::integration_json {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

// A file with one field (given as JSON) and one batch holding `column`.
std::string OneColumnFile(const std::string& field, const std::string& column, int64_t count,
                          const std::string& dictionaries = "") {
  std::string out = R"({"schema": {"fields": [)" + field + "]}, ";
  if (!dictionaries.empty()) out += R"("dictionaries": )" + dictionaries + ", ";
  out += R"("batches": [{"count": )" + std::to_string(count) + R"(, "columns": [)" + column + "]}]}";
  return out;
}

std::string Field(const std::string& name, const std::string& type, const std::string& children = "",
                  const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "nullable": true, "type": )" + type + R"(, "children": [)" +
         children + "]" + extra + "}";
}

IntegrationFile ParseOk(const std::string& text) {
  auto file = ParseIntegrationJson(text);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return {};
  return std::move(file).ValueOrDie();
}

const ArrayData& Column(const IntegrationFile& file, int i = 0) {
  return *file.batches.at(0)->column_data(i);
}

// The first column of the first batch as written by us, parsed back to JSON.
Json WrittenColumn(const IntegrationFile& file) {
  auto text = WriteIntegrationJson(file);
  EXPECT_TRUE(text.ok()) << text.status();
  if (!text.ok()) return Json();
  return Json::parse(*text)["batches"][0]["columns"][0];
}

// Parse -> write -> parse -> write gives identical text, and the written
// column equals the input column as JSON values.
void ExpectColumnRoundTrip(const std::string& text) {
  IntegrationFile file = ParseOk(text);
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok()) << written.status();
  Json original = Json::parse(text)["batches"][0]["columns"][0];
  Json ours = Json::parse(*written)["batches"][0]["columns"][0];
  EXPECT_EQ(ours, original) << Json::diff(original, ours).dump();
  IntegrationFile again = ParseOk(*written);
  auto rewritten = WriteIntegrationJson(again);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_EQ(*rewritten, *written);
}

Status ParseError(const std::string& text) { return ParseIntegrationJson(text).status(); }

// ---------------------------------------------------------------------------
// Primitive encodings

TEST(IntegrationJsonRead, Int32WithNulls) {
  auto text = OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 32})"),
                            R"({"name": "a", "count": 3, "VALIDITY": [1, 0, 1], "DATA": [-7, 0, 2147483647]})", 3);
  IntegrationFile file = ParseOk(text);
  const ArrayData& a = Column(file);
  ASSERT_EQ(a.type->id(), TypeId::kInt32);
  EXPECT_EQ(a.length, 3);
  EXPECT_EQ(a.null_count, 1);
  Int32Array view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.Value(0), -7);
  EXPECT_EQ(view.Value(2), 2147483647);
  EXPECT_FALSE(a.IsValid(1));
  // Buffers are padded pool allocations.
  EXPECT_EQ(a.buffers[1]->capacity() % 64, 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.buffers[1]->data()) % 64, 0u);
  ExpectColumnRoundTrip(text);
}

TEST(IntegrationJsonRead, AllValidDropsTheBitmap) {
  auto text = OneColumnFile(Field("a", R"({"name": "int", "isSigned": false, "bitWidth": 8})"),
                            R"({"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [0, 255]})", 2);
  IntegrationFile file = ParseOk(text);
  EXPECT_EQ(Column(file).null_count, 0);
  EXPECT_EQ(Column(file).buffers[0], nullptr);
  EXPECT_EQ(UInt8Array(file.batches[0]->column_data(0)).Value(1), 255);
  ExpectColumnRoundTrip(text);
}

TEST(IntegrationJsonRead, SixtyFourBitIntegersAsStrings) {
  auto text = OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 64})"),
                            R"({"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": ["-9223372036854775808", "9223372036854775807"]})",
                            2);
  IntegrationFile file = ParseOk(text);
  Int64Array view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.Value(0), INT64_MIN);
  EXPECT_EQ(view.Value(1), INT64_MAX);
  ExpectColumnRoundTrip(text);

  auto u = OneColumnFile(Field("u", R"({"name": "int", "isSigned": false, "bitWidth": 64})"),
                         R"({"name": "u", "count": 1, "VALIDITY": [1], "DATA": ["18446744073709551615"]})", 1);
  IntegrationFile ufile = ParseOk(u);
  EXPECT_EQ(UInt64Array(ufile.batches[0]->column_data(0)).Value(0), UINT64_MAX);
  ExpectColumnRoundTrip(u);
}

TEST(IntegrationJsonRead, NumbersAreAcceptedForSixtyFourBitToo) {
  auto text = OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 64})"),
                            R"({"name": "a", "count": 1, "VALIDITY": [1], "DATA": [-5]})", 1);
  IntegrationFile file = ParseOk(text);
  EXPECT_EQ(Int64Array(file.batches[0]->column_data(0)).Value(0), -5);
  EXPECT_EQ(WrittenColumn(file)["DATA"][0], "-5");
}

TEST(IntegrationJsonRead, Booleans) {
  auto text = OneColumnFile(Field("b", R"({"name": "bool"})"),
                            R"({"name": "b", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [true, false, true]})", 3);
  IntegrationFile file = ParseOk(text);
  BooleanArray view(file.batches[0]->column_data(0));
  EXPECT_TRUE(view.Value(0));
  EXPECT_FALSE(view.Value(1));
  EXPECT_TRUE(view.Value(2));
  ExpectColumnRoundTrip(text);
  // The spec's 1/0 spelling reads the same.
  auto numeric = OneColumnFile(Field("b", R"({"name": "bool"})"),
                               R"({"name": "b", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 0]})", 2);
  IntegrationFile file2 = ParseOk(numeric);
  EXPECT_TRUE(BooleanArray(file2.batches[0]->column_data(0)).Value(0));
  EXPECT_EQ(WrittenColumn(file2)["DATA"], Json::parse("[true, false]"));
}

TEST(IntegrationJsonRead, FloatsPrintLikeTheReference) {
  auto text = OneColumnFile(Field("f", R"({"name": "floatingpoint", "precision": "SINGLE"})"),
                            R"({"name": "f", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [641.818, -0.5, 2010.39]})", 3);
  IntegrationFile file = ParseOk(text);
  EXPECT_FLOAT_EQ(FloatArray(file.batches[0]->column_data(0)).Value(0), 641.818f);
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok());
  EXPECT_THAT(*written, HasSubstr("641.818"));
  EXPECT_THAT(*written, Not(HasSubstr("641.81799")));
  ExpectColumnRoundTrip(text);

  auto d = OneColumnFile(Field("d", R"({"name": "floatingpoint", "precision": "DOUBLE"})"),
                         R"({"name": "d", "count": 2, "VALIDITY": [1, 0], "DATA": [-1746.99, 1.0]})", 2);
  ExpectColumnRoundTrip(d);
}

TEST(IntegrationJsonRead, HalfFloats) {
  auto text = OneColumnFile(Field("h", R"({"name": "floatingpoint", "precision": "HALF"})"),
                            R"({"name": "h", "count": 4, "VALIDITY": [1, 1, 1, 1], "DATA": [1.5, -2.0, 65504.0, 0.0]})", 4);
  IntegrationFile file = ParseOk(text);
  HalfFloatArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.Value(0), 0x3e00);
  EXPECT_EQ(view.Value(1), 0xc000);
  EXPECT_EQ(view.Value(2), 0x7bff);
  EXPECT_EQ(view.Value(3), 0x0000);
  ExpectColumnRoundTrip(text);
}

TEST(IntegrationJsonRead, NonFiniteFloatsInNullSlotsAreWrittenAsZero) {
  auto data = ArrayData::Make(float64(), 2, BufferVector{nullptr, nullptr}, 0);
  auto values = AllocateBuffer(16).ValueOrDie();
  double raw[2] = {std::nan(""), 1.0};
  std::memcpy(values->mutable_data(), raw, 16);
  auto bitmap = AllocateBitmap(2).ValueOrDie();
  bit_util::SetBit(bitmap->mutable_data(), 1);
  data->buffers = {bitmap, values};
  data->null_count = 1;
  auto schema = alkaid::schema({field("d", float64())});
  auto text = WriteIntegrationJson(*schema, {RecordBatch::Make(schema, 2, {data})});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(Json::parse(*text)["batches"][0]["columns"][0]["DATA"], Json::parse("[0.0, 1.0]"));
  // A valid NaN has no JSON spelling.
  bit_util::SetBit(bitmap->mutable_data(), 0);
  data->null_count = 0;
  auto bad = WriteIntegrationJson(*schema, {RecordBatch::Make(schema, 2, {data})});
  EXPECT_TRUE(bad.status().IsNotImplemented()) << bad.status();
}

TEST(IntegrationJsonRead, Decimals) {
  for (int bits : {32, 64, 128, 256}) {
    std::string max_digits = bits == 32 ? "-999999999" : bits == 64 ? "-999999999999999999"
                             : bits == 128 ? "-99999999999999999999999999999999999999"
                                           : "-" + std::string(76, '9');
    int precision = bits == 32 ? 9 : bits == 64 ? 18 : bits == 128 ? 38 : 76;
    auto text = OneColumnFile(
        Field("d", R"({"name": "decimal", "precision": )" + std::to_string(precision) +
                       R"(, "scale": 2, "bitWidth": )" + std::to_string(bits) + "}"),
        R"({"name": "d", "count": 3, "VALIDITY": [1, 1, 1], "DATA": ["12345", ")" + max_digits + R"(", "0"]})", 3);
    IntegrationFile file = ParseOk(text);
    const ArrayData& a = Column(file);
    ASSERT_EQ(a.type->byte_width(), bits / 8);
    // 12345 little-endian, sign-extended.
    const uint8_t* v = a.buffers[1]->data();
    EXPECT_EQ(v[0], 0x39);
    EXPECT_EQ(v[1], 0x30);
    EXPECT_EQ(v[bits / 8 - 1], 0x00);
    EXPECT_NE(v[bits / 8 + bits / 8 - 1] & 0x80, 0);  // the negative value's sign bit
    if (bits == 32) {
      uint32_t raw;
      std::memcpy(&raw, v + 4, 4);
      EXPECT_EQ(raw, static_cast<uint32_t>(-999999999));
    }
    ExpectColumnRoundTrip(text);
  }
}

TEST(IntegrationJsonRead, DecimalWithoutBitWidthIs128) {
  auto text = OneColumnFile(Field("d", R"({"name": "decimal", "precision": 5, "scale": 1})"),
                            R"({"name": "d", "count": 1, "VALIDITY": [1], "DATA": ["-1"]})", 1);
  IntegrationFile file = ParseOk(text);
  EXPECT_EQ(Column(file).type->id(), TypeId::kDecimal128);
  const uint8_t* v = Column(file).buffers[1]->data();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(v[i], 0xff);
}

TEST(IntegrationJsonRead, DatesTimesTimestampsDurations) {
  struct Case {
    std::string type;
    std::string data;
    TypeId id;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"name": "date", "unit": "DAY"})", "[-1, 19000]", TypeId::kDate32},
           {R"({"name": "date", "unit": "MILLISECOND"})", R"(["-62135596800000", "86400000"])", TypeId::kDate64},
           {R"({"name": "time", "unit": "SECOND", "bitWidth": 32})", "[0, 86399]", TypeId::kTime32},
           {R"({"name": "time", "unit": "NANOSECOND", "bitWidth": 64})", R"(["1", "86399999999999"])", TypeId::kTime64},
           {R"({"name": "timestamp", "unit": "MICROSECOND", "timezone": "UTC"})", R"(["-1", "2"])", TypeId::kTimestamp},
           {R"({"name": "duration", "unit": "MILLISECOND"})", R"(["-9223372036854775808", "3"])", TypeId::kDuration},
           {R"({"name": "interval", "unit": "YEAR_MONTH"})", "[-120000, 12]", TypeId::kIntervalMonths},
       }) {
    auto text = OneColumnFile(Field("t", c.type), R"({"name": "t", "count": 2, "VALIDITY": [1, 1], "DATA": )" + c.data + "}", 2);
    IntegrationFile file = ParseOk(text);
    EXPECT_EQ(Column(file).type->id(), c.id) << c.type;
    ExpectColumnRoundTrip(text);
  }
  auto ts = ParseOk(OneColumnFile(Field("t", R"({"name": "timestamp", "unit": "SECOND", "timezone": "US/Eastern"})"),
                                  R"({"name": "t", "count": 0, "VALIDITY": [], "DATA": []})", 0));
  const auto& type = checked_cast<TimestampType>(*ts.schema->field(0)->type());
  EXPECT_EQ(type.unit(), TimeUnit::kSecond);
  EXPECT_EQ(type.timezone(), "US/Eastern");
}

TEST(IntegrationJsonRead, Intervals) {
  auto dt = OneColumnFile(Field("i", R"({"name": "interval", "unit": "DAY_TIME"})"),
                          R"({"name": "i", "count": 1, "VALIDITY": [1], "DATA": [{"days": -3, "milliseconds": 400}]})", 1);
  IntegrationFile file = ParseOk(dt);
  DayTimeIntervalArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.Value(0), (DayTimeInterval{-3, 400}));
  ExpectColumnRoundTrip(dt);

  auto mdn = OneColumnFile(Field("i", R"({"name": "interval", "unit": "MONTH_DAY_NANO"})"),
                           R"({"name": "i", "count": 1, "VALIDITY": [1], "DATA": [{"months": 1, "days": -2, "nanoseconds": -8743230752344178907}]})", 1);
  IntegrationFile file2 = ParseOk(mdn);
  MonthDayNanoIntervalArray view2(file2.batches[0]->column_data(0));
  EXPECT_EQ(view2.Value(0), (MonthDayNanoInterval{1, -2, -8743230752344178907}));
  ExpectColumnRoundTrip(mdn);
}

TEST(IntegrationJsonRead, NullColumnHasNoBuffers) {
  auto text = OneColumnFile(Field("n", R"({"name": "null"})"), R"({"name": "n", "count": 4})", 4);
  IntegrationFile file = ParseOk(text);
  EXPECT_TRUE(Column(file).buffers.empty());
  EXPECT_EQ(Column(file).null_count, 4);
  ExpectColumnRoundTrip(text);
}

// ---------------------------------------------------------------------------
// Binary-like

TEST(IntegrationJsonRead, BinaryHexAndUtf8) {
  auto bin = OneColumnFile(Field("b", R"({"name": "binary"})"),
                           R"({"name": "b", "count": 3, "VALIDITY": [1, 0, 1], "OFFSET": [0, 3, 3, 4], "DATA": ["27DD17", "", "ff"]})", 3);
  IntegrationFile file = ParseOk(bin);
  BinaryArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.GetString(0), std::string("\x27\xdd\x17", 3));
  EXPECT_EQ(view.GetString(2), "\xff");
  // Hex is written upper-case.
  EXPECT_EQ(WrittenColumn(file)["DATA"], Json::parse(R"(["27DD17", "", "FF"])"));

  auto str = OneColumnFile(Field("s", R"({"name": "largeutf8"})"),
                           R"({"name": "s", "count": 2, "VALIDITY": [1, 1], "OFFSET": ["0", "2", "6"], "DATA": ["\u00b5", "\u77e2r"]})", 2);
  IntegrationFile sfile = ParseOk(str);
  LargeStringArray sview(sfile.batches[0]->column_data(0));
  EXPECT_EQ(sview.GetString(0), "\xc2\xb5");
  EXPECT_EQ(sview.GetString(1), "\xe7\x9f\xa2r");
  ExpectColumnRoundTrip(str);
  auto written = WriteIntegrationJson(sfile);
  ASSERT_TRUE(written.ok());
  EXPECT_THAT(*written, HasSubstr(R"("\u00b5")"));  // ASCII-escaped like the reference
}

TEST(IntegrationJsonRead, FixedSizeBinary) {
  auto text = OneColumnFile(Field("f", R"({"name": "fixedsizebinary", "byteWidth": 3})"),
                            R"({"name": "f", "count": 2, "VALIDITY": [1, 0], "DATA": ["0A0B0C", "000000"]})", 2);
  IntegrationFile file = ParseOk(text);
  FixedSizeBinaryArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.GetView(0), std::string("\x0a\x0b\x0c", 3));
  ExpectColumnRoundTrip(text);
}

TEST(IntegrationJsonRead, BinaryAndUtf8Views) {
  auto bv = OneColumnFile(
      Field("v", R"({"name": "binaryview"})"),
      R"({"name": "v", "count": 3, "VALIDITY": [1, 1, 0], "VIEWS": [{"SIZE": 2, "INLINED": "F34D"}, {"SIZE": 17, "PREFIX_HEX": "20E3FA45", "BUFFER_INDEX": 1, "OFFSET": 2}, {"SIZE": 0, "INLINED": ""}], "VARIADIC_DATA_BUFFERS": ["00", "000020E3FA45DF38B7BE18196CF727C4AF8FBC"]})",
      3);
  IntegrationFile file = ParseOk(bv);
  const ArrayData& a = Column(file);
  ASSERT_EQ(a.buffers.size(), 4u);
  BinaryViewArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.GetString(0), "\xf3\x4d");
  EXPECT_EQ(view.GetView(1).size(), 17u);
  EXPECT_EQ(static_cast<uint8_t>(view.GetView(1)[0]), 0x20);
  EXPECT_EQ(static_cast<uint8_t>(view.GetView(1)[16]), 0xbc);
  ExpectColumnRoundTrip(bv);

  auto sv = OneColumnFile(
      Field("v", R"({"name": "utf8view"})"),
      R"({"name": "v", "count": 2, "VALIDITY": [1, 1], "VIEWS": [{"SIZE": 12, "INLINED": "\u20ac4e2b\u00a3\u20ac"}, {"SIZE": 14, "PREFIX_HEX": "6BE282AC", "BUFFER_INDEX": 0, "OFFSET": 0}], "VARIADIC_DATA_BUFFERS": ["6BE282AC67E79FA2E282AC6CC382"]})",
      2);
  IntegrationFile sfile = ParseOk(sv);
  StringViewArray sview(sfile.batches[0]->column_data(0));
  EXPECT_EQ(sview.GetString(0), "\xe2\x82\xac" "4e2b\xc2\xa3\xe2\x82\xac");
  EXPECT_EQ(sview.GetString(1), "k\xe2\x82\xacg\xe7\x9f\xa2\xe2\x82\xacl\xc3\x82");
  ExpectColumnRoundTrip(sv);
}

// ---------------------------------------------------------------------------
// Nested

const char* kInt32 = R"({"name": "int", "isSigned": true, "bitWidth": 32})";

TEST(IntegrationJsonRead, ListsAndLargeLists) {
  auto text = OneColumnFile(
      Field("l", R"({"name": "list"})", Field("item", kInt32)),
      R"({"name": "l", "count": 3, "VALIDITY": [1, 0, 1], "OFFSET": [0, 2, 2, 3], "children": [{"name": "item", "count": 3, "VALIDITY": [1, 1, 0], "DATA": [1, 2, 3]}]})",
      3);
  IntegrationFile file = ParseOk(text);
  ListArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.value_length(0), 2);
  EXPECT_EQ(view.value_offset(2), 2);
  EXPECT_EQ(Column(file).child_data[0]->length, 3);
  ExpectColumnRoundTrip(text);

  auto large = OneColumnFile(
      Field("l", R"({"name": "largelist"})", Field("item", kInt32)),
      R"({"name": "l", "count": 1, "VALIDITY": [1], "OFFSET": ["0", "1"], "children": [{"name": "item", "count": 1, "VALIDITY": [1], "DATA": [9]}]})",
      1);
  ExpectColumnRoundTrip(large);
}

TEST(IntegrationJsonRead, ListViews) {
  auto text = OneColumnFile(
      Field("l", R"({"name": "largelistview"})", Field("item", kInt32)),
      R"({"name": "l", "count": 2, "VALIDITY": [1, 1], "OFFSET": ["2", "0"], "SIZE": ["1", "3"], "children": [{"name": "item", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [1, 2, 3]}]})",
      2);
  IntegrationFile file = ParseOk(text);
  LargeListViewArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.value_offset(0), 2);
  EXPECT_EQ(view.value_length(1), 3);
  ExpectColumnRoundTrip(text);
}

TEST(IntegrationJsonRead, FixedSizeListStructAndMap) {
  auto fsl = OneColumnFile(
      Field("f", R"({"name": "fixedsizelist", "listSize": 2})", Field("item", kInt32)),
      R"({"name": "f", "count": 2, "VALIDITY": [1, 0], "children": [{"name": "item", "count": 4, "VALIDITY": [1, 1, 1, 1], "DATA": [1, 2, 3, 4]}]})",
      2);
  IntegrationFile file = ParseOk(fsl);
  EXPECT_EQ(checked_cast<FixedSizeListType>(*Column(file).type).list_size(), 2);
  ExpectColumnRoundTrip(fsl);

  auto st = OneColumnFile(
      Field("s", R"({"name": "struct"})", Field("x", kInt32) + ", " + Field("", R"({"name": "utf8"})")),
      R"({"name": "s", "count": 1, "VALIDITY": [1], "children": [{"name": "x", "count": 1, "VALIDITY": [0], "DATA": [0]}, {"name": "", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["a"]}]})",
      1);
  ExpectColumnRoundTrip(st);

  std::string entries =
      R"({"name": "entries", "nullable": false, "type": {"name": "struct"}, "children": [{"name": "key", "nullable": false, "type": {"name": "utf8"}, "children": []}, )" +
      Field("value", kInt32) + "]}";
  auto map = OneColumnFile(
      Field("m", R"({"name": "map", "keysSorted": true})", entries),
      R"({"name": "m", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "children": [{"name": "entries", "count": 1, "VALIDITY": [1], "children": [{"name": "key", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["k"]}, {"name": "value", "count": 1, "VALIDITY": [1], "DATA": [5]}]}]})",
      1);
  IntegrationFile mfile = ParseOk(map);
  const auto& map_type = checked_cast<MapType>(*Column(mfile).type);
  EXPECT_TRUE(map_type.keys_sorted());
  EXPECT_EQ(map_type.key_type()->id(), TypeId::kString);
  ExpectColumnRoundTrip(map);
}

TEST(IntegrationJsonRead, Unions) {
  std::string children = Field("i", kInt32) + ", " + Field("s", R"({"name": "utf8"})");
  auto sparse = OneColumnFile(
      Field("u", R"({"name": "union", "mode": "SPARSE", "typeIds": [5, 7]})", children),
      R"({"name": "u", "count": 2, "TYPE_ID": [7, 5], "children": [{"name": "i", "count": 2, "VALIDITY": [0, 1], "DATA": [0, 4]}, {"name": "s", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 1, 1], "DATA": ["z", ""]}]})",
      2);
  IntegrationFile file = ParseOk(sparse);
  EXPECT_EQ(Column(file).type->id(), TypeId::kSparseUnion);
  EXPECT_EQ(Column(file).buffers.size(), 1u);
  UnionArray view(file.batches[0]->column_data(0));
  EXPECT_EQ(view.type_code(0), 7);
  EXPECT_EQ(view.child_id(1), 0);
  ExpectColumnRoundTrip(sparse);

  auto dense = OneColumnFile(
      Field("u", R"({"name": "union", "mode": "DENSE", "typeIds": [10, 20]})", children),
      R"({"name": "u", "count": 3, "TYPE_ID": [10, 20, 10], "OFFSET": [0, 0, 1], "children": [{"name": "i", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 2]}, {"name": "s", "count": 1, "VALIDITY": [1], "OFFSET": [0, 2], "DATA": ["ab"]}]})",
      3);
  IntegrationFile dfile = ParseOk(dense);
  UnionArray dview(dfile.batches[0]->column_data(0));
  EXPECT_EQ(dview.value_offset(2), 1);
  ExpectColumnRoundTrip(dense);
}

TEST(IntegrationJsonRead, RunEndEncoded) {
  std::string children = R"({"name": "run_ends", "nullable": false, "type": {"name": "int", "isSigned": true, "bitWidth": 64}, "children": []}, )" +
                         Field("values", R"({"name": "utf8"})");
  auto text = OneColumnFile(
      Field("r", R"({"name": "runendencoded"})", children),
      R"({"name": "r", "count": 5, "children": [{"name": "run_ends", "count": 2, "VALIDITY": [1, 1], "DATA": ["3", "5"]}, {"name": "values", "count": 2, "VALIDITY": [1, 0], "OFFSET": [0, 1, 1], "DATA": ["a", ""]}]})",
      5);
  IntegrationFile file = ParseOk(text);
  EXPECT_TRUE(Column(file).buffers.empty());
  EXPECT_EQ(Column(file).child_data[0]->length, 2);
  ExpectColumnRoundTrip(text);
}

// ---------------------------------------------------------------------------
// Dictionaries, metadata, extensions

TEST(IntegrationJsonRead, DictionaryColumnsShareTheirDictionary) {
  std::string dict = R"(, "dictionary": {"id": 7, "indexType": {"name": "int", "isSigned": false, "bitWidth": 16}, "isOrdered": true})";
  std::string text =
      R"({"schema": {"fields": [)" + Field("a", R"({"name": "utf8"})", "", dict) + ", " +
      Field("b", R"({"name": "utf8"})", "", dict) +
      R"(]}, "dictionaries": [{"id": 7, "data": {"count": 2, "columns": [{"name": "DICT7", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 3, 6], "DATA": ["foo", "bar"]}]}}], )"
      R"("batches": [{"count": 2, "columns": [{"name": "a", "count": 2, "VALIDITY": [1, 0], "DATA": [1, 0]}, {"name": "b", "count": 2, "VALIDITY": [1, 1], "DATA": [0, 1]}]}]})";
  IntegrationFile file = ParseOk(text);
  ASSERT_EQ(file.dictionaries.size(), 1u);
  EXPECT_EQ(file.dictionary_ids.Get({0}), 7);
  EXPECT_EQ(file.dictionary_ids.Get({1}), 7);
  const auto& type = checked_cast<DictionaryType>(*Column(file, 0).type);
  EXPECT_EQ(type.index_type()->id(), TypeId::kUInt16);
  EXPECT_TRUE(type.ordered());
  EXPECT_EQ(Column(file, 0).dictionary, file.dictionaries.at(7));
  EXPECT_EQ(Column(file, 1).dictionary, file.dictionaries.at(7));
  EXPECT_EQ(StringArray(file.dictionaries.at(7)).GetString(1), "bar");

  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok()) << written.status();
  Json out = Json::parse(*written);
  EXPECT_EQ(out["dictionaries"][0]["id"], 7);
  EXPECT_EQ(out["dictionaries"][0]["data"]["columns"][0]["name"], "DICT7");
  EXPECT_EQ(out["schema"]["fields"][1]["dictionary"]["indexType"]["bitWidth"], 16);
  EXPECT_EQ(out["batches"][0]["columns"][0]["DATA"], Json::parse("[1, 0]"));

  // Writing from schema + batches collects the dictionary from the columns.
  auto from_batches = WriteIntegrationJson(*file.schema, file.batches, &file.dictionary_ids);
  ASSERT_TRUE(from_batches.ok()) << from_batches.status();
  EXPECT_EQ(*from_batches, *written);
}

TEST(IntegrationJsonRead, NestedDictionaries) {
  // A dictionary whose values are lists of dictionary-encoded strings.
  std::string inner_dict = R"(, "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false})";
  std::string outer_dict = R"(, "dictionary": {"id": 1, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false})";
  std::string text =
      R"({"schema": {"fields": [)" +
      Field("l", R"({"name": "list"})", Field("s", R"({"name": "utf8"})", "", inner_dict), outer_dict) +
      R"(]}, "dictionaries": [)"
      R"({"id": 1, "data": {"count": 1, "columns": [{"name": "DICT1", "count": 1, "VALIDITY": [1], "OFFSET": [0, 2], "children": [{"name": "s", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 0]}]}]}},)"
      R"({"id": 0, "data": {"count": 2, "columns": [{"name": "DICT0", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["x", "y"]}]}}], )"
      R"("batches": [{"count": 2, "columns": [{"name": "l", "count": 2, "VALIDITY": [1, 1], "DATA": [0, 0]}]}]})";
  IntegrationFile file = ParseOk(text);
  EXPECT_EQ(file.dictionary_ids.Get({0}), 1);
  EXPECT_EQ(file.dictionary_ids.Get({0, 0}), 0);
  const ArrayData& outer = *file.dictionaries.at(1);
  ASSERT_EQ(outer.child_data.size(), 1u);
  EXPECT_EQ(outer.child_data[0]->dictionary, file.dictionaries.at(0));
  EXPECT_EQ(Column(file).dictionary, file.dictionaries.at(1));

  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok()) << written.status();
  // Written in id order.
  Json out = Json::parse(*written);
  EXPECT_EQ(out["dictionaries"][0]["id"], 0);
  EXPECT_EQ(out["dictionaries"][1]["id"], 1);
  auto from_batches = WriteIntegrationJson(*file.schema, file.batches, &file.dictionary_ids);
  ASSERT_TRUE(from_batches.ok()) << from_batches.status();
  EXPECT_EQ(*from_batches, *written);
}

TEST(IntegrationJsonRead, MetadataIsKeptInOrder) {
  std::string text =
      R"({"schema": {"fields": [)" +
      Field("a", kInt32, "", R"(, "metadata": [{"key": "z", "value": "1"}, {"key": "a", "value": "2"}, {"key": "z", "value": "3"}])") +
      R"(], "metadata": [{"key": "schema_custom_0", "value": "{}"}]}, "batches": []})";
  IntegrationFile file = ParseOk(text);
  const auto& m = *file.schema->field(0)->metadata();
  ASSERT_EQ(m.size(), 3);
  EXPECT_EQ(m.key(0), "z");
  EXPECT_EQ(m.value(2), "3");
  EXPECT_EQ(file.schema->metadata()->value(0), "{}");
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok());
  Json out = Json::parse(*written);
  EXPECT_EQ(out["schema"], Json::parse(text)["schema"]);
}

TEST(IntegrationJsonRead, UnknownExtensionKeepsStorageAndKeys) {
  std::string text = OneColumnFile(
      Field("e", R"({"name": "int", "isSigned": true, "bitWidth": 8})", "",
            R"(, "metadata": [{"key": "ARROW:extension:name", "value": "!nonexistent"}, {"key": "ARROW:extension:metadata", "value": ""}])"),
      R"({"name": "e", "count": 1, "VALIDITY": [1], "DATA": [3]})", 1);
  IntegrationFile file = ParseOk(text);
  EXPECT_EQ(file.schema->field(0)->type()->id(), TypeId::kInt8);
  EXPECT_EQ(file.schema->field(0)->metadata()->Get("ARROW:extension:name").ValueOrDie(), "!nonexistent");
  ExpectColumnRoundTrip(text);
}

// An extension type private to these tests: storage plus one parameter.
class TestExtensionType final : public ExtensionType {
 public:
  TestExtensionType(DataTypePtr storage, std::string param)
      : ExtensionType(std::move(storage)), param_(std::move(param)) {}
  std::string extension_name() const override { return "alkaid.json_test.ext"; }
  std::string Serialize() const override { return param_; }
  Result<DataTypePtr> Deserialize(DataTypePtr storage, const std::string& serialized) const override {
    if (serialized == "reject") return Status::Invalid("test extension rejects its metadata");
    return DataTypePtr(std::make_shared<TestExtensionType>(std::move(storage), serialized));
  }

 private:
  std::string param_;
};

class RegisteredExtension : public ::testing::Test {
 protected:
  void SetUp() override {
    Status st = RegisterExtensionType(std::make_shared<TestExtensionType>(int16(), ""));
    if (st.IsNotImplemented()) GTEST_SKIP() << "extension registry not available: " << st;
    ASSERT_TRUE(st.ok()) << st;
  }
  void TearDown() override { (void)UnregisterExtensionType("alkaid.json_test.ext"); }
};

TEST_F(RegisteredExtension, BecomesTheExtensionTypeAndWritesItsKeysBack) {
  std::string text = OneColumnFile(
      Field("e", R"({"name": "int", "isSigned": true, "bitWidth": 16})", "",
            R"(, "metadata": [{"key": "ARROW:extension:name", "value": "alkaid.json_test.ext"}, {"key": "ARROW:extension:metadata", "value": "p=1"}, {"key": "other", "value": "kept"}])"),
      R"({"name": "e", "count": 2, "VALIDITY": [1, 0], "DATA": [-3, 0]})", 2);
  IntegrationFile file = ParseOk(text);
  const FieldPtr& f = file.schema->field(0);
  ASSERT_EQ(f->type()->id(), TypeId::kExtension);
  const auto& ext = checked_cast<ExtensionType>(*f->type());
  EXPECT_EQ(ext.Serialize(), "p=1");
  EXPECT_EQ(ext.storage_type()->id(), TypeId::kInt16);
  // The type now carries the extension keys; the rest of the metadata stays.
  ASSERT_NE(f->metadata(), nullptr);
  EXPECT_EQ(f->metadata()->size(), 1);
  EXPECT_EQ(f->metadata()->key(0), "other");
  EXPECT_EQ(Column(file).type->id(), TypeId::kExtension);
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(Json::parse(*written)["schema"], Json::parse(text)["schema"]);
  ExpectColumnRoundTrip(text);
}

TEST_F(RegisteredExtension, WrapsADictionary) {
  std::string dict = R"(, "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false})";
  // Storage of a dictionary-encoded extension field is the dictionary type;
  // the test type accepts any storage.
  std::string text = OneColumnFile(
      Field("e", R"({"name": "int", "isSigned": true, "bitWidth": 16})", "",
            dict + R"(, "metadata": [{"key": "ARROW:extension:name", "value": "alkaid.json_test.ext"}, {"key": "ARROW:extension:metadata", "value": ""}])"),
      R"({"name": "e", "count": 1, "VALIDITY": [1], "DATA": [0]})", 1,
      R"([{"id": 0, "data": {"count": 1, "columns": [{"name": "DICT0", "count": 1, "VALIDITY": [1], "DATA": [42]}]}}])");
  IntegrationFile file = ParseOk(text);
  const auto& ext = checked_cast<ExtensionType>(*file.schema->field(0)->type());
  EXPECT_EQ(ext.storage_type()->id(), TypeId::kDictionary);
  EXPECT_EQ(Column(file).dictionary, file.dictionaries.at(0));
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok()) << written.status();
  Json original = Json::parse(text);
  Json ours = Json::parse(*written);
  EXPECT_EQ(ours["schema"], original["schema"]);
  EXPECT_EQ(ours["dictionaries"], original["dictionaries"]);
}

TEST_F(RegisteredExtension, RejectedMetadataIsAnError) {
  Status st = ParseError(OneColumnFile(
      Field("e", R"({"name": "int", "isSigned": true, "bitWidth": 16})", "",
            R"(, "metadata": [{"key": "ARROW:extension:name", "value": "alkaid.json_test.ext"}, {"key": "ARROW:extension:metadata", "value": "reject"}])"),
      "{}", 0));
  EXPECT_THAT(st.message(), HasSubstr("schema.fields[0](e) (extension \"alkaid.json_test.ext\")"));
  EXPECT_THAT(st.message(), HasSubstr("rejects its metadata"));
}

TEST(IntegrationJsonRead, NoBatchesAndEmptyColumns) {
  IntegrationFile file = ParseOk(R"({"schema": {"fields": []}, "batches": []})");
  EXPECT_EQ(file.schema->num_fields(), 0);
  EXPECT_TRUE(file.batches.empty());
  auto written = WriteIntegrationJson(file);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(Json::parse(*written), Json::parse(R"({"schema": {"fields": []}, "batches": []})"));
}

// ---------------------------------------------------------------------------
// Writing sliced arrays

IntegrationFile SingleColumn(const std::string& field_json, const std::string& column_json, int64_t count) {
  return ParseOk(OneColumnFile(field_json, column_json, count));
}

Json WriteSlice(const IntegrationFile& file, int64_t offset, int64_t length) {
  auto sliced = file.batches[0]->column_data(0)->Slice(offset, length);
  auto schema = file.schema;
  auto text = WriteIntegrationJson(*schema, {RecordBatch::Make(schema, length, {sliced})}, &file.dictionary_ids);
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? Json::parse(*text)["batches"][0]["columns"][0] : Json();
}

TEST(IntegrationJsonWrite, SlicedStringsRebaseOffsets) {
  auto file = SingleColumn(Field("s", R"({"name": "utf8"})"),
                           R"({"name": "s", "count": 3, "VALIDITY": [1, 0, 1], "OFFSET": [0, 2, 2, 5], "DATA": ["ab", "", "cde"]})", 3);
  Json col = WriteSlice(file, 1, 2);
  EXPECT_EQ(col["count"], 2);
  EXPECT_EQ(col["VALIDITY"], Json::parse("[0, 1]"));
  EXPECT_EQ(col["OFFSET"], Json::parse("[0, 0, 3]"));
  EXPECT_EQ(col["DATA"], Json::parse(R"(["", "cde"])"));
}

TEST(IntegrationJsonWrite, SlicedListsCutTheirChild) {
  auto file = SingleColumn(
      Field("l", R"({"name": "list"})", Field("item", kInt32)),
      R"({"name": "l", "count": 3, "VALIDITY": [1, 1, 1], "OFFSET": [0, 2, 3, 6], "children": [{"name": "item", "count": 6, "VALIDITY": [1, 1, 1, 1, 1, 1], "DATA": [1, 2, 3, 4, 5, 6]}]})",
      3);
  Json col = WriteSlice(file, 1, 2);
  EXPECT_EQ(col["OFFSET"], Json::parse("[0, 1, 4]"));
  EXPECT_EQ(col["children"][0]["count"], 4);
  EXPECT_EQ(col["children"][0]["DATA"], Json::parse("[3, 4, 5, 6]"));
  // The slice parses back.
  EXPECT_TRUE(ParseIntegrationJson(OneColumnFile(Field("l", R"({"name": "list"})", Field("item", kInt32)),
                                                 col.dump(), 2)).ok());
}

TEST(IntegrationJsonWrite, SlicedStructsAndFixedSizeLists) {
  auto st = SingleColumn(
      Field("s", R"({"name": "struct"})", Field("x", kInt32)),
      R"({"name": "s", "count": 3, "VALIDITY": [1, 1, 0], "children": [{"name": "x", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [7, 8, 9]}]})", 3);
  Json col = WriteSlice(st, 2, 1);
  EXPECT_EQ(col["VALIDITY"], Json::parse("[0]"));
  EXPECT_EQ(col["children"][0]["DATA"], Json::parse("[9]"));

  auto fsl = SingleColumn(
      Field("f", R"({"name": "fixedsizelist", "listSize": 2})", Field("item", kInt32)),
      R"({"name": "f", "count": 3, "VALIDITY": [1, 1, 1], "children": [{"name": "item", "count": 6, "VALIDITY": [1, 1, 1, 1, 1, 1], "DATA": [1, 2, 3, 4, 5, 6]}]})", 3);
  Json fcol = WriteSlice(fsl, 1, 1);
  EXPECT_EQ(fcol["children"][0]["DATA"], Json::parse("[3, 4]"));
}

TEST(IntegrationJsonWrite, SlicedRunEndEncodedClipsRuns) {
  std::string children = R"({"name": "run_ends", "nullable": false, "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []}, )" +
                         Field("values", kInt32);
  auto file = SingleColumn(
      Field("r", R"({"name": "runendencoded"})", children),
      R"({"name": "r", "count": 9, "children": [{"name": "run_ends", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [3, 6, 9]}, {"name": "values", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [10, 20, 30]}]})", 9);
  Json col = WriteSlice(file, 4, 4);  // logical slots 4..7: runs 20 (4,5) and 30 (6,7)
  EXPECT_EQ(col["count"], 4);
  EXPECT_EQ(col["children"][0]["DATA"], Json::parse("[2, 4]"));
  EXPECT_EQ(col["children"][1]["DATA"], Json::parse("[20, 30]"));
  Json empty = WriteSlice(file, 3, 0);
  EXPECT_EQ(empty["children"][0]["count"], 0);
}

TEST(IntegrationJsonWrite, SlicedSparseUnionKeepsChildPositions) {
  std::string children = Field("i", kInt32);
  auto file = SingleColumn(
      Field("u", R"({"name": "union", "mode": "SPARSE", "typeIds": [3]})", children),
      R"({"name": "u", "count": 3, "TYPE_ID": [3, 3, 3], "children": [{"name": "i", "count": 3, "VALIDITY": [1, 1, 1], "DATA": [1, 2, 3]}]})", 3);
  Json col = WriteSlice(file, 1, 2);
  EXPECT_EQ(col["TYPE_ID"], Json::parse("[3, 3]"));
  EXPECT_EQ(col["children"][0]["DATA"], Json::parse("[2, 3]"));
}

TEST(IntegrationJsonWrite, SchemaOnly) {
  auto schema = alkaid::schema({field("a", dictionary(int8(), utf8())), field("b", list(int64()), false)});
  auto text = WriteIntegrationSchemaJson(*schema);
  ASSERT_TRUE(text.ok()) << text.status();
  Json out = Json::parse(*text);
  EXPECT_EQ(out["fields"][0]["type"]["name"], "utf8");
  EXPECT_EQ(out["fields"][0]["dictionary"]["id"], 0);
  EXPECT_EQ(out["fields"][1]["nullable"], false);
  EXPECT_EQ(out["fields"][1]["children"][0]["type"]["bitWidth"], 64);
}

TEST(IntegrationJsonWrite, DifferentDictionariesForOneIdAreRejected) {
  auto values_a = ParseOk(OneColumnFile(Field("v", R"({"name": "utf8"})"),
                                        R"({"name": "v", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["a"]})", 1));
  auto values_b = ParseOk(OneColumnFile(Field("v", R"({"name": "utf8"})"),
                                        R"({"name": "v", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["b"]})", 1));
  auto type = dictionary(int8(), utf8());
  auto schema = alkaid::schema({field("d", type)});
  auto indices = AllocateBuffer(1).ValueOrDie();
  auto col_a = ArrayData::Make(type, 1, BufferVector{nullptr, indices}, 0);
  col_a->dictionary = values_a.batches[0]->column_data(0);
  auto col_b = ArrayData::Make(type, 1, BufferVector{nullptr, indices}, 0);
  col_b->dictionary = values_b.batches[0]->column_data(0);
  auto text = WriteIntegrationJson(*schema, {RecordBatch::Make(schema, 1, {col_a}), RecordBatch::Make(schema, 1, {col_b})});
  EXPECT_TRUE(text.status().IsNotImplemented()) << text.status();
  // Equal values in different objects are fine.
  auto col_a2 = ArrayData::Make(type, 1, BufferVector{nullptr, indices}, 0);
  col_a2->dictionary = ParseOk(OneColumnFile(Field("v", R"({"name": "utf8"})"),
                                             R"({"name": "v", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["a"]})", 1))
                           .batches[0]->column_data(0);
  EXPECT_TRUE(WriteIntegrationJson(*schema, {RecordBatch::Make(schema, 1, {col_a}), RecordBatch::Make(schema, 1, {col_a2})}).ok());
}

// ---------------------------------------------------------------------------
// Errors

TEST(IntegrationJsonErrors, NotJson) {
  Status st = ParseError("{\"schema\": ");
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_THAT(st.message(), HasSubstr("not valid JSON"));
  EXPECT_THAT(ParseError("[1, 2]").message(), HasSubstr("top level must be an object"));
  EXPECT_THAT(ParseError("{}").message(), HasSubstr("missing member \"schema\""));
}

TEST(IntegrationJsonErrors, WrongCount) {
  Status st = ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "a", "count": 3, "VALIDITY": [1, 1], "DATA": [1, 2, 3]})", 3));
  EXPECT_THAT(st.message(), HasSubstr("batches[0].columns[0](a).VALIDITY: has 2 entries but 3 are expected"));
  st = ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 2]})", 3));
  EXPECT_THAT(st.message(), HasSubstr("batches[0].columns[0](a).count: is 2 but 3 is required"));
  // A struct child shorter than its parent.
  st = ParseError(OneColumnFile(Field("s", R"({"name": "struct"})", Field("x", kInt32)),
                                R"({"name": "s", "count": 2, "VALIDITY": [1, 1], "children": [{"name": "x", "count": 1, "VALIDITY": [1], "DATA": [1]}]})", 2));
  EXPECT_THAT(st.message(), HasSubstr("columns[0](s).children[0](x).count: is 1 but 2 is required"));
}

TEST(IntegrationJsonErrors, BadHex) {
  Status st = ParseError(OneColumnFile(Field("b", R"({"name": "binary"})"),
                                       R"({"name": "b", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 1, 2], "DATA": ["0A", "G1"]})", 2));
  EXPECT_THAT(st.message(), HasSubstr("batches[0].columns[0](b).DATA[1]: invalid hex at character 0"));
  st = ParseError(OneColumnFile(Field("b", R"({"name": "binary"})"),
                                R"({"name": "b", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["ABC"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: expected a hex string of even length"));
  st = ParseError(OneColumnFile(Field("f", R"({"name": "fixedsizebinary", "byteWidth": 2})"),
                                R"({"name": "f", "count": 1, "VALIDITY": [1], "DATA": ["00"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: expected a hex string of 2 bytes"));
}

TEST(IntegrationJsonErrors, MissingMembers) {
  EXPECT_THAT(ParseError(R"({"schema": {"fields": [{"name": "a", "nullable": true, "children": []}]}, "batches": []})").message(),
              HasSubstr("schema.fields[0](a): missing member \"type\""));
  EXPECT_THAT(ParseError(R"({"schema": {"fields": []}})").message(), HasSubstr("missing member \"batches\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "a", "count": 1, "VALIDITY": [1]})", 1)).message(),
              HasSubstr("columns[0](a): missing member \"DATA\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": true})"), R"({"name": "a", "count": 0})", 0)).message(),
              HasSubstr("schema.fields[0](a).type: missing member \"bitWidth\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("l", R"({"name": "list"})", Field("item", kInt32)),
                                       R"({"name": "l", "count": 0, "VALIDITY": [], "OFFSET": [0]})", 0)).message(),
              HasSubstr("columns[0](l): missing member \"children\""));
}

TEST(IntegrationJsonErrors, IntegerOutOfRange) {
  Status st = ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 8})"),
                                       R"({"name": "a", "count": 2, "VALIDITY": [1, 1], "DATA": [1, 300]})", 2));
  EXPECT_THAT(st.message(), HasSubstr("columns[0](a).DATA[1]: expected an integer in [-128, 127], got 300"));
  st = ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": false, "bitWidth": 64})"),
                                R"({"name": "a", "count": 1, "VALIDITY": [1], "DATA": ["-1"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: expected an integer in [0, 18446744073709551615]"));
  st = ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 64})"),
                                R"({"name": "a", "count": 1, "VALIDITY": [1], "DATA": ["9223372036854775808"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: expected an integer"));
  st = ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "a", "count": 1, "VALIDITY": [1], "DATA": [1.5]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("got 1.5"));
  st = ParseError(OneColumnFile(Field("d", R"({"name": "decimal", "precision": 9, "scale": 0, "bitWidth": 32})"),
                                R"({"name": "d", "count": 1, "VALIDITY": [1], "DATA": ["2147483648"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: decimal text '2147483648' does not fit in 32 bits"));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 12})"),
                                       R"({"name": "a", "count": 0})", 0)).message(),
              HasSubstr("bitWidth: an int has 8, 16, 32 or 64 bits, not 12"));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "a", "count": 1, "VALIDITY": [2], "DATA": [1]})", 1)).message(),
              HasSubstr("VALIDITY[0]: expected 0 or 1, got 2"));
}

TEST(IntegrationJsonErrors, UnknownTypeName) {
  Status st = ParseError(OneColumnFile(Field("a", R"({"name": "quaternion"})"), R"({"name": "a", "count": 0})", 0));
  EXPECT_TRUE(st.IsNotImplemented());
  EXPECT_THAT(st.message(), HasSubstr("schema.fields[0](a).type.name: unknown type name \"quaternion\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "floatingpoint", "precision": "QUAD"})"), "{}", 0)).message(),
              HasSubstr("unknown precision \"QUAD\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "timestamp", "unit": "FORTNIGHT"})"), "{}", 0)).message(),
              HasSubstr("unknown time unit \"FORTNIGHT\""));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "time", "unit": "NANOSECOND", "bitWidth": 32})"), "{}", 0)).message(),
              HasSubstr("time32 takes a unit of s or ms"));
  EXPECT_THAT(ParseError(OneColumnFile(Field("a", R"({"name": "int", "isSigned": true, "bitWidth": 8})", Field("x", kInt32)), "{}", 0)).message(),
              HasSubstr("a \"int\" type takes no children, got 1"));
}

TEST(IntegrationJsonErrors, OffsetsAndStructure) {
  Status st = ParseError(OneColumnFile(Field("s", R"({"name": "utf8"})"),
                                       R"({"name": "s", "count": 2, "VALIDITY": [1, 1], "OFFSET": [0, 2, 1], "DATA": ["ab", ""]})", 2));
  EXPECT_THAT(st.message(), HasSubstr("OFFSET[2]: offset 1 is less than the previous offset 2"));
  st = ParseError(OneColumnFile(Field("s", R"({"name": "utf8"})"),
                                R"({"name": "s", "count": 1, "VALIDITY": [1], "OFFSET": [0, 3], "DATA": ["ab"]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("DATA[0]: value has 2 bytes but OFFSET[0..1] spans 3"));
  st = ParseError(OneColumnFile(Field("l", R"({"name": "list"})", Field("item", kInt32)),
                                R"({"name": "l", "count": 1, "VALIDITY": [1], "OFFSET": [0, 5], "children": [{"name": "item", "count": 1, "VALIDITY": [1], "DATA": [1]}]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("last offset 5 is past the child's count 1"));
  st = ParseError(OneColumnFile(Field("u", R"({"name": "union", "mode": "SPARSE", "typeIds": [1]})", Field("i", kInt32)),
                                R"({"name": "u", "count": 1, "TYPE_ID": [2], "children": [{"name": "i", "count": 1, "VALIDITY": [1], "DATA": [1]}]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("TYPE_ID[0]: type id 2 is not declared by the union"));
  st = ParseError(OneColumnFile(Field("v", R"({"name": "binaryview"})"),
                                R"({"name": "v", "count": 1, "VALIDITY": [1], "VIEWS": [{"SIZE": 20, "PREFIX_HEX": "00000000", "BUFFER_INDEX": 0, "OFFSET": 0}], "VARIADIC_DATA_BUFFERS": []})", 1));
  EXPECT_THAT(st.message(), HasSubstr("VIEWS[0].BUFFER_INDEX: 0 but only 0 variadic data buffers are given"));
  st = ParseError(OneColumnFile(Field("a", kInt32), R"({"name": "b", "count": 0, "VALIDITY": [], "DATA": []})", 0));
  EXPECT_THAT(st.message(), HasSubstr("column is named \"b\" but schema field 0 is \"a\""));
}

TEST(IntegrationJsonErrors, DictionaryProblems) {
  std::string dict = R"(, "dictionary": {"id": 3, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false})";
  Status st = ParseError(OneColumnFile(Field("d", R"({"name": "utf8"})", "", dict),
                                       R"({"name": "d", "count": 1, "VALIDITY": [1], "DATA": [0]})", 1));
  EXPECT_THAT(st.message(), HasSubstr("batches[0].columns[0](d): uses dictionary id 3 but no dictionary has that id"));
  st = ParseError(OneColumnFile(Field("d", R"({"name": "utf8"})", "", dict), R"({"name": "d", "count": 0, "VALIDITY": [], "DATA": []})", 0,
                                R"([{"id": 4, "data": {"count": 0, "columns": [{"name": "x", "count": 0, "VALIDITY": [], "OFFSET": [0], "DATA": []}]}}])"));
  EXPECT_THAT(st.message(), HasSubstr("dictionaries[0].id: no field of the schema uses dictionary id 4"));
  std::string float_index = R"(, "dictionary": {"id": 3, "indexType": {"name": "floatingpoint", "precision": "DOUBLE"}})";
  st = ParseError(OneColumnFile(Field("d", R"({"name": "utf8"})", "", float_index), "{}", 0));
  EXPECT_THAT(st.message(), HasSubstr("dictionary indices must be integers"));
}

// Empty dictionary-encoded columns may come without a dictionary batch.
TEST(IntegrationJsonRead, EmptyDictionaryColumnGetsAnEmptyDictionary) {
  std::string dict = R"(, "dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 8}, "isOrdered": false})";
  IntegrationFile file = ParseOk(OneColumnFile(Field("d", R"({"name": "utf8"})", "", dict),
                                               R"({"name": "d", "count": 0, "VALIDITY": [], "DATA": []})", 0));
  ASSERT_NE(Column(file).dictionary, nullptr);
  EXPECT_EQ(Column(file).dictionary->length, 0);
}

// ---------------------------------------------------------------------------
// Files and gzip

class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_((std::filesystem::temp_directory_path() / ("alkaid_json_" + std::to_string(::getpid()) + "_" + name)).string()) {}
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  void Write(const std::string& bytes) const {
    std::ofstream out(path_, std::ios::binary);
    out << bytes;
  }

 private:
  std::string path_;
};

const char* kSmallFile = R"({"schema": {"fields": [{"name": "a", "nullable": true, "type": {"name": "bool"}, "children": []}]}, "batches": [{"count": 1, "columns": [{"name": "a", "count": 1, "VALIDITY": [1], "DATA": [true]}]}]})";

TEST(IntegrationJsonFiles, PlainAndGzipped) {
  TempFile plain("plain.json");
  plain.Write(kSmallFile);
  auto a = ReadIntegrationFile(plain.path());
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->batches.size(), 1u);

  auto compressed = GzipCompress(kSmallFile);
  ASSERT_TRUE(compressed.ok());
  EXPECT_TRUE(LooksGzipped(*compressed));
  TempFile gz("file.json.gz");
  gz.Write(*compressed);
  auto b = ReadIntegrationFile(gz.path());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->schema->field(0)->type()->id(), TypeId::kBool);
}

TEST(IntegrationJsonFiles, TruncatedGzip) {
  auto compressed = GzipCompress(std::string(kSmallFile) + std::string(5000, ' '));
  ASSERT_TRUE(compressed.ok());
  TempFile gz("truncated.json.gz");
  gz.Write(compressed->substr(0, compressed->size() / 2));
  auto file = ReadIntegrationFile(gz.path());
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(file.status().IsSerializationError()) << file.status();
  EXPECT_THAT(file.status().message(), HasSubstr("truncated"));
  EXPECT_THAT(file.status().message(), HasSubstr(gz.path()));

  std::string corrupt = *compressed;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x5a);
  corrupt[13] = static_cast<char>(corrupt[13] ^ 0xa5);
  EXPECT_FALSE(GzipDecompress(corrupt).ok());
}

TEST(IntegrationJsonFiles, MissingFile) {
  auto file = ReadIntegrationFile("/nonexistent/alkaid/x.json.gz");
  EXPECT_TRUE(file.status().IsIOError()) << file.status();
}

TEST(IntegrationJsonFiles, GzipRoundTripOfLargeInput) {
  std::string big;
  for (int i = 0; i < 200000; ++i) big += std::to_string(i * 7919 % 104729) + ",";
  auto compressed = GzipCompress(big);
  ASSERT_TRUE(compressed.ok());
  auto back = GzipDecompress(*compressed);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, big);
}

// ---------------------------------------------------------------------------
// Value helpers

TEST(IntegrationJsonValues, DecimalText) {
  uint8_t bytes[32];
  for (const char* text : {"0", "1", "-1", "123456789012345678901234567890", "-170141183460469231731687303715884105728",
                           "170141183460469231731687303715884105727"}) {
    ASSERT_TRUE(internal::ParseDecimalInteger(text, 16, bytes).ok()) << text;
    EXPECT_EQ(internal::FormatDecimalInteger(bytes, 16), text);
  }
  EXPECT_FALSE(internal::ParseDecimalInteger("170141183460469231731687303715884105728", 16, bytes).ok());
  EXPECT_FALSE(internal::ParseDecimalInteger("12a", 16, bytes).ok());
  EXPECT_FALSE(internal::ParseDecimalInteger("-", 16, bytes).ok());
  std::string min256 = "-57896044618658097711785492504343953926634992332820282019728792003956564819968";
  ASSERT_TRUE(internal::ParseDecimalInteger(min256, 32, bytes).ok());
  EXPECT_EQ(internal::FormatDecimalInteger(bytes, 32), min256);
  ASSERT_TRUE(internal::ParseDecimalInteger("1000000000", 8, bytes).ok());
  EXPECT_EQ(internal::FormatDecimalInteger(bytes, 8), "1000000000");
}

TEST(IntegrationJsonValues, HalfFloatConversions) {
  EXPECT_EQ(internal::FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(internal::FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(internal::FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(internal::FloatToHalf(65520.0f), 0x7c00);  // rounds to infinity
  EXPECT_EQ(internal::FloatToHalf(5.960464477539063e-8f), 0x0001);  // smallest subnormal
  EXPECT_EQ(internal::FloatToHalf(1e-9f), 0x0000);
  EXPECT_EQ(internal::FloatToHalf(1.0009765625f), 0x3c01);
  EXPECT_EQ(internal::FloatToHalf(1.00048828125f), 0x3c00);  // tie rounds to even
  for (uint32_t bits = 0; bits < 0x7c00; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    ASSERT_EQ(internal::FloatToHalf(internal::HalfToFloat(h)), h) << bits;
    uint16_t negative = static_cast<uint16_t>(h | 0x8000);
    ASSERT_EQ(internal::FloatToHalf(internal::HalfToFloat(negative)), negative) << bits;
  }
}

TEST(IntegrationJsonValues, Hex) {
  uint8_t bytes[3] = {0x00, 0xab, 0x7f};
  EXPECT_EQ(internal::HexEncode(bytes, 3), "00AB7F");
  uint8_t out[3];
  size_t bad = 0;
  EXPECT_TRUE(internal::HexDecode("00ab7F", out, &bad));
  EXPECT_EQ(std::memcmp(out, bytes, 3), 0);
  EXPECT_FALSE(internal::HexDecode("0x", out, &bad));
  EXPECT_EQ(bad, 1u);
  EXPECT_FALSE(internal::HexDecode("abc", out, &bad));
}

TEST(IntegrationJsonValues, FloatForPrinting) {
  EXPECT_EQ(internal::FloatForPrinting(641.818f), 641.818);
  EXPECT_EQ(internal::FloatForPrinting(0.1f), 0.1);
  EXPECT_EQ(static_cast<float>(internal::FloatForPrinting(3.4028235e38f)), 3.4028235e38f);
}

}  // namespace
}  // namespace alkaid::integration_json
