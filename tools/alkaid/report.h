// Exit codes and error messages of the tool, and the hints that turn a
// library error's StatusDetail (the reader options that would change the
// outcome) into the flags of the running command.
#pragma once

#include <string>

#include "alkaid/status.h"
#include "options.h"

namespace alkaid::cli {

// 0 success; 1 the data is invalid or differs from what was expected (or
// memory ran out); 2 usage errors (bad options, unknown columns, input of a
// kind the command does not read, output equal to the input) and I/O errors
// (missing file, unwritable output).
constexpr int kExitOk = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitUsage = 2;

int ExitCodeFor(const Status& st);

// How messages name an input path: "-" is standard input.
std::string InputName(const std::string& path);

// Prints "alkaid: SUBJECT: message" (the subject only when the message does
// not already start with it) and returns `code`.
int Report(const std::string& subject, const Status& st, int code);
int Report(const std::string& subject, const Status& st);

// `st` with "; the option for that is --flag N" appended when its detail
// names reader options that the running command has flags for; when it has
// none of them, names the commands that do.
Status WithHint(const Status& st, const Options& options);

}  // namespace alkaid::cli
