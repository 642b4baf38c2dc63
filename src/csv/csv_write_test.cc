// The CSV writer: quoting, nulls and the header; types it cannot write; and
// round trips (table -> CSV -> table) of every writable type, with the
// schema given or inferred, including the gold integration files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "alkaid/csv/api.h"
#include "alkaid/ipc/reader.h"
#include "src/csv/csv_test_helpers.h"

namespace alkaid::csv {
namespace {

using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;

TEST(CsvWriter, QuotingNullsHeader) {
  auto s = schema({field("a b", utf8()), field("n", int32()), field("q\"", utf8())});
  auto t = MakeTable(s, {R"(["x", "", null, "a,b", "he\"y", "l1\nl2", " pad"])",
                         "[1, null, 3, 4, 5, 6, 7]", R"(["NA", "", "", "", "", "", ""])"});
  auto text = *WriteToString(*t);
  EXPECT_EQ(text,
            "a b,n,\"q\"\"\"\n"
            "x,1,\"NA\"\n"
            "\"\",,\"\"\n"
            ",3,\"\"\n"
            "\"a,b\",4,\"\"\n"
            "\"he\"\"y\",5,\"\"\n"
            "\"l1\nl2\",6,\"\"\n"
            "\" pad\",7,\"\"\n");
  WriteOptions o;
  o.null_text = "NA";
  o.line_ending = "\r\n";
  o.header = false;
  o.delimiter = '\t';
  text = *WriteToString(*t->Slice(0, 3), o);
  EXPECT_EQ(text, "x\t1\t\"NA\"\r\n\"\"\tNA\t\"\"\r\nNA\t3\t\"\"\r\n");
}

TEST(CsvWriter, UnsupportedTypesSaySo) {
  auto s = schema({field("l", list(int32()))});
  auto t = MakeTable(s, {"[[1]]"});
  auto r = WriteToString(*t);
  EXPECT_TRUE(r.status().IsNotImplemented());
  EXPECT_EQ(r.status().message(), "CSV column 'l': CSV output of list<item: int32> columns");
}

// Every type the CSV writer supports: table -> CSV -> table (given the
// schema) is equal; and with inference, the types that inference produces.
TEST(CsvRoundTrip, EveryWritableType) {
  auto s = schema({
      field("null", null()), field("bool", boolean()), field("i8", int8()),
      field("i16", int16()), field("i32", int32()), field("i64", int64()),
      field("u8", uint8()), field("u16", uint16()), field("u32", uint32()),
      field("u64", uint64()), field("f32", float32()), field("f64", float64()),
      field("d32", decimal32(9, 2)), field("d64", decimal64(18, 0)),
      field("d128", decimal128(38, 10)), field("d256", decimal256(76, -2)),
      field("date32", date32()), field("date64", date64()),
      field("t32s", time32(TimeUnit::kSecond)), field("t32ms", time32(TimeUnit::kMilli)),
      field("t64us", time64(TimeUnit::kMicro)), field("t64ns", time64(TimeUnit::kNano)),
      field("ts_s", timestamp(TimeUnit::kSecond)), field("ts_ms", timestamp(TimeUnit::kMilli)),
      field("ts_us_utc", timestamp(TimeUnit::kMicro, "UTC")),
      field("ts_ns_ny", timestamp(TimeUnit::kNano, "America/New_York")),
      field("dur", duration(TimeUnit::kMilli)), field("months", month_interval()),
      field("utf8", utf8()), field("large_utf8", large_utf8()), field("view", utf8_view()),
      field("bin", binary()), field("large_bin", large_binary()), field("binview", binary_view()),
      field("fsb", fixed_size_binary(3)),
  });
  auto t = MakeTable(
      s, {"[null, null, null, null]", "[true, false, null, true]", "[-128, 127, null, 0]",
          "[-32768, 32767, null, 1]", "[-2147483648, 2147483647, null, 2]",
          "[-9223372036854775808, 9223372036854775807, null, 3]", "[0, 255, null, 4]",
          "[0, 65535, null, 5]", "[0, 4294967295, null, 6]", "[0, 18446744073709551615, null, 7]",
          "[1.5, -0.0, null, 3.4028234e38]", "[0.1, 1e-300, null, \"NaN\"]",
          R"(["-1234567.89", "0.01", null, "0"])", R"(["999999999999999999", "-1", null, "0"])",
          R"(["1234567890123456789012345678.9012345678", "-0.0000000001", null, "0"])",
          R"(["-1234567890123456789012345678901234567890123456789012345678901234567800", "100", null, "0"])",
          "[-719528, 2932896, null, 0]", "[-62135596800000, 86400000, null, 1234]",
          "[0, 86399, null, 3600]", "[0, 86399999, null, 1]", "[0, 86399999999, null, 1]",
          "[0, 86399999999999, null, 1]", "[-62135596800, 253402300799, null, 0]",
          "[-1, 1700000000123, null, 0]", "[-1, 1700000000123456, null, 0]",
          "[-9223372036854775807, 9223372036854775807, null, 0]", "[-5, 5, null, 0]",
          "[-1, 12, null, 0]", R"(["", "a,b", null, "ünïcödé \"q\""])",
          R"(["x", "line\nbreak", null, "NA"])", R"(["short", "a string longer than twelve", null, ""])",
          R"(["\u0000\u0001", "\r\n", null, ""])", R"(["b", "", null, "zz"])",
          R"(["v", "a binary view longer than 12", null, ""])", R"(["abc", "a,\"", null, "\n\r "])"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = s;
  auto back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *text;
  ExpectTablesEqual(**back, *t);

  // Small blocks and threads: same.
  o.block_size = 50;
  o.num_threads = 3;
  back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, *t);
}

