// Polars (npm nodejs-polars, run by node through test_util/polars_parquet.js) and alkaid
// read each other's Parquet files. Both directions go through an Arrow IPC file Polars
// writes, compared cell by cell in canonical text (reader_test_util.h), which ignores the
// representation differences that are not value differences (string vs string_view,
// dictionary vs plain, time units scaled to nanoseconds).
//  - PolarsReadsOurFiles: alkaid writes every Arrow type Polars has (nulls, several row
//    groups, many pages) with each codec, page v1 and v2, dictionary on and off; Polars reads
//    the file and writes what it read as IPC; that equals the batch alkaid wrote.
//  - WeReadPolarsFiles: Polars writes a frame of every type it has with each codec, with and
//    without statistics, in small row groups and with its defaults, plus the frame as IPC;
//    alkaid's read of the Parquet file equals the IPC file.
// Without node or the package (.ci/install-polars) the tests skip, unless
// ALKAID_REQUIRE_POLARS=1 (CI) makes that a failure.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "alkaid/ipc/reader.h"
#include "alkaid/parquet/writer.h"
#include "src/parquet/reader_test_util.h"
#include "src/parquet/writer/writer_test_util.h"
#include "test_util/temp_path.h"

namespace alkaid::parquet {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Running Polars

// Where node finds the package: $ALKAID_POLARS_DIR (a folder holding node_modules), else
// third_party/polars of the source tree.
std::string PolarsModules() {
  const char* env = std::getenv("ALKAID_POLARS_DIR");
  fs::path dir = (env != nullptr && *env != '\0') ? fs::path(env)
                                                  : fs::path(ALKAID_SOURCE_DIR) / "third_party" /
                                                        "polars";
  return (dir / "node_modules").string();
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const std::string& name) {
  return alkaid::testing::ProcessTempPath("polars_" + name);
}

// Runs the driver script with `args`; its stdout (Polars' dtypes) or an error with its
// stderr.
Result<std::string> RunPolars(const std::string& args) {
  const std::string out = TempPath("stdout.txt");
  const std::string err = TempPath("stderr.txt");
  const std::string script =
      (fs::path(ALKAID_SOURCE_DIR) / "test_util" / "polars_parquet.js").string();
  const std::string command = "NODE_PATH=" + Quote(PolarsModules()) + " node " + Quote(script) +
                              " " + args + " > " + Quote(out) + " 2> " + Quote(err);
  int rc = std::system(command.c_str());
  if (rc != 0) {
    // The script's one-line summary of the exception, else the whole stderr.
    std::string text = ReadText(err);
    size_t at = text.find("polars_parquet.js: ");
    if (at != std::string::npos) text = text.substr(at, text.find('\n', at) - at);
    return Status::Invalid("Polars failed: ", text.substr(0, 2000), " (", command, ")");
  }
  return ReadText(out);
}

// Empty when node loads nodejs-polars, else why not.
std::string PolarsMissing() {
  static const std::string missing = [] {
    const std::string command = "NODE_PATH=" + Quote(PolarsModules()) +
                                " node -e 'require(\"nodejs-polars\")' > /dev/null 2>&1";
    return std::system(command.c_str()) == 0
               ? std::string()
               : "node cannot load nodejs-polars from " + PolarsModules();
  }();
  return missing;
}

#define ALKAID_REQUIRE_POLARS()                                                           \
  if (std::string why = PolarsMissing(); !why.empty()) {                                  \
    const char* required = std::getenv("ALKAID_REQUIRE_POLARS");                          \
    if (required != nullptr && std::string(required) == "1") {                            \
      FAIL() << "Polars is required (ALKAID_REQUIRE_POLARS=1) but " << why;               \
    }                                                                                     \
    GTEST_SKIP() << "SKIPPED: " << why << "; run .ci/install-polars or set "              \
                 << "ALKAID_POLARS_DIR";                                                  \
  }

Result<std::shared_ptr<Table>> ReadIpcFile(const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::FileReader::OpenMapped(path));
  ALKAID_ASSIGN_OR_RAISE(auto batches, reader->ReadAll());
  ALKAID_ASSIGN_OR_RAISE(auto table, Table::FromRecordBatches(reader->schema(), batches));
  ALKAID_RETURN_NOT_OK(table->ValidateFull());
  return table;
}

// ---------------------------------------------------------------------------
// Comparing

