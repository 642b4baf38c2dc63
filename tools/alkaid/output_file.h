// Where the writing subcommands put their output without ever losing data:
// bytes go to a temporary file beside the target (same directory, so the same
// file system) and replace the target by rename(2) only once everything was
// written. On failure, or when the process ends early, the target is untouched
// and the temporary file is removed.
#pragma once

#include <memory>
#include <string>

#include "alkaid/io/atomic_file.h"
#include "alkaid/io/output.h"
#include "alkaid/status.h"

namespace alkaid::cli {

class OutputFile {
 public:
  // "-" writes to standard output directly (nothing to rename).
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& target);
  ~OutputFile();  // removes the temporary file unless Commit() succeeded

  io::OutputStream* stream() const {
    return file_ != nullptr ? file_->stream() : stdout_.get();
  }
  // Closes the temporary file and renames it over the target.
  Status Commit();

 private:
  OutputFile() = default;
  std::unique_ptr<io::AtomicFile> file_;         // null for standard output
  std::unique_ptr<io::FileOutputStream> stdout_;  // standard output, else null
};

// Fails when `output` is the same file as `input` (the input is memory-mapped while it is
// read, so it must never be rewritten under it).
using io::CheckDistinctFiles;

}  // namespace alkaid::cli
