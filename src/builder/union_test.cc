// Sparse and dense union builders.
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/builder.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

TEST(UnionBuilder, DenseMode) {
  auto type = dense_union({field("f", float32()), field("i", int32())}, {0, 1});
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<DenseUnionBuilder>(type));
  auto* f = static_cast<FloatBuilder*>(b->child_builder(0));
  auto* i = static_cast<Int32Builder*>(b->child_builder(1));
  ASSERT_OK(b->Append(0));
  ASSERT_OK(f->Append(1.2f));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append(0));
  ASSERT_OK(f->Append(3.4f));
  ASSERT_OK(b->Append(1));
  ASSERT_OK(i->Append(5));
  EXPECT_TRUE(b->Append(7).IsInvalid());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 0);
  ASSERT_EQ(data->buffers.size(), 2u);
  EXPECT_EQ(ValuesOf<int8_t>(data->buffers[0]), (std::vector<int8_t>{0, 0, 0, 1}));
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 1, 2, 0}));
  EXPECT_EQ(data->child_data[0]->length, 3);
  EXPECT_EQ(data->child_data[0]->null_count, 1);
  EXPECT_EQ(ValuesOf<float>(data->child_data[0]->buffers[1]), (std::vector<float>{1.2f, 0, 3.4f}));
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[1]->buffers[1]), std::vector<int32_t>{5});
  UnionArray arr(data);
  EXPECT_TRUE(arr.IsNull(1));
  EXPECT_EQ(arr.child_id(3), 1);
  ExpectValid(data);
}

TEST(UnionBuilder, SparseModeWithCustomCodes) {
  auto type = sparse_union({field("i", int32()), field("s", utf8())}, {5, 9});
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<SparseUnionBuilder>(type));
  auto* i = static_cast<Int32Builder*>(b->child_builder(5));
  auto* s = static_cast<StringBuilder*>(b->child_builder(9));
  EXPECT_EQ(b->child_builder(0), nullptr);
  ASSERT_OK(b->Append(5));
  ASSERT_OK(i->Append(42));
  ASSERT_OK(b->Append(9));
  ASSERT_OK(s->Append("joe"));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  ASSERT_EQ(data->buffers.size(), 1u);
  EXPECT_EQ(ValuesOf<int8_t>(data->buffers[0]), (std::vector<int8_t>{5, 9, 5}));
  EXPECT_EQ(data->child_data[0]->length, 3);
  EXPECT_EQ(data->child_data[1]->length, 3);
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[0]->buffers[1]), (std::vector<int32_t>{42, 0, 0}));
  EXPECT_EQ(data->child_data[0]->null_count, 1);
  EXPECT_EQ(data->child_data[1]->null_count, 0);
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[1]->buffers[1]), (std::vector<int32_t>{0, 0, 3, 3}));
  ExpectValid(data);
}

}  // namespace
}  // namespace alkaid
