#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <vector>

namespace alkaid::cli {

namespace {

// Temporary files still open, removed by the signal handler so that an
// interrupted conversion (Ctrl-C, a closed pipe) leaves nothing behind.
// A fixed array of C strings: the handler may only call async-signal-safe
// functions such as unlink.
constexpr int kMaxLiveTemps = 8;
char g_live_temps[kMaxLiveTemps][4096];
volatile sig_atomic_t g_live_used[kMaxLiveTemps];

void RemoveTempsAndReraise(int sig) {
  for (int i = 0; i < kMaxLiveTemps; ++i)
    if (g_live_used[i]) ::unlink(g_live_temps[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

int RegisterTemp(const std::string& path) {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) std::signal(sig, RemoveTempsAndReraise);
  });
  if (path.size() >= sizeof(g_live_temps[0])) return -1;
  for (int i = 0; i < kMaxLiveTemps; ++i) {
    if (g_live_used[i]) continue;
    std::memcpy(g_live_temps[i], path.c_str(), path.size() + 1);
    g_live_used[i] = 1;
    return i;
  }
  return -1;
}

void UnregisterTemp(const std::string& path) {
  for (int i = 0; i < kMaxLiveTemps; ++i)
    if (g_live_used[i] && path == g_live_temps[i]) g_live_used[i] = 0;
}

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& target) {
  std::unique_ptr<OutputFile> out(new OutputFile());
  out->target_ = target;
  if (target == "-") {
    ALKAID_ASSIGN_OR_RAISE(out->sink_, io::FileOutputStream::FromDescriptor(1, /*owns_fd=*/false));
    return out;
  }
  struct stat st;
  if (::stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return Status::IOError(target, ": is a directory");
  std::string templ = DirectoryOf(target) + "/." + BaseName(target) + ".alkaid-tmp-XXXXXX";
  std::vector<char> name(templ.begin(), templ.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    return Status::IOError(target, ": cannot create a temporary file in ", DirectoryOf(target), ": ",
                           std::strerror(errno));
  out->temp_ = name.data();
  RegisterTemp(out->temp_);
  // mkstemp makes the file private (0600); give it the mode a new file would
  // get (0666 less the umask), or keep the mode of the file it replaces.
  mode_t mode;
  if (::stat(target.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  auto sink = io::FileOutputStream::FromDescriptor(fd, /*owns_fd=*/true,
                                                  /*aligned_writes=*/true);
  if (!sink.ok()) {
    ::close(fd);
    return sink.status();
  }
  out->sink_ = std::move(sink).MoveValueUnsafe();
  return out;
}

OutputFile::~OutputFile() {
  if (temp_.empty() || committed_) return;
  if (sink_ != nullptr) (void)sink_->Close();
  ::unlink(temp_.c_str());
  UnregisterTemp(temp_);
}

Status OutputFile::Commit() {
  ALKAID_RETURN_NOT_OK(sink_->Close());
  if (temp_.empty()) {
    committed_ = true;
    return Status::OK();
  }
  if (::rename(temp_.c_str(), target_.c_str()) != 0)
    return Status::IOError(target_, ": cannot replace it with the new file: ", std::strerror(errno));
  committed_ = true;
  UnregisterTemp(temp_);
  return Status::OK();
}

Status CheckDistinctFiles(const std::string& input, const std::string& output) {
  if (input == "-" || output == "-") return Status::OK();
  struct stat in_st, out_st;
  if (::stat(input.c_str(), &in_st) != 0 || ::stat(output.c_str(), &out_st) != 0) return Status::OK();
  if (in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
    return Status::Invalid("this output is the same file as the input ", input,
                           " (the input is read while the output is written; write to another path)");
  return Status::OK();
}

}  // namespace alkaid::cli
