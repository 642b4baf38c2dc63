// Runs the `alkaid` executable as a user would and checks exit codes and
// output, including bad input.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/integration_json/integration.h"
#include "test_util/array_from_json.h"
#include "test_util/sanitizers.h"
#include "test_util/test_data.h"

namespace {

namespace fs = std::filesystem;
using alkaid::testing::ArrayFromJSON;

// The alkaid executable, built beside this test.
const std::string& CliPath() {
  static const std::string path = [] {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("alkaid") : (self.parent_path() / "alkaid").string();
  }();
  return path;
}

struct RunResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// A shell command line (pipes allowed); its last command's stderr joins stdout.
RunResult RunShell(const std::string& pipeline) {
  FILE* pipe = popen((pipeline + " 2>&1").c_str(), "r");
  RunResult result{-1, ""};
  if (pipe == nullptr) return result;
  std::array<char, 4096> chunk;
  size_t n;
  while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0) result.output.append(chunk.data(), n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

RunResult RunCli(const std::string& args, const std::string& stdin_file = "") {
  std::string cmd = CliPath() + " " + args;
  if (!stdin_file.empty()) cmd += " < " + stdin_file;
  return RunShell(cmd);
}

// One run of the tool with separate stdout and stderr, its peak resident
// memory (this child only, from wait4) and its wall time.
struct Measured {
  int exit_code = -1;
  std::string out, err;
  int64_t max_rss_kib = 0;
  double seconds = 0;
};

// `stdout_file`, when given, takes the output instead (which is then not read back).
Measured RunMeasured(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
                     const std::string& stdin_file = "/dev/null", const std::string& stdout_file = "") {
  Measured m;
  fs::path out_file = !stdout_file.empty() ? fs::path(stdout_file)
                                           : fs::temp_directory_path() / ("alkaid_out_" + std::to_string(::getpid()));
  fs::path err_file = fs::temp_directory_path() / ("alkaid_err_" + std::to_string(::getpid()));
  std::string exe = CliPath();
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    int in = ::open(stdin_file.c_str(), O_RDONLY);
    int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> argv;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  m.max_rss_kib = usage.ru_maxrss;
  std::ifstream o(out_file, std::ios::binary), e(err_file, std::ios::binary);
  if (stdout_file.empty()) {
    m.out.assign(std::istreambuf_iterator<char>(o), {});
    fs::remove(out_file);
  }
  m.err.assign(std::istreambuf_iterator<char>(e), {});
  fs::remove(err_file);
  return m;
}

// Terminal columns of UTF-8 text, for checking alignment independently of
// the tool: CJK and fullwidth forms count 2, combining marks 0.
int64_t TestWidth(const std::string& s) {
  int64_t w = 0;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    uint32_t cp;
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (n == 1) cp = c;
    else if (n == 2) cp = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F);
    else if (n == 3) cp = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    else cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
    i += n;
    if (cp >= 0x300 && cp <= 0x36F) continue;
    w += ((cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xFF00 && cp <= 0xFF60)) ? 2 : 1;
  }
  return w;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Writes `batches` with the library's own writer.
void WriteIpc(const std::string& path, const alkaid::SchemaPtr& schema,
              const std::vector<alkaid::RecordBatchPtr>& batches, bool file_format,
              alkaid::ipc::IpcWriteOptions options = {}) {
  auto sink = alkaid::io::FileOutputStream::Open(path);
  ASSERT_TRUE(sink.ok()) << sink.status();
  auto writer = file_format ? alkaid::ipc::MakeFileWriter(sink->get(), schema, options)
                            : alkaid::ipc::MakeStreamWriter(sink->get(), schema, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const auto& b : batches) ASSERT_TRUE((*writer)->WriteRecordBatch(*b).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  ASSERT_TRUE((*sink)->Close().ok());
}

// JSON Lines of `lines` objects, each with keys k0 .. k<keys-1> holding
// their own index.
void WriteKeyedJsonl(const std::string& path, int lines, int keys) {
  std::ofstream f(path);
  for (int line = 0; line < lines; ++line) {
    f << '{';
    for (int i = 0; i < keys; ++i) f << (i ? ", \"k" : "\"k") << i << "\": " << i;
    f << "}\n";
  }
}

std::string ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("alkaid_cli_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    sample_json_ = std::string(ALKAID_SOURCE_DIR) + "/samples/cities.json";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // The sample as an IPC file.
  std::string SampleFile() {
    std::string out = Path("cities.arrow");
    auto r = RunCli("from-json " + sample_json_ + " " + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return out;
  }

  fs::path dir_;
  std::string sample_json_;
};

TEST_F(CliTest, HelpForEverySubcommand) {
  for (std::string sub : {"schema", "cat", "head", "tail", "count", "stats", "validate", "to-json", "from-json",
                          "from-csv", "from-jsonl", "convert"}) {
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
    EXPECT_LT(r.max_rss_kib, (64 + 16) << 10);
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
  EXPECT_NE(converted.err.find("from-csv and from-jsonl take --missing-nulls-per-byte N"),
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
  EXPECT_NE(converted.err.find("from-csv and from-jsonl take --max-columns N"), std::string::npos)
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
  EXPECT_NE(unknown.err.find("`alkaid from-csv`"), std::string::npos) << unknown.err;
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

std::vector<std::string> FilesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
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
  struct Case {
    std::string name, bytes, expect;
  };
  std::vector<Case> cases = {
      {"data.parquet", std::string("PAR1\x15\x04\x00\x00", 8) + "PAR1", "Parquet"},
      {"data.csv", "city,population\nOslo,700000\n", "CSV"},
      {"data.jsonl", "{\"a\": 1}\n{\"a\": 2}\n", "JSON Lines"},
      {"plain.json", "[1, 2, 3]\n", "JSON"},
      {"integ.json", ReadBytes(sample_json_), "from-json"},
  };
  for (const auto& c : cases) {
    std::string p = Path(c.name);
    std::ofstream(p, std::ios::binary) << c.bytes;
    for (std::string sub : {"cat", "validate", "schema", "count"}) {
      auto r = RunMeasured({sub, p});
      EXPECT_EQ(r.exit_code, 2) << sub << " " << c.name << ": " << r.err;
      EXPECT_NE(r.err.find(c.expect), std::string::npos) << sub << " " << c.name << ": " << r.err;
      EXPECT_NE(r.err.find("not Arrow IPC"), std::string::npos) << r.err;
    }
    // convert reads CSV and JSON Lines (see ConvertRecognisesText); the
    // rest is refused without leaving output behind.
    if (c.name == "data.csv" || c.name == "data.jsonl") continue;
    auto conv = RunMeasured({"convert", p, Path("out.arrow")});
    EXPECT_EQ(conv.exit_code, 2) << c.name;
    EXPECT_FALSE(fs::exists(Path("out.arrow")));
  }
  // Text messages name the subcommands that read it.
  auto csv = RunMeasured({"cat", Path("data.csv")});
  EXPECT_NE(csv.err.find("CSV is read by `alkaid from-csv`"), std::string::npos) << csv.err;
  EXPECT_EQ(csv.err.find("this build"), std::string::npos) << csv.err;
  auto jsonl = RunMeasured({"validate", Path("data.jsonl")});
  EXPECT_NE(jsonl.err.find("JSON Lines is read by `alkaid from-jsonl`"), std::string::npos) << jsonl.err;
  EXPECT_EQ(jsonl.err.find("this build"), std::string::npos) << jsonl.err;
  auto forced = RunMeasured({"convert", Path("data.csv"), Path("out.arrow"), "--input-format", "arrow"});
  EXPECT_EQ(forced.exit_code, 2) << forced.err;
  EXPECT_NE(forced.err.find("from-csv"), std::string::npos) << forced.err;
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
  EXPECT_NE(stats.out.find("elevation_m  int64                 3      4"), std::string::npos) << stats.out;

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
  EXPECT_EQ(RunMeasured({"convert", obj, Path("obj.arrow")}).exit_code, 2);
  ASSERT_EQ(RunMeasured({"convert", obj, Path("obj.arrow"), "--input-format", "jsonl"}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"cat", Path("obj.arrow"), "--format", "jsonl"}).out, "{\"k\":\"v\"}\n");

  // Arrow input still converts as before, also when forced.
  std::string file = SampleFile();
  EXPECT_EQ(RunMeasured({"convert", file, Path("again.arrow"), "--input-format", "arrow"}).exit_code, 0);
  EXPECT_EQ(RunMeasured({"convert", file, Path("x.arrow"), "--input-format", "csv"}).exit_code, 1);
  EXPECT_EQ(RunMeasured({"convert", file, Path("x.arrow"), "--input-format", "parquet"}).exit_code, 2);
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
  // convert has no text options: the hint names the subcommands that do.
  EXPECT_NE(again.err.find("convert reads text with default options: from-csv takes "
                           "--inference-rows N and --types NAME:TYPE"),
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
           {{"--format", "parquet"}, "parquet"},
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
