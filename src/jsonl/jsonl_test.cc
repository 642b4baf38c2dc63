#include <gmock/gmock.h>
#include <cmath>
#include <gtest/gtest.h>

#include "src/util/sanitizers.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/jsonl/api.h"
#include "src/text/text_test_helpers.h"

namespace alkaid::jsonl {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using ::alkaid::testing::ExpectError;
using ::alkaid::testing::ExpectTable;
using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;
using ::testing::Not;

TablePtr Read(std::string_view text, ReadOptions options = {}) {
  return ExpectTable(ReadString(text, options), text);
}

Status ReadError(std::string_view text, ReadOptions options = {}) {
  return ExpectError(ReadString(text, options), text);
}


TEST(JsonlReader, InfersNestedTypes) {
  auto t = Read(R"({"a": 1, "b": "x", "c": [1, 2], "d": {"e": true, "f": null}}
{"a": 2.5, "c": [], "d": {"e": false, "f": [1.5]}, "g": null}

  {"b": "y", "a": 9007199254740993}
)");
  ASSERT_NE(t, nullptr);
  auto want = schema({field("a", float64()), field("b", utf8()), field("c", list(int64())),
                      field("d", struct_({field("e", boolean()), field("f", list(float64()))})),
                      field("g", null())});
  EXPECT_TRUE(t->schema()->Equals(*want)) << t->schema()->ToString();
  EXPECT_EQ(t->num_rows(), 3);
}

TEST(JsonlReader, Int64Exact) {
  auto t = Read("{\"n\": 9223372036854775807}\n{\"n\": -9223372036854775808}\n{\"n\": 9007199254740993}\n");
  auto want = MakeTable(schema({field("n", int64())}),
                        {"[9223372036854775807, -9223372036854775808, 9007199254740993]"});
  ExpectTablesEqual(*t, *want);
  auto u = Read("{\"n\": 18446744073709551615}\n{\"n\": 1}\n");
  ExpectTablesEqual(*u, *MakeTable(schema({field("n", uint64())}), {"[18446744073709551615, 1]"}));
  Status st = ReadError("{\"n\": 18446744073709551615}\n{\"n\": -1}\n");
  EXPECT_THAT(st.message(), HasSubstr("line 2"));
  EXPECT_THAT(st.message(), HasSubstr("field n"));
}

TEST(JsonlReader, ErrorsNameLineAndField) {
  Status st = ReadError("{\"a\": {\"b\": [1, 2]}}\n{\"a\": {\"b\": [1, \"x\"]}}\n");
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 2"));
  EXPECT_THAT(st.message(), HasSubstr("field a.b[1]"));
  EXPECT_THAT(st.message(), HasSubstr("a string where earlier lines have an integer"));

  st = ReadError("{\"a\": 1}\n\n{\"a\": 1,}\n");
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 3"));
  EXPECT_THAT(st.message(), HasSubstr("not valid JSON"));

  st = ReadError("[1, 2]\n");
  EXPECT_THAT(st.message(), HasSubstr("must hold a JSON object"));

  // After the sample: errors come from conversion, same form.
  ReadOptions o;
  o.inference_rows = 1;
  o.block_size = 16;
  st = ReadError("{\"a\": 1}\n{\"a\": 2}\n{\"a\": {\"x\": 1}}\n", o);
  EXPECT_THAT(st.message(),
              HasSubstr("JSON Lines line 3: field a: an object where the column type int64 "
                        "expects an integer in range (the type inferred from the first 1 lines; "
                        "raise inference_rows or give a schema)"));
  st = ReadError("{\"a\": 1}\n{\"b\": 2}\n", o);
  EXPECT_THAT(st.message(),
              HasSubstr("field b: a field not in the schema inferred from the first 1 lines "
                        "(raise inference_rows,"));
  // With a schema given, nothing was inferred.
  ReadOptions given = o;
  given.schema = schema({field("a", int64())});
  st = ReadError("{\"a\": 1}\n{\"a\": \"x\"}\n{\"b\": 2}\n", given);
  EXPECT_THAT(st.message(), HasSubstr("field a: a string where the column type int64 expects"));
  EXPECT_THAT(st.message(), ::testing::Not(HasSubstr("inference_rows")));
  o.unexpected_fields = UnexpectedFields::kIgnore;
  auto t = Read("{\"a\": 1}\n{\"b\": 2}\n", o);
  ExpectTablesEqual(*t, *MakeTable(schema({field("a", int64())}), {"[1, null]"}));

  ReadOptions strict;
  strict.schema = schema(
      {field("a", int64(), false), field("b", struct_({field("c", utf8(), false)}))});
  st = ReadError("{\"a\": 1}\n{\"a\": 2, \"b\": {}}\n", strict);
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 2: field b.c: missing, but"));
  st = ReadError("{\"a\": null}\n", strict);
  EXPECT_THAT(st.message(), HasSubstr("field a: null, but"));

  st = ReadError("{\"a\": 1, \"a\": 2}\n", ReadOptions{.schema = schema({field("a", int64())})});
  EXPECT_THAT(st.message(), HasSubstr("twice"));
}

TEST(JsonlReader, DepthIsBounded) {
  std::string deep(100, '[');
  deep = "{\"a\": " + deep + std::string(100, ']') + "}\n";
  Status st = ReadError(deep);
  EXPECT_THAT(st.message(), HasSubstr("deeper than 64"));
  ReadOptions o;
  o.max_depth = 200;
  auto t = Read(deep, o);
  ASSERT_NE(t, nullptr);
}

TEST(JsonlReader, EmptyAndBlankInput) {
  auto t = Read("");
  EXPECT_EQ(t->num_columns(), 0);
  t = Read("\n  \n\r\n");
  EXPECT_EQ(t->num_rows(), 0);
  t = Read("{}\n{}\n");
  EXPECT_EQ(t->num_columns(), 0);
}

TEST(JsonlReader, SmallBlocksAndThreadsSameTable) {
  // Fewer lines under sanitizers: with 1-byte blocks each line is a block of
  // its own, handed between threads, which ThreadSanitizer makes slow.
#if ALKAID_ADDRESS_SANITIZER || ALKAID_THREAD_SANITIZER
  const int lines = 1000;
#else
  const int lines = 3000;
#endif
  std::string text;
  for (int i = 0; i < lines; ++i) {
    text += "{\"i\": " + std::to_string(i) + ", \"s\": \"v\\n" + std::to_string(i % 7) +
            "\", \"l\": [" + std::to_string(i) + ", null], \"o\": {\"x\": " +
            (i % 5 == 0 ? std::string("null") : std::to_string(i * 0.5)) + "}}" +
            (i % 4 == 0 ? "\r\n" : "\n");
  }
  auto reference = Read(text);
  ASSERT_EQ(reference->num_rows(), lines);
  for (int64_t block : {1, 100, 5000}) {
    for (int threads : {1, 2, 3}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.inference_rows = 10;
      auto t = Read(text, o);
      ASSERT_NE(t, nullptr);
      ExpectTablesEqual(*t, *reference);
    }
  }
}

TEST(JsonlReader, LongLineIsBounded) {
  std::string text = "{\"a\": \"" + std::string(1 << 20, 'x');  // never ends
  ReadOptions o;
  o.block_size = 1024;
  o.max_line_bytes = 4096;
  Status st = ReadError(text, o);
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 1: a line is longer than max_line_bytes"));
  EXPECT_THAT(st.message(), Not(HasSubstr("quote")));
}

TEST(JsonlWriter, Forms) {
  auto s = schema({field("i", int64()), field("s", utf8()), field("b", binary()),
                   field("ts", timestamp(TimeUnit::kMilli, "UTC")), field("d", decimal128(5, 2)),
                   field("l", list(int32())), field("st", struct_({field("x", float64())}))});
  auto t = MakeTable(s, {"[1, null]", R"(["a\"\n", null])", R"(["\u0001\u00ff", null])",
                         "[1500, null]", R"(["-1.50", null])", "[[1, null], null]",
                         R"([{"x": 0.5}, null])"});
  auto text = *WriteToString(*t);
  EXPECT_EQ(text,
            "{\"i\":1,\"s\":\"a\\\"\\n\",\"b\":\"01c3bf\",\"ts\":\"1970-01-01T00:00:01.500Z\","
            "\"d\":\"-1.50\",\"l\":[1,null],\"st\":{\"x\":0.5}}\n"
            "{\"i\":null,\"s\":null,\"b\":null,\"ts\":null,\"d\":null,\"l\":null,\"st\":null}\n");
}

