// The alkaid tool against hostile input: bounded memory, limits that name
// their option, no lost data.
#include "cli_test_util.h"

namespace alkaid_cli_test {
namespace {

// ---------------------------------------------------------------------------
// Issue 10: hostile input, bounded memory, no lost data

std::string DeepListJson(int depth) {
  std::string out = R"({"schema": {"fields": [)";
  for (int i = 0; i < depth; ++i) out += R"({"name": "x", "type": {"name": "list"}, "children": [)";
  out += R"({"name": "x", "type": {"name": "int", "isSigned": true, "bitWidth": 32}, "children": []})";
  for (int i = 0; i < depth; ++i) out += "]}";
  return out + R"(]}, "batches": []})";
}

TEST_F(CliTest, DeepJsonIsRefusedCleanly) {
  for (int depth : {10000, 100000}) {
    std::string deep = Path("deep.json");
    std::ofstream(deep) << DeepListJson(depth);
    auto r = RunMeasured({"from-json", deep, Path("deep.arrow")});
    EXPECT_EQ(r.exit_code, 1) << depth << ": " << r.err;
    EXPECT_NE(r.err.find("nested deeper than"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(Path("deep.arrow")));
  }
}

// A gzip file far smaller than the text it inflates to is refused after a
// bounded inflate, from a file and from standard input alike, instead of
// being parsed (about 17 bytes of memory per byte of text).
TEST_F(CliTest, GzipJsonBombIsRefused) {
  const std::string text = std::string(R"({"schema": {"fields": []}, "batches": [)") +
                           std::string(size_t{80} << 20, ' ') + "]}";
  auto compressed = alkaid::integration_json::GzipCompress(text, 1);
  ASSERT_TRUE(compressed.ok());
  ASSERT_LT(compressed->size(), size_t{1} << 20);
  std::string bomb = Path("bomb.json.gz");
  std::ofstream(bomb, std::ios::binary) << *compressed;
  for (bool from_stdin : {false, true}) {
    auto r = from_stdin ? RunMeasured({"from-json", "-", Path("bomb.arrow")}, {}, bomb)
                        : RunMeasured({"from-json", bomb, Path("bomb.arrow")});
    EXPECT_EQ(r.exit_code, 1) << from_stdin << ": " << r.err;
    EXPECT_NE(r.err.find("gunzip it first"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(Path("bomb.arrow")));
  }
  auto v = RunMeasured({"validate", SampleFile(), "--json", bomb});
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.err.find("bomb.json.gz"), std::string::npos) << v.err;
}

// 300 KB of JSON Lines that would be 1.6 GB of columns (a line naming 2,000
// keys, then 100,000 lines "{}") is refused within the allowance of nulls
// for left-out keys, naming the option; with the limit lifted, a smaller
// such file converts.
TEST_F(CliTest, SparseJsonLinesAreRefusedNamingTheOption) {
  std::string head = "{";
  for (int i = 0; i < 2000; ++i) head += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
  head += "}\n";
  // `head`, then `empty` lines "{}".
  auto write = [&](const std::string& name, int empty) {
    std::ofstream f(Path(name));
    f << head;
    for (int i = 0; i < empty; ++i) f << "{}\n";
    return Path(name);
  };
  const std::string sparse = write("sparse.jsonl", 100000);
  auto r = RunMeasured({"from-jsonl", sparse, Path("sparse.arrow")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("left-out keys need more than"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--missing-nulls-per-byte N"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(Path("sparse.arrow")));
  auto converted =
      RunMeasured({"convert", sparse, Path("sparse.arrow"), "--input-format", "jsonl"});
  EXPECT_EQ(converted.exit_code, 1) << converted.err;
  // convert takes the text options too: the hint names its own flag.
  EXPECT_NE(converted.err.find("the option for that is --missing-nulls-per-byte N"),
            std::string::npos)
      << converted.err;
  EXPECT_LT(r.max_rss_kib, 512 << 10);  // 56 MiB in release, 331 under ASan; 1.6 GB before

  // 2,500 lines "{}": 5 M nulls, beyond the floor of 4 Mi a block.
  const std::string smaller = write("smaller.jsonl", 2500);
  auto refused = RunMeasured({"from-jsonl", smaller, Path("smaller.arrow")});
  EXPECT_EQ(refused.exit_code, 1) << refused.err;
  auto lifted = RunMeasured({"from-jsonl", smaller, Path("smaller.arrow"),
                             "--missing-nulls-per-byte", "0"});
  EXPECT_EQ(lifted.exit_code, 0) << lifted.err;
  auto count = RunMeasured({"count", Path("smaller.arrow")});
  EXPECT_NE(count.out.find("2501"), std::string::npos) << count.out;
  auto negative = RunMeasured({"from-jsonl", smaller, Path("x.arrow"),
                               "--missing-nulls-per-byte", "-1"});
  EXPECT_EQ(negative.exit_code, 2) << negative.err;
  EXPECT_NE(negative.err.find("--missing-nulls-per-byte must be"), std::string::npos)
      << negative.err;
}

// Input wider than max_columns (100,000 by default) is refused before any
// column is built, naming the tool's option; --max-columns 0 lifts the cap.
// The header is longer than the bytes convert first looks at (4 KiB), so
// this also checks that convert looks further to recognise the CSV.
TEST_F(CliTest, WideTextIsRefusedNamingMaxColumns) {
  const std::string csv = Path("wide.csv");
  {
    std::ofstream f(csv);
    for (int i = 0; i < 100'001; ++i) f << (i ? ",c" : "c") << i;
    f << '\n';
    for (int i = 0; i < 100'001; ++i) f << (i ? ",1" : "1");
    f << '\n';
  }
  auto r = RunMeasured({"from-csv", csv, Path("wide.arrow")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("the header has 100001 columns, more than max_columns (100000)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("the options for that are --max-columns N and --columns NAME"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(Path("wide.arrow")));
  EXPECT_LT(r.max_rss_kib, 256 << 10);
  auto converted = RunMeasured({"convert", csv, Path("wide.arrow")});
  EXPECT_EQ(converted.exit_code, 1) << converted.err;
  EXPECT_NE(converted.err.find("the options for that are --max-columns N"), std::string::npos)
      << converted.err;
  auto lifted = RunMeasured({"from-csv", csv, Path("wide.arrow"), "--max-columns", "0"});
  ASSERT_EQ(lifted.exit_code, 0) << lifted.err;
  EXPECT_EQ(RunMeasured({"count", Path("wide.arrow")}).out, "1\n");

  // JSON Lines: one object of 30 keys, capped at 20.
  const std::string jsonl = Path("wide.jsonl");
  WriteKeyedJsonl(jsonl, 1, 30);
  auto capped = RunMeasured({"from-jsonl", jsonl, Path("j.arrow"), "--max-columns", "20"});
  EXPECT_EQ(capped.exit_code, 1) << capped.err;
  EXPECT_NE(capped.err.find("more than max_columns (20)"), std::string::npos) << capped.err;
  EXPECT_NE(capped.err.find("the option for that is --max-columns N"), std::string::npos)
      << capped.err;
  auto negative = RunMeasured({"from-jsonl", jsonl, Path("j.arrow"), "--max-columns", "-1"});
  EXPECT_EQ(negative.exit_code, 2) << negative.err;
}

// A record longer than max_record_bytes (64 MiB by default) is an error that
// says whether a quote was left open and names the tool's option; raising
// the option reads it.
TEST_F(CliTest, LongRecordsNameTheOptionThatRaisesTheLimit) {
  const std::string csv = Path("long.csv");
  const std::string jsonl = Path("long.jsonl");
  {
    // Short records after the long one, so that it is not simply the rest
    // of the input (which is read whole).
    std::ofstream c(csv);
    c << "a,b\n1,\"" << std::string(8000, 'x') << "\"\n";
    std::ofstream j(jsonl);
    j << "{\"a\": \"" << std::string(8000, 'x') << "\"}\n";
    for (int i = 0; i < 2000; ++i) {
      c << "2,y\n";
      j << "{\"a\": \"y\"}\n";
    }
  }
  auto r = RunMeasured({"from-csv", csv, Path("o.arrow"), "--max-record-bytes", "1024",
                        "--block-size", "1024"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("CSV line 2: a record is longer than max_record_bytes (1024 bytes); a "
                       "quote opened in it is never closed; the option for that is "
                       "--max-record-bytes N"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(Path("o.arrow")));
  r = RunMeasured({"from-jsonl", jsonl, Path("o.arrow"), "--max-line-bytes", "1024",
                   "--block-size", "1024"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("JSON Lines line 1: a line is longer than max_line_bytes (1024 bytes); "
                       "the option for that is --max-line-bytes N"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(Path("o.arrow")));
  for (const auto& [command, in, flag] :
       {std::tuple{"from-csv", csv, "--max-record-bytes"},
        std::tuple{"from-jsonl", jsonl, "--max-line-bytes"}}) {
    auto raised =
        RunMeasured({command, in, Path("o.arrow"), flag, "16384", "--block-size", "1024"});
    ASSERT_EQ(raised.exit_code, 0) << raised.err;
    EXPECT_EQ(RunMeasured({"count", Path("o.arrow")}).out, "2001\n");
    EXPECT_EQ(RunMeasured({command, in, Path("o.arrow"), flag, "0"}).exit_code, 2);
    // Together with a block, a record must fit the readers' largest block.
    auto huge = RunMeasured({command, in, Path("o.arrow"), flag, "600000000"});
    EXPECT_EQ(huge.exit_code, 1) << huge.err;
    EXPECT_NE(huge.err.find(std::string("the options for that are --block-size BYTES and ") +
                            flag + " N"),
              std::string::npos)
        << huge.err;
  }
}

// JSON Lines strings that are all dates or timestamps become date32 and
// timestamp columns, as in CSV; --no-infer-temporal keeps them strings.
TEST_F(CliTest, JsonLinesTemporalStringsAreInferredUnlessAsked) {
  const std::string jsonl = Path("when.jsonl");
  {
    std::ofstream f(jsonl);
    f << "{\"d\": \"2024-01-02\", \"t\": \"2024-01-02T03:04:05.123Z\"}\n"
      << "{\"d\": null, \"t\": \"2024-01-02T03:04:05+02:00\"}\n";
  }
  for (const char* command : {"from-jsonl", "convert"}) {
    auto r = RunMeasured({command, jsonl, Path("when.arrow")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto shown = RunMeasured({"schema", Path("when.arrow")});
    EXPECT_NE(shown.out.find("d: date32[day]\nt: timestamp[ms, tz=UTC]"), std::string::npos)
        << shown.out;
    auto rows = RunMeasured({"cat", Path("when.arrow"), "--format", "csv"});
    EXPECT_NE(rows.out.find("2024-01-02T01:04:05.000Z"), std::string::npos) << rows.out;
  }
  auto kept = RunMeasured({"from-jsonl", jsonl, Path("when.arrow"), "--no-infer-temporal"});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(RunMeasured({"schema", Path("when.arrow")}).out.find("d: string\nt: string"),
            std::string::npos);
  // A later string that is not a date names the flag that keeps strings.
  {
    std::ofstream f(jsonl, std::ios::app);
    f << "{\"d\": \"next Tuesday\"}\n";
  }
  auto misfit = RunMeasured({"from-jsonl", jsonl, Path("when.arrow"), "--inference-rows", "2"});
  EXPECT_EQ(misfit.exit_code, 1);
  EXPECT_NE(misfit.err.find("JSON Lines line 3: field d: \"next Tuesday\" is not a valid "
                            "date32[day]"),
            std::string::npos)
      << misfit.err;
  EXPECT_NE(misfit.err.find("--inference-rows N and --no-infer-temporal"), std::string::npos)
      << misfit.err;
}

// convert tells CSV and JSON Lines by their first two lines; when those are
// longer than the first 4 KiB it looks at, it reads further (up to 1 MiB),
// and past that it says which command to use.
TEST_F(CliTest, ConvertRecognisesTextWithLongFirstLines) {
  const std::string jsonl = Path("long.jsonl");
  WriteKeyedJsonl(jsonl, 3, 600);
  ASSERT_GT(fs::file_size(jsonl), 3 * 4096u);
  auto r = RunMeasured({"convert", jsonl, Path("long.arrow")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunMeasured({"count", Path("long.arrow")}).out, "3\n");
  // On standard input, lines longer than one read (64 KiB) too.
  const std::string longer = Path("longer.jsonl");
  WriteKeyedJsonl(longer, 2, 8000);
  ASSERT_GT(fs::file_size(longer), 2 * 65536u);
  auto piped = RunMeasured({"convert", "-", Path("longer.arrow")}, {}, longer);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(RunMeasured({"count", Path("longer.arrow")}).out, "2\n");

  const std::string huge = Path("huge.csv");
  {
    std::ofstream f(huge);
    for (int i = 0; i < 300'000; ++i) f << (i ? ",c" : "c") << i;
    f << "\n1\n";
  }
  auto unknown = RunMeasured({"convert", huge, Path("huge.arrow")});
  EXPECT_EQ(unknown.exit_code, 1) << unknown.err;
  EXPECT_NE(unknown.err.find("first lines are longer than the 1048576 bytes looked at"),
            std::string::npos)
      << unknown.err;
  EXPECT_NE(unknown.err.find("--input-format csv or jsonl says what it is"), std::string::npos)
      << unknown.err;
}

// After the inference sample, a JSON Lines value of another type or a new
// key is an error that says the types were inferred and which options of
// from-jsonl change that.
TEST_F(CliTest, JsonLinesErrorAfterInferenceNamesTheOptions) {
  const std::string late = Path("late.jsonl");
  std::ofstream(late) << "{\"a\":1}\n{\"a\":2}\n{\"a\":\"x\"}\n";
  auto r = RunMeasured({"from-jsonl", late, Path("late.arrow"), "--inference-rows", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("line 3: field a: a string where the column type int64 expects an "
                       "integer in range (the type inferred from the first 1 lines; raise "
                       "inference_rows or give a schema); the option for that is "
                       "--inference-rows N"),
            std::string::npos)
      << r.err;
  const std::string key = Path("key.jsonl");
  std::ofstream(key) << "{\"a\":1}\n{\"a\":2}\n{\"b\":3}\n";
  r = RunMeasured({"from-jsonl", key, Path("key.arrow"), "--inference-rows", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("; the options for that are --inference-rows N and "
                       "--ignore-unexpected-fields"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(RunMeasured({"from-jsonl", key, Path("key.arrow"), "--inference-rows", "1",
                         "--ignore-unexpected-fields"})
                .exit_code,
            0);
  EXPECT_FALSE(fs::exists(Path("late.arrow")));
}

std::string BadDictionaryJson() {
  return R"({"schema": {"fields": [{"name": "city", "nullable": false, "type": {"name": "utf8"}, "children": [], )"
         R"("dictionary": {"id": 0, "indexType": {"name": "int", "isSigned": true, "bitWidth": 32}, "isOrdered": false}}]}, )"
         R"("dictionaries": [{"id": 0, "data": {"count": 1, "columns": [{"name": "DICT0", "count": 1, "VALIDITY": [1], "OFFSET": [0, 1], "DATA": ["x"]}]}}], )"
         R"("batches": [{"count": 1, "columns": [{"name": "city", "count": 1, "VALIDITY": [1], "DATA": [100000]}]}]})";
}

TEST_F(CliTest, JsonWithOutOfRangeDictionaryIndicesIsRefused) {
  std::string bad = Path("bad_dict.json");
  std::ofstream(bad) << BadDictionaryJson();
  auto from = RunMeasured({"from-json", bad, Path("x.arrow")});
  EXPECT_EQ(from.exit_code, 1) << from.err;
  EXPECT_NE(from.err.find("batches[0].columns[0](city)"), std::string::npos) << from.err;
  EXPECT_FALSE(fs::exists(Path("x.arrow")));

  auto v = RunMeasured({"validate", SampleFile(), "--json", bad});
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.err.find("bad_dict.json"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("batches[0].columns[0](city)"), std::string::npos) << v.err;
}

TEST_F(CliTest, ConvertNeverOverwritesItsInput) {
  std::string file = SampleFile();
  std::string before = ReadBytes(file);
  std::string link = Path("hard.arrow"), sym = Path("sym.arrow");
  fs::create_hard_link(file, link);
  fs::create_symlink(file, sym);
  std::string other_spelling = (dir_ / "." / "cities.arrow").string();
  for (const std::string& out : {file, link, sym, other_spelling}) {
    auto r = RunMeasured({"convert", file, out, "--compression", "zstd"});
    EXPECT_EQ(r.exit_code, 2) << out << ": " << r.err;
    EXPECT_NE(r.err.find("same file as the input"), std::string::npos) << r.err;
    EXPECT_EQ(ReadBytes(file), before) << out;
  }
  EXPECT_EQ(FilesIn(dir_), (std::vector<std::string>{"cities.arrow", "hard.arrow", "sym.arrow"}));
}

TEST_F(CliTest, FailedConversionLeavesNoOutputAndKeepsTheTarget) {
  // A stream whose second batch replaces the dictionary: the file format
  // cannot hold that, so converting it to a file fails part way.
  auto type = alkaid::dictionary(alkaid::int32(), alkaid::utf8());
  auto schema = std::make_shared<alkaid::Schema>(alkaid::FieldVector{alkaid::field("d", type)});
  auto b1 = alkaid::RecordBatch::Make(schema, 2, {ArrayFromJSON(type, R"(["a", "b"])")});
  auto b2 = alkaid::RecordBatch::Make(schema, 1, {ArrayFromJSON(type, R"(["c"])")});
  std::string stream = Path("replace.arrows");
  WriteIpc(stream, schema, {b1, b2}, /*file_format=*/false);

  std::string target = Path("target.arrow");
  auto fresh = RunMeasured({"convert", stream, target});
  EXPECT_NE(fresh.exit_code, 0) << fresh.err;
  EXPECT_FALSE(fs::exists(target));

  std::ofstream(target) << "precious";
  auto over = RunMeasured({"convert", stream, target});
  EXPECT_NE(over.exit_code, 0) << over.err;
  EXPECT_EQ(ReadBytes(target), "precious");
  EXPECT_EQ(FilesIn(dir_), (std::vector<std::string>{"replace.arrows", "target.arrow"}));

  // The same through from-json when the output directory is fine but the
  // input is bad; and a successful conversion replaces the target.
  auto ok = RunMeasured({"from-json", sample_json_, target});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ReadBytes(target).substr(0, 6), "ARROW1");
  EXPECT_EQ(FilesIn(dir_), (std::vector<std::string>{"replace.arrows", "target.arrow"}));
}

// Columns of 2^62 logical rows that need (almost) no bytes.
alkaid::RecordBatchPtr HugeRunEndEncoded() {
  const int64_t n = int64_t{1} << 62;
  auto ends = ArrayFromJSON(alkaid::int64(), "[1024, 4611686018427387000, 4611686018427387904]");
  auto values = ArrayFromJSON(alkaid::int32(), "[1, 2, 3]");
  auto type = alkaid::run_end_encoded(alkaid::int64(), alkaid::int32());
  auto ree = alkaid::ArrayData::Make(type, n, alkaid::BufferVector{}, 0);
  ree->child_data = {ends, values};
  auto schema = std::make_shared<alkaid::Schema>(alkaid::FieldVector{alkaid::field("r", type)});
  return alkaid::RecordBatch::Make(schema, n, {ree});
}

alkaid::RecordBatchPtr HugeStructOfNull() {
  const int64_t n = int64_t{1} << 62;
  auto child = alkaid::ArrayData::Make(alkaid::null(), n, alkaid::BufferVector{}, n);
  auto type = alkaid::struct_({alkaid::field("n", alkaid::null())});
  auto column = alkaid::ArrayData::Make(type, n, alkaid::BufferVector{nullptr}, 0);
  column->child_data.push_back(child);
  auto schema = std::make_shared<alkaid::Schema>(alkaid::FieldVector{alkaid::field("s", type)});
  return alkaid::RecordBatch::Make(schema, n, {column});
}

constexpr int64_t kOneGiBInKiB = int64_t{1} << 20;

TEST_F(CliTest, HugeLogicalColumnsStayInBoundedMemory) {
  struct Case {
    std::string name;
    alkaid::RecordBatchPtr batch;
  };
  for (const Case& c : {Case{"ree", HugeRunEndEncoded()}, Case{"struct_null", HugeStructOfNull()}}) {
    std::string file = Path(c.name + ".arrow");
    WriteIpc(file, c.batch->schema(), {c.batch}, /*file_format=*/true);
    std::string stream = Path(c.name + ".arrows");
    WriteIpc(stream, c.batch->schema(), {c.batch}, /*file_format=*/false);
    for (const std::string& input : {file, stream}) {
      std::vector<std::vector<std::string>> commands = {
          {"validate", input}, {"cat", input, "--limit", "3"}, {"head", "-n", "2", input},
          {"tail", "-n", "2", input}, {"count", input}, {"schema", input}, {"to-json", input}};
      for (const auto& args : commands) {
        auto r = RunMeasured(args);
        std::string what = c.name + " " + args[0] + " " + input;
        EXPECT_LE(r.max_rss_kib, kOneGiBInKiB) << what;
        EXPECT_LT(r.seconds, 5.0) << what;
        EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << what << ": " << r.exit_code << r.err;
        EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << what << ": " << r.err;
        std::printf("[ measure  ] %-12s %-9s %-7s exit %d, peak RSS %lld KiB, %.3f s\n", c.name.c_str(),
                    args[0].c_str(), input == file ? "file" : "stream", r.exit_code,
                    static_cast<long long>(r.max_rss_kib), r.seconds);
        if (args[0] == "count") {
          EXPECT_EQ(r.out, "4611686018427387904\n") << what << r.err;
        }
        if (args[0] == "cat") {
          EXPECT_EQ(r.exit_code, 0) << what << ": " << r.err;
          EXPECT_NE(r.out.find("3 rows, 1 batch (--limit 3)"), std::string::npos) << what << r.out;
        }
        if (args[0] == "to-json" && c.name == "struct_null") {
          EXPECT_EQ(r.exit_code, 1) << what;
          EXPECT_NE(r.err.find("--max-column-bytes"), std::string::npos) << r.err;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Issue 31: integration JSON in bounded memory

// A batch of `rows` int64 values: zeros, or a pattern when `zeros` is false.
alkaid::RecordBatchPtr Int64Batch(int64_t rows, bool zeros) {
  auto values = alkaid::AllocateBuffer(rows * 8).ValueOrDie();
  if (!zeros) {
    auto* v = values->mutable_data_as<int64_t>();
    for (int64_t i = 0; i < rows; ++i) v[i] = i * 7919 % 1000003;
  }
  auto schema = std::make_shared<alkaid::Schema>(alkaid::FieldVector{alkaid::field("z", alkaid::int64())});
  return alkaid::RecordBatch::Make(schema, rows, {alkaid::ArrayData::Make(alkaid::int64(), rows, {nullptr, values}, 0)});
}

// The issue's attack: `count` batches of 64 MiB of zeros, ZSTD-compressed
// into a few KB each: a stream, or a file whose footer lists the first
// batch's block `count` times (written as `count` equal blocks, then the
// footer's block list pointed at the first).
std::string HugeZerosIpc(const std::string& path, int count, bool file_format) {
  auto batch = Int64Batch(int64_t{8} << 20, /*zeros=*/true);
  alkaid::ipc::IpcWriteOptions options;
  options.compression = alkaid::ipc::CompressionType::kZstd;
  WriteIpc(path, batch->schema(), std::vector<alkaid::RecordBatchPtr>(static_cast<size_t>(count), batch),
           file_format, options);
  if (!file_format) return path;
  std::string bytes = ReadBytes(path);
  int32_t footer_size;
  std::memcpy(&footer_size, bytes.data() + bytes.size() - 10, 4);
  const size_t footer = bytes.size() - 10 - static_cast<size_t>(footer_size);
  // The footer's Block structs: {int64 offset, int32 metadata length, pad, int64 body length}.
  auto field = [&](size_t at, int width) {
    int64_t v = 0;
    std::memcpy(&v, bytes.data() + at, static_cast<size_t>(width));
    return v;
  };
  const size_t span = 24 * static_cast<size_t>(count);
  for (size_t p = footer; p + span <= bytes.size() - 10; p += 4) {
    const int64_t first = field(p, 8), stride = field(p + 24, 8) - first;
    bool blocks = first > 0 && stride > 0;
    for (int i = 0; blocks && i < count; ++i) {
      const size_t at = p + 24 * static_cast<size_t>(i);
      blocks = field(at, 8) == first + i * stride && field(at + 8, 4) == field(p + 8, 4) &&
               field(at + 16, 8) == field(p + 16, 8);
    }
    if (!blocks) continue;
    for (int i = 1; i < count; ++i) std::memcpy(bytes.data() + p + 24 * static_cast<size_t>(i), &first, 8);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    return path;
  }
  ADD_FAILURE() << "no block list found in the footer of " << path;
  return path;
}

// Each 64 MiB batch is 268 MB of JSON. Before, to-json built each column's
// document and reached 1.15 GB of RSS before writing the first batch; now it
// holds the batch and a 256 KiB buffer.
TEST_F(CliTest, ToJsonOfHugeBatchesHoldsOneBatch) {
  if (alkaid::testing::kSanitizedBuild)
    GTEST_SKIP() << "peak RSS is only meaningful without sanitizer shadow memory";
  for (bool file_format : {false, true}) {
    const std::string path = HugeZerosIpc(Path(file_format ? "zeros.arrow" : "zeros.arrows"), 3, file_format);
    EXPECT_LT(fs::file_size(path), size_t{64} << 10);
    auto count = RunMeasured({"count", path});
    EXPECT_EQ(count.out, "25165824\n") << count.err;
    auto r = RunMeasured({"to-json", path}, {}, "/dev/null", "/dev/null");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::printf("[ measure  ] to-json of 3 x 64 MiB (%s): peak RSS %lld KiB, %.2f s\n",
                file_format ? "footer listing one block 3 times" : "stream",
                static_cast<long long>(r.max_rss_kib), r.seconds);
    // Above what `count` (footer or headers only) needs, so that the libraries the tool maps
    // (gRPC and protobuf as shared objects in a shared build) are not counted as batch memory.
    EXPECT_LT(r.max_rss_kib - count.max_rss_kib, (64 + 16) << 10)
        << "to-json " << r.max_rss_kib << " KiB, count " << count.max_rss_kib << " KiB";
  }
}

// validate --json reads the expected JSON a batch at a time: 4 batches of
// 8 MiB in 150 MB of JSON stay within a few batches (the whole document
// took about 17 bytes per byte of text before).
TEST_F(CliTest, ValidateJsonComparesBatchByBatch) {
  if (alkaid::testing::kSanitizedBuild)
    GTEST_SKIP() << "peak RSS is only meaningful without sanitizer shadow memory";
  auto batch = Int64Batch(int64_t{1} << 20, /*zeros=*/false);
  const std::string stream = Path("four.arrows");
  WriteIpc(stream, batch->schema(), {batch, batch, batch, batch}, /*file_format=*/false);
  const std::string json = Path("four.json");
  auto written = RunMeasured({"to-json", stream}, {}, "/dev/null", json);
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_GT(fs::file_size(json), size_t{100} << 20);
  auto r = RunMeasured({"validate", stream, "--json", json});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("equal to"), std::string::npos) << r.out;
  std::printf("[ measure  ] validate --json of %lld MB of JSON: peak RSS %lld KiB, %.2f s\n",
              static_cast<long long>(fs::file_size(json) / 1000000), static_cast<long long>(r.max_rss_kib),
              r.seconds);
  EXPECT_LT(r.max_rss_kib, 64 << 10);
}

}  // namespace
}  // namespace alkaid_cli_test
