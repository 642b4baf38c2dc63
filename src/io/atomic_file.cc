#include "alkaid/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace alkaid::io {

namespace {

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The rename is durable only once the directory entry is on disk too.
void SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

Result<std::unique_ptr<AtomicFile>> AtomicFile::Create(const std::string& target,
                                                       bool aligned_writes) {
  struct stat st;
  if (::stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return Status::IOError(target, ": is a directory");
  }
  std::string pattern = DirectoryOf(target) + "/." + BaseName(target) + ".alkaid-tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    return Status::IOError(target, ": cannot create a temporary file in ", DirectoryOf(target),
                           ": ", std::strerror(errno));
  }
  std::unique_ptr<AtomicFile> out(new AtomicFile());
  out->target_ = target;
  out->temp_ = name.data();
  // mkstemp makes the file private; give it the mode of the file it replaces, or the mode a
  // new file would get.
  mode_t mode;
  if (::stat(target.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  (void)::fchmod(fd, mode);
  auto sink = FileOutputStream::FromDescriptor(fd, /*owns_fd=*/true, aligned_writes);
  if (!sink.ok()) {
    ::close(fd);
    return sink.status();  // the destructor removes the temporary file
  }
  out->sink_ = *std::move(sink);
  return out;
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (sink_ != nullptr) (void)sink_->Close();
  ::unlink(temp_.c_str());
}

Status AtomicFile::Commit() {
  ALKAID_RETURN_NOT_OK(sink_->Flush());
  if (::fsync(sink_->fd()) != 0 && errno != EINVAL && errno != EROFS) {
    return Status::IOError(temp_, ": cannot sync the new file: ", std::strerror(errno));
  }
  ALKAID_RETURN_NOT_OK(sink_->Close());
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    return Status::IOError(target_, ": cannot replace it with the new file: ",
                           std::strerror(errno));
  }
  committed_ = true;
  SyncDirectory(DirectoryOf(target_));
  return Status::OK();
}

Status CheckDistinctFiles(const std::string& input, const std::string& output) {
  if (input == "-" || output == "-") return Status::OK();
  struct stat in_st, out_st;
  if (::stat(input.c_str(), &in_st) != 0 || ::stat(output.c_str(), &out_st) != 0) {
    return Status::OK();
  }
  if (in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino) {
    return Status::Invalid("this output is the same file as the input ", input,
                           " (the input is read while the output is written; write to another "
                           "path)");
  }
  return Status::OK();
}

}  // namespace alkaid::io
