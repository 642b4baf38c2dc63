// Locating the shared gold files (../shared/testdata) from tests.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

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


// "<version>/<case>" for every gold integration file ending in `extension`
// (".arrow_file", ".stream"), sorted. {"<no test data>"} when there is none, so a
// parameterized suite still instantiates and its test can skip saying why.
inline std::vector<std::string> GoldIntegrationCases(std::string_view extension) {
  namespace fs = std::filesystem;
  std::vector<std::string> cases;
  const std::string root = TestDataDir();
  const fs::path dir = fs::path(root) / "arrow-testing" / "integration";
  std::error_code ec;
  if (!root.empty() && fs::is_directory(dir, ec)) {
    for (const auto& version : fs::directory_iterator(dir, ec)) {
      if (!version.is_directory()) continue;
      for (const auto& entry : fs::directory_iterator(version.path(), ec)) {
        if (entry.path().extension() != extension) continue;
        cases.push_back(version.path().filename().string() + "/" +
                        entry.path().stem().string());
      }
    }
  }
  std::sort(cases.begin(), cases.end());
  if (cases.empty()) cases.push_back("<no test data>");
  return cases;
}

}  // namespace alkaid::testing

// Skips the current test, saying why, when the gold files are absent.
#define ALKAID_REQUIRE_TEST_DATA(dir_var)                                               \
  std::string dir_var = ::alkaid::testing::TestDataDir();                              \
  if (dir_var.empty()) {                                                               \
    GTEST_SKIP() << "SKIPPED: test data not found (set ALKAID_TEST_DATA or place "     \
                    "../shared/testdata beside the repository)";                       \
  }
