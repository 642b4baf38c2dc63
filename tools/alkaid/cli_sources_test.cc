// Every reading command on every format alkaid reads (the sources of
// sources/registry.cc): the same rows from each, Parquet written and read
// back, parquet-meta, and the errors a wrong input or option gets.
#include "cli_test_util.h"

namespace alkaid_cli_test {

namespace {

std::string CitiesCsv() { return std::string(ALKAID_SOURCE_DIR) + "/samples/cities.csv"; }

class CliSourcesTest : public CliTest {
 protected:
  // The sample in every format: name -> path.
  std::map<std::string, std::string> EveryFormat() {
    std::map<std::string, std::string> paths = {{"csv", CitiesCsv()}};
    auto make = [&](const std::string& name, const std::vector<std::string>& args) {
      auto r = RunMeasured(args);
      EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
      return r;
    };
    paths["ipc-file"] = Path("c.arrow");
    make("ipc-file", {"convert", CitiesCsv(), paths["ipc-file"]});
    paths["ipc-stream"] = Path("c.arrows");
    make("ipc-stream", {"convert", CitiesCsv(), paths["ipc-stream"], "--format", "stream"});
    paths["parquet"] = Path("c.parquet");
    make("parquet", {"convert", CitiesCsv(), paths["parquet"], "--format", "parquet",
                     "--row-group-size", "5"});
    paths["jsonl"] = Path("c.jsonl");
    std::ofstream(paths["jsonl"]) << make("jsonl", {"cat", CitiesCsv(), "--format", "jsonl"}).out;
    paths["integration-json"] = Path("c.json");
    std::ofstream(paths["integration-json"]) << make("json", {"to-json", CitiesCsv()}).out;
    return paths;
  }
};

}  // namespace

TEST_F(CliSourcesTest, EveryVerbReadsEveryFormat) {
  const auto paths = EveryFormat();
  const std::string want_rows =
      RunMeasured({"cat", CitiesCsv(), "--columns", "city,population", "--format", "csv"}).out;
  ASSERT_NE(want_rows.find("Shanghai,24870895"), std::string::npos) << want_rows;
  const std::map<std::string, std::string> described = {
      {"csv", "CSV text"},           {"ipc-file", "IPC file, 1 batch"},
      {"ipc-stream", "IPC stream"},  {"parquet", "Parquet file, 3 row groups, 12 rows"},
      {"jsonl", "JSON Lines text"},  {"integration-json", "integration JSON"}};
  for (const auto& [name, path] : paths) {
    SCOPED_TRACE(name);
    // The same rows from every format.
    auto cat = RunMeasured({"cat", path, "--columns", "city,population", "--format", "csv"});
    EXPECT_EQ(cat.exit_code, 0) << cat.err;
    EXPECT_EQ(cat.out, want_rows);
    auto count = RunMeasured({"count", path});
    EXPECT_EQ(count.out, "12\n") << count.err;
    auto schema = RunMeasured({"schema", path});
    EXPECT_EQ(schema.exit_code, 0) << schema.err;
    EXPECT_EQ(Lines(schema.out).at(0), described.at(name));
    EXPECT_NE(schema.out.find("population: int64"), std::string::npos) << schema.out;
    auto head = RunMeasured({"head", "-n", "3", path, "--format", "csv", "--columns", "city"});
    EXPECT_EQ(head.out, "city\nShanghai\n東京\n서울\n") << head.err;
    auto tail = RunMeasured({"tail", "-n", "2", path, "--format", "csv"});
    EXPECT_EQ(tail.exit_code, 0) << tail.err;
    EXPECT_NE(tail.out.find("\"Washington, D.C.\""), std::string::npos) << tail.out;
    EXPECT_NE(tail.out.find("台北"), std::string::npos) << tail.out;
    EXPECT_EQ(Lines(tail.out).size(), 3u) << tail.out;
    auto stats = RunMeasured({"stats", path, "--columns", "population"});
    EXPECT_EQ(stats.exit_code, 0) << stats.err;
    EXPECT_NE(stats.out.find("24870895"), std::string::npos) << stats.out;
    EXPECT_NE(stats.out.find("12 rows"), std::string::npos) << stats.out;
    auto valid = RunMeasured({"validate", path});
    EXPECT_EQ(valid.exit_code, 0) << valid.err;
    EXPECT_NE(valid.out.find("12 rows"), std::string::npos) << valid.out;
    // Standard input too (Parquet and IPC files are held in memory there).
    auto piped = RunMeasured({"count", "-"}, {}, path);
    EXPECT_EQ(piped.out, "12\n") << piped.err;
    // And on to every output format, with the same rows.
    for (std::string format : {"file", "stream", "parquet"}) {
      std::string out = Path(name + "." + format);
      auto conv = RunMeasured({"convert", path, out, "--format", format});
      ASSERT_EQ(conv.exit_code, 0) << format << ": " << conv.err;
      EXPECT_EQ(RunMeasured({"cat", out, "--columns", "city,population", "--format", "csv"}).out,
                want_rows)
          << format;
    }
  }
}

TEST_F(CliSourcesTest, ParquetOutputCodecsAndRowGroups) {
  for (std::string codec : {"none", "snappy", "zstd", "gzip", "lz4", "brotli"}) {
    std::string out = Path("c." + codec + ".parquet");
    auto conv = RunMeasured({"from-csv", CitiesCsv(), out, "--format", "parquet", "--compression",
                             codec, "--row-group-size", "4"});
    ASSERT_EQ(conv.exit_code, 0) << codec << ": " << conv.err;
    auto meta = RunMeasured({"parquet-meta", out});
    ASSERT_EQ(meta.exit_code, 0) << meta.err;
    EXPECT_NE(meta.out.find("12 rows, 3 row groups, 8 columns"), std::string::npos) << meta.out;
    const std::string name = codec == "none"  ? "UNCOMPRESSED"
                             : codec == "lz4" ? "LZ4_RAW"
                                              : [&] {
                                                  std::string upper = codec;
                                                  for (char& ch : upper) ch = std::toupper(ch);
                                                  return upper;
                                                }();
    EXPECT_NE(meta.out.find("    city: BYTE_ARRAY, " + name), std::string::npos) << meta.out;
    EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out,
              RunMeasured({"cat", CitiesCsv(), "--format", "csv"}).out)
        << codec;
  }
  auto meta = RunMeasured({"parquet-meta", Path("c.zstd.parquet"), "--columns", "population"});
  EXPECT_NE(meta.out.find("row group 2: 4 rows"), std::string::npos) << meta.out;
  EXPECT_NE(meta.out.find("population: INT64, ZSTD"), std::string::npos) << meta.out;
  EXPECT_NE(meta.out.find("nulls 0, min "), std::string::npos) << meta.out;
  EXPECT_EQ(meta.out.find("    city:"), std::string::npos) << meta.out;
  EXPECT_NE(meta.out.find("metadata: ARROW:schema ("), std::string::npos) << meta.out;
  // tail reads only the last row group, as its summary says.
  auto tail = RunMeasured({"tail", "-n", "3", Path("c.zstd.parquet")});
  EXPECT_NE(tail.out.find("3 rows of 12, 1 batch (last 3)"), std::string::npos) << tail.out;
}

