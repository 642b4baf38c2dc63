#include "alkaid/status.h"

#include <gtest/gtest.h>

namespace alkaid {
namespace {

TEST(Status, OkHasNoDetail) {
  Status ok;
  EXPECT_EQ(ok.detail(), nullptr);
  EXPECT_TRUE(ok.WithDetail({StatusDetail::Kind::kLimit, {"x"}}).ok());
  EXPECT_EQ(ok.WithDetail({StatusDetail::Kind::kLimit, {"x"}}).detail(), nullptr);
  EXPECT_EQ(Status::Invalid("no detail").detail(), nullptr);
}

TEST(Status, DetailTravelsWithCopiesAndContext) {
  Status st = Status::Invalid("a record is longer than max_record_bytes")
                  .WithDetail({StatusDetail::Kind::kLimit, {"max_record_bytes", "block_size"}});
  ASSERT_NE(st.detail(), nullptr);
  EXPECT_EQ(st.detail()->kind, StatusDetail::Kind::kLimit);
  EXPECT_EQ(st.detail()->options, (std::vector<std::string>{"max_record_bytes", "block_size"}));
  EXPECT_EQ(st.message(), "a record is longer than max_record_bytes");
  EXPECT_TRUE(st.IsInvalid());

  Status located = st.WithContext("CSV line 7");
  EXPECT_EQ(located.message(), "CSV line 7: a record is longer than max_record_bytes");
  ASSERT_NE(located.detail(), nullptr);
  EXPECT_EQ(located.detail()->options[0], "max_record_bytes");

  Status copy = located;
  ASSERT_NE(copy.detail(), nullptr);
  EXPECT_EQ(copy.detail(), located.detail());  // shared, immutable
  Result<int> result(copy);
  ASSERT_NE(result.status().detail(), nullptr);
  EXPECT_EQ(result.status().detail()->kind, StatusDetail::Kind::kLimit);

  Status moved = std::move(copy);
  EXPECT_NE(moved.detail(), nullptr);
}

}  // namespace
}  // namespace alkaid
