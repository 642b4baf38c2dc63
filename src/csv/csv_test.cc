#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <random>

#include "alkaid/csv/api.h"
#include "alkaid/ipc/reader.h"
#include "src/text/text_test_helpers.h"
#include "src/text/fast_values.h"
#include "src/text/text_values.h"

namespace alkaid::csv {
namespace {

using ::alkaid::testing::ArrayFromJSON;
using ::alkaid::testing::ExpectError;
using ::alkaid::testing::ExpectTable;
using ::alkaid::testing::ExpectTablesEqual;
using ::alkaid::testing::MakeTable;
using ::testing::HasSubstr;

TablePtr Read(std::string_view text, ReadOptions options = {}) {
  return ExpectTable(ReadString(text, options), text);
}

Status ReadError(std::string_view text, ReadOptions options = {}) {
  return ExpectError(ReadString(text, options), text);
}

// The single combined column i of a table.
ArrayDataPtr Col(const TablePtr& t, int i) {
  auto r = t->column(i)->Combine();
  EXPECT_TRUE(r.ok());
  return *r;
}

void ExpectColumn(const TablePtr& t, int i, const DataTypePtr& type, std::string_view json) {
  ASSERT_NE(t, nullptr);
  ASSERT_LT(i, t->num_columns());
  EXPECT_TRUE(t->schema()->field(i)->type()->Equals(type))
      << "column " << i << " is " << t->schema()->field(i)->type()->ToString() << ", expected "
      << type->ToString();
  auto expected = ArrayFromJSON(type, json);
  auto got = Col(t, i);
  EXPECT_TRUE(MakeArray(got)->Equals(*MakeArray(expected)))
      << "got " << MakeArray(got)->ToString() << "\nexpected " << MakeArray(expected)->ToString();
}

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

// With short records filled, a record of "1" is a row of 2,000 columns:
// 200 KB of such records would be 1.6 GB of columns. The fields a block may
// fill are bounded by its bytes (16 per byte, at least 4 Mi).
// Each column of a batch costs about a kilobyte however few its rows, so a
// header of short names is capped (max_columns) before anything is built for
// its columns; columns left out by include_columns, given column names and
// max_columns = 0 are not capped.
TEST(CsvReader, WideHeaderIsCappedByMaxColumns) {
  constexpr int kColumns = 100'001;  // one over the default
  std::string text;
  for (int i = 0; i < kColumns; ++i) text += (i ? ",c" : "c") + std::to_string(i);
  text += '\n';
  for (int r = 0; r < 2; ++r) {
    for (int i = 0; i < kColumns; ++i) text += i ? ",1" : "1";
    text += '\n';
  }
  SystemMemoryPool pool;
  ReadOptions o;
  o.pool = &pool;
  o.num_threads = 1;
  auto refused = ReadString(text, o);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInvalid());
  EXPECT_THAT(refused.status().message(),
              HasSubstr("CSV line 1: the header has 100001 columns, more than max_columns "
                        "(100000)"));
  EXPECT_LT(pool.max_memory(), 32 << 20);  // the block, its tokens; no column built

  o.header = false;
  auto no_header = ReadString(text, o);
  ASSERT_FALSE(no_header.ok());
  EXPECT_THAT(no_header.status().message(), HasSubstr("the first record has 100001 columns"));
  o.header = true;

  o.include_columns = {"c7", "c100000"};
  auto some = ReadString(text, o);
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  EXPECT_EQ((*some)->num_columns(), 2);
  EXPECT_EQ((*some)->num_rows(), 2);
  o.include_columns.clear();

  o.max_columns = 0;
  auto all = ReadString(text, o);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ((*all)->num_columns(), kColumns);

  o.max_columns = 10;
  o.column_names.clear();
  for (int i = 0; i < kColumns; ++i) o.column_names.push_back("n" + std::to_string(i));
  auto named = ReadString(text, o);  // the caller said how wide
  ASSERT_TRUE(named.ok()) << named.status().ToString();
  EXPECT_EQ((*named)->schema()->field(kColumns - 1)->name(), "n100000");

