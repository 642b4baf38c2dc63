// Helpers of the alkaid command-line tests: run the `alkaid` executable as a
// user would (exit code, stdout, stderr, peak memory, time) and write inputs.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
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

namespace alkaid_cli_test {

namespace fs = std::filesystem;
using alkaid::testing::ArrayFromJSON;

// The alkaid executable, built beside this test.
inline const std::string& CliPath() {
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
inline RunResult RunShell(const std::string& pipeline) {
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

inline RunResult RunCli(const std::string& args, const std::string& stdin_file = "") {
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
inline Measured RunMeasured(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
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
inline int64_t TestWidth(const std::string& s) {
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

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Writes `batches` with the library's own writer.
inline void WriteIpc(const std::string& path, const alkaid::SchemaPtr& schema,
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
inline void WriteKeyedJsonl(const std::string& path, int lines, int keys) {
  std::ofstream f(path);
  for (int line = 0; line < lines; ++line) {
    f << '{';
    for (int i = 0; i < keys; ++i) f << (i ? ", \"k" : "\"k") << i << "\": " << i;
    f << "}\n";
  }
}

// The names of the files in `dir`, sorted.
inline std::vector<std::string> FilesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string ReadBytes(const fs::path& p) {
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

}  // namespace alkaid_cli_test