TEST_F(CliSourcesTest, ReadsParquetTestingFiles) {
  ALKAID_REQUIRE_TEST_DATA(data);
  const std::string file = data + "/parquet-testing/data/alltypes_plain.parquet";
  if (!fs::exists(file)) GTEST_SKIP() << "SKIPPED: " << file << " not found";
  auto head = RunMeasured({"head", "-n", "3", file, "--columns", "id,bool_col,string_col",
                           "--format", "csv"});
  ASSERT_EQ(head.exit_code, 0) << head.err;
  EXPECT_EQ(head.out, "id,bool_col,string_col\n4,true,0\n5,false,1\n6,true,0\n");
  EXPECT_EQ(RunMeasured({"count", file}).out, "8\n");
  auto schema = RunMeasured({"schema", file});
  EXPECT_NE(schema.out.find("Parquet file, 1 row group, 8 rows"), std::string::npos) << schema.out;
  EXPECT_NE(schema.out.find("timestamp_col: timestamp[ns]"), std::string::npos) << schema.out;
  auto meta = RunMeasured({"parquet-meta", file});
  ASSERT_EQ(meta.exit_code, 0) << meta.err;
  EXPECT_NE(meta.out.find("created by: impala"), std::string::npos) << meta.out;
  EXPECT_NE(meta.out.find("timestamp_col: INT96"), std::string::npos) << meta.out;
  auto stats = RunMeasured({"stats", file, "--columns", "id"});
  EXPECT_NE(stats.out.find("8 rows"), std::string::npos) << stats.out;
  auto tail = RunMeasured({"tail", "-n", "1", file, "--format", "jsonl"});
  EXPECT_EQ(tail.exit_code, 0) << tail.err;
  EXPECT_EQ(tail.out.rfind("{\"id\":1,", 0), 0u) << tail.out;
}

