// Locating the shared gold files (../shared/testdata) from tests.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace alkaid::testing {

// $ALKAID_TEST_DATA, else ../shared/testdata beside the source tree; empty
// when neither exists.
inline std::string TestDataDir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("ALKAID_TEST_DATA"); env && *env) {
    return fs::is_directory(env) ? std::string(env) : std::string();
  }
#ifdef ALKAID_SOURCE_DIR
  fs::path p = fs::path(ALKAID_SOURCE_DIR) / ".." / "shared" / "testdata";
#else
  fs::path p = fs::path("..") / "shared" / "testdata";
#endif
  return fs::is_directory(p) ? fs::canonical(p).string() : std::string();
}

}  // namespace alkaid::testing

// Skips the current test, saying why, when the gold files are absent.
#define ALKAID_REQUIRE_TEST_DATA(dir_var)                                               \
  std::string dir_var = ::alkaid::testing::TestDataDir();                              \
  if (dir_var.empty()) {                                                               \
    GTEST_SKIP() << "SKIPPED: test data not found (set ALKAID_TEST_DATA or place "     \
                    "../shared/testdata beside the repository)";                       \
  }
