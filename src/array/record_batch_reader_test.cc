#include "alkaid/record_batch_reader.h"

#include <gtest/gtest.h>

#include "src/array/array_test_util.h"

namespace alkaid {
namespace {

using namespace array_test;  // NOLINT

SchemaPtr IdSchema() { return schema({field("id", int32())}); }

RecordBatchPtr Batch(std::vector<std::optional<int32_t>> ids) {
  const auto rows = static_cast<int64_t>(ids.size());
  return RecordBatch::MakeChecked(IdSchema(), rows, {Int32s(ids)}).ValueOrDie();
}

TEST(RecordBatchReader, VectorReaderYieldsBatchesInOrderThenNull) {
  auto reader = RecordBatchReader::Make({Batch({1, 2}), Batch({3})}).ValueOrDie();
  EXPECT_TRUE(reader->schema()->Equals(*IdSchema()));
  auto first = reader->Next().ValueOrDie();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->num_rows(), 2);
  auto rest = reader->ReadRemaining().ValueOrDie();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0]->num_rows(), 1);
  EXPECT_EQ(reader->Next().ValueOrDie(), nullptr);
}

TEST(RecordBatchReader, ToTableCollectsRemainingRows) {
  auto reader = RecordBatchReader::Make({Batch({1, 2}), Batch({3, std::nullopt})}).ValueOrDie();
  auto table = reader->ToTable().ValueOrDie();
  EXPECT_EQ(table->num_rows(), 4);
  EXPECT_EQ(table->column(0)->num_chunks(), 2);
  EXPECT_EQ(table->column(0)->null_count(), 1);
}

TEST(RecordBatchReader, MakeChecksSchemas) {
  EXPECT_TRUE(RecordBatchReader::Make({}).status().IsInvalid());
  auto empty = RecordBatchReader::Make({}, IdSchema()).ValueOrDie();
  EXPECT_EQ(empty->Next().ValueOrDie(), nullptr);
  auto other = RecordBatch::MakeChecked(schema({field("x", int32())}), 1, {Int32s({1})}).ValueOrDie();
  auto mixed = RecordBatchReader::Make({Batch({1}), other});
  ASSERT_FALSE(mixed.ok());
  EXPECT_NE(mixed.status().message().find("record batch 1"), std::string::npos)
      << mixed.status().message();
  EXPECT_TRUE(RecordBatchReader::Make({Batch({1}), nullptr}).status().IsInvalid());
}

}  // namespace
}  // namespace alkaid