TEST_F(CliSourcesTest, ErrorsSayWhatIsWrong) {
  const auto paths = EveryFormat();
  // A truncated Parquet file: the Parquet reader's message, exit 1.
  std::string bytes = ReadBytes(paths.at("parquet"));
  for (size_t cut : {bytes.size() / 2, bytes.size() - 3}) {
    std::string truncated = Path("truncated.parquet");
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, cut);
    for (std::string verb : {"cat", "count", "parquet-meta"}) {
      auto r = RunMeasured({verb, truncated});
      EXPECT_EQ(r.exit_code, 1) << verb << " " << cut << ": " << r.err;
      EXPECT_NE(r.err.find("alkaid: " + truncated + ": "), std::string::npos) << r.err;
    }
  }
  // Text options on input they do not apply to are refused, naming both.
  auto delimiter = RunMeasured({"cat", paths.at("parquet"), "--delimiter", ";"});
  EXPECT_EQ(delimiter.exit_code, 2);
  EXPECT_NE(
      delimiter.err.find("--delimiter is an option for CSV input, and this is a Parquet file"),
      std::string::npos)
      << delimiter.err;
  auto types = RunMeasured({"stats", paths.at("ipc-file"), "--types", "population:int32"});
  EXPECT_EQ(types.exit_code, 2);
  EXPECT_NE(types.err.find("--types is an option for CSV input, and this is an Arrow IPC"),
            std::string::npos)
      << types.err;
  auto jsonl_option = RunMeasured({"head", CitiesCsv(), "--no-infer-temporal"});
  EXPECT_EQ(jsonl_option.exit_code, 2);
  EXPECT_NE(jsonl_option.err.find("--no-infer-temporal is an option for JSON Lines input, and "
                                  "this is CSV text"),
            std::string::npos)
      << jsonl_option.err;
  auto shared = RunMeasured({"count", paths.at("ipc-stream"), "--block-size", "4096"});
  EXPECT_EQ(shared.exit_code, 2);
  EXPECT_NE(shared.err.find("--block-size is an option for CSV and JSON Lines input"),
            std::string::npos)
      << shared.err;
  // ... and accepted where they apply (--threads also decodes Parquet).
  EXPECT_EQ(RunMeasured({"count", paths.at("parquet"), "--threads", "2"}).out, "12\n");
  EXPECT_EQ(RunMeasured({"count", paths.at("jsonl"), "--block-size", "4096"}).out, "12\n");
  // parquet-meta of something else.
  auto not_parquet = RunMeasured({"parquet-meta", CitiesCsv()});
  EXPECT_EQ(not_parquet.exit_code, 2);
  EXPECT_NE(not_parquet.err.find("not a Parquet file"), std::string::npos) << not_parquet.err;
  // An unknown --input-format is a usage error listing the formats.
  auto unknown = RunMeasured({"cat", CitiesCsv(), "--input-format", "xml"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("parquet"), std::string::npos) << unknown.err;
  // Gzip that is not integration JSON.
  std::string gz = Path("data.gz");
  std::ofstream(gz, std::ios::binary) << std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8);
  auto g = RunMeasured({"cat", gz});
  EXPECT_NE(g.exit_code, 0);
  EXPECT_NE(g.err.find("gzip-compressed data"), std::string::npos) << g.err;
}

TEST_F(CliSourcesTest, CsvDelimiterFromTheFirstLines) {
  std::string semi = Path("semi.csv");
  std::ofstream(semi) << "a;b\n1;x\n2;y\n";
  auto cat = RunMeasured({"cat", semi, "--format", "csv"});
  EXPECT_EQ(cat.out, "a,b\n1,x\n2,y\n") << cat.err;
  // --delimiter wins over what the lines suggest.
  auto forced = RunMeasured({"schema", semi, "--delimiter", ","});
  EXPECT_NE(forced.out.find("a;b: string"), std::string::npos) << forced.out;
  // Standard input, through a pipe, with text options.
  auto piped = RunShell("printf 'id|v\\n1|NA\\n2|3\\n' | " + CliPath() +
                        " stats - --null NA --types v:int32");
  EXPECT_EQ(piped.exit_code, 0) << piped.output;
  EXPECT_NE(piped.output.find("int32"), std::string::npos) << piped.output;
}

// The README's first command (from-csv, then cat) and reading the CSV directly.
TEST_F(CliSourcesTest, ReadmeSampleCommands) {
  std::string arrow = Path("cities.arrow");
  ASSERT_EQ(RunMeasured({"from-csv", CitiesCsv(), arrow}).exit_code, 0);
  auto via_ipc = RunMeasured({"cat", arrow}, {{"COLUMNS", "200"}});
  auto direct = RunMeasured({"cat", CitiesCsv()}, {{"COLUMNS", "200"}});
  ASSERT_EQ(direct.exit_code, 0) << direct.err;
  EXPECT_EQ(direct.out, via_ipc.out);
  auto stats = RunMeasured({"stats", CitiesCsv()});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("12 rows, 1 batch"), std::string::npos) << stats.out;
}

// tail of text keeps only the batches covering its rows, not the input.
TEST_F(CliSourcesTest, TailOfTextIsBounded) {
  std::string big = Path("big.csv");
  {
    std::ofstream f(big);
    f << "i,s\n";
    for (int i = 0; i < 2'000'000; ++i) f << i << ",abcdefghijklmnopqrstuvwxyz0123456789\n";
  }
  ASSERT_GT(fs::file_size(big), 80u << 20);
  auto tail = RunMeasured({"tail", "-n", "2", big, "--format", "csv", "--block-size", "1048576"});
  ASSERT_EQ(tail.exit_code, 0) << tail.err;
  EXPECT_EQ(tail.out, "i,s\n1999998,abcdefghijklmnopqrstuvwxyz0123456789\n"
                      "1999999,abcdefghijklmnopqrstuvwxyz0123456789\n");
  EXPECT_LT(tail.max_rss_kib, (alkaid::testing::kSanitizedBuild ? 512 : 64) << 10)
      << "peak RSS " << tail.max_rss_kib << " KiB";
}

}  // namespace alkaid_cli_test
