// The alkaid tool as a user first meets it: help, the sample, schema, validate,
// to-json and from-json, convert, standard input, the gold files.
#include "cli_test_util.h"

namespace alkaid_cli_test {
namespace {

TEST_F(CliTest, HelpForEverySubcommand) {
  for (std::string sub : {"schema", "cat", "head", "tail", "count", "stats", "validate", "to-json", "from-json",
                          "from-csv", "from-jsonl", "convert", "parquet-meta"}) {
    auto r = RunCli(sub + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub << ": " << r.output;
    EXPECT_NE(r.output.find("Usage"), std::string::npos) << sub << ": " << r.output;
  }
  auto top = RunCli("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("from-json"), std::string::npos);
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCli("").exit_code, 2);
  EXPECT_EQ(RunCli("frobnicate x").exit_code, 2);
  EXPECT_EQ(RunCli("cat").exit_code, 2);  // missing FILE
  EXPECT_EQ(RunCli("convert a b --compression brotli").exit_code, 2);
}

TEST_F(CliTest, CatShowsTheSampleAsATable) {
  std::string file = SampleFile();
  auto r = RunCli("cat " + file);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Shanghai"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Rio de Janeiro"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Germany"), std::string::npos) << r.output;  // dictionary decoded
  EXPECT_NE(r.output.find("6 rows, 2 batches"), std::string::npos) << r.output;

  auto limited = RunCli("cat " + file + " --limit 2 --columns city,population");
  ASSERT_EQ(limited.exit_code, 0) << limited.output;
  EXPECT_NE(limited.output.find("2 rows, 1 batch (--limit 2)"), std::string::npos) << limited.output;
  EXPECT_EQ(limited.output.find("area_km2"), std::string::npos) << limited.output;
  EXPECT_EQ(limited.output.find("Munich"), std::string::npos) << limited.output;
}

TEST_F(CliTest, SchemaPrintsTypesAndMetadata) {
  auto r = RunCli("schema " + SampleFile());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("IPC file"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("country: dictionary<values=string, indices=int8>"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("source: alkaid bundled sample"), std::string::npos) << r.output;
}

TEST_F(CliTest, ValidateAgainstJson) {
  std::string file = SampleFile();
  auto ok = RunCli("validate " + file + " --json " + sample_json_);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;

  // A JSON that differs in one value: exit 1 and the place of the difference.
  std::string text = ReadBytes(sample_json_);
  auto pos = text.find("\"Munich\"");
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, 8, "\"Munchn\"");
  std::string other = Path("other.json");
  std::ofstream(other) << text;
  auto diff = RunCli("validate " + file + " --json " + other);
  EXPECT_EQ(diff.exit_code, 1) << diff.output;
  EXPECT_NE(diff.output.find("batch 0, column 0 ('city')"), std::string::npos) << diff.output;
}

TEST_F(CliTest, ToJsonRoundTripsThroughFromJson) {
  std::string file = SampleFile();
  std::string json = Path("back.json");
  auto r = RunCli("to-json " + file + " > " + json);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto again = RunCli("validate " + file + " --json " + json);
  EXPECT_EQ(again.exit_code, 0) << again.output;
}

TEST_F(CliTest, ConvertBetweenFormatsCompressionsAndDialects) {
  std::string file = SampleFile();
  for (std::string comp : {"none", "lz4", "zstd"}) {
    std::string stream = Path("s_" + comp + ".arrows");
    auto c = RunCli("convert " + file + " " + stream + " --format stream --compression " + comp);
    ASSERT_EQ(c.exit_code, 0) << comp << ": " << c.output;
    EXPECT_NE(ReadBytes(stream).substr(0, 6), "ARROW1");
    auto v = RunCli("validate " + stream + " --json " + sample_json_);
    EXPECT_EQ(v.exit_code, 0) << comp << ": " << v.output;
  }
  // Alkaid dialect and back: byte-identical to the file written directly.
  std::string alk = Path("cities.alkaid");
  ASSERT_EQ(RunCli("convert " + file + " " + alk + " --dialect alkaid").exit_code, 0);
  EXPECT_EQ(ReadBytes(alk).substr(0, 7), "ALKAID1");
  EXPECT_EQ(RunCli("validate " + alk + " --json " + sample_json_).exit_code, 0);
  std::string back = Path("back.arrow");
  auto b = RunCli("convert " + alk + " " + back);
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_EQ(ReadBytes(back), ReadBytes(file));

  std::string projected = Path("proj.arrow");
  ASSERT_EQ(RunCli("convert " + file + " " + projected + " --columns population,city").exit_code, 0);
  auto s = RunCli("schema " + projected);
  EXPECT_NE(s.output.find("population: int64\ncity: string not null"), std::string::npos) << s.output;
}

TEST_F(CliTest, ReadsStandardInput) {
  std::string file = SampleFile();
  auto r = RunCli("cat -", file);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Shanghai"), std::string::npos);
}

// Whether a stream on standard input fails while it is opened or at a
// later message, every subcommand names it the same way.
TEST_F(CliTest, ErrorsNameStandardInputTheSameWay) {
  std::string stream = Path("whole.arrows");
  ASSERT_EQ(RunCli("convert " + SampleFile() + " " + stream + " --format stream").exit_code, 0);
  const std::string bytes = ReadBytes(stream);
  std::string later = Path("cut_late.arrows");  // the schema reads, a batch does not
  std::ofstream(later, std::ios::binary) << bytes.substr(0, bytes.size() - 20);
  std::string early = Path("cut_early.arrows");  // not even the schema
  std::ofstream(early, std::ios::binary) << bytes.substr(0, 12);
  for (const std::string& input : {later, early}) {
    const std::vector<std::string> commands = {"cat -",      "tail -",    "count -",
                                               "stats -",    "validate -", "to-json -",
                                               "convert - " + Path("out.arrow")};
    for (const std::string& command : commands) {
      auto r = RunCli(command, input);
      // The sample has dictionaries: to-json of a stream refuses stdin (a
      // usage error) once it has read the schema.
      const int expected = command == "to-json -" && input == later ? 2 : 1;
      EXPECT_EQ(r.exit_code, expected) << command << " < " << input << ": " << r.output;
      EXPECT_NE(r.output.find("alkaid: <stdin>: "), std::string::npos)
          << command << " < " << input << ": " << r.output;
      EXPECT_EQ(r.output.find("alkaid: -:"), std::string::npos)
          << command << " < " << input << ": " << r.output;
    }
  }
}

TEST_F(CliTest, BadInputsGetClearErrors) {
  auto missing = RunCli("cat " + Path("nope.arrow"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("nope.arrow"), std::string::npos) << missing.output;

  std::string text = Path("notes.txt");
  std::ofstream(text) << "this is not arrow data at all, just some words\n";
  auto not_arrow = RunCli("validate " + text);
  EXPECT_EQ(not_arrow.exit_code, 1) << not_arrow.output;
  EXPECT_NE(not_arrow.output.find("notes.txt"), std::string::npos) << not_arrow.output;

  std::string file = SampleFile();
  std::string bytes = ReadBytes(file);
  for (size_t cut : {bytes.size() / 3, bytes.size() - 5}) {
    std::string truncated = Path("truncated.arrow");
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, cut);
    auto r = RunCli("validate " + truncated);
    EXPECT_EQ(r.exit_code, 1) << cut << ": " << r.output;
    EXPECT_NE(r.output.find("truncated.arrow"), std::string::npos) << r.output;
  }

  std::string empty = Path("empty.arrow");
  std::ofstream(empty).flush();
  EXPECT_EQ(RunCli("cat " + empty).exit_code, 1);

  std::string bad_json = Path("bad.json");
  std::ofstream(bad_json) << "{\"schema\": {\"fields\": [{\"name\": \"x\"}]}}";
  auto bj = RunCli("from-json " + bad_json + " " + Path("out.arrow"));
  EXPECT_EQ(bj.exit_code, 1) << bj.output;
  EXPECT_NE(bj.output.find("bad.json"), std::string::npos) << bj.output;

  auto col = RunCli("cat " + file + " --columns city,nope");
  EXPECT_EQ(col.exit_code, 2) << col.output;
  EXPECT_NE(col.output.find("no column named 'nope'"), std::string::npos) << col.output;
}

TEST_F(CliTest, ValidatesEveryGoldFileAgainstItsJson) {
  ALKAID_REQUIRE_TEST_DATA(data);
  int checked = 0;
  for (const auto& version : fs::directory_iterator(fs::path(data) / "arrow-testing" / "integration")) {
    if (!version.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(version.path())) {
      if (entry.path().extension() != ".arrow_file") continue;
      std::string stem = entry.path().string();
      stem.resize(stem.size() - std::string(".arrow_file").size());
      for (std::string ext : {".arrow_file", ".stream"}) {
        auto r = RunCli("validate " + stem + ext + " --json " + stem + ".json.gz");
        EXPECT_EQ(r.exit_code, 0) << stem << ext << ": " << r.output;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 50);
}

}  // namespace
}  // namespace alkaid_cli_test
