// `alkaid stats` on Parquet files: nulls, min and max from the footer's
// column-chunk statistics equal what --exact computes by reading the pages,
// for files alkaid, DuckDB and the Parquet project's writers made; a file
// whose pages are damaged still answers from its footer (no page is read).
#include <cmath>
#include <cstring>
#include <iostream>

#include "alkaid/memory.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "cli_test_util.h"
#include "test_util/duckdb.h"

namespace alkaid_cli_test {
namespace {

using namespace alkaid;

// One row of the stats table: cells by header name.
using StatsRow = std::map<std::string, std::string>;

// `line` cut into terminal columns: one UTF-8 sequence each, and an empty
// second column after four-byte sequences (emoji, two columns wide).
std::vector<std::string> Characters(const std::string& line) {
  std::vector<std::string> out;
  bool wide = false;
  for (char ch : line) {
    const auto byte = static_cast<unsigned char>(ch);
    if ((byte & 0xC0) == 0x80 && !out.empty()) {
      out.back() += ch;
      continue;
    }
    if (wide) out.emplace_back();
    out.emplace_back(1, ch);
    wide = byte >= 0xF0;
  }
  if (wide) out.emplace_back();
  return out;
}

// The stats table split at the header's column starts.
std::map<std::string, StatsRow> ParseStats(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::map<std::string, StatsRow> rows;
  if (lines.size() < 2) return rows;
  const std::string& header = lines[0];
  std::vector<std::pair<std::string, size_t>> columns;
  for (size_t i = 0; i < header.size();) {
    size_t end = header.find("  ", i);
    if (end == std::string::npos) end = header.size();
    columns.push_back({header.substr(i, end - i), i});
    i = header.find_first_not_of(' ', end);
    if (i == std::string::npos) break;
  }
  for (size_t l = 1; l + 1 < lines.size(); ++l) {
    StatsRow row;
    for (size_t c = 0; c < columns.size(); ++c) {
      const size_t from = columns[c].second;
      const size_t to = c + 1 < columns.size() ? columns[c + 1].second : std::string::npos;
      const std::vector<std::string> chars = Characters(lines[l]);
      std::string cell;
      for (size_t k = from; k < chars.size() && k < to; ++k) cell += chars[k];
      while (!cell.empty() && cell.back() == ' ') cell.pop_back();
      row[columns[c].first] = cell;
    }
    rows[row["column"]] = row;
  }
  return rows;
}

// Runs stats with and without --exact and checks that every column the footer
// answered has the nulls, min and max the pages give. Returns the columns
// answered from the footer.
std::vector<std::string> ExpectFooterEqualsExact(const std::string& file) {
  auto footer = RunMeasured({"stats", file});
  auto exact = RunMeasured({"stats", file, "--exact"});
  EXPECT_EQ(footer.exit_code, 0) << footer.err;
  EXPECT_EQ(exact.exit_code, 0) << exact.err;
  auto by_footer = ParseStats(footer.out);
  auto by_pages = ParseStats(exact.out);
  EXPECT_EQ(by_footer.size(), by_pages.size()) << footer.out << exact.out;
  EXPECT_EQ(exact.out.find("source"), std::string::npos) << exact.out;
  std::vector<std::string> answered;
  for (const auto& [name, row] : by_footer) {
    SCOPED_TRACE(file + ", column " + name);
    const StatsRow& want = by_pages[name];
    EXPECT_EQ(row.at("nulls"), want.at("nulls"));
    EXPECT_EQ(row.at("type"), want.at("type"));
    if (row.count("source") == 0 || row.at("source") != "footer") {
      StatsRow read = row;
      read.erase("source");
      EXPECT_EQ(read, want);  // read, as --exact reads it
      continue;
    }
    answered.push_back(name);
    EXPECT_EQ(row.at("min"), want.at("min")) << footer.out << exact.out;
    EXPECT_EQ(row.at("max"), want.at("max")) << footer.out << exact.out;
  }
  // Rows are counted either way.
  auto last = [](const std::string& s) { return s.substr(0, s.find(' ')); };
  EXPECT_EQ(last(Lines(footer.out).back()), last(Lines(exact.out).back()));
  return answered;
}

class CliParquetStatsTest : public CliTest {
 protected:
  // A file of 10 rows in row groups of 4 written by alkaid: signed and
  // unsigned integers past the signed range, doubles with NaN, strings (one
  // column longer than the footer keeps whole), timestamps in seconds (stored
  // in milliseconds) and microseconds, dates, decimals, booleans, a column
  // null in a whole row group, and a list column (never from the footer).
  std::string WriteFile(const std::string& name, bool with_unanswerable, bool checksums) {
    std::vector<FieldPtr> fields = {
        field("i8", int8()),
        field("u32", uint32()),
        field("u64", uint64()),
        field("i64", int64()),
        field("d", float64()),
        field("s", utf8()),
        field("ts", timestamp(TimeUnit::kSecond)),
        field("tsu", timestamp(TimeUnit::kMicro, "UTC")),
        field("day", date32()),
        field("dec", decimal128(12, 2)),
        field("b", boolean()),
        field("gap", int32()),
    };
    std::string json =
        R"([{"i8":-5,"u32":4000000000,"u64":18000000000000000000,"i64":-9000000000000,"s":"pear","ts":1700000000,"tsu":1700000000123456,"day":19000,"dec":"123.45","b":true,"gap":1},
            {"i8":7,"u32":3,"u64":1,"i64":5,"s":"apple","ts":1600000000,"tsu":1600000000000001,"day":-3,"dec":"-99999.99","b":false,"gap":2},
            {"i8":null,"u32":null,"u64":null,"i64":null,"s":null,"ts":null,"tsu":null,"day":null,"dec":null,"b":null,"gap":null},
            {"i8":-128,"u32":2147483648,"u64":9223372036854775808,"i64":9000000000000,"s":"zebra","ts":-1,"tsu":-5,"day":1,"dec":"0.01","b":true,"gap":3},
            {"i8":127,"u32":0,"u64":0,"i64":0,"s":"Zulu","ts":0,"tsu":0,"day":0,"dec":"1.00","b":false,"gap":null},
            {"i8":1,"u32":1,"u64":2,"i64":3,"s":"é","ts":2000000000,"tsu":2000000000000000,"day":30000,"dec":"-0.50","b":null,"gap":null},
            {"i8":2,"u32":2,"u64":3,"i64":4,"s":"","ts":5,"tsu":6,"day":7,"dec":"8.00","b":true,"gap":null},
            {"i8":null,"u32":5,"u64":null,"i64":6,"s":"mango","ts":null,"tsu":7,"day":null,"dec":null,"b":true,"gap":null},
            {"i8":3,"u32":6,"u64":7,"i64":null,"s":"kiwi","ts":8,"tsu":null,"day":9,"dec":"10.00","b":false,"gap":4},
            {"i8":4,"u32":7,"u64":8,"i64":9,"s":null,"ts":10,"tsu":11,"day":12,"dec":"13.00","b":null,"gap":5}])";
    if (with_unanswerable) {
      fields.push_back(field("long", utf8()));
      fields.push_back(field("list", list(int32())));
      std::string extra;
      for (int i = 0; i < 10; ++i) {
        extra += ",\"long\":\"" + std::string(100, static_cast<char>('a' + i)) +
                 "\",\"list\":[" + std::to_string(i) + "]}";
      }
      // Each row object gets the two columns before its closing brace.
      std::string out;
      int row = 0;
      for (size_t i = 0; i < json.size(); ++i) {
        if (json[i] == '}') {
          out += extra.substr(static_cast<size_t>(row) * (extra.size() / 10), extra.size() / 10);
          ++row;
        } else {
          out += json[i];
        }
      }
      json = out;
    }
    auto schema = std::make_shared<Schema>(fields);
    auto batch = alkaid::testing::RecordBatchFromJSON(schema, json);
    EXPECT_NE(batch, nullptr);
    // Doubles with NaN (JSON has none): -2.5, NaN, null, 1e300, NaN, ...
    const double doubles[10] = {-2.5, NAN, 0, 1e300, NAN, 3.25, -7.75, 4.5, NAN, 6.0};
    auto values = *AllocateBuffer(80);
    std::memcpy(values->mutable_data(), doubles, 80);
    auto validity = *AllocateBitmap(10, true);
    validity->mutable_data()[0] &= static_cast<uint8_t>(~(1u << 2));
    std::vector<ArrayDataPtr> columns;
    for (int c = 0; c < batch->num_columns(); ++c) columns.push_back(batch->column_data(c));
    columns[4] = ArrayData::Make(float64(), 10, {validity, values}, 1);
    batch = RecordBatch::Make(schema, 10, columns);
    auto table = *Table::FromRecordBatches(schema, {batch});
    parquet::WriterProperties properties;
    properties.max_row_group_rows = 4;
    properties.page_checksums = checksums;
    const std::string path = Path(name);
    Status st = parquet::WriteTable(*table, path, properties);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return path;
  }
};