TEST(JsonlWriter, DictionaryAndRunEndEncodedAreDecoded) {
  auto s = schema({field("d", dictionary(int8(), utf8())),
                   field("r", run_end_encoded(int32(), int64()))});
  auto t = MakeTable(s, {R"(["a", "b", null, "a"])", "[7, 7, null, 8]"});
  EXPECT_EQ(*WriteToString(*t),
            "{\"d\":\"a\",\"r\":7}\n{\"d\":\"b\",\"r\":7}\n{\"d\":null,\"r\":null}\n"
            "{\"d\":\"a\",\"r\":8}\n");
  // Sliced: the window's values only.
  EXPECT_EQ(*WriteToString(*t->Slice(1, 2)),
            "{\"d\":\"b\",\"r\":7}\n{\"d\":null,\"r\":null}\n");
}

TEST(JsonlRoundTrip, EveryType) {
  auto s = schema({
      field("null", null()), field("bool", boolean()), field("i8", int8()),
      field("i64", int64()), field("u64", uint64()), field("f32", float32()),
      field("f64", float64()), field("d32", decimal32(9, 2)), field("d256", decimal256(76, 5)),
      field("date32", date32()), field("date64", date64()), field("t32", time32(TimeUnit::kMilli)),
      field("t64", time64(TimeUnit::kNano)), field("ts", timestamp(TimeUnit::kMicro)),
      field("tsz", timestamp(TimeUnit::kNano, "Europe/Paris")), field("dur", duration(TimeUnit::kSecond)),
      field("mi", month_interval()), field("dti", day_time_interval()),
      field("mdn", month_day_nano_interval()), field("utf8", utf8()), field("lutf8", large_utf8()),
      field("sview", utf8_view()), field("bin", binary()), field("lbin", large_binary()),
      field("bview", binary_view()), field("fsb", fixed_size_binary(2)),
      field("list", list(int16())), field("llist", large_list(utf8())),
      field("lview", list_view(int32())), field("fsl", fixed_size_list(float64(), 2)),
      field("struct", struct_({field("a", int32()), field("b", list(struct_({field("c", utf8())})))})),
      field("map", map(utf8(), int64())),
      field("sunion", sparse_union({field("i", int32()), field("s", utf8())}, {3, 7})),
      field("dunion", dense_union({field("i", int32()), field("s", utf8())}, {0, 1})),
  });
  auto t = MakeTable(
      s, {"[null, null, null]", "[true, null, false]", "[-128, null, 127]",
          "[-9223372036854775808, null, 9223372036854775807]", "[18446744073709551615, null, 0]",
          "[1.5, null, \"NaN\"]", "[1e308, null, \"-Inf\"]", R"(["1.25", null, "-9999999.99"])",
          R"(["1234567890123456789012345678901234567890.12345", null, "0"])",
          "[-1, null, 2932896]", "[86400000, null, 1]", "[0, null, 86399999]",
          "[1, null, 86399999999999]", "[-1, null, 1700000000000000]",
          "[-9223372036854775807, null, 9223372036854775807]", "[-5, null, 5]",
          "[12, null, -1]", "[[1, -2], null, [0, 0]]", "[[1, 2, -3], null, [0, 0, 0]]",
          R"(["ü\"\\\n\t\u0001", null, ""])", R"(["x", null, ""])",
          R"(["a string longer than twelve bytes", null, "s"])", R"(["\u0000\u00ff", null, ""])",
          R"(["b", null, ""])", R"(["a binary view longer than 12", null, "v"])",
          R"(["ab", null, "\u0000\u0001"])", "[[1, null], null, []]", R"([["a"], null, [null]])",
          "[[1, 2], null, []]", "[[1.5, null], null, [0, 1]]",
          R"([{"a": 1, "b": [{"c": "x"}, null]}, null, {"a": null, "b": null}])",
          R"([[["k", 1], ["l", null]], null, []])", R"([[3, 1], [7, "x"], [3, null]])",
          R"([[0, 1], [1, "x"], [1, null]])"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = s;
  auto back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << *text;
  ExpectTablesEqual(**back, *t);

  // The inferable subset comes back with inference alone.
  auto inferable = schema({field("bool", boolean()), field("i64", int64()), field("f", float64()),
                           field("s", utf8()), field("l", list(int64())),
                           field("st", struct_({field("a", int64()), field("b", list(utf8()))}))});
  auto t2 = MakeTable(inferable, {"[true, null]", "[-9223372036854775808, null]", "[0.5, null]",
                                  R"(["x", null])", "[[1, null], null]",
                                  R"([{"a": 1, "b": ["y"]}, null])"});
  auto back2 = ReadString(*WriteToString(*t2));
  ASSERT_TRUE(back2.ok()) << back2.status().ToString();
  ExpectTablesEqual(**back2, *t2);
}

