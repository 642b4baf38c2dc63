// parquet::WriteTable(table, path): never leaves a partial file where the caller asked for
// one. The bytes go to a temporary file in the target's directory (so the same file
// system), which replaces the target by rename(2) only once the footer is written.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "alkaid/parquet/writer.h"

namespace alkaid::parquet {

namespace {

std::string Directory(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The temporary file: removed unless Commit() renamed it.
class TemporaryFile {
 public:
  ~TemporaryFile() {
    if (!name_.empty() && !committed_) ::unlink(name_.c_str());
  }

  Status Create(const std::string& target) {
    target_ = target;
    struct stat st;
    if (::stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return Status::IOError(target, ": is a directory");
    }
    size_t slash = target.rfind('/');
    std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    std::string pattern = Directory(target) + "/." + base + ".parquet-tmp-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = ::mkstemp(name.data());
    if (fd < 0) {
      return Status::IOError(target, ": cannot create a temporary file in ", Directory(target),
                             ": ", std::strerror(errno));
    }
    name_ = name.data();
    // mkstemp makes the file private; give it the mode of the file it replaces, or the
    // mode a new file would get.
    mode_t mode;
    if (::stat(target.c_str(), &st) == 0) {
      mode = st.st_mode & 07777;
    } else {
      mode_t mask = ::umask(0);
      ::umask(mask);
      mode = 0666 & ~mask;
    }
    (void)::fchmod(fd, mode);
    auto sink = io::FileOutputStream::FromDescriptor(fd, /*owns_fd=*/true);
    if (!sink.ok()) {
      ::close(fd);
      return sink.status();
    }
    sink_ = *std::move(sink);
    return Status::OK();
  }

  io::OutputStream* sink() const { return sink_.get(); }

  Status Commit() {
    ALKAID_RETURN_NOT_OK(sink_->Close());
    if (::rename(name_.c_str(), target_.c_str()) != 0) {
      return Status::IOError(target_, ": cannot replace it with the new file: ",
                             std::strerror(errno));
    }
    committed_ = true;
    return Status::OK();
  }

 private:
  std::string target_;
  std::string name_;
  std::unique_ptr<io::FileOutputStream> sink_;
  bool committed_ = false;
};

}  // namespace

Status WriteTable(const Table& table, const std::string& path,
                  const WriterProperties& properties) {
  TemporaryFile file;
  ALKAID_RETURN_NOT_OK(file.Create(path));
  ALKAID_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(file.sink(), table.schema(), properties));
  ALKAID_RETURN_NOT_OK(writer->WriteTable(table));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return file.Commit();
}

}  // namespace alkaid::parquet