// Polars keeps nanoseconds (its Time and Datetime("ns")): compare at that resolution.
testing::CanonicalOptions PolarsCanonical() {
  testing::CanonicalOptions o;
  o.time_resolution = 1000000000;
  return o;
}

// A one-column table with the same buffers under another type of the same layout.
Result<std::shared_ptr<Table>> RetypeColumn(const Table& table, const DataTypePtr& type) {
  std::vector<RecordBatchPtr> batches;
  auto schema = alkaid::schema({field(table.schema()->field(0)->name(), type)});
  for (const auto& chunk : table.column(0)->chunks()) {
    auto data = std::make_shared<ArrayData>(*chunk);
    data->type = type;
    batches.push_back(RecordBatch::Make(schema, data->length, {data}));
  }
  return Table::FromRecordBatches(schema, batches);
}

// The first difference of column `name` in two tables, or "".
std::string ColumnDifference(const Table& expected, const Table& actual,
                             const std::string& name) {
  int a = expected.schema()->GetFieldIndex(name);
  int b = actual.schema()->GetFieldIndex(name);
  if (a < 0 || b < 0) return "column " + name + " missing";
  auto right_table = actual.SelectColumns({b}).ValueOrDie();
  const DataType& want = *expected.schema()->field(a)->type();
  const DataType& got = *actual.schema()->field(b)->type();
  if (want.id() == TypeId::kDate64 && got.id() == TypeId::kTimestamp &&
      static_cast<const TimestampType&>(got).unit() == TimeUnit::kMilli) {
    // Polars has no date64: it reads one as Datetime("ms"), the same milliseconds.
    auto retyped = RetypeColumn(*right_table, date64());
    if (!retyped.ok()) return retyped.status().ToString();
    right_table = *retyped;
  }
  auto left = testing::CanonicalRows(*expected.SelectColumns({a}).ValueOrDie(), PolarsCanonical());
  auto right = testing::CanonicalRows(*right_table, PolarsCanonical());
  return testing::RowsDifference(left, right);
}

// ---------------------------------------------------------------------------
// Polars reads alkaid's files

// Columns of testing::WritableFields() Polars does not read as the same values, and why.
// Polars 0.26.1 (nodejs-polars) refuses the whole file when its ARROW:schema holds a type
// Polars lacks, so these are left out of the every-type files and checked alone.
const std::map<std::string, std::string> kNotInPolars = {
    {"dec256", "Polars decimals stop at precision 38"},
    {"time_s", "Polars reads time32[s] as all nulls: it cannot apply the ARROW:schema unit "
               "seconds to TIME(MILLIS) pages (see Time32SecondsPagesAreMilliseconds)"},
    {"months", "Polars has no interval type (cannot create a series from Interval(YearMonth))"},
    {"day_time", "Polars has no interval type (cannot create a series from Interval(DayTime))"},
    {"mdn", "Polars does not read FIXED_LEN_BYTE_ARRAY(16) as Interval(MonthDayNano)"},
    {"uuid", "Polars 0.26.1 cannot create a series from the arrow.uuid extension type"},
    {"json", "Polars 0.26.1 cannot create a series from the arrow.json extension type"},
    {"ree_str", "Polars does not implement run_end_encoded in ARROW:schema"},
    {"list_view", "Polars does not implement list_view in ARROW:schema"},
    {"large_list_view", "Polars does not implement large_list_view in ARROW:schema"},
};

// Polars' verdict on one column alone, written by alkaid: "" when Polars reads the same
// values, else its error or the first difference.
std::string PolarsVerdict(const RecordBatchPtr& column, WriterProperties props = {}) {
  const std::string name = column->schema()->field(0)->name();
  const std::string path = TempPath("one_" + name + ".parquet");
  const std::string ipc = TempPath("one_" + name + ".arrow");
  props.max_row_group_rows = 300;  // several row groups
  auto table = Table::FromRecordBatches({column}).ValueOrDie();
  Status st = WriteTable(*table, path, props);
  if (!st.ok()) return "alkaid cannot write it: " + st.ToString();
  auto dtypes = RunPolars("read " + Quote(path) + " " + Quote(ipc));
  if (!dtypes.ok()) return dtypes.status().message();
  auto polars = ReadIpcFile(ipc);
  if (!polars.ok()) return "alkaid cannot read Polars' IPC file: " + polars.status().ToString();
  return ColumnDifference(*table, **polars, name);
}

