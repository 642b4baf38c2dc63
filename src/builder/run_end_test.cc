// RunEndEncodedBuilder: merged runs, nulls, run-end overflow, generic runs.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/builder.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

TEST(RunEndEncodedBuilder, MergesRunsIncludingNulls) {
  ASSERT_OK_AND_ASSIGN(auto b,
                       MakeBuilderAs<RunEndEncodedBuilder>(run_end_encoded(int32(), float32())));
  for (float v : {1.0f, 1.0f, 1.0f, 1.0f}) ASSERT_OK(b->Append(v));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append(2.0f));
  EXPECT_EQ(b->length(), 7);
  EXPECT_EQ(b->num_runs(), 3);
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 7);
  EXPECT_EQ(data->null_count, 0);
  EXPECT_TRUE(data->buffers.empty());
  ASSERT_EQ(data->child_data.size(), 2u);
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[0]->buffers[1]), (std::vector<int32_t>{4, 6, 7}));
  EXPECT_EQ(data->child_data[0]->null_count, 0);
  const auto& values = data->child_data[1];
  EXPECT_EQ(values->length, 3);
  EXPECT_EQ(values->null_count, 1);
  EXPECT_EQ(BytesOf(values->buffers[0]), std::vector<uint8_t>{0b101});
  EXPECT_EQ(ValuesOf<float>(values->buffers[1]), (std::vector<float>{1.0f, 0.0f, 2.0f}));
  ExpectValid(data);
}

TEST(RunEndEncodedBuilder, StringsAndInt16Overflow) {
  ASSERT_OK_AND_ASSIGN(auto b,
                       MakeBuilderAs<RunEndEncodedBuilder>(run_end_encoded(int16(), utf8())));
  ASSERT_OK(b->Append("a"));
  ASSERT_OK(b->AppendBytes("a", 100));
  ASSERT_OK(b->Append("b"));
  ASSERT_OK(b->AppendNulls(2));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append("a"));
  EXPECT_EQ(b->num_runs(), 4);
  Status overflow = b->AppendBytes("a", 32767);
  EXPECT_EQ(overflow.code(), StatusCode::kCapacityError) << overflow.ToString();
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 106);
  EXPECT_EQ(ValuesOf<int16_t>(data->child_data[0]->buffers[1]),
            (std::vector<int16_t>{101, 102, 105, 106}));
  EXPECT_EQ(data->child_data[1]->buffers[2]->view(), "aba");
  ExpectValid(data);
}

TEST(RunEndEncodedBuilder, GenericRunsForNestedValues) {
  auto type = run_end_encoded(int64(), list(int32()));
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<RunEndEncodedBuilder>(type));
  auto* lists = static_cast<ListBuilder*>(b->values_builder());
  auto* ints = static_cast<Int32Builder*>(lists->value_builder());
  ASSERT_OK(lists->Append());
  ASSERT_OK(ints->Append(1));
  ASSERT_OK(b->AppendRun(3));
  ASSERT_OK(b->ExtendRun(2));
  // AppendRun without a new value is refused.
  EXPECT_TRUE(b->AppendRun(1).IsInvalid());
  ASSERT_OK(lists->Append());
  ASSERT_OK(b->AppendRun(1));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 6);
  EXPECT_EQ(ValuesOf<int64_t>(data->child_data[0]->buffers[1]), (std::vector<int64_t>{5, 6}));
  EXPECT_EQ(data->child_data[1]->length, 2);
  ExpectValid(data);
}

}  // namespace
}  // namespace alkaid