  o.column_names.clear();
  o.max_columns = -1;
  EXPECT_FALSE(ReadString(text, o).ok());
}

// More than 16,384 columns: blocks hold at least 64 bytes a column, so
// batches are not a row or two each (and each batch's kilobyte a column is
// spread over many rows).
TEST(CsvReader, WideInputIsReadInBlocksOfEnoughRows) {
  constexpr int kColumns = 20'000;
  constexpr int kRows = 64;
  std::string text;
  for (int i = 0; i < kColumns; ++i) text += (i ? ",c" : "c") + std::to_string(i);
  text += '\n';
  for (int r = 0; r < kRows; ++r) {
    for (int i = 0; i < kColumns; ++i) text += i ? ",1" : "1";
    text += '\n';
  }
  for (int columns : {kColumns, 1000}) {
    ReadOptions o;
    o.block_size = 64 << 10;  // a record of 40,000 bytes: one or two a block as given
    o.num_threads = 1;
    if (columns < kColumns) {
      for (int i = 0; i < columns; ++i) o.include_columns.push_back("c" + std::to_string(i));
    }
    auto reader = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(text)), o);
    auto [batches, rows] = ::alkaid::testing::CountBatches(*reader);
    EXPECT_EQ(rows, kRows);
    if (columns == kColumns) {
      EXPECT_LE(batches, 3);  // the first block as given, then 1.28 MB blocks
    } else {
      EXPECT_GE(batches, 32);  // few columns read: the block size as given
    }
  }
}

TEST(CsvReader, FilledShortRecordsCostWithinTheAllowance) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += (i ? ",c" : "c") + std::to_string(i);
  text += '\n';
  const size_t header = text.size();
  for (int i = 0; i < 100000; ++i) text += "1\n";
  SystemMemoryPool pool;
  ReadOptions fill;
  fill.ragged_rows = RaggedRows::kFillNull;
  fill.pool = &pool;
  fill.num_threads = 1;
  auto t = ReadString(text, fill);
  ASSERT_FALSE(t.ok());
  EXPECT_TRUE(t.status().IsInvalid());
  // The block after the header holds the records; 1,999 fields a record.
  const int64_t allowance =
      std::max<int64_t>(4 << 20, 16 * static_cast<int64_t>(text.size() - header));
  EXPECT_THAT(t.status().message(),
              HasSubstr("CSV line " + std::to_string(2 + allowance / 1999) +
                        ": short records need more than the " + std::to_string(allowance)));
  EXPECT_LT(pool.max_memory(), 96 << 20);

  // Within the allowance: each record leaves out 10 of 20 columns.
  std::string sparse = "a0";
  for (int i = 1; i < 20; ++i) sparse += ",a" + std::to_string(i);
  sparse += '\n';
  for (int i = 0; i < 20000; ++i) sparse += "1,2,3,4,5,6,7,8,9,10\n";
  auto ok = ReadString(sparse, fill);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ((*ok)->column(19)->null_count(), 20000);

  // The knob: a tight allowance refuses it, 0 lifts the limit.
  std::string small = text.substr(0, header + 2 * 3000);
  fill.missing_nulls_floor = 0;
  fill.missing_nulls_per_byte = 1;
  EXPECT_FALSE(ReadString(small, fill).ok());
  fill.missing_nulls_per_byte = 0;
  auto unlimited = ReadString(small, fill);
  ASSERT_TRUE(unlimited.ok()) << unlimited.status().ToString();
  EXPECT_EQ((*unlimited)->column(1999)->null_count(), 3000);
  fill.missing_nulls_per_byte = -1;
  EXPECT_TRUE(ReadString(small, fill).status().IsInvalid());
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