void GoldRoundTrip(const std::string& name) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  // Everything but dictionaries of nested values (text readers encode
  // dictionaries of flat values only).
  auto sub = ::alkaid::testing::GoldColumns(name, [](const DataType& t) {
    return t.id() != TypeId::kDictionary ||
           !checked_cast<DictionaryType>(t).value_type()->is_nested();
  });
  ASSERT_NE(sub, nullptr);
  ::alkaid::testing::ExpectTextRoundTrip<ReadOptions>(
      *sub, [](const Table& t) { return WriteToString(t); },
      [](std::string_view text, const ReadOptions& o) { return ReadString(text, o); });
}

TEST(JsonlRoundTrip, GoldPrimitive) { GoldRoundTrip("generated_primitive.arrow_file"); }
TEST(JsonlRoundTrip, GoldDatetime) { GoldRoundTrip("generated_datetime.arrow_file"); }
TEST(JsonlRoundTrip, GoldDecimal) { GoldRoundTrip("generated_decimal.arrow_file"); }
TEST(JsonlRoundTrip, GoldNested) { GoldRoundTrip("generated_nested.arrow_file"); }
TEST(JsonlRoundTrip, GoldMap) { GoldRoundTrip("generated_map.arrow_file"); }
TEST(JsonlRoundTrip, GoldInterval) { GoldRoundTrip("generated_interval.arrow_file"); }
TEST(JsonlRoundTrip, GoldUnion) { GoldRoundTrip("generated_union.arrow_file"); }
TEST(JsonlRoundTrip, GoldDictionary) { GoldRoundTrip("generated_dictionary.arrow_file"); }
TEST(JsonlRoundTrip, GoldDictionaryUnsigned) { GoldRoundTrip("generated_dictionary_unsigned.arrow_file"); }

