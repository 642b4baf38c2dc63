// Scratch file names for tests. ctest runs the tests of one executable as parallel
// processes, so a fixed name in the temporary directory is shared by every test that uses
// it; these names carry the process id.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace alkaid::testing {

// <temporary directory>/alkaid_<pid>_<name>: one test process's own file (or directory).
inline std::string ProcessTempPath(const std::string& name) {
  return (std::filesystem::path(::testing::TempDir()) /
          ("alkaid_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

}  // namespace alkaid::testing
