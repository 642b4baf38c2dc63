#include "alkaid/version.h"

#include <gtest/gtest.h>

#include <string>

namespace alkaid {
namespace {

TEST(Version, RuntimeMatchesHeader) {
  EXPECT_STREQ(Version(), ALKAID_VERSION_STRING);
  EXPECT_EQ(VersionNumber(), ALKAID_VERSION_NUMBER);
  const std::string expected = std::to_string(ALKAID_VERSION_MAJOR) + "." +
                               std::to_string(ALKAID_VERSION_MINOR) + "." +
                               std::to_string(ALKAID_VERSION_PATCH);
  EXPECT_EQ(expected, Version());
}

}  // namespace
}  // namespace alkaid
