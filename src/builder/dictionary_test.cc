// DictionaryBuilder: memoizing values, index widths and overflow.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/builder.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

TEST(DictionaryBuilder, MemoizesStrings) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<DictionaryBuilder>(dictionary(int8(), utf8())));
  std::vector<int64_t> indices;
  for (const char* s : {"foo", "bar", "foo", "bar"}) {
    ASSERT_OK_AND_ASSIGN(int64_t index, b->Append(s));
    indices.push_back(index);
  }
  ASSERT_OK(b->AppendNull());
  ASSERT_OK_AND_ASSIGN(int64_t baz, b->Append("baz"));
  indices.push_back(baz);
  EXPECT_EQ(indices, (std::vector<int64_t>{0, 1, 0, 1, 2}));
  EXPECT_EQ(b->dictionary_length(), 3);
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 6);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<int8_t>(data->buffers[1]), (std::vector<int8_t>{0, 1, 0, 1, 0, 2}));
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b101111});
  ASSERT_NE(data->dictionary, nullptr);
  EXPECT_EQ(data->dictionary->length, 3);
  EXPECT_EQ(data->dictionary->buffers[2]->view(), "foobarbaz");
  ExpectValid(data);

  // Finish forgets the memo: a new batch starts a new dictionary.
  ASSERT_OK_AND_ASSIGN(int64_t again, b->Append("baz"));
  EXPECT_EQ(again, 0);
}

TEST(DictionaryBuilder, MemoizesNumbersAndChecksIndexRange) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<DictionaryBuilder>(dictionary(int8(), int64())));
  for (int64_t v = 0; v < 128; ++v) ASSERT_OK(b->Append(v * 10).status());
  ASSERT_OK_AND_ASSIGN(int64_t seen, b->Append(int64_t{50}));
  EXPECT_EQ(seen, 5);
  Status overflow = b->Append(int64_t{-1}).status();
  EXPECT_EQ(overflow.code(), StatusCode::kCapacityError) << overflow.ToString();
  EXPECT_TRUE(b->AppendIndex(128).IsIndexError());
  ASSERT_OK(b->AppendIndex(127));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 130);
  Int8Array indices(ArrayData::Make(int8(), data->length, data->buffers, 0));
  EXPECT_EQ(indices.Value(127), 127);
  EXPECT_EQ(indices.Value(128), 5);
  EXPECT_EQ(indices.Value(129), 127);
  EXPECT_EQ(data->dictionary->length, 128);
}

TEST(DictionaryBuilder, UnsignedWideIndices) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<DictionaryBuilder>(dictionary(uint32(), float64())));
  ASSERT_OK(b->Append(1.5).status());
  EXPECT_TRUE(b->Append(2.5f).status().IsInvalid());  // float bytes for a double dictionary
  ASSERT_OK(b->Append(2.5).status());
  ASSERT_OK(b->Append(1.5).status());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(ValuesOf<uint32_t>(data->buffers[1]), (std::vector<uint32_t>{0, 1, 0}));
  EXPECT_EQ(ValuesOf<double>(data->dictionary->buffers[1]), (std::vector<double>{1.5, 2.5}));
}

}  // namespace
}  // namespace alkaid
