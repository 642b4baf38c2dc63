// The CSV reader as a user calls it: records and fields (RFC 4180 quoting,
// line endings, ragged rows), errors naming line and column, type inference,
// nulls, the options that pick and name columns, batch by batch reading.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "alkaid/csv/api.h"
#include "src/csv/csv_test_helpers.h"

namespace alkaid::csv {
namespace {

using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;
using test::Col;
using test::ExpectColumn;
using test::Read;
using test::ReadError;

TEST(CsvReader, HeaderAndInference) {
  auto t = Read("i,f,b,s,d\n1,1.5,true,x,2024-01-31\n-2,,false,\"y\",1970-01-01\n");
  ASSERT_EQ(t->num_rows(), 2);
  EXPECT_EQ(t->schema()->field(0)->name(), "i");
  ExpectColumn(t, 0, int64(), "[1, -2]");
  ExpectColumn(t, 1, float64(), "[1.5, null]");
  ExpectColumn(t, 2, boolean(), "[true, false]");
  ExpectColumn(t, 3, utf8(), R"(["x", "y"])");
  ExpectColumn(t, 4, date32(), "[19753, 0]");
}

TEST(CsvReader, Rfc4180Quoting) {
  auto t = Read("a,b\n\"x,y\",\"he said \"\"hi\"\"\"\n\"line1\nline2\",\"\"\n\"\",plain\n");
  ExpectColumn(t, 0, utf8(), R"(["x,y", "line1\nline2", ""])");
  ExpectColumn(t, 1, utf8(), R"(["he said \"hi\"", "", "plain"])");
}

TEST(CsvReader, QuotedCrLfInsideFieldKept) {
  auto t = Read("a\r\n\"one\r\ntwo\"\r\n");
  ExpectColumn(t, 0, utf8(), R"(["one\r\ntwo"])");
}

TEST(CsvReader, LineEndings) {
  for (std::string text : {"a,b\r\n1,2\r\n3,4\r\n", "a,b\n1,2\r\n3,4", "a,b\r1,2\r3,4\r",
                           "a,b\n1,2\n3,4\n\n\n"}) {
    auto t = Read(text);
    ASSERT_NE(t, nullptr) << text;
    ExpectColumn(t, 0, int64(), "[1, 3]");
    ExpectColumn(t, 1, int64(), "[2, 4]");
  }
}

TEST(CsvReader, ByteOrderMark) {
  auto t = Read("\xEF\xBB\xBFname,v\nx,1\n");
  EXPECT_EQ(t->schema()->field(0)->name(), "name");
  ExpectColumn(t, 1, int64(), "[1]");
}

TEST(CsvReader, EmptyInputAndHeaderOnly) {
  auto empty = Read("");
  EXPECT_EQ(empty->num_columns(), 0);
  EXPECT_EQ(empty->num_rows(), 0);
  auto header = Read("a,b\n");
  ASSERT_EQ(header->num_columns(), 2);
  EXPECT_EQ(header->num_rows(), 0);
  EXPECT_EQ(header->schema()->field(1)->name(), "b");
  // Nothing to infer from and the sample was the whole input: null.
  EXPECT_EQ(header->schema()->field(0)->type()->id(), TypeId::kNull);
  auto no_newline = Read("a,b");
  EXPECT_EQ(no_newline->num_columns(), 2);
}

TEST(CsvReader, TrailingDelimiterMeansEmptyLastField) {
  auto t = Read("a,b\n1,\n2,");
  ExpectColumn(t, 1, null(), "[null, null]");
}

TEST(CsvReader, RaggedRows) {
  Status st = ReadError("a,b,c\n1,2,3\n4,5\n");
  EXPECT_THAT(st.message(), HasSubstr("CSV line 3"));
  EXPECT_THAT(st.message(), HasSubstr("2 fields where 3"));
  st = ReadError("a,b\n1,2\n3,4,5\n");
  EXPECT_THAT(st.message(), HasSubstr("CSV line 3"));
  EXPECT_THAT(st.message(), HasSubstr("more than 2 fields"));

  ReadOptions fill;
  fill.ragged_rows = RaggedRows::kFillNull;
  auto t = Read("a,b,c\n1,2,3\n4\n", fill);
  ExpectColumn(t, 2, int64(), "[3, null]");
  EXPECT_FALSE(ReadString("a,b\n1,2,3\n", fill).ok());
}


TEST(CsvReader, ErrorsNameLineColumnAndText) {
  Status st = ReadError("a,b\n1,2\n\"open,3\n4,5\n");
  EXPECT_THAT(st.message(), HasSubstr("CSV line 3"));
  EXPECT_THAT(st.message(), HasSubstr("never closed"));

  st = ReadError("a,b\n1,x\"y\n");
  EXPECT_THAT(st.message(), HasSubstr("CSV line 2"));
  EXPECT_THAT(st.message(), HasSubstr("column 2"));
  EXPECT_THAT(st.message(), HasSubstr("quote inside an unquoted field"));

  st = ReadError("a\n\"x\"y\n");
  EXPECT_THAT(st.message(), HasSubstr("after the closing quote"));

  // A value after the inference sample that does not fit the inferred type.
  ReadOptions small;
  small.inference_rows = 2;
  st = ReadError("id,v\n1,a\n2,b\n\"multi\nline\",c\nx,d\n", small);
  EXPECT_THAT(st.message(), HasSubstr("column 1 (id)"));
  EXPECT_THAT(st.message(), HasSubstr("\"multi\nline\""));
  EXPECT_THAT(st.message(), HasSubstr("CSV line 4"));
  EXPECT_THAT(st.message(), HasSubstr("inference_rows"));

  // Line numbers count skipped rows, the header and lines inside quotes.
  ReadOptions typed;
  typed.column_types["n"] = int32();
  typed.skip_rows = 2;
  st = ReadError("junk\njunk\nn,s\n1,\"a\nb\"\n99999999999,c\n", typed);
  EXPECT_THAT(st.message(), HasSubstr("CSV line 6"));
  EXPECT_THAT(st.message(), HasSubstr("\"99999999999\" is not a valid int32"));
}

TEST(CsvReader, InvalidUtf8IsAnErrorUnlessBinary) {
  std::string text = "s,n\nok,1\nbad\xC3(,2\n";
  Status st = ReadError(text);
  EXPECT_THAT(st.message(), HasSubstr("CSV line 3"));
  EXPECT_THAT(st.message(), HasSubstr("invalid UTF-8"));
  ReadOptions bin;
  bin.column_types["s"] = binary();
  auto t = Read(text, bin);
  auto col = Col(t, 0);
  EXPECT_EQ(static_cast<const BinaryArray&>(*MakeArray(col)).GetView(1), "bad\xC3(");
}

TEST(CsvReader, InferencePromotions) {
  auto t = Read("a,b,c,d,e,f,g,h\n"
                "1,1,2024-01-01,2024-01-01T00:00:00,true,,2020-01-01T00:00:00Z,1\n"
                "2.5,x,2024-01-02 10:11:12.5,2024-01-01T00:00:00.123456,false,,"
                "2020-01-01T01:00:00+01:00,99999999999999999999\n");
  ExpectColumn(t, 0, float64(), "[1, 2.5]");
  ExpectColumn(t, 1, utf8(), R"(["1", "x"])");
  ExpectColumn(t, 2, timestamp(TimeUnit::kMilli), "[1704067200000, 1704190272500]");
  ExpectColumn(t, 3, timestamp(TimeUnit::kMicro), "[1704067200000000, 1704067200123456]");
  ExpectColumn(t, 4, boolean(), "[true, false]");
  ExpectColumn(t, 5, null(), "[null, null]");
  ExpectColumn(t, 6, timestamp(TimeUnit::kSecond, "UTC"), "[1577836800, 1577836800]");
  ExpectColumn(t, 7, float64(), "[1, 1e20]");

  auto mixed = Read("z\n2020-01-01T00:00:00Z\n2020-01-01T00:00:00\n");
  EXPECT_EQ(mixed->schema()->field(0)->type()->id(), TypeId::kString);
  auto ns = Read("z\n2020-01-01T00:00:00.000000001\n");
  ExpectColumn(ns, 0, timestamp(TimeUnit::kNano), "[1577836800000000001]");

  // A column null throughout a sample that is not the whole input is utf8.
  ReadOptions small;
  small.inference_rows = 1;
  auto later = Read("a,b\n1,\n2,hello\n", small);
  ExpectColumn(later, 1, utf8(), R"([null, "hello"])");
}

// Times of day (HH:MM:SS[.fraction]) are inferred in the coarsest unit that
// holds every fraction; a column mixing them with dates or other text is utf8.
TEST(CsvReader, TimesOfDayAreInferred) {
  auto t = Read("s,ms,us,ns,mixed,short\n"
                "12:00:00,12:00:00.5,00:00:00.000001,23:59:59.999999999,12:00:00,12:00\n"
                "00:00:01,,01:00:00,00:00:00,2024-01-01,13:00\n");
  ExpectColumn(t, 0, time32(TimeUnit::kSecond), "[43200, 1]");
  ExpectColumn(t, 1, time32(TimeUnit::kMilli), "[43200500, null]");
  ExpectColumn(t, 2, time64(TimeUnit::kMicro), "[1, 3600000000]");
  ExpectColumn(t, 3, time64(TimeUnit::kNano), "[86399999999999, 0]");
  ExpectColumn(t, 4, utf8(), R"(["12:00:00", "2024-01-01"])");
  ExpectColumn(t, 5, utf8(), R"(["12:00", "13:00"])");
  auto dates_first = Read("x\n2024-01-01\n12:00:00\n");
  ExpectColumn(dates_first, 0, utf8(), R"(["2024-01-01", "12:00:00"])");
}

// What the writer writes for each temporal type reads back as that type
// without a schema (time zones as "UTC": values are stored in UTC).
TEST(CsvReader, TemporalColumnsRoundTripWithoutASchema) {
  auto s = schema({field("d", date32()), field("ts", timestamp(TimeUnit::kSecond)),
                   field("tms", timestamp(TimeUnit::kMilli, "UTC")),
                   field("tns", timestamp(TimeUnit::kNano)), field("s", time32(TimeUnit::kSecond)),
                   field("ms", time32(TimeUnit::kMilli)), field("us", time64(TimeUnit::kMicro)),
                   field("ns", time64(TimeUnit::kNano))});
  auto t = MakeTable(s, {"[0, -1, 19724]", "[0, 1700000000, null]", "[-1, 1700000000123, 0]",
                         "[1, null, 1700000000123456789]", "[0, 86399, null]",
                         "[1, null, 86399999]", "[0, 1, 86399999999]",
                         "[null, 1, 86399999999999]"});
  auto text = WriteToString(*t);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  auto back = Read(*text);
  ASSERT_NE(back, nullptr);
  ExpectTablesEqual(*back, *t);
}

TEST(CsvReader, NullsAndQuotedEmpty) {
  auto t = Read("a,b\nNA,\"\"\nnull,\"NA\"\n,x\n");
  ExpectColumn(t, 0, null(), "[null, null, null]");
  ExpectColumn(t, 1, utf8(), R"(["", "NA", "x"])");
  ReadOptions custom;
  custom.null_values = {"-"};
  auto c = Read("a\n-\n\n1\n", custom);
  // One column: the empty line is a record whose empty field is not "-".
  ExpectColumn(c, 0, utf8(), R"([null, "", "1"])");
}

TEST(CsvReader, OptionsNamesSkipSelectTypes) {
  ReadOptions o;
  o.header = false;
  o.delimiter = ';';
  auto t = Read("1;a\n2;b\n", o);
  EXPECT_EQ(t->schema()->field(0)->name(), "f0");
  EXPECT_EQ(t->schema()->field(1)->name(), "f1");

  o.column_names = {"n", "s"};
  o.include_columns = {"s", "n"};
  o.column_types["n"] = uint8();
  t = Read("1;a\n2;b\n", o);
  EXPECT_EQ(t->schema()->field(0)->name(), "s");
  ExpectColumn(t, 1, uint8(), "[1, 2]");

  ReadOptions s;
  s.skip_rows = 1;
  s.quote = '\'';
  s.schema = schema({field("x", int16()), field("y", large_utf8())});
  t = Read("# comment \"\nX,Y\n7,'a,b'\n", s);
  ExpectColumn(t, 0, int16(), "[7]");
  ExpectColumn(t, 1, large_utf8(), R"(["a,b"])");

  ReadOptions not_null;
  not_null.schema = schema({field("x", int16(), false), field("y", utf8())});
  EXPECT_THAT(ReadString("x,y\n1,a\n,b\n", not_null).status().message(),
              HasSubstr("CSV line 3: column 1 (x) is declared not nullable"));

  ReadOptions bad;
  bad.include_columns = {"nope"};
  EXPECT_TRUE(ReadString("a\n1\n", bad).status().IsKeyError());
  ReadOptions wrong_count;
  wrong_count.schema = schema({field("x", int16())});
  EXPECT_THAT(ReadString("a,b\n1,2\n", wrong_count).status().message(),
              HasSubstr("header has 2 fields"));
}


TEST(CsvReader, StreamsBatchByBatch) {
  std::string text = "n\n";
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + "\n";
  ReadOptions o;
  o.block_size = 100;
  o.num_threads = 2;
  auto reader = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(text)), o);
  int64_t rows = 0, batches = 0, expect = 0;
  while (true) {
    auto b = reader->Next();
    ASSERT_TRUE(b.ok());
    if (*b == nullptr) break;
    ++batches;
    auto col = (*b)->column(0);
    for (int64_t i = 0; i < (*b)->num_rows(); ++i) {
      ASSERT_EQ(static_cast<const Int64Array&>(*col).Value(i), expect++);
    }
    rows += (*b)->num_rows();
  }
  EXPECT_EQ(rows, 1000);
  EXPECT_GT(batches, 10);
}

}  // namespace
}  // namespace alkaid::csv
