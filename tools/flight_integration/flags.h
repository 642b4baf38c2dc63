// Command-line flags of the two integration executables, spelled as gflags
// spells them, because archery passes them that way: `-port=0`, `-host
// localhost`, `-path FILE`, `-scenario S` (one or two dashes, the value after
// `=` or as the next argument).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "alkaid/status.h"

namespace alkaid::flight_integration {

// The values given for each flag, in order (a flag may repeat).
struct Flags {
  std::map<std::string, std::vector<std::string>> values;

  // The last value of `name`, or `fallback` when it was not given.
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  // Every value of `name`.
  std::vector<std::string> All(const std::string& name) const;
  // `name` as a TCP port (0..65535), or `fallback` when it was not given.
  Result<int> Port(const std::string& name, int fallback) const;
};

// Parses argv[1..]: every argument is a flag among `known`, each takes a value.
// Errors name the argument that is not understood.
Result<Flags> ParseFlags(int argc, char** argv, const std::vector<std::string>& known);

// The exit code of an executable whose run ended with `st`: 0, or 1 after
// printing "<program>: <error>" to stderr.
int ExitCode(const char* program, const Status& st);

}  // namespace alkaid::flight_integration
