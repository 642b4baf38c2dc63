// DuckDB writes Parquet files of every type it has (test_all_types(), plus nested and
// larger tables) with each of its codecs; alkaid reads them and must see the same values
// DuckDB reads back from the same file.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "src/parquet/reader_test_util.h"
#include "test_util/duckdb.h"
#include "test_util/temp_path.h"

namespace alkaid::parquet {
namespace {

namespace fs = std::filesystem;
using testing::CanonicalRows;

// The one column of test_all_types() left out: DuckDB 1.x writes GEOMETRY but fails reading
// its own file back ("TransactionContext::ActiveTransaction called without active
// transaction"); alkaid reads it as binary (well-known binary), as Arrow C++ does.
const char* kExcluded = "geometry";

class DuckDBFiles : public ::testing::TestWithParam<std::string> {};

std::string TempPath(const std::string& name) {
  return alkaid::testing::ProcessTempPath("pq_" + name);
}

Status Compare(c_data::Database* db, const std::string& path, int* rows_out) {
  SchemaPtr schema;
  std::vector<RecordBatchPtr> batches;
  ALKAID_RETURN_NOT_OK(db->QueryArrow("SELECT * FROM read_parquet('" + path + "')", &schema,
                                      &batches));
  ALKAID_ASSIGN_OR_RAISE(auto duck, Table::FromRecordBatches(schema, batches));
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(path));
  ALKAID_ASSIGN_OR_RAISE(auto ours, reader->ReadTable());
  ALKAID_RETURN_NOT_OK(ours->ValidateFull());
  if (ours->num_columns() != duck->num_columns()) {
    return Status::Invalid("column counts differ");
  }
  std::string differences;
  for (int c = 0; c < ours->num_columns(); ++c) {
    ALKAID_ASSIGN_OR_RAISE(auto a, ours->SelectColumns({c}));
    ALKAID_ASSIGN_OR_RAISE(auto b, duck->SelectColumns({c}));
    // Parquet INTERVAL is fixed_size_binary(12) in Arrow C++ (and here); DuckDB gives its
    // month_day_nano interval.
    testing::CanonicalOptions options;
    options.fixed12_as_interval =
        b->schema()->field(0)->type()->id() == TypeId::kIntervalMonthDayNano;
    auto got = CanonicalRows(*a, options);
    auto expect = CanonicalRows(*b, options);
    if (got.size() != expect.size()) return Status::Invalid("row counts differ");
    for (size_t r = 0; r < got.size(); ++r) {
      if (got[r] != expect[r]) {
        differences += "\ncolumn " + ours->schema()->field(c)->ToString() + " (DuckDB: " +
                       duck->schema()->field(c)->ToString() + ") row " + std::to_string(r) +
                       ": ours " + got[r].substr(0, 200) + " DuckDB " + expect[r].substr(0, 200);
        break;
      }
    }
  }
  if (!differences.empty()) return Status::Invalid(differences);
  *rows_out = static_cast<int>(ours->num_rows());
  return Status::OK();
}

TEST_P(DuckDBFiles, AllTypesEqualDuckDB) {
  ALKAID_REQUIRE_DUCKDB(api);
  const std::string codec = GetParam();
  c_data::Database db(api);
  ASSERT_TRUE(db.ok());
  std::string path = TempPath("all_types_" + codec + ".parquet");
  Status st = db.Execute("COPY (SELECT * EXCLUDE (" + std::string(kExcluded) +
                         ") FROM test_all_types()) TO '" + path + "' (FORMAT parquet, COMPRESSION " +
                         codec + ")");
  ASSERT_TRUE(st.ok()) << st.ToString();
  int rows = 0;
  st = Compare(&db, path, &rows);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(rows, 3);
  fs::remove(path);
}

TEST_P(DuckDBFiles, LargerTablesEqualDuckDB) {
  ALKAID_REQUIRE_DUCKDB(api);
  const std::string codec = GetParam();
  c_data::Database db(api);
  ASSERT_TRUE(db.ok());
  std::string path = TempPath("larger_" + codec + ".parquet");
  // Several row groups and pages; nulls, dictionaries (repeated strings), plain strings,
  // nested lists, structs and maps.
  std::string sql =
      "COPY (SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE i * 3 END AS n, "
      "(i % 13)::VARCHAR || '-cat' AS dict, md5(i::VARCHAR) AS plain, i / 3.0 AS d, "
      "TIMESTAMP '2020-01-01' + INTERVAL (i) SECOND AS ts, "
      "CASE WHEN i % 5 = 0 THEN NULL ELSE [i, i + 1, NULL] END AS l, "
      "{'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'x' || i END} AS s, "
      "MAP {'k' || (i % 4): i} AS m, "
      "[[i], [], NULL, [i, i]] AS ll, (i % 2 = 0) AS b, i::DECIMAL(18, 3) AS dec "
      "FROM range(30000) t(i)) TO '" + path + "' (FORMAT parquet, COMPRESSION " + codec +
      ", ROW_GROUP_SIZE 10000)";
  Status st = db.Execute(sql);
  ASSERT_TRUE(st.ok()) << st.ToString();
  int rows = 0;
  st = Compare(&db, path, &rows);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(rows, 30000);
  fs::remove(path);
}

INSTANTIATE_TEST_SUITE_P(Codecs, DuckDBFiles,
                         ::testing::Values("uncompressed", "snappy", "gzip", "zstd", "lz4_raw",
                                           "brotli"));

}  // namespace
}  // namespace alkaid::parquet