// Dates, timestamps and times of day inferred from strings (infer_temporal),
// by the rules CSV infers them with.
TEST(JsonlTemporal, StringsThatAreAllDatesOrTimestampsAreInferred) {
  const std::string text =
      R"({"d": "2024-01-02", "t": "2024-01-02T03:04:05", "ms": "2024-01-02 03:04:05.5Z",)"
      R"( "mixed": "2024-01-02T03:04:05Z", "s": "2024-01-02"}
{"d": null, "t": "2024-01-02", "ms": "2024-01-02T04:04:05.125+01:00",)"
      R"( "mixed": "2024-01-02T03:04:05", "s": "tomorrow"}
)";
  auto t = Read(text);
  ASSERT_NE(t, nullptr);
  auto want = schema({field("d", date32()), field("t", timestamp(TimeUnit::kSecond)),
                      field("ms", timestamp(TimeUnit::kMilli, "UTC")), field("mixed", utf8()),
                      field("s", utf8())});
  ASSERT_TRUE(t->schema()->Equals(*want)) << t->schema()->ToString();
  // 2024-01-02 is day 19,724; 03:04:05 is 11,045 s into it; the offset
  // +01:00 is taken off.
  const int64_t day = 19'724, at = day * 86'400 + 11'045;
  auto expected = MakeTable(
      want, {"[" + std::to_string(day) + ", null]",
             "[" + std::to_string(at) + ", " + std::to_string(day * 86'400) + "]",
             "[" + std::to_string(at * 1000 + 500) + ", " + std::to_string(at * 1000 + 125) + "]",
             R"(["2024-01-02T03:04:05Z", "2024-01-02T03:04:05"])",
             R"(["2024-01-02", "tomorrow"])"});
  ExpectTablesEqual(*t, *expected);
}

TEST(JsonlTemporal, NestedFieldsAndTheFinestFractionDecideTheUnit) {
  auto t = Read(
      R"({"l": ["2024-01-02T00:00:00.000001", "2024-01-02T00:00:00.1"], "o": {"x": "1999-12-31"}}
{"l": [], "o": {"x": "2000-01-01"}}
{"l": ["2024-01-02T00:00:00.123456789"]}
)");
  ASSERT_NE(t, nullptr);
  auto want = schema({field("l", list(timestamp(TimeUnit::kNano))),
                      field("o", struct_({field("x", date32())}))});
  EXPECT_TRUE(t->schema()->Equals(*want)) << t->schema()->ToString();
  EXPECT_EQ(t->num_rows(), 3);
}

