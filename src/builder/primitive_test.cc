// Null, boolean and numeric builders: values, nulls, growth, reuse.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/builder/primitive.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

TEST(NumericBuilder, Int32WithNulls) {
  Int32Builder b;
  ASSERT_OK(b.Append(1));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.Append(2));
  ASSERT_OK(b.Append(4));
  ASSERT_OK(b.Append(8));
  EXPECT_EQ(b.length(), 5);
  EXPECT_EQ(b.null_count(), 1);
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 5);
  EXPECT_EQ(data->null_count, 1);
  ASSERT_EQ(data->buffers.size(), 2u);
  ASSERT_NE(data->buffers[0], nullptr);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b00011101});
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{1, 0, 2, 4, 8}));
  EXPECT_EQ(data->buffers[1]->size(), 20);
  ExpectZeroPadding(data->buffers[0]);
  ExpectZeroPadding(data->buffers[1]);
  Int32Array arr(data);
  EXPECT_TRUE(arr.IsNull(1));
  EXPECT_EQ(arr.Value(4), 8);
  ExpectValid(data);
}

TEST(NumericBuilder, NoNullsMeansNoBitmap) {
  Int64Builder b;
  ASSERT_OK(b.AppendValues({1, 2, 3}));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->null_count, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), (std::vector<int64_t>{1, 2, 3}));
}

TEST(NumericBuilder, AppendValuesWithValidBytesAndNulls) {
  UInt16Builder b;
  const uint16_t values[] = {10, 20, 30, 40};
  const uint8_t valid[] = {1, 0, 1, 0};
  ASSERT_OK(b.AppendValues(values, 4, valid));
  ASSERT_OK(b.AppendNulls(3));
  ASSERT_OK(b.AppendEmptyValue());
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 8);
  EXPECT_EQ(data->null_count, 5);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b10000101});
  EXPECT_EQ(ValuesOf<uint16_t>(data->buffers[1]),
            (std::vector<uint16_t>{10, 20, 30, 40, 0, 0, 0, 0}));
}

TEST(NumericBuilder, FirstNullAfterManyValidValues) {
  // The bitmap is created lazily; earlier slots must come out valid.
  Int8Builder b;
  for (int i = 0; i < 100; ++i) ASSERT_OK(b.Append(static_cast<int8_t>(i)));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->null_count, 1);
  ASSERT_EQ(data->buffers[0]->size(), 13);
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(bit_util::GetBit(data->buffers[0]->data(), i));
  EXPECT_FALSE(bit_util::GetBit(data->buffers[0]->data(), 100));
  ExpectZeroPadding(data->buffers[0]);
}

TEST(NumericBuilder, ReserveAndUnsafeAppend) {
  DoubleBuilder b;
  ASSERT_OK(b.Reserve(100));
  EXPECT_GE(b.capacity(), 100);
  int64_t capacity = b.capacity();
  for (int i = 0; i < 100; ++i) b.UnsafeAppend(i * 0.5);
  EXPECT_EQ(b.capacity(), capacity);
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  DoubleArray arr(data);
  EXPECT_EQ(arr.length(), 100);
  EXPECT_EQ(arr.Value(99), 49.5);
  EXPECT_EQ(data->buffers[1]->size(), 800);
}

TEST(NumericBuilder, FinishResets) {
  Int32Builder b;
  ASSERT_OK(b.Append(1));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK_AND_ASSIGN(auto first, b.Finish());
  EXPECT_EQ(b.length(), 0);
  EXPECT_EQ(b.null_count(), 0);
  EXPECT_EQ(b.capacity(), 0);
  ASSERT_OK(b.Append(7));
  ASSERT_OK_AND_ASSIGN(auto second, b.Finish());
  EXPECT_EQ(second->length, 1);
  EXPECT_EQ(second->null_count, 0);
  EXPECT_EQ(second->buffers[0], nullptr);
  EXPECT_EQ(ValuesOf<int32_t>(second->buffers[1]), std::vector<int32_t>{7});
  // The first result is untouched by later appends.
  EXPECT_EQ(ValuesOf<int32_t>(first->buffers[1]), (std::vector<int32_t>{1, 0}));
  ASSERT_OK_AND_ASSIGN(auto empty, b.Finish());
  EXPECT_EQ(empty->length, 0);
  ASSERT_NE(empty->buffers[1], nullptr);
  EXPECT_EQ(empty->buffers[1]->size(), 0);
}

