// Reading and showing: streaming from standard input, head, tail, count,
// stats, tables fitted to the terminal, input of the wrong kind.
#include "cli_test_util.h"

namespace alkaid_cli_test {
namespace {

// ---------------------------------------------------------------------------
// Issue 13: streaming, new subcommands, terminal output, wrong input

// `cat -` with `extra` arguments, fed the first batch of a two-batch stream
// through a pipe that stays open: the first row must come out before the
// input ends. Returns everything printed.
std::string CatWhileInputIsOpen(const std::string& dir, const std::vector<std::string>& extra);

TEST_F(CliTest, StandardInputIsReadAsItArrives) {
  std::string seen = CatWhileInputIsOpen(dir_.string(), {});
  EXPECT_NE(seen.find("2 rows, 2 batches"), std::string::npos) << seen;
}

TEST_F(CliTest, CsvAndJsonLinesOutputStreamToo) {
  std::string csv = CatWhileInputIsOpen(dir_.string(), {"--format", "csv"});
  EXPECT_EQ(csv, "word\nearly-bird\nlate-comer\n");
  std::string jsonl = CatWhileInputIsOpen(dir_.string(), {"--format", "jsonl"});
  EXPECT_EQ(jsonl, "{\"word\":\"early-bird\"}\n{\"word\":\"late-comer\"}\n");
}

std::string CatWhileInputIsOpen(const std::string& dir, const std::vector<std::string>& extra) {
  // A stream of two batches; the first is sent and the pipe stays open.
  auto schema = std::make_shared<alkaid::Schema>(alkaid::FieldVector{alkaid::field("word", alkaid::utf8())});
  auto b1 = alkaid::RecordBatch::Make(schema, 1, {ArrayFromJSON(alkaid::utf8(), R"(["early-bird"])")});
  auto b2 = alkaid::RecordBatch::Make(schema, 1, {ArrayFromJSON(alkaid::utf8(), R"(["late-comer"])")});
  std::string first_part, whole;
  {
    std::string p = dir + "/s.arrows";
    auto sink = alkaid::io::FileOutputStream::Open(p);
    EXPECT_TRUE(sink.ok());
    auto writer = alkaid::ipc::MakeStreamWriter(sink->get(), schema);
    EXPECT_TRUE(writer.ok());
    EXPECT_TRUE((*writer)->WriteRecordBatch(*b1).ok());
    first_part = ReadBytes(p);
    EXPECT_TRUE((*writer)->WriteRecordBatch(*b2).ok());
    EXPECT_TRUE((*writer)->Close().ok());
    EXPECT_TRUE((*sink)->Close().ok());
    whole = ReadBytes(p);
  }
  EXPECT_LT(first_part.size(), whole.size());
  int in_pipe[2], out_pipe[2];
  EXPECT_EQ(::pipe(in_pipe), 0);
  EXPECT_EQ(::pipe(out_pipe), 0);
  std::vector<std::string> args = {CliPath(), "cat", "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  EXPECT_EQ(::write(in_pipe[1], first_part.data(), first_part.size()), static_cast<ssize_t>(first_part.size()));
  std::string seen;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (seen.find("early-bird") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    struct pollfd pfd {out_pipe[0], POLLIN, 0};
    if (::poll(&pfd, 1, 200) <= 0) continue;
    char buf[4096];
    ssize_t n = ::read(out_pipe[0], buf, sizeof(buf));
    if (n <= 0) break;
    seen.append(buf, static_cast<size_t>(n));
  }
  EXPECT_NE(seen.find("early-bird"), std::string::npos) << "no output before the input ended: " << seen;
  EXPECT_EQ(seen.find("late-comer"), std::string::npos) << seen;
  std::string rest = whole.substr(first_part.size());
  EXPECT_EQ(::write(in_pipe[1], rest.data(), rest.size()), static_cast<ssize_t>(rest.size()));
  ::close(in_pipe[1]);
  char buf[4096];
  ssize_t n;
  while ((n = ::read(out_pipe[0], buf, sizeof(buf))) > 0) seen.append(buf, static_cast<size_t>(n));
  ::close(out_pipe[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(seen.find("late-comer"), std::string::npos) << seen;
  return seen;
}

TEST_F(CliTest, HeadTailCountStatsOnGoldFiles) {
  ALKAID_REQUIRE_TEST_DATA(data);
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(data) / "arrow-testing" / "integration" /
                                                   "1.0.0-littleendian")) {
    if (entry.path().extension() != ".arrow_file") continue;
    std::string path = entry.path().string();
    auto reader = alkaid::ipc::FileReader::OpenMapped(path);
    EXPECT_TRUE(reader.ok()) << path << reader.status();
    auto batches = (*reader)->ReadAll();
    EXPECT_TRUE(batches.ok()) << path;
    int64_t rows = 0, nulls0 = 0;
    for (const auto& b : *batches) {
      rows += b->num_rows();
      if (b->num_columns() > 0) nulls0 += b->column_data(0)->GetNullCount();
    }
    auto count = RunMeasured({"count", path});
    EXPECT_EQ(count.exit_code, 0) << path << count.err;
    EXPECT_EQ(count.out, std::to_string(rows) + "\n") << path;

    std::string stream = path.substr(0, path.size() - std::string(".arrow_file").size()) + ".stream";
    auto stream_count = RunMeasured({"count", stream});
    EXPECT_EQ(stream_count.out, std::to_string(rows) + "\n") << stream;

    for (const std::string& input : {path, stream}) {
      int64_t want = std::min<int64_t>(rows, 3);
      auto head = RunMeasured({"head", "-n", "3", input});
      EXPECT_EQ(head.exit_code, 0) << input << head.err;
      auto tail = RunMeasured({"tail", "-n", "3", input});
      EXPECT_EQ(tail.exit_code, 0) << input << tail.err;
      std::string rows_text = std::to_string(want) + (want == 1 ? " row" : " rows");
      EXPECT_NE(head.out.find("\n" + rows_text), std::string::npos) << input << head.out;
      EXPECT_NE(tail.out.find("\n" + rows_text), std::string::npos) << input << tail.out;
    }

    auto stats = RunMeasured({"stats", path});
    EXPECT_EQ(stats.exit_code, 0) << path << stats.err;
    auto lines = Lines(stats.out);
    ASSERT_EQ(lines.size(), static_cast<size_t>((*reader)->schema()->num_fields()) + 2) << stats.out;
    EXPECT_NE(lines.back().find(std::to_string(rows) + (rows == 1 ? " row," : " rows,")), std::string::npos);
    if ((*reader)->schema()->num_fields() > 0) {
      // Cells are separated by runs of two or more spaces.
      std::vector<std::string> cells;
      std::string line = lines[1];
      for (size_t at = 0; at < line.size();) {
        size_t gap = line.find("  ", at);
        cells.push_back(line.substr(at, gap == std::string::npos ? std::string::npos : gap - at));
        if (gap == std::string::npos) break;
        at = line.find_first_not_of(' ', gap);
      }
      ASSERT_GE(cells.size(), 3u) << line;
      std::string nulls = cells[2];
      EXPECT_EQ(nulls, std::to_string(nulls0)) << path << "\n" << stats.out;
    }
    ++checked;
  }
  EXPECT_GT(checked, 10);
}

TEST_F(CliTest, TailOfAFileReadsOnlyTheLastBatches) {
  std::string file = SampleFile();
  auto r = RunMeasured({"tail", "-n", "2", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 rows, 1 batch (last 2)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Shanghai"), std::string::npos) << r.out;  // first batch
}

TEST_F(CliTest, StatsOfTheSample) {
  auto r = RunMeasured({"stats", SampleFile()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("column"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("population"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6 rows, 2 batches"), std::string::npos) << r.out;
  // Strings: min and max bytewise, and the distinct estimate (exact this small).
  auto lines = Lines(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  EXPECT_NE(lines[0].find("distinct"), std::string::npos) << r.out;
  for (const char* cell : {"~6", "\"Berlin\"", "\"Shanghai\""})
    EXPECT_NE(lines[1].find(cell), std::string::npos) << cell << "\n" << r.out;
}

alkaid::RecordBatchPtr WideBatch(int columns) {
  alkaid::FieldVector fields;
  alkaid::ArrayDataVector data;
  for (int i = 0; i < columns; ++i) {
    fields.push_back(alkaid::field("column_" + std::to_string(i), alkaid::int64()));
    data.push_back(ArrayFromJSON(alkaid::int64(), "[" + std::to_string(i * 1000) + ", null]"));
  }
  return alkaid::RecordBatch::Make(std::make_shared<alkaid::Schema>(fields), 2, data);
}

TEST_F(CliTest, TableFitsTheTerminalWidth) {
  auto batch = WideBatch(30);
  std::string file = Path("wide.arrow");
  WriteIpc(file, batch->schema(), {batch}, true);
  for (int width : {40, 80, 200}) {
    auto r = RunMeasured({"cat", file}, {{"COLUMNS", std::to_string(width)}});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& line : Lines(r.out)) {
      if (line.empty() || (line[0] != '|' && line[0] != '+')) continue;
      EXPECT_LE(TestWidth(line), width) << width << ": " << line;
    }
    EXPECT_NE(r.out.find("column_0 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("column_29 "), std::string::npos) << r.out;  // both ends stay
    EXPECT_NE(r.out.find("\xE2\x80\xA6"), std::string::npos) << r.out;  // the elision marker
    EXPECT_NE(r.out.find("columns not shown"), std::string::npos) << r.out;
  }
  // Not a terminal and no COLUMNS: every column.
  auto all = RunMeasured({"cat", file}, {});
  EXPECT_NE(all.out.find("column_15 "), std::string::npos);
  // --max-width overrides COLUMNS; --max-cell cuts cells.
  auto narrow = RunMeasured({"cat", file, "--max-width", "30", "--max-cell", "5"}, {{"COLUMNS", "200"}});
  for (const auto& line : Lines(narrow.out))
    if (!line.empty() && (line[0] == '|' || line[0] == '+')) {
      EXPECT_LE(TestWidth(line), 30) << line;
    }
  EXPECT_NE(narrow.out.find("colu\xE2\x80\xA6"), std::string::npos) << narrow.out;
}

TEST_F(CliTest, WideCharactersAlign) {
  auto schema = std::make_shared<alkaid::Schema>(
      alkaid::FieldVector{alkaid::field("city", alkaid::utf8()), alkaid::field("n", alkaid::int32())});
  auto batch = alkaid::RecordBatch::Make(
      schema, 4,
      {ArrayFromJSON(alkaid::utf8(), R"(["東京", "abc", "Ｓｅｏｕｌ", "Café"])"),
       ArrayFromJSON(alkaid::int32(), "[1, 2, 3, 4]")});
  std::string file = Path("cjk.arrow");
  WriteIpc(file, schema, {batch}, true);
  auto r = RunMeasured({"cat", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int64_t width = -1;
  int table_lines = 0;
  for (const auto& line : Lines(r.out)) {
    if (line.empty() || (line[0] != '|' && line[0] != '+')) continue;
    if (width < 0) width = TestWidth(line);
    EXPECT_EQ(TestWidth(line), width) << line << "\n" << r.out;
    ++table_lines;
  }
  EXPECT_EQ(table_lines, 9) << r.out;
  // Cutting by display width keeps whole characters.
  auto cut = RunMeasured({"cat", file, "--max-cell", "4"});
  EXPECT_NE(cut.out.find("\"東\xE2\x80\xA6"), std::string::npos) << cut.out;
}

TEST_F(CliTest, ColourOnlyOnATerminalWithoutNoColor) {
  std::string file = SampleFile();
  auto plain = RunMeasured({"cat", file});
  EXPECT_EQ(plain.out.find("\x1b["), std::string::npos);
  auto on_tty = [&](bool no_color) {
    int master = -1;
    const char* cli = CliPath().c_str();
    pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
      if (no_color) ::setenv("NO_COLOR", "1", 1);
      else ::unsetenv("NO_COLOR");
      ::execl(cli, cli, "cat", file.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    std::string out;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(master, buf, sizeof(buf))) > 0) out.append(buf, static_cast<size_t>(n));
    ::close(master);
    ::waitpid(pid, nullptr, 0);
    return out;
  };
  std::string colored = on_tty(false);
  EXPECT_NE(colored.find("\x1b[1m"), std::string::npos) << colored;
  EXPECT_NE(colored.find("Shanghai"), std::string::npos) << colored;
  std::string no_color = on_tty(true);
  EXPECT_EQ(no_color.find("\x1b["), std::string::npos) << no_color;
  EXPECT_NE(no_color.find("Shanghai"), std::string::npos) << no_color;
}

TEST_F(CliTest, WrongInputSaysWhatItIs) {
  // Formats alkaid knows but does not read: exit 2, saying what it is.
  struct Case {
    std::string name, bytes, expect;
  };
  std::vector<Case> cases = {
      {"plain.json", "[1, 2, 3]\n", "this is JSON, but neither integration JSON"},
      {"pretty.json", "{\n  \"a\": 1\n}\n", "this is JSON, but neither integration JSON"},
  };
  for (const auto& c : cases) {
    std::string p = Path(c.name);
    std::ofstream(p, std::ios::binary) << c.bytes;
    for (std::string sub : {"cat", "validate", "schema", "count", "stats", "tail"}) {
      auto r = RunMeasured({sub, p});
      EXPECT_EQ(r.exit_code, 2) << sub << " " << c.name << ": " << r.err;
      EXPECT_NE(r.err.find(c.expect), std::string::npos) << sub << " " << c.name << ": " << r.err;
    }
    auto conv = RunMeasured({"convert", p, Path("out.arrow")});
    EXPECT_EQ(conv.exit_code, 2) << c.name;
    EXPECT_FALSE(fs::exists(Path("out.arrow")));
  }
  // Bytes that claim a format and are not: that format's reader says why.
  std::string parquet = Path("data.parquet");
  std::ofstream(parquet, std::ios::binary) << std::string("PAR1\x15\x04\x00\x00", 8) + "PAR1";
  auto bad_parquet = RunMeasured({"cat", parquet});
  EXPECT_EQ(bad_parquet.exit_code, 1) << bad_parquet.err;
  EXPECT_NE(bad_parquet.err.find("data.parquet: "), std::string::npos) << bad_parquet.err;
  // A forced format that the bytes are not.
  auto forced = RunMeasured({"convert", sample_json_, Path("out.arrow"), "--input-format", "arrow"});
  EXPECT_NE(forced.exit_code, 0) << forced.err;
  EXPECT_FALSE(fs::exists(Path("out.arrow")));

  auto unknown = RunMeasured({"frobnicate", "x"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown subcommand 'frobnicate'"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("to-json"), std::string::npos) << unknown.err;

  std::string file = SampleFile();
  auto negative = RunMeasured({"cat", file, "--limit", "-1"});
  EXPECT_EQ(negative.exit_code, 2) << negative.err;
  EXPECT_NE(negative.err.find("--limit takes a number of rows (0 or more), got '-1'"), std::string::npos)
      << negative.err;
  auto head_bad = RunMeasured({"head", "-n", "ten", file});
  EXPECT_EQ(head_bad.exit_code, 2) << head_bad.err;

  auto cols = RunMeasured({"cat", file, "--columns", "city,nope"});
  EXPECT_EQ(cols.exit_code, 2) << cols.err;
  EXPECT_NE(cols.err.find("no column named 'nope'"), std::string::npos) << cols.err;

  std::string bad_json = Path("bad.json");
  std::ofstream(bad_json) << "{\"schema\": {\"fields\": [{\"name\": \"x\"}]}}";
  auto bj = RunMeasured({"from-json", bad_json, Path("o.arrow")});
  EXPECT_EQ(bj.exit_code, 1) << bj.err;
  size_t first = bj.err.find("bad.json");
  ASSERT_NE(first, std::string::npos) << bj.err;
  EXPECT_EQ(bj.err.find("bad.json", first + 1), std::string::npos) << "printed twice: " << bj.err;
}

TEST_F(CliTest, FromJsonReadsStandardInputAndVersionPrints) {
  std::string out = Path("stdin.arrow");
  auto r = RunMeasured({"from-json", "-", out}, {}, sample_json_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunMeasured({"validate", out, "--json", sample_json_}).exit_code, 0);

  // to-json of a file with a dictionary given on standard input.
  auto j = RunMeasured({"to-json", "-"}, {}, out);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  std::string json = Path("back.json");
  std::ofstream(json) << j.out;
  EXPECT_EQ(RunMeasured({"validate", out, "--json", json}).exit_code, 0);

  auto v = RunMeasured({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out, "alkaid 0.1.0\n");
}

TEST_F(CliTest, ToJsonStreamsGoldFilesWithDictionaries) {
  ALKAID_REQUIRE_TEST_DATA(data);
  fs::path dir = fs::path(data) / "arrow-testing" / "integration" / "1.0.0-littleendian";
  for (std::string stem : {"generated_dictionary", "generated_nested_dictionary", "generated_primitive"}) {
    for (std::string ext : {".arrow_file", ".stream"}) {
      std::string input = (dir / (stem + ext)).string();
      auto j = RunMeasured({"to-json", input});
      ASSERT_EQ(j.exit_code, 0) << input << j.err;
      std::string json = Path(stem + ".json");
      std::ofstream(json) << j.out;
      auto v = RunMeasured({"validate", input, "--json", json});
      EXPECT_EQ(v.exit_code, 0) << input << v.err;
    }
  }
}

}  // namespace
}  // namespace alkaid_cli_test