TEST(JsonlTemporal, WriterOutputReadsBackWithoutASchema) {
  auto s = schema({field("d", date32()), field("s", timestamp(TimeUnit::kSecond)),
                   field("ms", timestamp(TimeUnit::kMilli, "UTC")),
                   field("us", timestamp(TimeUnit::kMicro)),
                   field("ns", timestamp(TimeUnit::kNano, "UTC")),
                   field("t", list(time32(TimeUnit::kMilli))),
                   field("tns", time64(TimeUnit::kNano))});
  auto t = MakeTable(s, {"[0, -1, 19724]", "[0, 1700000000, null]",
                         "[-1, 1700000000123, 0]", "[1, null, 1700000000123456]",
                         "[1700000000123456789, -1, 0]", "[[0, 86399999], null, []]",
                         "[1, 86399999999999, null]"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  for (int threads : {1, 2}) {
    ReadOptions o;
    o.num_threads = threads;
    o.block_size = threads == 1 ? 1 << 20 : 64;
    auto back = Read(*text, o);
    ASSERT_NE(back, nullptr);
    ExpectTablesEqual(*back, *t);
  }
}

TEST(JsonlTemporal, LaterStringThatIsNotATimestampNamesInferenceRows) {
  ReadOptions o;
  o.inference_rows = 2;
  Status st =
      ReadError("{\"t\": \"2024-01-02T03:04:05\"}\n{\"t\": null}\n{\"t\": \"soon\"}\n", o);
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 3: field t: \"soon\" is not a valid "
                                      "timestamp[s] (the type inferred from the first 2 lines; "
                                      "raise inference_rows, set infer_temporal to false"));
  // A long string is shown cut to 60 bytes, at a character boundary (each
  // of these takes 3).
  std::string wide;
  for (int i = 0; i < 30; ++i) wide += "\u65e5";
  o.inference_rows = 1;
  st = ReadError("{\"t\": \"12:00:00\"}\n{\"t\": \"x" + wide + "\"}\n", o);
  std::string shown = "\"x";
  for (int i = 0; i < 19; ++i) shown += "\xE6\x97\xA5";
  EXPECT_THAT(st.message(), HasSubstr(shown + "...\" is not a valid time32[s]"));
}

TEST(JsonlTemporal, TimesOfDayAreInferredAndNotMixedWithDates) {
  auto t = Read("{\"a\": \"12:00:00.25\", \"b\": \"12:00:00\", \"c\": \"12:00\"}\n"
                "{\"a\": \"00:00:01\", \"b\": \"2024-01-01\", \"c\": \"13:00\"}\n");
  ASSERT_NE(t, nullptr);
  auto want = schema(
      {field("a", time32(TimeUnit::kMilli)), field("b", utf8()), field("c", utf8())});
  EXPECT_TRUE(t->schema()->Equals(*want)) << t->schema()->ToString();
  ExpectTablesEqual(*t, *MakeTable(want, {"[43200250, 1000]", R"(["12:00:00", "2024-01-01"])",
                                          R"(["12:00", "13:00"])"}));
}

TEST(JsonlTemporal, OptionOffKeepsStrings) {
  ReadOptions o;
  o.infer_temporal = false;
  auto t = Read("{\"d\": \"2024-01-02\", \"t\": [\"2024-01-02T03:04:05Z\"]}\n", o);
  ASSERT_NE(t, nullptr);
  auto want = schema({field("d", utf8()), field("t", list(utf8()))});
  EXPECT_TRUE(t->schema()->Equals(*want)) << t->schema()->ToString();
}

}  // namespace
}  // namespace alkaid::jsonl

