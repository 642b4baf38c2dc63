// Where the writing subcommands put their output without ever losing data:
// bytes go to a temporary file beside the target (same directory, so the same
// file system) and replace the target by rename(2) only once everything was
// written. On failure, or when the process ends early, the target is untouched
// and the temporary file is removed.
#pragma once

#include <memory>
#include <string>

#include "alkaid/io/output.h"
#include "alkaid/status.h"

namespace alkaid::cli {

class OutputFile {
 public:
  // "-" writes to standard output directly (nothing to rename).
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& target);
  ~OutputFile();  // removes the temporary file unless Commit() succeeded

  io::OutputStream* stream() const { return sink_.get(); }
  // Closes the temporary file and renames it over the target.
  Status Commit();

 private:
  OutputFile() = default;
  std::string target_;
  std::string temp_;  // empty for standard output
  std::unique_ptr<io::FileOutputStream> sink_;
  bool committed_ = false;
};

// IOError-free check used before writing: fails (Invalid) when `output`
// names the same file as `input` (same device and inode: also through a
// hard link, a symbolic link or another spelling of the path). The input is
// memory-mapped while it is read, so it must never be rewritten under it.
Status CheckDistinctFiles(const std::string& input, const std::string& output);

}  // namespace alkaid::cli
