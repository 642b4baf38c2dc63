// The Parquet project's test files (parquet-testing): every unencrypted file read whole and
// validated, values checked against the *_expect.csv files and the .md descriptions, and
// against DuckDB's reading of the same file. Files that must fail fail with the right error.
// With ALKAID_PARQUET_GOLD_REPORT=<file> the outcome table is written there as Markdown.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "alkaid/extension/variant.h"
#include "src/parquet/reader_test_util.h"
#include "test_util/duckdb.h"

namespace alkaid::parquet {
namespace {

namespace fs = std::filesystem;
using testing::Canonical;
using testing::CanonicalRows;
using testing::ParquetDataDir;

// Files that must not read, and why.
struct Expected {
  StatusCode code;
  const char* message;
  const char* reason;
};
const std::map<std::string, Expected>& ExpectedFailures() {
  static const std::map<std::string, Expected> failures = {
      {"datapage_v1-corrupt-checksum.parquet",
       {StatusCode::kInvalid, "CRC mismatch", "a page's CRC does not match (by design)"}},
      {"rle-dict-uncompressed-corrupt-checksum.parquet",
       {StatusCode::kInvalid, "CRC mismatch", "a page's CRC does not match (by design)"}},
      {"nation.dict-malformed.parquet",
       {StatusCode::kInvalid, "stored bytes", "a page runs past its column chunk (by design)"}},
      {"large_string_map.brotli.parquet",
       {StatusCode::kOutOfMemory, "memory_budget",
        "a 1 GiB dictionary page from 50 KB: past the default budget (reads with a 8 GiB "
        "budget and large strings in 1m46s and 5 GB, too heavy for the suite)"}},
  };
  return failures;
}

std::vector<std::string> GoldFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const char* sub : {"", "geospatial", "aes256"}) {
    fs::path p = fs::path(dir) / sub;
    if (!fs::is_directory(p)) continue;
    for (const auto& e : fs::directory_iterator(p)) {
      std::string name = e.path().filename().string();
      bool parquet = name.size() > 8 && (name.ends_with(".parquet") || name.ends_with(".encrypted"));
      if (e.is_regular_file() && parquet) out.push_back(fs::relative(e.path(), dir).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::shared_ptr<Table>> ReadFile(const std::string& path,
                                        const ReaderOptions& options = {}) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, FileReader::Open(path, options));
  return reader->ReadTable();
}

TEST(ParquetGold, EveryFileReadsOrFailsAsExpected) {
  std::string dir = ParquetDataDir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  std::ostringstream report;
  report << "| file | rows | outcome |\n|---|---|---|\n";
  int read = 0, refused = 0;
  for (const auto& name : GoldFiles(dir)) {
    SCOPED_TRACE(name);
    auto table = ReadFile(dir + "/" + name);
    bool encrypted = name.ends_with(".encrypted");
    auto expected = ExpectedFailures().find(fs::path(name).filename().string());
    if (encrypted) {
      ASSERT_FALSE(table.ok());
      EXPECT_EQ(table.status().code(), StatusCode::kNotImplemented);
      EXPECT_NE(table.status().message().find("encrypted Parquet files are not supported"),
                std::string::npos)
          << table.status().ToString();
      report << "| " << name << " | | refused: encrypted (NotImplemented) |\n";
      ++refused;
    } else if (expected != ExpectedFailures().end()) {
      ASSERT_FALSE(table.ok());
      EXPECT_EQ(table.status().code(), expected->second.code) << table.status().ToString();
      EXPECT_NE(table.status().message().find(expected->second.message), std::string::npos)
          << table.status().ToString();
      report << "| " << name << " | | error as expected: " << expected->second.reason << " |\n";
      ++refused;
    } else {
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      ASSERT_TRUE((*table)->ValidateFull().ok()) << (*table)->ValidateFull().ToString();
      report << "| " << name << " | " << (*table)->num_rows() << " | read, valid |\n";
      ++read;
    }
  }
  EXPECT_GT(read, 50);
  report << "\n" << read << " files read, " << refused << " refused as expected\n";
  if (const char* out = std::getenv("ALKAID_PARQUET_GOLD_REPORT")) {
    std::ofstream(out) << report.str();
  }
}

// A small CSV reader: comma-separated, optionally double-quoted fields, empty unquoted
// fields are null.
std::vector<std::vector<std::optional<std::string>>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<std::vector<std::optional<std::string>>> rows;
  while (std::getline(in, line)) {
    std::vector<std::optional<std::string>> row;
    size_t i = 0;
    for (;;) {
      if (i < line.size() && line[i] == '"') {
        size_t end = line.find('"', i + 1);
        row.emplace_back(line.substr(i + 1, end - i - 1));
        i = end + 1;
      } else {
        size_t end = line.find(',', i);
        std::string field = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (field.empty()) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(field);
        }
        i = end == std::string::npos ? line.size() : end;
      }
      if (i >= line.size()) break;
      ++i;  // the comma
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// The text a CSV cell must have for a cell of ours.
std::string CellText(const ArrayData& data, int64_t i) {
  std::string c = Canonical(data, i);
  if (c == "null") return c;
  const TypeId id = data.type->id();
  if (id == TypeId::kString || id == TypeId::kBinary) {
    // Canonical gives hex; the CSV has the text.
    std::string out;
    for (size_t k = 2; k + 1 < c.size(); k += 2) {
      out += static_cast<char>(std::stoi(c.substr(k, 2), nullptr, 16));
    }
    return out;
  }
  return c;
}

TEST(ParquetGold, ValuesEqualTheExpectCsvFiles) {
  std::string dir = ParquetDataDir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  for (const char* base : {"delta_binary_packed", "delta_byte_array",
                           "delta_encoding_optional_column"}) {
    SCOPED_TRACE(base);
    ASSERT_OK_AND_ASSIGN(auto table, ReadFile(dir + "/" + base + ".parquet"));
    auto csv = ReadCsv(dir + "/" + base + "_expect.csv");
    ASSERT_EQ(static_cast<int64_t>(csv.size()) - 1, table->num_rows());
    ASSERT_EQ(static_cast<int>(csv[0].size()), table->num_columns());
    for (int c = 0; c < table->num_columns(); ++c) {
      ASSERT_EQ(table->column(c)->num_chunks(), 1);
      const ArrayData& column = *table->column(c)->chunks()[0];
      for (int64_t r = 0; r < table->num_rows(); ++r) {
        const auto& expect = csv[static_cast<size_t>(r) + 1][static_cast<size_t>(c)];
        std::string got = CellText(column, r);
        ASSERT_EQ(got, expect.value_or("null")) << "column " << c << " row " << r;
      }
    }
  }
}

TEST(ParquetGold, ValuesOfTheDescribedFiles) {
  std::string dir = ParquetDataDir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  // old_list_structure.md: one LIST<LIST<INT32>> value [[1, 2], [3, 4]], legacy two-level.
  {
    ASSERT_OK_AND_ASSIGN(auto t, ReadFile(dir + "/old_list_structure.parquet"));
    ASSERT_EQ(t->num_rows(), 1);
    EXPECT_EQ(CanonicalRows(*t)[0], "[[1,2],[3,4]]");
  }
  // fixed_length_byte_array.md: 1000 FLBA(4) values in descending order, some null.
  {
    ASSERT_OK_AND_ASSIGN(auto t, ReadFile(dir + "/fixed_length_byte_array.parquet"));
    ASSERT_EQ(t->num_rows(), 1000);
    auto rows = CanonicalRows(*t);
    std::string previous;
    int nulls = 0;
    for (const auto& v : rows) {
      if (v == "null") {
        ++nulls;
        continue;
      }
      if (!previous.empty()) {
        EXPECT_LE(v, previous);
      }
      previous = v;
    }
    EXPECT_GT(nulls, 0);
  }
  // int32_with_null_pages.md: 1000 int32 values, some null.
  {
    ASSERT_OK_AND_ASSIGN(auto t, ReadFile(dir + "/int32_with_null_pages.parquet"));
    ASSERT_EQ(t->num_rows(), 1000);
    EXPECT_EQ(t->schema()->field(0)->type()->id(), TypeId::kInt32);
    EXPECT_GT(t->column(0)->null_count(), 0);
  }
  // README: repeated fields without LIST annotation are lists of required values.
  {
    ASSERT_OK_AND_ASSIGN(auto t, ReadFile(dir + "/repeated_primitive_no_list.parquet"));
    EXPECT_EQ(t->schema()->field(0)->type()->id(), TypeId::kList);
    EXPECT_FALSE(t->schema()->field(0)->type()->field(0)->nullable());
  }
}

TEST(ParquetGold, ShreddedVariantFilesReadAsVariant) {
  std::string data = ParquetDataDir();
  if (data.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  fs::path dir = fs::path(data).parent_path() / "shredded_variant";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "SKIPPED: shredded_variant not found";
  // Cases with an error_message have a shredding a variant reader must refuse; the file
  // itself still reads (as the plain storage struct when it breaks the variant layout).
  std::ifstream cases_in(dir / "cases.json");
  auto cases = nlohmann::json::parse(cases_in);
  std::set<std::string> error_cases;
  for (const auto& c : cases) {
    // "-INVALID" files break the spec; readers may refuse them or read them as they can.
    if ((c.contains("error_message") || c.contains("notes")) && c.contains("parquet_file")) {
      error_cases.insert(c["parquet_file"].get<std::string>());
    }
  }
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".parquet") continue;
    SCOPED_TRACE(e.path().filename().string());
    ASSERT_OK_AND_ASSIGN(auto table, ReadFile(e.path().string()));
    ASSERT_TRUE(table->ValidateFull().ok());
    int var = table->schema()->GetFieldIndex("var");
    ASSERT_GE(var, 0);
    const auto& type = table->schema()->field(var)->type();
    ++files;
    if (error_cases.count(e.path().filename().string())) continue;
    ASSERT_EQ(type->id(), TypeId::kExtension);
    EXPECT_EQ(checked_cast<ExtensionType>(*type).extension_name(), kVariantName);
    // Row-0 variant files: the metadata column holds the same metadata bytes.
    fs::path bin = dir / (e.path().stem().string() + "_row-0.variant.bin");
    if (fs::exists(bin) && table->num_rows() > 0) {
      std::ifstream in(bin, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const ArrayData& col = *table->column(var)->chunks()[0];
      const auto& vt = checked_cast<VariantType>(*type);
      if (col.IsValid(0)) {
        std::string metadata = Canonical(*col.child_data[static_cast<size_t>(vt.metadata_index())], 0);
        EXPECT_EQ(metadata, testing::Hex(reinterpret_cast<const uint8_t*>(bytes.data()),
                                         static_cast<int64_t>((metadata.size() - 2) / 2)));
      }
    }
  }
  EXPECT_GT(files, 100);
}

// ---- DuckDB ----------------------------------------------------------------------------------

// Differences between what DuckDB and alkaid (like Arrow C++) give, normalized by the
// canonical text or listed here.
const std::map<std::string, std::string>& DuckDBDifferences() {
  static const std::map<std::string, std::string> differences = {};
  return differences;
}

TEST(ParquetGold, ValuesEqualDuckDB) {
  std::string dir = ParquetDataDir();
  if (dir.empty()) GTEST_SKIP() << "SKIPPED: parquet-testing not found (ALKAID_TEST_DATA)";
  ALKAID_REQUIRE_DUCKDB(api);
  int compared = 0;
  std::ostringstream skipped;
  for (const auto& name : GoldFiles(dir)) {
    if (name.ends_with(".encrypted") ||
        ExpectedFailures().count(fs::path(name).filename().string())) {
      continue;
    }
    SCOPED_TRACE(name);
    auto diff = DuckDBDifferences().find(name);
    if (diff != DuckDBDifferences().end()) {
      skipped << name << ": " << diff->second << "\n";
      continue;
    }
    c_data::Database db(api);
    ASSERT_TRUE(db.ok());
    SchemaPtr schema;
    std::vector<RecordBatchPtr> batches;
    Status st = db.QueryArrow("SELECT * FROM read_parquet('" + dir + "/" + name + "')", &schema,
                              &batches);
    if (!st.ok()) {
      skipped << name << ": DuckDB cannot read it: " << st.message() << "\n";
      continue;
    }
    ASSERT_OK_AND_ASSIGN(auto duck, Table::FromRecordBatches(schema, batches));
    ASSERT_OK_AND_ASSIGN(auto ours, ReadFile(dir + "/" + name));
    auto expect = CanonicalRows(*duck);
    auto got = CanonicalRows(*ours);
    ASSERT_EQ(got.size(), expect.size());
    for (size_t r = 0; r < got.size(); ++r) {
      ASSERT_EQ(got[r], expect[r]) << "row " << r << "\nours:   " << ours->schema()->ToString()
                                   << "\nduckdb: " << duck->schema()->ToString();
    }
    ++compared;
  }
  std::cout << "compared with DuckDB: " << compared << " files\n" << skipped.str();
  EXPECT_GT(compared, 40);
}

}  // namespace
}  // namespace alkaid::parquet