// Records with quotes, line breaks and doubled quotes everywhere, read with
// blocks far smaller than a record, on several threads: same table.
TEST(CsvReader, TinyBlocksAndThreadsGiveTheSameTable) {
  std::mt19937 rng(42);
  std::string text = "id,s,v\n";
  for (int i = 0; i < 2000; ++i) {
    text += std::to_string(i) + ",";
    switch (rng() % 5) {
      case 0: text += "\"a,b\""; break;
      case 1: text += "\"x\ny\r\nz\""; break;
      case 2: text += "\"q\"\"q\"\"\""; break;
      case 3: text += "plain"; break;
      default: text += ""; break;
    }
    text += "," + std::to_string(i * 0.25) + (i % 3 == 0 ? "\r\n" : "\n");
  }
  auto reference = Read(text);
  ASSERT_EQ(reference->num_rows(), 2000);
  for (int64_t block : {1, 7, 64, 1000}) {
    for (int threads : {1, 2, 4}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.inference_rows = 10;
      auto t = Read(text, o);
      ASSERT_NE(t, nullptr);
      EXPECT_TRUE(t->Equals(*reference)) << "block " << block << " threads " << threads;
    }
  }
  // An error far into the input still names the right line.
  std::string broken = text + "2000,\"a\"b,1\n";
  for (int threads : {1, 3}) {
    ReadOptions o;
    o.block_size = 33;
    o.num_threads = threads;
    Status st = ReadError(broken, o);
    size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    EXPECT_THAT(st.message(), HasSubstr("CSV line " + std::to_string(lines + 1) + ":"));
  }
}

TEST(CsvReader, UnclosedQuoteIsBoundedAndLinear) {
  // 4 MB after an opening quote that never closes: an error, not a rescan per
  // block and not unbounded buffering.
  std::string text = "a\n\"" + std::string(4 << 20, 'x');
  ReadOptions o;
  o.block_size = 4096;
  o.max_record_bytes = 1 << 20;
  Status st = ReadError(text, o);
  EXPECT_THAT(st.message(), HasSubstr("max_record_bytes"));
  EXPECT_THAT(st.message(), HasSubstr("CSV line 2"));
  o.max_record_bytes = 8 << 20;
  st = ReadError(text, o);
  EXPECT_THAT(st.message(), HasSubstr("never closed"));
}

