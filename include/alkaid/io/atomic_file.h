// Writing a file so that a reader never sees it half written and a failure never loses the
// old one: the bytes go to a temporary file beside the target (same directory, so the same
// file system), which replaces the target by rename(2) only on Commit().
#pragma once

#include <memory>
#include <string>

#include "alkaid/io/output.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::io {

/// A file written in full or not at all. Create() makes the temporary file (mode of the file
/// it replaces, else 0666 less the umask); Commit() flushes, fsyncs, renames it over the
/// target and fsyncs the directory; destruction without a successful Commit() removes it,
/// leaving the target as it was.
///
/// Not thread-safe: one thread at a time.
class ALKAID_EXPORT AtomicFile {
 public:
  /// `aligned_writes` as for FileOutputStream (right here: the file is read only once
  /// complete). Fails on a directory or when the directory refuses a new file.
  static Result<std::unique_ptr<AtomicFile>> Create(const std::string& target,
                                                    bool aligned_writes = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// The stream writing the temporary file; owned by this object.
  OutputStream* stream() const { return sink_.get(); }
  /// The path the file is renamed to on Commit.
  const std::string& target() const { return target_; }
  /// The temporary file's path (a caller may remove it from a signal handler).
  const std::string& temp_path() const { return temp_; }
  /// Closes, syncs and renames the temporary file over the target.
  Status Commit();
  /// True once Commit succeeded.
  bool committed() const { return committed_; }

 private:
  AtomicFile() = default;
  std::string target_;
  std::string temp_;
  std::unique_ptr<FileOutputStream> sink_;
  bool committed_ = false;
};

/// Fails (Invalid) when `output` names the same file as `input` (same device and inode: also
/// through a hard link, a symbolic link or another spelling of the path), so a writer never
/// truncates the input it is still reading. OK when either does not exist or is "-".
ALKAID_EXPORT Status CheckDistinctFiles(const std::string& input, const std::string& output);

}  // namespace alkaid::io
