#include "output_file.h"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <mutex>

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

}  // namespace

Result<std::unique_ptr<OutputFile>> OutputFile::Create(const std::string& target) {
  std::unique_ptr<OutputFile> out(new OutputFile());
  if (target == "-") {
    ALKAID_ASSIGN_OR_RAISE(out->stdout_,
                           io::FileOutputStream::FromDescriptor(1, /*owns_fd=*/false));
    return out;
  }
  ALKAID_ASSIGN_OR_RAISE(out->file_, io::AtomicFile::Create(target, /*aligned_writes=*/true));
  RegisterTemp(out->file_->temp_path());
  return out;
}

OutputFile::~OutputFile() {
  if (file_ == nullptr) return;
  std::string temp = file_->temp_path();
  file_.reset();  // removes the temporary file unless committed
  UnregisterTemp(temp);
}

Status OutputFile::Commit() {
  if (file_ == nullptr) return stdout_->Close();
  Status st = file_->Commit();
  if (file_->committed()) UnregisterTemp(file_->temp_path());
  return st;
}

}  // namespace alkaid::cli