// Where an option would change the outcome, the error says which in
// Status::detail(), for programs (the tool maps it to its flags).
TEST(CsvReader, LimitErrorsNameTheirOptionInTheDetail) {
  auto options_of = [](const Status& st) {
    EXPECT_NE(st.detail(), nullptr) << st;
    return st.detail() ? st.detail()->options : std::vector<std::string>{};
  };
  ReadOptions o;
  o.block_size = 4096;
  o.max_record_bytes = 1 << 10;
  Status st = ReadError("a\n\"" + std::string(1 << 16, 'x'), o);
  EXPECT_EQ(options_of(st), std::vector<std::string>{"max_record_bytes"});
  EXPECT_EQ(st.detail()->kind, StatusDetail::Kind::kLimit);

  o = ReadOptions();
  o.max_columns = 2;
  EXPECT_EQ(options_of(ReadError("a,b,c\n1,2,3\n", o)),
            (std::vector<std::string>{"max_columns", "include_columns"}));

  o = ReadOptions();
  o.ragged_rows = RaggedRows::kFillNull;
  o.missing_nulls_per_byte = 1;  // 3 nulls a short record of 2 bytes: past the allowance
  o.missing_nulls_floor = 1;
  std::string short_records = "a,b,c,d\n";
  for (int i = 0; i < 100; ++i) short_records += "1\n";
  EXPECT_EQ(options_of(ReadError(short_records, o)),
            std::vector<std::string>{"missing_nulls_per_byte"});

  o = ReadOptions();
  o.inference_rows = 1;
  o.block_size = 1024;
  std::string text = "n\n1\n";
  for (int i = 0; i < 400; ++i) text += "2\n";
  text += "x\n";
  st = ReadError(text, o);
  EXPECT_EQ(options_of(st), (std::vector<std::string>{"inference_rows", "column_types"}));
  EXPECT_EQ(st.detail()->kind, StatusDetail::Kind::kInferredType);
  EXPECT_THAT(st.message(), HasSubstr("CSV line"));

  // A given type that does not fit is the data's fault: no option to name.
  o.column_types = {{"n", int64()}};
  EXPECT_EQ(ReadError(text, o).detail(), nullptr);
  EXPECT_EQ(ReadError("a\n\"x", ReadOptions()).detail(), nullptr);
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

// ---------------------------------------------------------------------------
// Writer


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
  auto text = WriteToString(*sub);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ReadOptions o;
  o.schema = sub->schema();
  o.block_size = 4096;
  o.num_threads = 2;
  auto back = ReadString(*text, o);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ExpectTablesEqual(**back, *sub);
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

namespace alkaid::csv {
namespace {
// Cells with the value they must read as, for the reader test below.
struct Cells {
  std::string text;
  std::vector<std::optional<int64_t>> ints;
  std::vector<std::optional<double>> doubles;
  std::vector<std::optional<int64_t>> stamps;
  std::vector<std::optional<std::string>> strings;
};

Cells RandomCsv(std::mt19937_64& rng, int rows, bool crlf_sometimes) {
  Cells c;
  c.text = "i,d,ts,s\n";
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  for (int r = 0; r < rows; ++r) {
    // int64: limits, long and short numbers, signs, leading zeros, quotes.
    std::string it;
    std::optional<int64_t> iv;
    switch (pick(9)) {
      case 0: iv = INT64_MAX; it = std::to_string(*iv); break;
      case 1: iv = INT64_MIN; it = std::to_string(*iv); break;
      case 2: it = ""; break;
      case 3: iv = static_cast<int64_t>(rng() >> (1 + pick(63))); it = "+" + std::to_string(*iv); break;
      case 4: iv = pick(1000); it = "000" + std::to_string(*iv); break;
      case 5: iv = -static_cast<int64_t>(rng() >> (1 + pick(63))); it = "\"" + std::to_string(*iv) + "\""; break;
      case 6: it = "NA"; break;
      default: iv = static_cast<int64_t>(rng() >> (1 + pick(63))) * (pick(2) ? 1 : -1); it = std::to_string(*iv); break;
    }
    // float64: plain decimals of any length, exponents, signed zero.
    std::string dt;
    std::optional<double> dv;
    switch (pick(6)) {
      case 0: dt = ""; break;
      case 1: dt = "-0.0"; break;
      case 2: dt = std::to_string(pick(100000)) + "e" + std::to_string(pick(40) - 20); break;
      default: {
        dt = (pick(3) == 0 ? "-" : "") + std::to_string(rng() >> pick(64));
        if (pick(4) != 0) {
          dt += '.';
          for (int i = pick(12) + 1; i > 0; --i) dt += static_cast<char>('0' + pick(10));
        }
      }
    }
    if (!dt.empty()) {
      double v = 0;
      std::from_chars(dt.data(), dt.data() + dt.size(), v);
      dv = v;
    }
    // timestamp[ms]: the fixed layout and general-only forms.
    std::string tt;
    std::optional<int64_t> tv;
    if (pick(10) != 0) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d%c%02d:%02d:%02d", 1900 + pick(200), 1 + pick(12),
                    1 + pick(28), pick(2) ? 'T' : ' ', pick(24), pick(60), pick(60));
      tt = buf;
      switch (pick(4)) {
        case 0: tt += "." + std::to_string(100 + pick(900)); break;
        case 1: tt += ".5"; break;
        case 2: tt = tt.substr(0, 16); break;  // no seconds: general parser only
        default: break;
      }
      text::TimestampText ts;
      int64_t v = 0;
      EXPECT_TRUE(text::ParseTimestampGeneral(tt, &ts) && text::TimestampToUnit(ts, TimeUnit::kMilli, &v)) << tt;
      tv = v;
    }
    // utf8: plain, quoted with delimiters, doubled quotes and line breaks.
    std::string st;
    std::optional<std::string> sv;
    switch (pick(6)) {
      case 0: st = ""; break;
      case 1: sv = "a,b\nc"; st = "\"a,b\nc\""; break;
      case 2: sv = "q\"q"; st = "\"q\"\"q\""; break;
      case 3: sv = ""; st = "\"\""; break;
      default: sv = std::string(static_cast<size_t>(1 + pick(39)), static_cast<char>('a' + pick(26))); st = *sv; break;
    }
    c.text += it + "," + dt + "," + tt + "," + st;
    c.text += crlf_sometimes && pick(5) == 0 ? "\r\n" : "\n";
    if (pick(50) == 0) c.text += "\n";  // an empty line, skipped
    c.ints.push_back(iv);
    c.doubles.push_back(dv);
    c.stamps.push_back(tv);
    c.strings.push_back(sv);
  }
  return c;
}

TEST(CsvReader, FastPathsAgreeWithExpectedValues) {
  // The tokenizer's fast path (plain records) and the converters' fast
  // parsers against values computed independently, across block sizes that
  // cut records (and quoted fields) anywhere, with 1 and 2 threads.
  std::mt19937_64 rng(7);
  for (bool crlf : {false, true}) {
    Cells c = RandomCsv(rng, 3000, crlf);
    for (int64_t block : {int64_t{61}, int64_t{997}, int64_t{1} << 20}) {
      for (int threads : {1, 2}) {
        ReadOptions o;
        o.block_size = block;
        o.num_threads = threads;
        o.column_types = {{"i", int64()}, {"d", float64()}, {"ts", timestamp(TimeUnit::kMilli)},
                          {"s", utf8()}};
        auto t = Read(c.text, o);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->num_rows(), static_cast<int64_t>(c.ints.size()));
        auto i = Col(t, 0), d = Col(t, 1), ts = Col(t, 2), s = Col(t, 3);
        const auto* iv = reinterpret_cast<const int64_t*>(i->buffers[1]->data()) + i->offset;
        const auto* dv = reinterpret_cast<const double*>(d->buffers[1]->data()) + d->offset;
        const auto* tv = reinterpret_cast<const int64_t*>(ts->buffers[1]->data()) + ts->offset;
        const auto* so = reinterpret_cast<const int32_t*>(s->buffers[1]->data()) + s->offset;
        const char* sb = reinterpret_cast<const char*>(s->buffers[2]->data());
        for (size_t r = 0; r < c.ints.size(); ++r) {
          auto at = [&] { return "row " + std::to_string(r) + " block " + std::to_string(block) +
                                 " threads " + std::to_string(threads); };
          int64_t k = static_cast<int64_t>(r);
          ASSERT_EQ(i->IsValid(k), c.ints[r].has_value()) << at();
          if (c.ints[r]) {
            ASSERT_EQ(iv[r], *c.ints[r]) << at();
          }
          ASSERT_EQ(d->IsValid(k), c.doubles[r].has_value()) << at();
          if (c.doubles[r]) {
            ASSERT_EQ(std::memcmp(&dv[r], &*c.doubles[r], 8), 0) << at();
          }
          ASSERT_EQ(ts->IsValid(k), c.stamps[r].has_value()) << at();
          if (c.stamps[r]) {
            ASSERT_EQ(tv[r], *c.stamps[r]) << at();
          }
          ASSERT_EQ(s->IsValid(k), c.strings[r].has_value()) << at();
          if (c.strings[r]) {
            ASSERT_EQ(std::string_view(sb + so[r], static_cast<size_t>(so[r + 1] - so[r])), *c.strings[r]) << at();
          }
        }
      }
    }
  }
}

