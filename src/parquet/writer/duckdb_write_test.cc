// DuckDB reads the Parquet files alkaid writes. For every Arrow type DuckDB has, with each
// codec and both data page versions: DuckDB's read_parquet of our file, brought back
// through the C Data Interface, equals DuckDB's scan of the same Arrow data (the same
// conversions into DuckDB's types happen on both sides, so any difference is ours).
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/parquet/writer.h"
#include "src/parquet/reader_test_util.h"
#include "test_util/duckdb.h"
#include "src/parquet/writer/writer_test_util.h"
#include "test_util/temp_path.h"

namespace alkaid::parquet {
namespace {

using c_data::Database;

// Columns of testing::WritableFields() left out, and why.
const std::set<std::string> kNotInDuckDB = {
    // DuckDB reads decimals above precision 38 as doubles, inflated by 2^(8*(8 - L mod 8))
    // when the FIXED_LEN_BYTE_ARRAY width L is not a multiple of 8 (duckdb/duckdb#25058);
    // Arrow C++ writes the same minimal widths as alkaid.
    "dec256",
    // Parquet has no duration: the INT64 count is stored (as Arrow C++ does) and DuckDB
    // reads a BIGINT, while its Arrow scan gives an INTERVAL.
    "dur",
    // Parquet's INTERVAL has no nanoseconds: alkaid stores the 16 bytes as a
    // FIXED_LEN_BYTE_ARRAY that only ARROW:schema gives its type back (DuckDB: a blob).
    "mdn",
};

// day_time_interval as month_day_nano_interval (DuckDB's INTERVAL in Arrow), whose
// canonical text the comparison knows; DuckDB's Arrow scan refuses day_time_interval.
// Parquet's INTERVAL holds unsigned fields, and DuckDB reads the milliseconds so: a
// negative Arrow count comes back as its 32-bit two's complement.
RecordBatchPtr DayTimeAsMonthDayNano(const RecordBatchPtr& column) {
  const ArrayData& in = *column->column_data(0);
  auto out = std::make_shared<ArrayData>(in);
  out->type = month_day_nano_interval();
  BufferPtr values = AllocateBuffer(in.length * 16).ValueOrDie();
  for (int64_t i = 0; i < in.length; ++i) {
    int32_t days_ms[2];
    std::memcpy(days_ms, in.buffers[1]->data() + (in.offset + i) * 8, 8);
    const int32_t months = 0;
    const int64_t nanos = int64_t{static_cast<uint32_t>(days_ms[1])} * 1000000;
    uint8_t* slot = values->mutable_data() + i * 16;
    std::memcpy(slot, &months, 4);
    std::memcpy(slot + 4, &days_ms[0], 4);
    std::memcpy(slot + 8, &nanos, 8);
  }
  out->buffers[1] = std::move(values);
  out->offset = 0;
  if (in.offset != 0) return nullptr;  // the bitmap would need shifting; tests pass whole arrays
  return RecordBatch::Make(schema({field(column->schema()->field(0)->name(), out->type)}),
                           in.length, {out});
}

std::string TempPath(const std::string& name) {
  return alkaid::testing::ProcessTempPath("pqw_" + name);
}

// The first row where column `c` of two result sets differs, or "" when equal.
std::string ColumnDifference(const SchemaPtr& schema_a, const std::vector<RecordBatchPtr>& a,
                             const SchemaPtr& schema_b, const std::vector<RecordBatchPtr>& b,
                             int c) {
  auto ta = Table::FromRecordBatches(schema_a, a).ValueOrDie()->SelectColumns({c}).ValueOrDie();
  auto tb = Table::FromRecordBatches(schema_b, b).ValueOrDie()->SelectColumns({c}).ValueOrDie();
  auto left = testing::CanonicalRows(*ta);
  auto right = testing::CanonicalRows(*tb);
  return testing::RowsDifference(left, right);
}

// The columns: every writable Arrow type (writer_test_util.h) but those DuckDB lacks.
FieldVector DuckDBFields() {
  FieldVector out;
  for (auto& f : testing::WritableFields()) {
    if (kNotInDuckDB.count(f->name()) == 0) out.push_back(f);
  }
  return out;
}

struct Case {
  Compression codec;
  DataPageVersion pages;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return std::string(CompressionName(info.param.codec)) +
         (info.param.pages == DataPageVersion::kV1 ? "_v1" : "_v2");
}

class DuckDBReadsOurFiles : public ::testing::TestWithParam<Case> {};

TEST_P(DuckDBReadsOurFiles, EveryTypeEqualsDuckDBsOwnScan) {
  ALKAID_REQUIRE_DUCKDB(api);
  FieldVector fields = DuckDBFields();
  auto batch = testing::RandomBatch(fields, 2500, 7);
  ASSERT_NE(batch, nullptr);

  WriterProperties props;
  props.compression = GetParam().codec;
  props.data_page_version = GetParam().pages;
  props.data_page_size = 4096;  // many pages
  props.max_row_group_rows = 1000;  // several row groups
  const std::string path = TempPath(std::string("types_") + CompressionName(props.compression) +
                                    (props.data_page_version == DataPageVersion::kV1 ? "1" : "2") +
                                    ".parquet");
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({batch}));
  ASSERT_OK(WriteTable(*table, path, props));