// Each known difference alone: it still is one (so the list shrinks when Polars catches
// up); every other type is compared in the every-type files below.
TEST(PolarsReadsOurFiles, KnownDifferencesStillDiffer) {
  ALKAID_REQUIRE_POLARS();
  FieldVector fields = testing::WritableFields();
  auto batch = testing::RandomBatch(fields, 1000, 5);
  ASSERT_NE(batch, nullptr);
  size_t listed = 0;
  for (int c = 0; c < static_cast<int>(fields.size()); ++c) {
    const std::string& name = fields[static_cast<size_t>(c)]->name();
    auto known = kNotInPolars.find(name);
    if (known == kNotInPolars.end()) continue;
    ++listed;
    std::string verdict = PolarsVerdict(batch->SelectColumns({c}).ValueOrDie());
    EXPECT_NE(verdict, "") << "column " << name << " is listed as a known difference ("
                           << known->second << ") but Polars now reads it: unlist it";
  }
  EXPECT_EQ(listed, kNotInPolars.size()) << "a listed column is not in WritableFields()";
  std::printf("Polars reads %zu of the %zu Arrow types alkaid writes as the same values\n",
              fields.size() - listed, fields.size());
}

// The time32[s] difference is Polars': its pages hold TIME(MILLIS) milliseconds (seconds
// times 1000, as Arrow C++ writes them), which Polars reads right when the footer has no
// ARROW:schema; it is the seconds unit restored from ARROW:schema it cannot apply.
TEST(PolarsReadsOurFiles, Time32SecondsPagesAreMilliseconds) {
  ALKAID_REQUIRE_POLARS();
  FieldVector fields;
  for (auto& f : testing::WritableFields()) {
    if (f->name() == "time_s") fields.push_back(f);
  }
  ASSERT_EQ(fields.size(), 1u);
  auto batch = testing::RandomBatch(fields, 1000, 5);
  ASSERT_NE(batch, nullptr);
  WriterProperties props;
  props.store_arrow_schema = false;
  EXPECT_EQ(PolarsVerdict(batch, props), "");
}

struct WriteCase {
  Compression codec;
  DataPageVersion pages;
  bool dictionary;
};

std::string WriteCaseName(const ::testing::TestParamInfo<WriteCase>& info) {
  return std::string(CompressionName(info.param.codec)) +
         (info.param.pages == DataPageVersion::kV1 ? "_v1" : "_v2") +
         (info.param.dictionary ? "_dict" : "_plain");
}

class PolarsReadsOurFiles : public ::testing::TestWithParam<WriteCase> {};