TEST(CsvReader, FastPathHandsOddRecordsToTheGeneralOne) {
  // Plain records around ones the fast path must give back: too many or too
  // few fields (errors naming the line), a quote in the middle, a lone CR.
  std::string plain;
  for (int r = 0; r < 200; ++r) plain += std::to_string(r) + ",x" + std::to_string(r) + "\n";
  ReadOptions typed;
  typed.column_types = {{"a", int64()}};
  EXPECT_THAT(ReadError("a,b\n" + plain + "1,2,3\n" + plain, typed).message(),
              HasSubstr("CSV line 202: a record has more than 2 fields"));
  EXPECT_THAT(ReadError("a,b\n" + plain + "1\n" + plain, typed).message(),
              HasSubstr("CSV line 202: a record has 1 field where 2 were expected"));
  auto t = Read("a,b\n" + plain + "7,\"q,\"\"r\"\n8,s\r9,t\n" + plain, typed);
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->num_rows(), 403);
  auto a = Col(t, 0), b = Col(t, 1);
  const auto* av = reinterpret_cast<const int64_t*>(a->buffers[1]->data()) + a->offset;
  const auto* bo = reinterpret_cast<const int32_t*>(b->buffers[1]->data()) + b->offset;
  const char* bb = reinterpret_cast<const char*>(b->buffers[2]->data());
  std::vector<int64_t> want_a = {198, 199, 7, 8, 9, 0};
  std::vector<std::string> want_b = {"x198", "x199", "q,\"r", "s", "t", "x0"};
  for (size_t k = 0; k < want_a.size(); ++k) {
    EXPECT_EQ(av[198 + k], want_a[k]) << k;
    EXPECT_EQ(std::string(bb + bo[198 + k], static_cast<size_t>(bo[199 + k] - bo[198 + k])), want_b[k]) << k;
  }
}

}  // namespace
}  // namespace alkaid::csv

