// The CSV reader's bounds on what input can cost: wide headers and records
// (max_columns, blocks sized for wide input, the allowance of filled
// fields), records that never end (max_record_bytes), and the options each
// limit error names (Status::detail()).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "alkaid/csv/api.h"
#include "src/csv/csv_test_helpers.h"

namespace alkaid::csv {
namespace {

using ::testing::HasSubstr;
using test::ReadError;

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

}  // namespace
}  // namespace alkaid::csv