TEST(CsvRoundTrip, InferredTypesComeBackEqual) {
  auto s = schema({field("b", boolean()), field("i", int64()), field("f", float64()),
                   field("d", date32()), field("ts", timestamp(TimeUnit::kMilli)),
                   field("tz", timestamp(TimeUnit::kNano, "UTC")), field("s", utf8())});
  auto t = MakeTable(s, {"[true, null]", "[1, null]", "[0.5, null]", "[1, null]",
                         "[1000, null]", "[1, null]", R"(["1", null])"});
  auto text = *WriteToString(*t);
  // "1" is written unquoted and would infer as int64: give that one type.
  ReadOptions o;
  o.column_types["s"] = utf8();
  auto back = ReadString(text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, *t);
}

// Gold integration files: every column of a type CSV can carry is written
// and read back with the file's schema.
void GoldRoundTrip(const std::string& name) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  auto sub = ::alkaid::testing::GoldColumns(name, [](const DataType& t) {
    // Flat columns, dictionary and run-end encoded ones included.
    if (t.id() == TypeId::kDictionary) {
      return !checked_cast<DictionaryType>(t).value_type()->is_nested();
    }
    return !t.is_nested();
  });
  ASSERT_NE(sub, nullptr);
  ::alkaid::testing::ExpectTextRoundTrip<ReadOptions>(
      *sub, [](const Table& t) { return WriteToString(t); },
      [](std::string_view text, const ReadOptions& o) { return ReadString(text, o); });
}

TEST(CsvRoundTrip, GoldPrimitive) { GoldRoundTrip("generated_primitive.arrow_file"); }
TEST(CsvRoundTrip, GoldDatetime) { GoldRoundTrip("generated_datetime.arrow_file"); }
TEST(CsvRoundTrip, GoldDecimal) { GoldRoundTrip("generated_decimal.arrow_file"); }
TEST(CsvRoundTrip, GoldDecimal256) { GoldRoundTrip("generated_decimal256.arrow_file"); }
TEST(CsvRoundTrip, GoldInterval) { GoldRoundTrip("generated_interval.arrow_file"); }
TEST(CsvRoundTrip, GoldDictionary) { GoldRoundTrip("generated_dictionary.arrow_file"); }
TEST(CsvRoundTrip, GoldDictionaryUnsigned) { GoldRoundTrip("generated_dictionary_unsigned.arrow_file"); }

}  // namespace
}  // namespace alkaid::csv