TEST_F(CliParquetStatsTest, FooterAnswersAsReadingDoes) {
  const std::string file = WriteFile("mixed.parquet", true, false);
  auto answered = ExpectFooterEqualsExact(file);
  // Every flat column but the strings the footer keeps only a prefix of.
  EXPECT_EQ(answered, (std::vector<std::string>{"b", "d", "day", "dec", "gap", "i64", "i8", "s",
                                                "ts", "tsu", "u32", "u64"}));
  auto footer = RunMeasured({"stats", file});
  auto rows = ParseStats(footer.out);
  EXPECT_EQ(rows["long"]["source"], "pages");
  EXPECT_EQ(rows["list"]["source"], "pages");
  EXPECT_EQ(rows["u64"]["max"], "18000000000000000000");
  EXPECT_EQ(rows["u32"]["max"], "4000000000");
  EXPECT_EQ(rows["d"]["min"], "-7.75");
  EXPECT_EQ(rows["d"]["max"], "1e+300");
  EXPECT_EQ(rows["s"]["min"], "\"\"");  // the empty string
  EXPECT_EQ(rows["s"]["max"], "\"é\"");
  EXPECT_EQ(rows["d"]["nulls"], "1");
  // What the footer cannot tell is left blank there and computed with --exact.
  EXPECT_EQ(rows["i64"]["distinct"], "");
  EXPECT_EQ(rows["i64"]["mean"], "");
  EXPECT_NE(footer.out.find("10 rows"), std::string::npos) << footer.out;
  EXPECT_NE(footer.out.find("of 12 of 14 columns from the footer's statistics"), std::string::npos)
      << footer.out;
  // --columns keeps to the columns named, from the footer where it can.
  auto some = RunMeasured({"stats", file, "--columns", "list,u64"});
  ASSERT_EQ(some.exit_code, 0) << some.err;
  auto some_rows = ParseStats(some.out);
  EXPECT_EQ(some_rows.size(), 2u) << some.out;
  EXPECT_EQ(some_rows["u64"]["source"], "footer");
  EXPECT_EQ(some_rows["u64"]["max"], "18000000000000000000");
  EXPECT_EQ(some_rows["list"]["source"], "pages");
}