TEST(NumericBuilder, ManyAppendsGrowGeometrically) {
  SystemMemoryPool pool;
  {
    NumericBuilder<UInt32Type> b(uint32(), &pool);
    for (uint32_t i = 0; i < 100000; ++i) {
      if (i % 7 == 3) {
        ASSERT_OK(b.AppendNull());
      } else {
        ASSERT_OK(b.Append(i));
      }
    }
    // Doubling keeps the number of reallocations logarithmic.
    EXPECT_LT(pool.num_allocations(), 60);
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    UInt32Array arr(data);
    EXPECT_EQ(arr.length(), 100000);
    EXPECT_EQ(data->null_count, 14286);
    EXPECT_EQ(arr.Value(99999), 99999u);
    EXPECT_TRUE(arr.IsNull(3));
    EXPECT_FALSE(arr.IsNull(4));
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(NumericBuilder, TemporalAndIntervalTypes) {
  {
    TimestampBuilder b(timestamp(TimeUnit::kMilli, "UTC"));
    ASSERT_OK(b.Append(1700000000000));
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    EXPECT_TRUE(data->type->Equals(timestamp(TimeUnit::kMilli, "UTC")));
    EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), std::vector<int64_t>{1700000000000});
  }
  {
    DayTimeIntervalBuilder b;
    ASSERT_OK(b.Append(DayTimeInterval{3, -5}));
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{3, -5}));
  }
  {
    MonthDayNanoIntervalBuilder b;
    ASSERT_OK(b.Append(MonthDayNanoInterval{1, 2, 3}));
    ASSERT_OK(b.AppendNull());
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    EXPECT_EQ(data->buffers[1]->size(), 32);
    MonthDayNanoIntervalArray arr(data);
    EXPECT_EQ(arr.Value(0), (MonthDayNanoInterval{1, 2, 3}));
  }
  {
    HalfFloatBuilder b;
    ASSERT_OK(b.Append(0x3C00));  // 1.0 as binary16
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    EXPECT_EQ(ValuesOf<uint16_t>(data->buffers[1]), std::vector<uint16_t>{0x3C00});
  }
  {
    Time32Builder b(time32(TimeUnit::kSecond));
    ASSERT_OK(b.Append(86399));
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    EXPECT_EQ(Time32Array(data).Value(0), 86399);
  }
}

TEST(NumericBuilder, AppendValueBytesChecksWidth) {
  Int32Builder b;
  int32_t v = 42;
  ASSERT_OK(b.AppendValueBytes(std::string_view(reinterpret_cast<const char*>(&v), 4)));
  EXPECT_TRUE(b.AppendValueBytes("abc").IsInvalid());
  EXPECT_EQ(b.length(), 1);
}

TEST(BooleanBuilder, ValuesAndNulls) {
  BooleanBuilder b;
  ASSERT_OK(b.Append(true));
  ASSERT_OK(b.Append(false));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.Append(true));
  const bool more[] = {true, true, false, true, true};
  const uint8_t valid[] = {1, 1, 1, 0, 1};
  ASSERT_OK(b.AppendValues(more, 5, valid));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 9);
  EXPECT_EQ(data->null_count, 2);
  // Slots 0..8 validity: 1,1,0,1,1,1,1,0,1
  EXPECT_EQ(BytesOf(data->buffers[0]), (std::vector<uint8_t>{0b01111011, 0b1}));
  // Values: 1,0,0,1,1,1,0,1,1 (the null slot's value stays 0)
  EXPECT_EQ(BytesOf(data->buffers[1]), (std::vector<uint8_t>{0b10111001, 0b1}));
  BooleanArray arr(data);
  EXPECT_TRUE(arr.Value(0));
  EXPECT_FALSE(arr.Value(6));
  ExpectValid(data);
}

TEST(NullBuilder, HasNoBuffers) {
  NullBuilder b;
  ASSERT_OK(b.AppendNulls(3));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.AppendEmptyValue());
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 5);
  EXPECT_EQ(data->null_count, 5);
  EXPECT_TRUE(data->buffers.empty());
}

}  // namespace
}  // namespace alkaid
