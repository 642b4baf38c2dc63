// Test helper: runs an executable as a child process (argv, no shell) and
// reads its output through a pipe: the Flight integration executables, the
// Node peer, `alkaid serve`.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace alkaid::testing {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() {
    if (pid_ > 0) (void)Stop(SIGKILL);
    if (fd_ >= 0) ::close(fd_);
  }

  // Starts argv[0] (a path, or a name looked up on PATH) with `env` added.
  // Its stderr joins stdout in the pipe, or goes to `stderr_file` when given.
  bool Start(std::vector<std::string> argv, const std::map<std::string, std::string>& env = {},
             const std::string& stderr_file = "") {
    // A new start forgets the previous child (reaped by Stop) and its output.
    CloseOutput();
    output_.clear();
    int pipe_fds[2];
    if (argv.empty() || ::pipe(pipe_fds) != 0) return false;
    pid_ = ::fork();
    if (pid_ < 0) return false;
    if (pid_ == 0) {
      ::dup2(pipe_fds[1], 1);
      int err = stderr_file.empty()
                    ? pipe_fds[1]
                    : ::open(stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(err, 2);
      ::close(pipe_fds[0]);
      ::close(pipe_fds[1]);
      int null_in = ::open("/dev/null", O_RDONLY);
      if (null_in >= 0) ::dup2(null_in, 0);
      for (const auto& [key, value] : env) ::setenv(key.c_str(), value.c_str(), 1);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execvp(args[0], args.data());
      ::_exit(127);
    }
    ::close(pipe_fds[1]);
    fd_ = pipe_fds[0];
    return true;
  }

  // Reads output until it holds a line starting with `prefix` (true) or the
  // child closes its output or `timeout` passes (false). `*rest` gets what
  // follows the prefix on that line.
  bool WaitForLine(const std::string& prefix, std::chrono::seconds timeout, std::string* rest) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    size_t scanned = 0;
    while (true) {
      for (size_t nl; (nl = output_.find('\n', scanned)) != std::string::npos; scanned = nl + 1) {
        if (output_.compare(scanned, prefix.size(), prefix) == 0) {
          *rest = output_.substr(scanned + prefix.size(), nl - scanned - prefix.size());
          return true;
        }
      }
      if (!ReadSome(deadline)) return false;
    }
  }

  // Reads everything until the child closes its output (or `timeout`), then
  // reaps it: its exit code, or -1 when it was killed or timed out.
  int Wait(std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (ReadSome(deadline)) {
    }
    if (std::chrono::steady_clock::now() >= deadline) return Stop(SIGKILL);
    return Reap(deadline);
  }

  // Sends `sig` and reaps the child (SIGKILL after 20 s).
  int Stop(int sig) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, sig);
    return Reap(std::chrono::steady_clock::now() + std::chrono::seconds(20));
  }

  // Stops reading: later output of the child goes nowhere (it gets EPIPE).
  void CloseOutput() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  pid_t pid() const { return pid_; }

  // Everything the child wrote that was read so far.
  const std::string& output() const { return output_; }

 private:
  // One read; false at end of output or past the deadline.
  bool ReadSome(std::chrono::steady_clock::time_point deadline) {
    while (fd_ >= 0 && std::chrono::steady_clock::now() < deadline) {
      struct pollfd p {fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buf[4096];
      ssize_t n = ::read(fd_, buf, sizeof(buf));
      if (n <= 0) return false;
      output_.append(buf, static_cast<size_t>(n));
      return true;
    }
    return false;
  }

  int Reap(std::chrono::steady_clock::time_point deadline) {
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
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

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string output_;
};

}  // namespace alkaid::testing