// Damaged pages, intact footer: stats answers from the footer alone, and
// --exact (which reads the pages) fails saying where.
TEST_F(CliParquetStatsTest, FooterAnswersWithoutReadingPages) {
  const std::string file = WriteFile("damaged.parquet", false, true);
  auto before = RunMeasured({"stats", file});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  auto meta = parquet::ReadMetaData(*io::ReadableFile::Open(file));
  ASSERT_TRUE(meta.ok()) << meta.status().ToString();
  {
    std::fstream bytes(file, std::ios::in | std::ios::out | std::ios::binary);
    for (int g = 0; g < (*meta)->num_row_groups(); ++g) {
      for (int c = 0; c < (*meta)->row_group(g).num_columns(); ++c) {
        auto chunk = (*meta)->row_group(g).column(c);
        bytes.seekp(chunk.start_offset() + chunk.total_compressed_size() / 2);
        bytes.write("\xff\xff\xff\xff", 4);
      }
    }
  }
  auto after = RunMeasured({"stats", file});
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(after.out, before.out);
  auto exact = RunMeasured({"stats", file, "--exact"});
  EXPECT_EQ(exact.exit_code, 1) << exact.out;
  EXPECT_NE(exact.err.find("damaged.parquet: "), std::string::npos) << exact.err;
  EXPECT_NE(exact.err.find("row group 0"), std::string::npos) << exact.err;
  EXPECT_NE(exact.err.find("i8"), std::string::npos) << exact.err;
}