TEST_P(PolarsReadsOurFiles, EveryTypeEqualsWhatWeWrote) {
  ALKAID_REQUIRE_POLARS();
  FieldVector fields;
  for (auto& f : testing::WritableFields()) {
    if (kNotInPolars.count(f->name()) == 0) fields.push_back(f);
  }
  auto batch = testing::RandomBatch(fields, 2500, 11);
  ASSERT_NE(batch, nullptr);
  ASSERT_OK_AND_ASSIGN(auto table, Table::FromRecordBatches({batch}));

  WriterProperties props;
  props.compression = GetParam().codec;
  props.data_page_version = GetParam().pages;
  props.dictionary = GetParam().dictionary;
  props.data_page_size = 4096;      // many pages
  props.max_row_group_rows = 1000;  // several row groups
  const std::string name = WriteCaseName({GetParam(), 0});
  const std::string path = TempPath("ours_" + name + ".parquet");
  const std::string ipc = TempPath("ours_" + name + ".arrow");
  ASSERT_OK(WriteTable(*table, path, props));
  ASSERT_OK_AND_ASSIGN(auto dtypes, RunPolars("read " + Quote(path) + " " + Quote(ipc)));
  ASSERT_OK_AND_ASSIGN(auto polars, ReadIpcFile(ipc));
  ASSERT_EQ(polars->num_columns(), table->num_columns()) << dtypes;
  ASSERT_EQ(polars->num_rows(), table->num_rows());
  for (const auto& f : fields) {
    EXPECT_EQ(ColumnDifference(*table, *polars, f->name()), "")
        << "column " << f->ToString() << "; Polars read "
        << polars->schema()->field(polars->schema()->GetFieldIndex(f->name()))->ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, PolarsReadsOurFiles,
    ::testing::Values(WriteCase{Compression::kUncompressed, DataPageVersion::kV1, true},
                      WriteCase{Compression::kSnappy, DataPageVersion::kV1, true},
                      WriteCase{Compression::kGzip, DataPageVersion::kV1, true},
                      WriteCase{Compression::kZstd, DataPageVersion::kV1, true},
                      WriteCase{Compression::kLz4Raw, DataPageVersion::kV1, true},
                      WriteCase{Compression::kBrotli, DataPageVersion::kV1, true},
                      WriteCase{Compression::kSnappy, DataPageVersion::kV1, false},
                      WriteCase{Compression::kUncompressed, DataPageVersion::kV2, false},
                      WriteCase{Compression::kSnappy, DataPageVersion::kV2, false},
                      WriteCase{Compression::kGzip, DataPageVersion::kV2, true},
                      WriteCase{Compression::kZstd, DataPageVersion::kV2, true},
                      WriteCase{Compression::kLz4Raw, DataPageVersion::kV2, false},
                      WriteCase{Compression::kBrotli, DataPageVersion::kV2, false}),
    WriteCaseName);

// ---------------------------------------------------------------------------
// alkaid reads Polars' files

struct ReadCase {
  const char* codec;  // Polars' name of the codec
  bool statistics;
  int row_group_rows;  // 0: DataFrame.writeParquet with Polars' defaults
};

std::string ReadCaseName(const ::testing::TestParamInfo<ReadCase>& info) {
  return std::string(info.param.codec) + (info.param.statistics ? "_stats" : "_nostats") +
         (info.param.row_group_rows == 0 ? "_defaults"
                                         : "_groups" + std::to_string(info.param.row_group_rows));
}

class WeReadPolarsFiles : public ::testing::TestWithParam<ReadCase> {};

TEST_P(WeReadPolarsFiles, EveryTypeEqualsPolarsFrame) {
  ALKAID_REQUIRE_POLARS();
  const ReadCase& c = GetParam();
  const std::string name = ReadCaseName({c, 0});
  const std::string path = TempPath("theirs_" + name + ".parquet");
  const std::string ipc = TempPath("theirs_" + name + ".arrow");
  ASSERT_OK_AND_ASSIGN(auto dtypes,
                       RunPolars("write " + Quote(path) + " " + Quote(ipc) + " 3000 " + c.codec +
                                 (c.statistics ? " true " : " false ") +
                                 std::to_string(c.row_group_rows)));
  ASSERT_OK_AND_ASSIGN(auto frame, ReadIpcFile(ipc));
  ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path));
  if (c.row_group_rows != 0) {
    EXPECT_EQ(reader->num_row_groups(),
              (3000 + c.row_group_rows - 1) / c.row_group_rows);
  }
  // Column 4 is i64: its chunks carry min/max exactly when statistics were asked for
  // (Polars' defaults write them).
  for (int g = 0; g < reader->num_row_groups(); ++g) {
    ColumnChunkMetaData chunk = reader->metadata().row_group(g).column(4);
    const bool expected = c.statistics || c.row_group_rows == 0;
    EXPECT_EQ(chunk.has_statistics() && chunk.statistics().has_min_max(), expected)
        << "row group " << g << " has_statistics " << chunk.has_statistics() << " null_count "
        << chunk.statistics().null_count.value_or(-1);
  }
  ASSERT_OK_AND_ASSIGN(auto ours, reader->ReadTable());
  ASSERT_OK(ours->ValidateFull());
  ASSERT_EQ(ours->num_columns(), frame->num_columns()) << dtypes;
  ASSERT_EQ(ours->num_rows(), frame->num_rows());
  for (const auto& f : frame->schema()->fields()) {
    EXPECT_EQ(ColumnDifference(*frame, *ours, f->name()), "")
        << "column " << f->ToString() << "; alkaid read "
        << ours->schema()->field(ours->schema()->GetFieldIndex(f->name()))->ToString();
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, WeReadPolarsFiles,
                         ::testing::Values(ReadCase{"uncompressed", true, 700},
                                           ReadCase{"snappy", true, 700},
                                           ReadCase{"gzip", false, 700},
                                           ReadCase{"zstd", true, 1000},
                                           ReadCase{"lz4", false, 1000},
                                           ReadCase{"brotli", true, 3000},
                                           ReadCase{"zstd", false, 0},
                                           ReadCase{"snappy", false, 0}),
                         ReadCaseName);

}  // namespace
}  // namespace alkaid::parquet
