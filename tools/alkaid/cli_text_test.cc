// CSV and JSON Lines in and out of the alkaid tool.
#include "cli_test_util.h"

namespace alkaid_cli_test {
namespace {

// ---------------------------------------------------------------------------
// Issue 13: CSV and JSON Lines in and out

std::string SampleCsv() { return std::string(ALKAID_SOURCE_DIR) + "/samples/cities.csv"; }

TEST_F(CliTest, BundledCsvSampleConvertsAndPrints) {
  // The README's first command.
  std::string arrow = Path("cities.arrow");
  auto conv = RunMeasured({"from-csv", SampleCsv(), arrow});
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  EXPECT_EQ(conv.out, "");
  auto cat = RunMeasured({"cat", arrow}, {{"COLUMNS", "200"}});
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  for (std::string want : {"Shanghai", "東京", "서울", "São Paulo", "\"Washington, D.C.\"", "台北",
                           "12 rows, 1 batch", "timestamp[s, tz=UTC]", "date32[day]", "bool"})
    EXPECT_NE(cat.out.find(want), std::string::npos) << want << "\n" << cat.out;
  // CJK rows line up with the others.
  auto lines = Lines(cat.out);
  ASSERT_GE(lines.size(), 5u);
  for (const auto& line : lines) {
    if (!line.empty() && (line[0] == '|' || line[0] == '+')) {
      EXPECT_EQ(TestWidth(line), TestWidth(lines[0])) << line;
    }
  }

  auto schema = RunMeasured({"schema", arrow});
  EXPECT_NE(schema.out.find("city: string\ncountry: string\ncapital: bool\npopulation: int64\n"
                            "area_km2: double\nfounded: date32[day]\ncensus_at: timestamp[s, tz=UTC]\n"
                            "elevation_m: int64"),
            std::string::npos)
      << schema.out;
  auto stats = RunMeasured({"stats", arrow});
  // Nulls, the distinct estimate, min and max (bytewise for strings).
  EXPECT_NE(
      stats.out.find("elevation_m  int64                 3      ~9        4                     760"),
      std::string::npos)
      << stats.out;
  EXPECT_NE(stats.out.find("city         string                0      ~12       \"Kraków\""),
            std::string::npos)
      << stats.out;

  // The sample is written in the writer's normal form, so the round trip
  // CSV -> Arrow -> CSV gives back the same bytes.
  auto back = RunMeasured({"cat", arrow, "--format", "csv"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, ReadBytes(SampleCsv()));

  // The JSON sample still converts.
  EXPECT_EQ(RunMeasured({"from-json", sample_json_, Path("j.arrow")}).exit_code, 0);
}

TEST_F(CliTest, FromCsvWritesEveryFormatAndCompression) {
  for (std::string format : {"file", "stream"}) {
    for (std::string comp : {"none", "lz4", "zstd"}) {
      std::string out = Path("c_" + format + "_" + comp);
      auto r = RunMeasured({"from-csv", SampleCsv(), out, "--format", format, "--compression", comp,
                            "--block-size", "1024", "--threads", "2"});
      ASSERT_EQ(r.exit_code, 0) << format << comp << r.err;
      EXPECT_EQ(ReadBytes(out).substr(0, 6) == "ARROW1", format == "file");
      EXPECT_EQ(RunMeasured({"validate", out}).exit_code, 0);
      auto back = RunMeasured({"cat", out, "--format", "csv"});
      EXPECT_EQ(back.out, ReadBytes(SampleCsv())) << format << " " << comp;
    }
  }
  std::string alk = Path("c.alkaid");
  ASSERT_EQ(RunMeasured({"from-csv", SampleCsv(), alk, "--dialect", "alkaid"}).exit_code, 0);
  EXPECT_EQ(ReadBytes(alk).substr(0, 7), "ALKAID1");
}

TEST_F(CliTest, FromCsvBlocksMakeBatches) {
  // Many small blocks: many batches, same rows, same text.
  std::string csv = Path("many.csv");
  {
    std::ofstream f(csv);
    f << "id,name,score\n";
    for (int i = 0; i < 5000; ++i) f << i << ",row " << i << "," << (i * 0.5) << "\n";
  }
  std::string out = Path("many.arrow");
  auto r = RunMeasured({"from-csv", csv, out, "--block-size", "4096", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto schema = RunMeasured({"schema", out});
  EXPECT_EQ(schema.out.find("IPC file, 1 batch"), std::string::npos) << schema.out;
  EXPECT_EQ(RunMeasured({"count", out}).out, "5000\n");
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out, ReadBytes(csv));
  auto head = RunMeasured({"head", "-n", "2", out, "--format", "csv"});
  EXPECT_EQ(head.out, "id,name,score\n0,row 0,0\n1,row 1,0.5\n");
  auto tail = RunMeasured({"tail", "-n", "1", out, "--format", "jsonl"});
  EXPECT_EQ(tail.out, "{\"id\":4999,\"name\":\"row 4999\",\"score\":2499.5}\n");
}

TEST_F(CliTest, FromJsonlRoundTrips) {
  // Nested values, nulls, 64-bit integers beyond a double's precision.
  std::string text =
      "{\"id\":9007199254740993,\"name\":\"東京\",\"tags\":[\"a\",\"b\"],\"pos\":{\"x\":1.5,\"y\":null},\"ok\":true}\n"
      "{\"id\":-2,\"name\":null,\"tags\":[],\"pos\":{\"x\":-0.25,\"y\":3},\"ok\":false}\n"
      "{\"id\":3,\"name\":\"Zürich\",\"tags\":null,\"pos\":null,\"ok\":null}\n";
  std::string in = Path("in.jsonl");
  std::ofstream(in, std::ios::binary) << text;
  std::string out = Path("j.arrow");
  auto r = RunMeasured({"from-jsonl", in, out, "--compression", "zstd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto schema = RunMeasured({"schema", out});
  EXPECT_NE(schema.out.find("id: int64\nname: string\ntags: list<item: string>"), std::string::npos)
      << schema.out;
  auto back = RunMeasured({"cat", out, "--format", "jsonl"});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_EQ(back.out, text);

  // The bundled sample through JSON Lines and back (dates and timestamps
  // come back as strings: JSON Lines has no date type to infer).
  std::string arrow = Path("cities.arrow");
  ASSERT_EQ(RunMeasured({"from-csv", SampleCsv(), arrow}).exit_code, 0);
  std::string lines = RunMeasured({"cat", arrow, "--format", "jsonl"}).out;
  std::string jl = Path("cities.jsonl");
  std::ofstream(jl, std::ios::binary) << lines;
  std::string again = Path("again.arrow");
  ASSERT_EQ(RunMeasured({"from-jsonl", jl, again, "--columns", "city,population,census_at"}).exit_code, 0);
  auto projected = RunMeasured({"head", "-n", "1", again, "--format", "jsonl"});
  EXPECT_EQ(projected.out, "{\"city\":\"Shanghai\",\"population\":24870895,\"census_at\":\"2020-11-01T00:00:00Z\"}\n");

  // Bad JSON Lines: exit 1, the line, no output.
  std::string bad = Path("bad.jsonl");
  std::ofstream(bad) << "{\"a\":1}\n{\"a\":2}\n{\"a\":\n";
  auto b = RunMeasured({"from-jsonl", bad, Path("bad.arrow")});
  EXPECT_EQ(b.exit_code, 1) << b.err;
  EXPECT_NE(b.err.find("line 3"), std::string::npos) << b.err;
  EXPECT_FALSE(fs::exists(Path("bad.arrow")));
}

TEST_F(CliTest, TextFromStandardInputThroughAPipe) {
  std::string out = Path("stdin.arrow");
  auto r = RunShell("cat " + SampleCsv() + " | " + CliPath() + " from-csv - " + out);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out, ReadBytes(SampleCsv()));

  std::string jl = Path("in.jsonl");
  std::ofstream(jl) << "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n";
  std::string out2 = Path("stdin2.arrow");
  auto j = RunShell("cat " + jl + " | " + CliPath() + " from-jsonl - " + out2 + " --format stream");
  ASSERT_EQ(j.exit_code, 0) << j.output;
  EXPECT_EQ(RunMeasured({"cat", out2, "--format", "jsonl"}).out, ReadBytes(jl));

  // convert recognises text on standard input too; to stdout as a stream.
  auto c = RunShell("cat " + SampleCsv() + " | " + CliPath() + " convert - - --format stream | " +
                    CliPath() + " count -");
  EXPECT_EQ(c.exit_code, 0) << c.output;
  EXPECT_EQ(c.output, "12\n");
}

TEST_F(CliTest, ConvertRecognisesText) {
  std::string out = Path("auto.arrow");
  auto r = RunMeasured({"convert", SampleCsv(), out, "--compression", "lz4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out, ReadBytes(SampleCsv()));

  std::string jl = Path("data.jsonl");
  std::ofstream(jl) << "{\"a\":1}\n{\"a\":2}\n";
  ASSERT_EQ(RunMeasured({"convert", jl, Path("j.arrow"), "--columns", "a"}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"count", Path("j.arrow")}).out, "2\n");

  // One line of CSV or one JSON object cannot be told apart from other
  // text by content: --input-format says what it is.
  std::string one = Path("one.txt");
  std::ofstream(one) << "x\n";
  auto guessed = RunMeasured({"convert", one, Path("one.arrow")});
  EXPECT_NE(guessed.exit_code, 0);
  EXPECT_FALSE(fs::exists(Path("one.arrow")));
  auto forced = RunMeasured({"convert", one, Path("one.arrow"), "--input-format", "csv"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(RunMeasured({"schema", Path("one.arrow")}).out, "IPC file, 0 batches\nx: null\n");
  std::string obj = Path("obj.json");
  std::ofstream(obj) << "{\"k\": \"v\"}\n";
  // One object on one line reads as JSON Lines of one row.
  ASSERT_EQ(RunMeasured({"convert", obj, Path("obj.arrow")}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"cat", Path("obj.arrow"), "--format", "jsonl"}).out, "{\"k\":\"v\"}\n");

  // Arrow input still converts as before, also when forced.
  std::string file = SampleFile();
  EXPECT_EQ(RunMeasured({"convert", file, Path("again.arrow"), "--input-format", "arrow"}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"convert", file, Path("x.arrow"), "--input-format", "csv"}).exit_code, 1);
  auto not_parquet = RunMeasured({"convert", file, Path("x.arrow"), "--input-format", "parquet"});
  EXPECT_EQ(not_parquet.exit_code, 1) << not_parquet.err;
  EXPECT_FALSE(fs::exists(Path("x.arrow")));
  EXPECT_EQ(RunMeasured({"convert", file, Path("x.arrow"), "--input-format", "xml"}).exit_code, 2);
}

TEST_F(CliTest, CsvErrorAfterInferenceLeavesNoOutput) {
  // Integers in the sample, then a word: exit 1 naming line and column,
  // nothing written, an existing target kept.
  std::string csv = Path("late.csv");
  {
    std::ofstream f(csv);
    f << "id,name\n";
    for (int i = 1; i <= 10005; ++i) f << (i == 10003 ? std::string("x7") : std::to_string(i)) << ",n\n";
  }
  std::string target = Path("late.arrow");
  auto r = RunMeasured({"from-csv", csv, target, "--block-size", "4096"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("CSV line 10004: column 1 (id): \"x7\" is not a valid int64"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--inference-rows"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(target));
  std::ofstream(target) << "precious";
  auto again = RunMeasured({"convert", csv, target});
  EXPECT_EQ(again.exit_code, 1) << again.err;
  // convert takes the text options: the hint names its own flags.
  EXPECT_NE(again.err.find("the options for that are --inference-rows N and --types NAME:TYPE"),
            std::string::npos)
      << again.err;
  EXPECT_EQ(ReadBytes(target), "precious");
  EXPECT_EQ(FilesIn(dir_), (std::vector<std::string>{"late.arrow", "late.csv"}));
  // Reading the column as text, or sampling every row, works.
  EXPECT_EQ(RunMeasured({"from-csv", csv, target, "--types", "id:utf8"}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"from-csv", csv, target, "--inference-rows", "20000"}).exit_code, 0);
  EXPECT_NE(RunMeasured({"schema", target}).out.find("id: string"), std::string::npos);

  // A ragged record, and invalid UTF-8.
  std::string ragged = Path("ragged.csv");
  std::ofstream(ragged) << "a,b\n1,2\n3\n";
  auto rg = RunMeasured({"from-csv", ragged, Path("r.arrow")});
  EXPECT_EQ(rg.exit_code, 1) << rg.err;
  EXPECT_NE(rg.err.find("line 3"), std::string::npos) << rg.err;
  EXPECT_EQ(RunMeasured({"from-csv", ragged, Path("r.arrow"), "--fill-missing"}).exit_code, 0);
  std::string bad_utf8 = Path("utf8.csv");
  std::ofstream(bad_utf8, std::ios::binary) << "s\nok\nbad \xff here\n";
  auto u = RunMeasured({"from-csv", bad_utf8, Path("u.arrow")});
  EXPECT_EQ(u.exit_code, 1) << u.err;
  EXPECT_NE(u.err.find("line 3"), std::string::npos) << u.err;
  EXPECT_FALSE(fs::exists(Path("u.arrow")));
}

TEST_F(CliTest, FromCsvReaderOptions) {
  std::string in = Path("semi.csv");
  std::ofstream(in) << "# exported\nid;name;when\n1;-;2024-05-01T10:00:00Z\n2;NA;-\n";
  std::string out = Path("semi.arrow");
  auto r = RunMeasured({"from-csv", in, out, "--skip-rows", "1", "--delimiter", ";", "--null", "-",
                        "--types", "id:int32,when:timestamp[ms,UTC]"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunMeasured({"schema", out}).out,
            "IPC file, 1 batch\nid: int32\nname: string\nwhen: timestamp[ms, tz=UTC]\n");
  // "NA" is not null with --null -.
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "jsonl"}).out,
            "{\"id\":1,\"name\":null,\"when\":\"2024-05-01T10:00:00.000Z\"}\n"
            "{\"id\":2,\"name\":\"NA\",\"when\":null}\n");

  std::string tsv = Path("t.tsv");
  std::ofstream(tsv) << "1\tx\n2\ty\n";
  ASSERT_EQ(RunMeasured({"from-csv", tsv, out, "--delimiter", "tab", "--no-header", "--columns", "f1"}).exit_code,
            0);
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out, "f1\nx\ny\n");
  ASSERT_EQ(RunMeasured({"from-csv", tsv, out, "--delimiter", "tab", "--no-header", "--column-names", "n,s",
                         "--types", "n:decimal128(5,2)"})
                .exit_code,
            0);
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "csv"}).out, "n,s\n1.00,x\n2.00,y\n");

  // Usage errors exit 2 and say what was wrong.
  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  for (const Bad& b : std::vector<Bad>{
           {{"--types", "id:int33"}, "unknown type 'int33'"},
           {{"--types", "id"}, "NAME:TYPE"},
           {{"--delimiter", ";;"}, "--delimiter takes one character"},
           {{"--block-size", "10"}, "--block-size"},
           {{"--columns", "nope"}, "nope"},
           {{"--format", "arrow"}, "arrow"},
           {{"--compression", "snappy"}, "IPC compresses with none, lz4 or zstd"},
           {{"--row-group-size", "10"}, "--row-group-size is for Parquet output"},
       }) {
    std::vector<std::string> args = {"from-csv", in, Path("never.arrow")};
    args.insert(args.end(), b.args.begin(), b.args.end());
    auto e = RunMeasured(args);
    EXPECT_EQ(e.exit_code, 2) << b.args[0] << ": " << e.err;
    EXPECT_NE(e.err.find(b.message), std::string::npos) << e.err;
    EXPECT_FALSE(fs::exists(Path("never.arrow")));
  }
  auto missing = RunMeasured({"from-csv", Path("missing.csv"), Path("never.arrow")});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("missing.csv"), std::string::npos) << missing.err;
}

TEST_F(CliTest, CatAsCsvOfTypesCsvCannotHoldFailsCleanly) {
  // A nested column: CSV has no form for it (JSON Lines does).
  std::string jl = Path("nested.jsonl");
  std::ofstream(jl) << "{\"l\":[1,2]}\n{\"l\":[3]}\n";
  std::string out = Path("nested.arrow");
  ASSERT_EQ(RunMeasured({"from-jsonl", jl, out}).exit_code, 0);
  auto csv = RunMeasured({"cat", out, "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 1) << csv.err;
  EXPECT_NE(csv.err.find("--format jsonl"), std::string::npos) << csv.err;
  EXPECT_EQ(RunMeasured({"cat", out, "--format", "jsonl"}).out, ReadBytes(jl));
  // The gold files print as JSON Lines (nested types included).
  ALKAID_REQUIRE_TEST_DATA(data);
  fs::path dir = fs::path(data) / "arrow-testing" / "integration" / "1.0.0-littleendian";
  for (std::string stem : {"generated_primitive", "generated_nested", "generated_datetime"}) {
    auto r = RunMeasured({"cat", (dir / (stem + ".arrow_file")).string(), "--format", "jsonl"});
    EXPECT_EQ(r.exit_code, 0) << stem << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << stem;
  }
}

// `count` reads record batch headers only: a file whose compressed bodies
// are broken still counts (and fast), while `validate` reports the damage.
TEST_F(CliTest, CountReadsHeadersOnly) {
  auto s = alkaid::schema({alkaid::field("i", alkaid::int64())});
  // Compressible bodies (a buffer that does not shrink is stored raw).
  std::string values = "[0";
  for (int i = 1; i < 1000; ++i) values += "," + std::to_string(i % 7);
  values += "]";
  std::vector<alkaid::RecordBatchPtr> batches;
  for (int b = 0; b < 4; ++b) {
    batches.push_back(alkaid::RecordBatch::Make(s, 1000, {ArrayFromJSON(alkaid::int64(), values)}));
  }
  alkaid::ipc::IpcWriteOptions options;
  options.compression = alkaid::ipc::CompressionType::kZstd;
  for (bool file_format : {true, false}) {
    std::string path = Path(file_format ? "broken.arrow" : "broken.arrows");
    WriteIpc(path, s, batches, file_format, options);
    // Break every zstd frame header (magic 28 B5 2F FD, then the header).
    std::string bytes = ReadBytes(path);
    const std::string magic = "\x28\xB5\x2F\xFD";
    int broken = 0;
    for (size_t at = bytes.find(magic); at != std::string::npos; at = bytes.find(magic, at + 4)) {
      bytes.replace(at + 4, 4, "\xFF\xFF\xFF\xFF");
      ++broken;
    }
    ASSERT_GE(broken, 4) << path;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    auto count = RunMeasured({"count", path});
    EXPECT_EQ(count.exit_code, 0) << path << count.err;
    EXPECT_EQ(count.out, "4000\n") << path;
    auto validate = RunMeasured({"validate", path});
    EXPECT_EQ(validate.exit_code, 1) << path << validate.out;
  }
}

}  // namespace
}  // namespace alkaid_cli_test