namespace alkaid::jsonl {
namespace {

TEST(JsonlReader, WholeBlockParseGivesWayToLineByLine) {
  // Blocks are parsed in one pass when every line holds one object; lines
  // that do not (two objects, an object over two lines, an array, blanks)
  // must read, or fail, exactly as line by line, whatever the block size.
  std::string plain;
  for (int i = 0; i < 300; ++i) plain += "{\"a\": " + std::to_string(i) + ", \"s\": \"x\"}\n";
  auto schema = alkaid::schema({field("a", int64()), field("s", utf8())});
  for (int64_t block : {int64_t{50}, int64_t{1} << 20}) {
    for (int threads : {1, 2}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.schema = schema;
      auto t = Read(plain + "  \r\n\n \t{\"a\": -1, \"s\": \"y\"} \r\n" + plain, o);
      ASSERT_NE(t, nullptr);
      EXPECT_EQ(t->num_rows(), 601);
      EXPECT_THAT(ReadError(plain + "{\"a\": 1, \"s\": \"x\"} {\"a\": 2, \"s\": \"y\"}\n" + plain, o).message(),
                  HasSubstr("JSON Lines line 301: not valid JSON"));
      EXPECT_THAT(ReadError(plain + "{\"a\": 1,\n \"s\": \"x\"}\n" + plain, o).message(),
                  HasSubstr("JSON Lines line 301: not valid JSON"));
      EXPECT_THAT(ReadError(plain + "[1, 2]\n" + plain, o).message(),
                  HasSubstr("JSON Lines line 301: a line must hold a JSON object"));
      EXPECT_THAT(ReadError(plain + "{\"a\": \"no\", \"s\": \"x\"}\n", o).message(),
                  HasSubstr("JSON Lines line 301: field a"));
    }
  }
}

// The integer literal -0 in a float column reads as +0.0 whichever path
// reads its block (the DOM path holds it as the integer 0); "-0.0" and
// "-0e0" keep their sign. A "nan" string sends a block to the DOM path.
TEST(JsonlReader, MinusZeroLiteralReadsTheSameOnEveryPath) {
  ReadOptions o;
  o.schema = alkaid::schema({field("x", float64())});
  for (const char* extra : {"", "{\"x\": \"nan\"}\n"}) {
    auto t = Read(std::string("{\"x\": -0}\n{\"x\": -0.0}\n{\"x\": -0e0}\n{\"x\":-0}\n") + extra, o);
    ASSERT_NE(t, nullptr);
    auto col = t->column(0)->chunk(0)->data();
    const double* v = col->buffers[1]->data_as<double>() + col->offset;
    EXPECT_FALSE(std::signbit(v[0])) << "extra line: " << extra;
    EXPECT_TRUE(std::signbit(v[1])) << "extra line: " << extra;
    EXPECT_TRUE(std::signbit(v[2])) << "extra line: " << extra;
    EXPECT_FALSE(std::signbit(v[3])) << "extra line: " << extra;
  }
}

// Where an option would change the outcome, the error says which in
// Status::detail(), on every tier (the fast ones hand errors to the DOM one).
TEST(JsonlReader, LimitErrorsNameTheirOptionInTheDetail) {
  auto options_of = [](const Status& st) {
    EXPECT_NE(st.detail(), nullptr) << st;
    return st.detail() ? st.detail()->options : std::vector<std::string>{};
  };
  ReadOptions o;
  o.inference_rows = 1;
  std::string dates = "{\"d\": \"2024-01-02\"}\n{\"d\": \"soon\"}\n";
  Status st = ExpectError(ReadString(dates, o), dates);
  EXPECT_EQ(options_of(st), (std::vector<std::string>{"inference_rows", "infer_temporal", "schema"}));
  EXPECT_EQ(st.detail()->kind, StatusDetail::Kind::kInferredType);
  EXPECT_THAT(st.message(), HasSubstr("JSON Lines line 2"));

  std::string late = "{\"a\": 1}\n{\"a\": 2, \"b\": 3}\n";
  EXPECT_EQ(options_of(ExpectError(ReadString(late, o), late)),
            (std::vector<std::string>{"inference_rows", "unexpected_fields", "schema"}));
  std::string kinds = "{\"a\": 1}\n{\"a\": \"x\"}\n";
  EXPECT_EQ(options_of(ExpectError(ReadString(kinds, o), kinds)),
            (std::vector<std::string>{"inference_rows", "schema"}));

  o = ReadOptions();
  o.max_line_bytes = 16;
  o.block_size = 16;
  std::string longline = "{\"a\": \"" + std::string(4096, 'x') + "\"}\n";
  EXPECT_EQ(options_of(ExpectError(ReadString(longline, o), "long")),
            std::vector<std::string>{"max_line_bytes"});

  o = ReadOptions();
  o.max_columns = 2;
  std::string wide = "{\"a\": 1, \"b\": 2, \"c\": 3}\n";
  EXPECT_EQ(options_of(ExpectError(ReadString(wide, o), wide)),
            (std::vector<std::string>{"max_columns", "schema"}));

  // Bad JSON is the data's fault: no option to name.
  EXPECT_EQ(ExpectError(ReadString("{\"a\": }\n", ReadOptions()), "bad").detail(), nullptr);
}

}  // namespace
}  // namespace alkaid::jsonl
