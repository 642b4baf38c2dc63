// Helpers of the Flight command tests: `alkaid serve` run as a child process
// on a free port, its URL read from the line it prints, stopped by a signal.
#pragma once

#include "cli_test_util.h"
#include "test_util/child_process.h"

namespace alkaid_cli_test {

class ServeProcess {
 public:
  // Starts `alkaid serve DIR --port 0 ARGS...`; false (and *error) when it
  // did not print its URL within 20 s.
  bool Start(const fs::path& dir, const std::vector<std::string>& args, std::string* error) {
    log_ = dir.parent_path() / (dir.filename().string() + ".serve.log");
    std::vector<std::string> argv = {CliPath(), "serve", dir.string(), "--port", "0"};
    argv.insert(argv.end(), args.begin(), args.end());
    if (!process_.Start(argv, {}, log_.string())) return false;
    std::string line;
    const bool got_line = process_.WaitForLine("", std::chrono::seconds(20), &line);
    process_.CloseOutput();
    const size_t on = line.find(" on ");
    if (!got_line || on == std::string::npos) {
      *error = "serve printed '" + process_.output() + "'; log: " + Log();
      return false;
    }
    url_ = line.substr(on + 4);
    return true;
  }

  const std::string& url() const { return url_; }
  pid_t pid() const { return process_.pid(); }
  std::string Log() const { return ReadBytes(log_); }

  // Sends `sig` and waits (up to 20 s, then SIGKILL); the exit code, -1 when
  // it did not exit by itself.
  int Stop(int sig = SIGTERM) { return process_.Stop(sig); }

 private:
  alkaid::testing::ChildProcess process_;
  std::string url_;
  fs::path log_;
};

// A served directory `served/` in the test's folder and a server over it.
class FlightCliTest : public CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    served_ = dir_ / "served";
    fs::create_directories(served_);
  }
  void StartServer(const std::vector<std::string>& args = {}) {
    std::string error;
    ASSERT_TRUE(server_.Start(served_, args, &error)) << error;
  }
  std::string Url(const std::string& path = "") const {
    return server_.url() + (path.empty() ? "" : "/" + path);
  }
  // Files under the served directory (relative paths), temporary ones too.
  std::vector<std::string> ServedFiles() const {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(served_))
      out.push_back(fs::relative(e.path(), served_).string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path served_;
  ServeProcess server_;
};

}  // namespace alkaid_cli_test