namespace alkaid::csv {
namespace {

// A scalar RFC 4180 reference: records of fields, quotes removed, doubled
// quotes collapsed, CRLF / LF / lone CR ending records, empty lines skipped.
std::vector<std::vector<std::string>> ReferenceCsv(const std::string& s) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  size_t i = 0;
  bool any = false;  // the record under way has some byte
  while (i < s.size()) {
    char c = s[i];
    if (c == '"' && field.empty()) {
      ++i;
      while (true) {
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += s[i++];
      }
      any = true;
      continue;
    }
    if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
      ++i;
      continue;
    }
    if (c == '\n' || c == '\r') {
      i += (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      if (any) {
        row.push_back(field);
        rows.push_back(row);
      }
      row.clear();
      field.clear();
      any = false;
      continue;
    }
    field += c;
    any = true;
    ++i;
  }
  if (any) {
    row.push_back(field);
    rows.push_back(row);
  }
  return rows;
}

// The tokenizer's vector fast path (64-byte masks) and its general path
// against the scalar reference, on random records of quoted and unquoted
// fields (delimiters, quotes and line breaks inside quotes, CRLF, lone CR,
// empty lines, no final line end), with the input cut into blocks at every
// possible size, on 1 and 2 threads.
TEST(CsvReader, TokenizerAgreesWithScalarReferenceAtEveryBlockSize) {
  std::mt19937_64 rng(99);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  for (int round = 0; round < 6; ++round) {
    std::string text = "a,b,c\n";
    int rows = 4 + pick(12);
    for (int r = 0; r < rows; ++r) {
      for (int f = 0; f < 3; ++f) {
        if (f > 0) text += ',';
        switch (pick(7)) {
          case 0: break;  // empty
          case 1: text += "\"" + std::string(static_cast<size_t>(pick(70)), 'w') + "\""; break;
          case 2: text += "\"x,\"\"y\"\"\nz\r\n\""; break;
          case 3: text += "\"\""; break;
          default: text += std::string(static_cast<size_t>(1 + pick(80)), static_cast<char>('k' + pick(8))); break;
        }
      }
      if (r + 1 == rows && round % 2 == 1) break;  // no final line end
      static const char* kEnds[] = {"\n", "\n", "\r\n", "\n\n"};
      text += kEnds[pick(4)];
    }
    auto want = ReferenceCsv(text);
    ASSERT_GE(want.size(), 2u);
    for (int64_t block = 1; block <= static_cast<int64_t>(text.size()) + 1; ++block) {
      for (int threads : {1, 2}) {
        ReadOptions o;
        o.block_size = block;
        o.num_threads = threads;
        o.null_values = {};
        o.column_types = {{"a", utf8()}, {"b", utf8()}, {"c", utf8()}};
        auto t = Read(text, o);
        ASSERT_NE(t, nullptr);
        ASSERT_EQ(t->num_rows(), static_cast<int64_t>(want.size() - 1)) << "block " << block;
        for (int c = 0; c < 3; ++c) {
          auto col = Col(t, c);
          const auto* off = reinterpret_cast<const int32_t*>(col->buffers[1]->data()) + col->offset;
          const char* bytes = reinterpret_cast<const char*>(col->buffers[2]->data());
          for (size_t r = 1; r < want.size(); ++r) {
            std::string got(bytes + off[r - 1], static_cast<size_t>(off[r] - off[r - 1]));
            ASSERT_EQ(got, want[r][static_cast<size_t>(c)])
                << "row " << r << " column " << c << " block " << block << " threads " << threads;
          }
        }
      }
    }
  }
}

// A block cut at the end of the input lands in a buffer that held an
// earlier block: the fast number parsers read a few bytes past the last
// field, and must not take the old bytes there for more digits.
TEST(CsvReader, LastFieldWithoutLineEndIgnoresRecycledBytes) {
  std::string text = "x,n\n";
  for (int i = 0; i < 3000; ++i) text += "2.5,1234567\n";
  text += "3,12";  // no final line end; old digits would follow in the buffer
  for (int threads : {1, 2}) {
    for (int64_t block : {int64_t{64}, int64_t{1000}, int64_t{4096}}) {
      ReadOptions o;
      o.block_size = block;
      o.num_threads = threads;
      o.column_types = {{"n", int64()}, {"x", float64()}};
      auto t = Read(text, o);
      ASSERT_NE(t, nullptr);
      ASSERT_EQ(t->num_rows(), 3001);
      auto x = Col(t, 0), n = Col(t, 1);
      EXPECT_EQ(reinterpret_cast<const int64_t*>(n->buffers[1]->data())[n->offset + 3000], 12);
      EXPECT_EQ(reinterpret_cast<const double*>(x->buffers[1]->data())[x->offset + 3000], 3.0);
    }
  }
}

// The streaming pipeline: the batches of the blocks before a bad record come
// out first, in order, then the error, which sticks; a reader dropped half way (helper
// threads still loading and parsing) stops cleanly.
TEST(CsvReader, PipelineErrorsComeInOrderAndReadersStopHalfWay) {
  std::string text = "n\n";
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + "\n";
  std::string bad = text + "x\n" + text.substr(2);
  for (int threads : {2, 3, 4}) {
    ReadOptions o;
    o.block_size = 64;
    o.num_threads = threads;
    o.column_types = {{"n", int64()}};
    auto reader = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(bad)), o);
    int64_t expect = 0;
    Status st;
    while (true) {
      auto b = reader->Next();
      if (!b.ok()) {
        st = b.status();
        break;
      }
      ASSERT_NE(*b, nullptr) << "the bad record was never reported";
      auto col = (*b)->column(0);
      for (int64_t i = 0; i < (*b)->num_rows(); ++i) {
        ASSERT_EQ(static_cast<const Int64Array&>(*col).Value(i), expect++);
      }
    }
    // Every batch before the block holding the bad record (64-byte blocks:
    // a few records each).
    EXPECT_LE(expect, 3000) << threads;
    EXPECT_GE(expect, 2980) << threads;
    EXPECT_THAT(st.message(), HasSubstr("CSV line 3002"));
    auto again = reader->Next();
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.status().message(), st.message());
    for (int taken = 0; taken < 3; ++taken) {
      auto half = *MakeReader(std::make_shared<io::BufferReader>(Buffer::FromString(text)), o);
      for (int k = 0; k < taken; ++k) ASSERT_TRUE(half->Next().ok());
    }  // destroyed with blocks in flight
  }
}

}  // namespace
}  // namespace alkaid::csv
