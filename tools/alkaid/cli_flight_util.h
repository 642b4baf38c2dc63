// Helpers of the Flight command tests: `alkaid serve` run as a child process
// on a free port, its URL read from the line it prints, stopped by a signal.
#pragma once

#include "cli_test_util.h"

namespace alkaid_cli_test {

class ServeProcess {
 public:
  ~ServeProcess() {
    if (pid_ > 0) Stop(SIGKILL);
  }

  // Starts `alkaid serve DIR --port 0 ARGS...`; false (and *error) when it
  // did not print its URL within 20 s.
  bool Start(const fs::path& dir, const std::vector<std::string>& args, std::string* error) {
    log_ = dir.parent_path() / (dir.filename().string() + ".serve.log");
    int out[2];
    if (::pipe(out) != 0) return false;
    std::vector<std::string> argv_text = {CliPath(), "serve", dir.string(), "--port", "0"};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    pid_ = ::fork();
    if (pid_ == 0) {
      int err = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(out[1], 1);
      ::dup2(err, 2);
      ::close(out[0]);
      std::vector<char*> argv;
      for (auto& a : argv_text) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      struct pollfd p {out[0], POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char c[256];
      ssize_t n = ::read(out[0], c, sizeof(c));
      if (n <= 0) break;
      line.append(c, static_cast<size_t>(n));
    }
    ::close(out[0]);
    const size_t on = line.find(" on ");
    if (on == std::string::npos || line.find('\n') == std::string::npos) {
      *error = "serve printed '" + line + "'; log: " + Log();
      return false;
    }
    url_ = line.substr(on + 4, line.find('\n') - on - 4);
    return true;
  }

  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }
  std::string Log() const { return ReadBytes(log_); }

  // Sends `sig` and waits (up to 20 s, then SIGKILL); the exit code, -1 when
  // it did not exit by itself.
  int Stop(int sig = SIGTERM) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, sig);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return -1;
      }
      ::usleep(10000);
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
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