// Files of the Parquet project's test data (parquet-mr, parquet-cpp, arrow-rs,
// Impala, Spark writers): wherever stats takes the footer it agrees with the pages.
TEST_F(CliParquetStatsTest, GoldFilesFooterEqualsPages) {
  const fs::path dir = fs::path(alkaid::testing::TestDataDir()) / "parquet-testing" / "data";
  if (!fs::exists(dir)) GTEST_SKIP() << "SKIPPED: " << dir << " not found (set ALKAID_TEST_DATA)";
  int files = 0, answered = 0, unreadable = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".parquet") continue;
    auto footer = RunMeasured({"stats", path});
    if (footer.exit_code != 0) continue;  // files alkaid refuses (encrypted, ...)
    ++files;
    // Files the footer answers nothing of are read as any input is.
    if (footer.out.find(" footer\n") == std::string::npos) continue;
    // Pages damaged on purpose (rle-dict-uncompressed-corrupt-checksum): the
    // footer answers, reading fails.
    if (RunMeasured({"stats", path, "--exact"}).exit_code != 0) {
      ++unreadable;
      continue;
    }
    answered += static_cast<int>(ExpectFooterEqualsExact(path).size());
  }
  EXPECT_GT(files, 20);
  EXPECT_GT(answered, 20);
  EXPECT_LE(unreadable, 2);
  std::cout << files << " files, " << answered << " columns from the footer equal to the pages; "
            << unreadable << " files whose pages fail to read answered from the footer\n";
  // A file whose statistics cover its columns (parquet-mr's decimals as INT32).
  const std::string decimals = (dir / "int32_decimal.parquet").string();
  auto rows = ParseStats(RunMeasured({"stats", decimals}).out);
  EXPECT_EQ(rows["value"]["source"], "footer");
}

// DuckDB's writer: signed and unsigned integers, decimals (as INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY), doubles with NaN, strings, dates and timestamps.
TEST_F(CliParquetStatsTest, DuckDBFilesFooterEqualsPages) {
  ALKAID_REQUIRE_DUCKDB(api);
  c_data::Database db(api);
  ASSERT_TRUE(db.ok());
  const std::string path = Path("duck.parquet");
  Status st = db.Execute(
      "COPY (SELECT (i % 100 - 50)::TINYINT AS i8, (i * 7919)::UINTEGER AS u32, "
      "(i::UBIGINT * 3000000000000000) AS u64, -i::BIGINT * 123456789 AS i64, "
      "((i % 900) / 7 - 60)::DECIMAL(4,2) AS dec4, (i * 1.5 - 700)::DECIMAL(15,3) AS dec15, "
      "(i * 1234567.891 - 2)::DECIMAL(30,4) AS dec30, "
      "CASE WHEN i % 10 = 3 THEN 'NaN'::DOUBLE WHEN i % 10 = 4 THEN NULL ELSE i * 0.25 + 0.5 END "
      "AS d, CASE WHEN i % 10 = 4 THEN NULL ELSE i * -0.125 + 300.5 END AS d2, 'name' || (i * 37 % 1000)::VARCHAR AS s, DATE '2000-01-01' + i::INTEGER AS day, "
      "TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 1000003) AS ts, "
      "CASE WHEN i % 3 = 0 THEN NULL ELSE i END AS n "
      "FROM range(1, 5001) t(i)) TO '" +
      path + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto answered = ExpectFooterEqualsExact(path);
  // DuckDB's bounds of a column with NaN are NaN, which say nothing: d is read.
  EXPECT_EQ(std::find(answered.begin(), answered.end(), "d"), answered.end());
  for (const char* column : {"i8", "u32", "u64", "i64", "dec4", "dec15", "d2", "s", "day", "ts",
                             "n"}) {
    EXPECT_NE(std::find(answered.begin(), answered.end(), column), answered.end())
        << column << "\n"
        << RunMeasured({"parquet-meta", path, "--columns", column}).out;
  }
}

}  // namespace
}  // namespace alkaid_cli_test