  Database db(api);
  ASSERT_TRUE(db.ok());
  SchemaPtr from_file_schema;
  std::vector<RecordBatchPtr> from_file;
  ASSERT_OK(db.QueryArrow("SELECT * FROM read_parquet('" + path + "')", &from_file_schema,
                          &from_file));
  ASSERT_EQ(from_file_schema->num_fields(), static_cast<int>(fields.size()));
  int64_t rows = 0;
  for (const auto& b : from_file) rows += b->num_rows();
  ASSERT_EQ(rows, batch->num_rows());

  // Each column scanned on its own, so that a column DuckDB cannot scan names itself.
  for (int c = 0; c < static_cast<int>(fields.size()); ++c) {
    const std::string& name = fields[static_cast<size_t>(c)]->name();
    ASSERT_OK_AND_ASSIGN(auto column, batch->SelectColumns({c}));
    SchemaPtr scanned_schema;
    std::vector<RecordBatchPtr> scanned;
    Status st = db.Register("orig", column->schema(), {column});
    if (st.ok()) st = db.QueryArrow("SELECT * FROM orig", &scanned_schema, &scanned);
    std::vector<RecordBatchPtr> file_column;
    for (const auto& b : from_file) file_column.push_back(b->SelectColumns({c}).ValueOrDie());
    if (!st.ok()) {
      // Types DuckDB reads from Parquet but not from Arrow (float16, day_time_interval):
      // the original values.
      if (column->schema()->field(0)->type()->id() == TypeId::kIntervalDayTime) {
        column = DayTimeAsMonthDayNano(column);
        ASSERT_NE(column, nullptr);
      }
      EXPECT_EQ(ColumnDifference(column->schema(), {column},
                                 schema({from_file_schema->field(c)}), file_column, 0),
                "")
          << "column " << name << " (DuckDB cannot scan the Arrow data: " << st
          << "), its Parquet read " << from_file_schema->field(c)->type()->ToString();
      continue;
    }
    EXPECT_EQ(ColumnDifference(scanned_schema, scanned,
                               schema({from_file_schema->field(c)}), file_column, 0),
              "")
        << "column " << name << ": DuckDB's Arrow scan gives "
        << scanned_schema->field(0)->type()->ToString() << ", its Parquet read "
        << from_file_schema->field(c)->type()->ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, DuckDBReadsOurFiles,
    ::testing::Values(Case{Compression::kUncompressed, DataPageVersion::kV1},
                      Case{Compression::kSnappy, DataPageVersion::kV1},
                      Case{Compression::kGzip, DataPageVersion::kV1},
                      Case{Compression::kZstd, DataPageVersion::kV1},
                      Case{Compression::kLz4Raw, DataPageVersion::kV1},
                      Case{Compression::kBrotli, DataPageVersion::kV1},
                      Case{Compression::kUncompressed, DataPageVersion::kV2},
                      Case{Compression::kSnappy, DataPageVersion::kV2},
                      Case{Compression::kZstd, DataPageVersion::kV2},
                      Case{Compression::kGzip, DataPageVersion::kV2}),
    CaseName);

}  // namespace
}  // namespace alkaid::parquet
