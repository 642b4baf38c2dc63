#include "alkaid/builder.h"

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/validate.h"
#include "test_util/array_from_json.h"

namespace alkaid {
namespace {

using testing::ArrayFromJSON;
using testing::ArrayFromJSONString;

#ifndef ASSERT_OK
#define ASSERT_OK(expr)                                   \
  do {                                                    \
    ::alkaid::Status _st = ::alkaid::internal::GenericToStatus((expr)); \
    ASSERT_TRUE(_st.ok()) << _st.ToString();              \
  } while (false)

#define ASSERT_OK_AND_ASSIGN(lhs, rexpr)                          \
  auto ALKAID_CONCAT(_res_, __LINE__) = (rexpr);                  \
  ASSERT_TRUE(ALKAID_CONCAT(_res_, __LINE__).ok())                \
      << ALKAID_CONCAT(_res_, __LINE__).status().ToString();      \
  lhs = std::move(ALKAID_CONCAT(_res_, __LINE__)).MoveValueUnsafe()
#endif

template <typename T>
std::vector<T> ValuesOf(const BufferPtr& buffer) {
  std::vector<T> out(static_cast<size_t>(buffer->size()) / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), buffer->data(), out.size() * sizeof(T));
  return out;
}

std::vector<uint8_t> BytesOf(const BufferPtr& buffer) {
  return std::vector<uint8_t>(buffer->data(), buffer->data() + buffer->size());
}

// Every byte between size and capacity must be zero.
void ExpectZeroPadding(const BufferPtr& buffer) {
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer->capacity() % 64, 0);
  for (int64_t i = buffer->size(); i < buffer->capacity(); ++i) {
    ASSERT_EQ(buffer->data()[i], 0) << "padding byte " << i;
  }
}

void ExpectValid(const ArrayDataPtr& data) {
  ASSERT_NE(data, nullptr);
  Status st = ValidateArrayFull(*data);
  EXPECT_TRUE(st.ok()) << st.ToString();
}

// ---------------------------------------------------------------------------
// Primitive builders

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

// ---------------------------------------------------------------------------
// Fixed-size binary and decimals

TEST(FixedSizeBinaryBuilder, ValuesNullsAndWidthError) {
  FixedSizeBinaryBuilder b(fixed_size_binary(3));
  ASSERT_OK(b.Append("abc"));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.Append("xyz"));
  Status wrong = b.Append("toolong");
  EXPECT_TRUE(wrong.IsInvalid());
  EXPECT_NE(wrong.message().find("width is 3"), std::string::npos) << wrong.message();
  EXPECT_EQ(b.length(), 3);
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->buffers[1]->view(), std::string_view("abc\0\0\0xyz", 9));
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b101});
  FixedSizeBinaryArray arr(data);
  EXPECT_EQ(arr.GetView(2), "xyz");
}

template <size_t N>
std::array<uint8_t, N> LittleEndianOf(int64_t v) {
  std::array<uint8_t, N> out{};
  for (size_t i = 0; i < N; ++i) {
    out[i] = i < 8 ? static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i)) : (v < 0 ? 0xFF : 0);
  }
  return out;
}

TEST(DecimalBuilder, AllWidthsParseText) {
  struct Case {
    DataTypePtr type;
    int width;
  };
  for (const auto& c : {Case{decimal32(9, 2), 4}, Case{decimal64(18, 2), 8},
                        Case{decimal128(38, 2), 16}, Case{decimal256(76, 2), 32}}) {
    SCOPED_TRACE(c.type->ToString());
    DecimalBuilder b(c.type);
    ASSERT_OK(b.AppendString("-12.34"));
    ASSERT_OK(b.AppendString("5"));
    ASSERT_OK(b.AppendString("0.1"));
    ASSERT_OK(b.AppendString("+1.5e1"));
    ASSERT_OK(b.AppendString("-0"));
    ASSERT_OK(b.AppendNull());
    ASSERT_OK(b.AppendUnscaled(-7));
    ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
    const std::vector<int64_t> expected = {-1234, 500, 10, 1500, 0, 0, -7};
    ASSERT_EQ(data->buffers[1]->size(), 7 * c.width);
    for (size_t i = 0; i < expected.size(); ++i) {
      auto le = LittleEndianOf<32>(expected[i]);
      EXPECT_EQ(std::memcmp(data->buffers[1]->data() + i * c.width, le.data(), c.width), 0)
          << "slot " << i;
    }
    EXPECT_EQ(data->null_count, 1);
  }
}

TEST(DecimalBuilder, Decimal256LargeValues) {
  DecimalBuilder b(decimal256(76, 0));
  // 2^128 = 340282366920938463463374607431768211456
  ASSERT_OK(b.AppendString("340282366920938463463374607431768211456"));
  ASSERT_OK(b.AppendString("-340282366920938463463374607431768211456"));
  ASSERT_OK(b.AppendString(std::string(76, '9')));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  const uint8_t* v = data->buffers[1]->data();
  std::array<uint8_t, 32> pos{};
  pos[16] = 1;
  EXPECT_EQ(std::memcmp(v, pos.data(), 32), 0);
  // -2^128: low 16 bytes zero, high 16 bytes all ones.
  std::array<uint8_t, 32> neg{};
  for (int i = 16; i < 32; ++i) neg[i] = 0xFF;
  EXPECT_EQ(std::memcmp(v + 32, neg.data(), 32), 0);
  // 10^76 - 1 is positive: top byte below 0x80.
  EXPECT_LT(v[64 + 31], 0x80);
  EXPECT_GT(v[64 + 31], 0);
}

TEST(DecimalBuilder, RejectsBadText) {
  DecimalBuilder b(decimal128(5, 2));
  EXPECT_TRUE(b.AppendString("abc").IsInvalid());
  EXPECT_TRUE(b.AppendString("").IsInvalid());
  EXPECT_TRUE(b.AppendString("1.2.3").IsInvalid());
  EXPECT_TRUE(b.AppendString("1.234").IsInvalid());    // more fraction than scale
  EXPECT_TRUE(b.AppendString("1234.5").IsInvalid());   // 6 digits > precision 5
  EXPECT_TRUE(b.AppendString("1e").IsInvalid());
  EXPECT_TRUE(b.AppendString("-").IsInvalid());
  ASSERT_OK(b.AppendString("1.230"));                 // trailing zero drops
  ASSERT_OK(b.AppendString("999.99"));
  EXPECT_EQ(b.length(), 2);
  Status st = b.AppendString("x");
  EXPECT_NE(st.message().find("slot 2"), std::string::npos) << st.message();
}

TEST(DecimalBuilder, NegativeScale) {
  DecimalBuilder b(decimal64(5, -2));
  ASSERT_OK(b.AppendString("12300"));
  EXPECT_TRUE(b.AppendString("12345").IsInvalid());
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), std::vector<int64_t>{123});
}

TEST(DecimalBuilder, Decimal32RangeOfUnscaled) {
  DecimalBuilder b(decimal32(9, 0));
  EXPECT_TRUE(b.AppendUnscaled(int64_t{1} << 40).IsInvalid());
  ASSERT_OK(b.AppendUnscaled(-5));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), std::vector<int32_t>{-5});
}

// ---------------------------------------------------------------------------
// Variable-size binary and views

TEST(BinaryBuilder, OffsetsAndData) {
  StringBuilder b;
  ASSERT_OK(b.Append("joe"));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.AppendEmptyValue());
  ASSERT_OK(b.Append("mark"));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3, 7}));
  EXPECT_EQ(data->buffers[2]->view(), "joemark");
  StringArray arr(data);
  EXPECT_EQ(arr.GetView(3), "mark");
  EXPECT_EQ(arr.GetView(2), "");
  ExpectZeroPadding(data->buffers[1]);
  ExpectZeroPadding(data->buffers[2]);
  ExpectValid(data);
}

TEST(BinaryBuilder, EmptyFinishHasOneOffset) {
  LargeBinaryBuilder b;
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  EXPECT_EQ(data->length, 0);
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), std::vector<int64_t>{0});
  EXPECT_EQ(data->buffers[2]->size(), 0);
}

TEST(BinaryBuilder, LargeOffsetsAndManyValues) {
  LargeStringBuilder b;
  std::string expected;
  for (int i = 0; i < 2000; ++i) {
    std::string s = std::to_string(i);
    expected += s;
    ASSERT_OK(b.Append(s));
  }
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  LargeStringArray arr(data);
  EXPECT_EQ(arr.GetView(1999), "1999");
  EXPECT_EQ(arr.value_offset(2000), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(data->buffers[2]->view(), expected);
}

TEST(BinaryBuilder, OffsetOverflowIsCapacityError) {
  BinaryBuilder b;
  // Ask for more data than 32-bit offsets can address; no bytes are touched.
  Status st = b.ReserveData(int64_t{1} << 31);
  EXPECT_EQ(st.code(), StatusCode::kCapacityError) << st.ToString();
}

TEST(BinaryViewBuilder, InlineVersusOutOfLine) {
  BinaryViewBuilder b(utf8_view());
  const std::string twelve = "abcdefghijkl";
  const std::string thirteen = "abcdefghijklm";
  ASSERT_OK(b.Append(twelve));
  ASSERT_OK(b.Append(thirteen));
  ASSERT_OK(b.AppendNull());
  ASSERT_OK(b.Append("hi"));
  ASSERT_OK(b.Append("0123456789abcdefXYZ"));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  ASSERT_EQ(data->buffers.size(), 3u);  // validity, views, one data block
  EXPECT_EQ(data->buffers[1]->size(), 5 * 16);
  EXPECT_EQ(data->buffers[2]->view(), thirteen + "0123456789abcdefXYZ");

  const uint8_t* views = data->buffers[1]->data();
  // Slot 0: inline, size 12, bytes follow the size.
  int32_t size;
  std::memcpy(&size, views, 4);
  EXPECT_EQ(size, 12);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(views + 4), 12), twelve);
  // Slot 1: size 13, prefix "abcd", buffer 0, offset 0.
  int32_t fields[4];
  std::memcpy(fields, views + 16, 16);
  EXPECT_EQ(fields[0], 13);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(views + 20), 4), "abcd");
  EXPECT_EQ(fields[2], 0);
  EXPECT_EQ(fields[3], 0);
  // Slot 2 (null) is all zeros; slot 3 is inline "hi" zero padded.
  for (int i = 0; i < 16; ++i) EXPECT_EQ(views[32 + i], 0);
  std::memcpy(&size, views + 48, 4);
  EXPECT_EQ(size, 2);
  for (int i = 6; i < 16; ++i) EXPECT_EQ(views[48 + i], 0) << "inline padding byte " << i;
  // Slot 4: offset 13 in block 0.
  std::memcpy(fields, views + 64, 16);
  EXPECT_EQ(fields[0], 19);
  EXPECT_EQ(fields[2], 0);
  EXPECT_EQ(fields[3], 13);

  StringViewArray arr(data);
  EXPECT_EQ(arr.GetView(0), twelve);
  EXPECT_EQ(arr.GetView(1), thirteen);
  EXPECT_EQ(arr.GetView(3), "hi");
  ExpectValid(data);
}

TEST(BinaryViewBuilder, StartsNewBlocksWhenFull) {
  BinaryViewBuilder b(binary_view());
  const std::string value(1000, 'x');
  for (int i = 0; i < 100; ++i) ASSERT_OK(b.Append(value + std::to_string(i)));
  // 32 KiB holds 32 of these values; the next block is 64 KiB.
  EXPECT_EQ(b.num_data_blocks(), 3);
  const std::string huge(200 * 1024, 'h');
  ASSERT_OK(b.Append(huge));
  ASSERT_OK_AND_ASSIGN(auto data, b.Finish());
  ASSERT_GE(data->buffers.size(), 5u);
  BinaryViewArray arr(data);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(arr.GetView(i), value + std::to_string(i));
  EXPECT_EQ(arr.GetView(100), huge);
  // Data buffers have exact sizes.
  int64_t total = 0;
  for (size_t i = 2; i < data->buffers.size(); ++i) total += data->buffers[i]->size();
  EXPECT_EQ(total, 100 * 1000 + 10 + 90 * 2 + 200 * 1024);
  ExpectValid(data);
}

// ---------------------------------------------------------------------------
// Lists

TEST(ListBuilder, ListOfInt8) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListBuilder>(list(int8())));
  auto* values = static_cast<Int8Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  for (int8_t v : {12, -7, 25}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  for (int8_t v : {0, -127, 127, 50}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->Append());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b1101});
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 3, 3, 7, 7}));
  ASSERT_EQ(data->child_data.size(), 1u);
  EXPECT_EQ(ValuesOf<int8_t>(data->child_data[0]->buffers[1]),
            (std::vector<int8_t>{12, -7, 25, 0, -127, 127, 50}));
  ExpectValid(data);
  EXPECT_EQ(b->length(), 0);
  EXPECT_EQ(values->length(), 0);
}

TEST(ListBuilder, LargeListAndEmptyValues) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<LargeListBuilder>(large_list(utf8())));
  auto* values = static_cast<StringBuilder*>(b->value_builder());
  ASSERT_OK(b->AppendEmptyValues(2));
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append("a"));
  ASSERT_OK(values->Append("b"));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->null_count, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), (std::vector<int64_t>{0, 0, 0, 2}));
}

TEST(ListViewBuilder, OffsetsAndSizes) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListViewBuilder>(list_view(int8())));
  auto* values = static_cast<Int8Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  for (int8_t v : {12, -7, 25}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  for (int8_t v : {0, -127, 127, 50}) ASSERT_OK(values->Append(v));
  ASSERT_OK(b->Append());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  ASSERT_EQ(data->buffers.size(), 3u);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 3, 3, 7}));
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[2]), (std::vector<int32_t>{3, 0, 4, 0}));
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b1101});
  ExpectValid(data);
}

TEST(ListViewBuilder, LargeListView) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<LargeListViewBuilder>(large_list_view(int32())));
  auto* values = static_cast<Int32Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(1));
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(2));
  ASSERT_OK(values->Append(3));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[1]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ValuesOf<int64_t>(data->buffers[2]), (std::vector<int64_t>{1, 2}));
}

TEST(FixedSizeListBuilder, ChecksChildCount) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<FixedSizeListBuilder>(fixed_size_list(int16(), 2)));
  auto* values = static_cast<Int16Builder*>(b->value_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(1));
  ASSERT_OK(values->Append(2));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(5));
  // Only one of two values: the next append must notice.
  EXPECT_TRUE(b->Append().IsInvalid());
  ASSERT_OK(values->Append(6));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(data->buffers.size(), 1u);
  EXPECT_EQ(data->child_data[0]->length, 6);
  EXPECT_EQ(ValuesOf<int16_t>(data->child_data[0]->buffers[1]),
            (std::vector<int16_t>{1, 2, 0, 0, 5, 6}));
  ExpectValid(data);

  ASSERT_OK(b->Append());
  ASSERT_OK(values->Append(9));
  EXPECT_TRUE(b->Finish().status().IsInvalid());
}

// ---------------------------------------------------------------------------
// Struct, map, unions

TEST(StructBuilder, ChildrenAndNulls) {
  auto type = struct_({field("name", utf8()), field("age", int32())});
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<StructBuilder>(type));
  auto* names = static_cast<StringBuilder*>(b->field_builder(0));
  auto* ages = static_cast<Int32Builder*>(b->field_builder(1));
  ASSERT_OK(b->Append());
  ASSERT_OK(names->Append("joe"));
  ASSERT_OK(ages->Append(1));
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->AppendEmptyValue());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(BytesOf(data->buffers[0]), std::vector<uint8_t>{0b101});
  ASSERT_EQ(data->child_data.size(), 2u);
  EXPECT_EQ(data->child_data[0]->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[0]->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3}));
  EXPECT_EQ(ValuesOf<int32_t>(data->child_data[1]->buffers[1]), (std::vector<int32_t>{1, 0, 0}));
  ExpectValid(data);
}

TEST(StructBuilder, ChildLengthMismatchFails) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<StructBuilder>(struct_({field("a", int8())})));
  ASSERT_OK(b->Append());
  Status st = b->Finish().status();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("'a'"), std::string::npos) << st.message();
  EXPECT_EQ(b->length(), 0);  // reset even after a failure
}

TEST(MapBuilder, KeysAndItems) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<MapBuilder>(map(utf8(), int32())));
  auto* keys = static_cast<StringBuilder*>(b->key_builder());
  auto* items = static_cast<Int32Builder*>(b->item_builder());
  ASSERT_OK(b->Append());
  ASSERT_OK(keys->Append("a"));
  ASSERT_OK(items->Append(1));
  ASSERT_OK(keys->Append("b"));
  ASSERT_OK(items->AppendNull());
  ASSERT_OK(b->AppendNull());
  ASSERT_OK(b->Append());
  ASSERT_OK(b->Append());
  ASSERT_OK(keys->Append("c"));
  ASSERT_OK(items->Append(3));
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2, 3}));
  const auto& entries = data->child_data[0];
  EXPECT_EQ(entries->length, 3);
  EXPECT_EQ(entries->null_count, 0);
  EXPECT_EQ(entries->child_data[0]->buffers[2]->view(), "abc");
  EXPECT_EQ(entries->child_data[1]->null_count, 1);
  MapArray arr(data);
  EXPECT_EQ(arr.value_length(3), 1);
  ExpectValid(data);
}

TEST(MapBuilder, KeyItemCountMismatchFails) {
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<MapBuilder>(map(int8(), int8())));
  ASSERT_OK(b->Append());
  ASSERT_OK(static_cast<Int8Builder*>(b->key_builder())->Append(1));
  EXPECT_TRUE(b->Finish().status().IsInvalid());
}

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

// ---------------------------------------------------------------------------
// Dictionary

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

// ---------------------------------------------------------------------------
// Run-end encoded

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

// ---------------------------------------------------------------------------
// Extension

class PointType final : public ExtensionType {
 public:
  PointType() : ExtensionType(fixed_size_list(float64(), 2)) {}
  std::string extension_name() const override { return "test.point"; }
  std::string Serialize() const override { return ""; }
  Result<DataTypePtr> Deserialize(DataTypePtr, const std::string&) const override {
    return DataTypePtr(std::make_shared<PointType>());
  }
};

TEST(ExtensionBuilder, WrapsStorage) {
  auto type = std::make_shared<PointType>();
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ExtensionBuilder>(type));
  auto* storage = static_cast<FixedSizeListBuilder*>(b->storage_builder());
  auto* coords = static_cast<DoubleBuilder*>(storage->value_builder());
  ASSERT_OK(storage->Append());
  ASSERT_OK(coords->Append(1.0));
  ASSERT_OK(coords->Append(2.0));
  ASSERT_OK(b->AppendNull());
  EXPECT_EQ(b->length(), 2);
  EXPECT_EQ(b->null_count(), 1);
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
  EXPECT_EQ(data->type.get(), type.get());
  EXPECT_EQ(data->length, 2);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(ValuesOf<double>(data->child_data[0]->buffers[1]), (std::vector<double>{1, 2, 0, 0}));
}

// ---------------------------------------------------------------------------
// Deep nesting: list<struct<a: map<utf8, list<int32>>, b: int8>>

TEST(NestedBuilders, ListOfStructOfMapOfList) {
  auto inner = list(int32());
  auto m = map(utf8(), inner);
  auto st = struct_({field("a", m), field("b", int8())});
  auto type = list(st);
  ASSERT_OK_AND_ASSIGN(auto b, MakeBuilderAs<ListBuilder>(type));
  auto* structs = static_cast<StructBuilder*>(b->value_builder());
  auto* maps = static_cast<MapBuilder*>(structs->field_builder(0));
  auto* bs = static_cast<Int8Builder*>(structs->field_builder(1));
  auto* keys = static_cast<StringBuilder*>(maps->key_builder());
  auto* lists = static_cast<ListBuilder*>(maps->item_builder());
  auto* ints = static_cast<Int32Builder*>(lists->value_builder());

  // Slot 0: [{a: {"x": [1, 2], "y": null}, b: 7}, null]
  ASSERT_OK(b->Append());
  ASSERT_OK(structs->Append());
  ASSERT_OK(maps->Append());
  ASSERT_OK(keys->Append("x"));
  ASSERT_OK(lists->Append());
  ASSERT_OK(ints->Append(1));
  ASSERT_OK(ints->Append(2));
  ASSERT_OK(keys->Append("y"));
  ASSERT_OK(lists->AppendNull());
  ASSERT_OK(bs->Append(7));
  ASSERT_OK(structs->AppendNull());
  // Slot 1: null
  ASSERT_OK(b->AppendNull());
  // Slot 2: [{a: {}, b: null}]
  ASSERT_OK(b->Append());
  ASSERT_OK(structs->Append());
  ASSERT_OK(maps->Append());
  ASSERT_OK(bs->AppendNull());
  ASSERT_OK_AND_ASSIGN(auto data, b->Finish());

  EXPECT_EQ(data->length, 3);
  EXPECT_EQ(ValuesOf<int32_t>(data->buffers[1]), (std::vector<int32_t>{0, 2, 2, 3}));
  const auto& sdata = data->child_data[0];
  EXPECT_EQ(sdata->length, 3);
  EXPECT_EQ(sdata->null_count, 1);
  const auto& mdata = sdata->child_data[0];
  EXPECT_EQ(mdata->length, 3);
  EXPECT_EQ(ValuesOf<int32_t>(mdata->buffers[1]), (std::vector<int32_t>{0, 2, 2, 2}));
  const auto& entries = mdata->child_data[0];
  EXPECT_EQ(entries->child_data[0]->buffers[2]->view(), "xy");
  const auto& ldata = entries->child_data[1];
  EXPECT_EQ(ldata->null_count, 1);
  EXPECT_EQ(ValuesOf<int32_t>(ldata->buffers[1]), (std::vector<int32_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(ldata->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 2}));
  ExpectValid(data);

  // The JSON literal builds the same layout.
  auto from_json = ArrayFromJSON(type, R"([
      [{"a": [["x", [1, 2]], ["y", null]], "b": 7}, null],
      null,
      [{"a": [], "b": null}]])");
  ASSERT_NE(from_json, nullptr);
  EXPECT_EQ(ValuesOf<int32_t>(from_json->buffers[1]), (std::vector<int32_t>{0, 2, 2, 3}));
  const auto& jl = from_json->child_data[0]->child_data[0]->child_data[0]->child_data[1];
  EXPECT_EQ(ValuesOf<int32_t>(jl->buffers[1]), (std::vector<int32_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(jl->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 2}));
}

// ---------------------------------------------------------------------------
// MakeBuilder over every type

std::vector<DataTypePtr> AllTypes() {
  return {null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(),
          uint64(), float16(), float32(), float64(), decimal32(7, 2), decimal64(15, 3),
          decimal128(30, 4), decimal256(60, 5), date32(), date64(), time32(TimeUnit::kSecond),
          time64(TimeUnit::kNano), timestamp(TimeUnit::kMicro), duration(TimeUnit::kMilli),
          month_interval(), day_time_interval(), month_day_nano_interval(),
          fixed_size_binary(5), binary(), utf8(), large_binary(), large_utf8(), binary_view(),
          utf8_view(), list(int8()), large_list(utf8()), list_view(int16()),
          large_list_view(boolean()), fixed_size_list(int32(), 3),
          struct_({field("a", int8()), field("b", utf8())}), map(utf8(), float64()),
          sparse_union({field("x", int8()), field("y", utf8())}),
          dense_union({field("x", int8()), field("y", utf8())}, {3, 7}),
          dictionary(int16(), utf8()), run_end_encoded(int32(), int64()),
          std::make_shared<PointType>()};
}

TEST(MakeBuilder, EveryTypeNullsAndEmptyValues) {
  for (const auto& type : AllTypes()) {
    SCOPED_TRACE(type->ToString());
    ASSERT_OK_AND_ASSIGN(auto b, MakeBuilder(type));
    EXPECT_EQ(b->type().get(), type.get());
    ASSERT_OK(b->AppendNull());
    ASSERT_OK(b->AppendEmptyValues(2));
    ASSERT_OK(b->AppendNulls(2));
    EXPECT_EQ(b->length(), 5);
    ASSERT_OK_AND_ASSIGN(auto data, b->Finish());
    EXPECT_EQ(data->length, 5);
    EXPECT_TRUE(data->type->Equals(type));
    ExpectValid(data);
    ASSERT_OK_AND_ASSIGN(auto empty, b->Finish());
    EXPECT_EQ(empty->length, 0);
    ExpectValid(empty);
  }
}

TEST(MakeBuilder, RejectsBadParameters) {
  auto bad_dict = std::make_shared<DictionaryType>(float32(), utf8());
  EXPECT_TRUE(MakeBuilder(bad_dict).status().IsTypeError());
  EXPECT_TRUE(MakeBuilderAs<ListBuilder>(int32()).status().IsTypeError());
}

// ---------------------------------------------------------------------------
// ArrayFromJSON

TEST(ArrayFromJSON, Primitives) {
  auto ints = ArrayFromJSON(int16(), "[1, null, -3]");
  ASSERT_NE(ints, nullptr);
  EXPECT_EQ(ints->null_count, 1);
  EXPECT_EQ(ValuesOf<int16_t>(ints->buffers[1]), (std::vector<int16_t>{1, 0, -3}));

  auto floats = ArrayFromJSON(float64(), R"([1.5, "NaN", "Inf", "-Inf", 2])");
  DoubleArray f(floats);
  EXPECT_EQ(f.Value(0), 1.5);
  EXPECT_TRUE(std::isnan(f.Value(1)));
  EXPECT_EQ(f.Value(2), INFINITY);
  EXPECT_EQ(f.Value(3), -INFINITY);
  EXPECT_EQ(f.Value(4), 2.0);

  auto halves = ArrayFromJSON(float16(), "[1, -2.5]");
  EXPECT_EQ(ValuesOf<uint16_t>(halves->buffers[1]), (std::vector<uint16_t>{0x3C00, 0xC100}));

  auto bools = ArrayFromJSON(boolean(), "[true, false, null, true]");
  EXPECT_EQ(BytesOf(bools->buffers[1]), std::vector<uint8_t>{0b1001});
  EXPECT_EQ(BytesOf(bools->buffers[0]), std::vector<uint8_t>{0b1011});

  auto big = ArrayFromJSON(uint64(), "[18446744073709551615]");
  EXPECT_EQ(ValuesOf<uint64_t>(big->buffers[1]), std::vector<uint64_t>{UINT64_MAX});

  auto dt = ArrayFromJSON(day_time_interval(), "[[1, 2], null]");
  EXPECT_EQ(ValuesOf<int32_t>(dt->buffers[1]), (std::vector<int32_t>{1, 2, 0, 0}));
  auto mdn = ArrayFromJSON(month_day_nano_interval(), "[[1, -2, 3000000000]]");
  MonthDayNanoIntervalArray m(mdn);
  EXPECT_EQ(m.Value(0), (MonthDayNanoInterval{1, -2, 3000000000}));

  auto ts = ArrayFromJSON(timestamp(TimeUnit::kSecond), "[0, 86400]");
  EXPECT_EQ(ValuesOf<int64_t>(ts->buffers[1]), (std::vector<int64_t>{0, 86400}));

  auto nulls = ArrayFromJSON(null(), "[null, null]");
  EXPECT_EQ(nulls->length, 2);
}

TEST(ArrayFromJSON, StringsDecimalsAndBinaryKinds) {
  auto s = ArrayFromJSON(utf8(), R"(["joe", null, null, "mark"])");
  EXPECT_EQ(ValuesOf<int32_t>(s->buffers[1]), (std::vector<int32_t>{0, 3, 3, 3, 7}));
  auto fsb = ArrayFromJSON(fixed_size_binary(2), R"(["ab", "cd"])");
  EXPECT_EQ(fsb->buffers[1]->view(), "abcd");
  auto v = ArrayFromJSON(binary_view(), R"(["short", "a much longer string value"])");
  BinaryViewArray va(v);
  EXPECT_EQ(va.GetView(1), "a much longer string value");
  auto d = ArrayFromJSON(decimal128(10, 2), R"(["-12.34", null, 3])");
  EXPECT_EQ(ValuesOf<int64_t>(d->buffers[1]), (std::vector<int64_t>{-1234, -1, 0, 0, 300, 0}));
}

TEST(ArrayFromJSON, NestedKinds) {
  auto st = ArrayFromJSON(struct_({field("a", int32()), field("b", utf8())}),
                          R"([{"a": 1, "b": "x"}, {"b": "y"}, null, [4, "z"]])");
  ASSERT_NE(st, nullptr);
  EXPECT_EQ(st->null_count, 1);
  EXPECT_EQ(st->child_data[0]->null_count, 2);
  EXPECT_EQ(ValuesOf<int32_t>(st->child_data[0]->buffers[1]), (std::vector<int32_t>{1, 0, 0, 4}));

  auto fsl = ArrayFromJSON(fixed_size_list(int8(), 2), "[[1, 2], null, [3, 4]]");
  EXPECT_EQ(ValuesOf<int8_t>(fsl->child_data[0]->buffers[1]), (std::vector<int8_t>{1, 2, 0, 0, 3, 4}));

  auto lv = ArrayFromJSON(list_view(int8()), "[[1], [], null, [2, 3]]");
  EXPECT_EQ(ValuesOf<int32_t>(lv->buffers[2]), (std::vector<int32_t>{1, 0, 0, 2}));

  auto du = ArrayFromJSON(dense_union({field("f", float64()), field("i", int32())}),
                          "[[0, 1.5], null, [1, 5]]");
  EXPECT_EQ(ValuesOf<int8_t>(du->buffers[0]), (std::vector<int8_t>{0, 0, 1}));
  EXPECT_EQ(ValuesOf<int32_t>(du->buffers[1]), (std::vector<int32_t>{0, 1, 0}));

  auto su = ArrayFromJSON(sparse_union({field("f", float64()), field("i", int32())}, {2, 4}),
                          "[[4, 5], [2, 0.5]]");
  EXPECT_EQ(ValuesOf<int8_t>(su->buffers[0]), (std::vector<int8_t>{4, 2}));
  EXPECT_EQ(ValuesOf<int32_t>(su->child_data[1]->buffers[1]), (std::vector<int32_t>{5, 0}));

  auto dict = ArrayFromJSON(dictionary(int32(), utf8()),
                            R"(["foo", "bar", "foo", "bar", null, "baz"])");
  EXPECT_EQ(ValuesOf<int32_t>(dict->buffers[1]), (std::vector<int32_t>{0, 1, 0, 1, 0, 2}));
  EXPECT_EQ(dict->dictionary->buffers[2]->view(), "foobarbaz");

  auto nested_dict = ArrayFromJSON(dictionary(int8(), list(int8())), "[[1], [2], [1], null]");
  EXPECT_EQ(ValuesOf<int8_t>(nested_dict->buffers[1]), (std::vector<int8_t>{0, 1, 0, 0}));
  EXPECT_EQ(nested_dict->dictionary->length, 2);

  auto ree = ArrayFromJSON(run_end_encoded(int32(), float32()), "[1, 1, 1, 1, null, null, 2]");
  EXPECT_EQ(ValuesOf<int32_t>(ree->child_data[0]->buffers[1]), (std::vector<int32_t>{4, 6, 7}));

  auto ree_nested = ArrayFromJSON(run_end_encoded(int16(), list(int8())), "[[1], [1], null, [2]]");
  EXPECT_EQ(ValuesOf<int16_t>(ree_nested->child_data[0]->buffers[1]), (std::vector<int16_t>{2, 3, 4}));

  auto ext = ArrayFromJSON(std::make_shared<PointType>(), "[[1, 2], null]");
  EXPECT_EQ(ext->type->id(), TypeId::kExtension);
  EXPECT_EQ(ext->null_count, 1);
}

TEST(ArrayFromJSON, ErrorsNameTheSlot) {
  auto r = ArrayFromJSONString(list(int8()), "[[1], [2, 300]]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("[1][1]"), std::string::npos) << r.status().message();
  EXPECT_FALSE(ArrayFromJSONString(int32(), "[1,").ok());
  EXPECT_FALSE(ArrayFromJSONString(int32(), "{}").ok());
  EXPECT_FALSE(ArrayFromJSONString(utf8(), "[1]").ok());
  EXPECT_FALSE(ArrayFromJSONString(uint8(), "[-1]").ok());
  EXPECT_FALSE(ArrayFromJSONString(struct_({field("a", int8())}), R"([{"z": 1}])").ok());
  EXPECT_FALSE(ArrayFromJSONString(fixed_size_list(int8(), 2), "[[1]]").ok());
  EXPECT_FALSE(ArrayFromJSONString(dense_union({field("a", int8())}), "[[3, 1]]").ok());
  EXPECT_FALSE(ArrayFromJSONString(map(utf8(), int8()), R"([[[null, 1]]])").ok());
  EXPECT_FALSE(ArrayFromJSONString(decimal32(4, 1), R"(["1.25"])").ok());
}

TEST(ArrayFromJSON, MoreKindsAndPaths) {
  auto ll = ArrayFromJSON(large_list(large_binary()), R"([["ab", null], []])");
  ASSERT_NE(ll, nullptr);
  EXPECT_EQ(ValuesOf<int64_t>(ll->buffers[1]), (std::vector<int64_t>{0, 2, 2}));
  EXPECT_EQ(ValuesOf<int64_t>(ll->child_data[0]->buffers[1]), (std::vector<int64_t>{0, 2, 2}));
  auto dates = ArrayFromJSON(date32(), "[0, 19000, null]");
  EXPECT_EQ(ValuesOf<int32_t>(dates->buffers[1]), (std::vector<int32_t>{0, 19000, 0}));
  auto months = ArrayFromJSON(month_interval(), "[-3]");
  EXPECT_EQ(ValuesOf<int32_t>(months->buffers[1]), std::vector<int32_t>{-3});
  auto dec256 = ArrayFromJSON(decimal256(40, 0), R"(["-1"])");
  EXPECT_EQ(ValuesOf<int64_t>(dec256->buffers[1]), (std::vector<int64_t>{-1, -1, -1, -1}));

  auto r = ArrayFromJSONString(struct_({field("a", list(int8()))}), R"([{"a": [1]}, {"a": ["x"]}])");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("[1].a[0]: ", 0), 0u) << r.status().message();
}

TEST(ArrayBuilder, FinishArrayGivesTypedView) {
  StringBuilder b;
  ASSERT_OK(b.Append("x"));
  ASSERT_OK_AND_ASSIGN(auto arr, b.FinishArray());
  ASSERT_NE(arr, nullptr);
  EXPECT_EQ(arr->length(), 1);
  auto* typed = dynamic_cast<StringArray*>(arr.get());
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->GetView(0), "x");
}

TEST(RecordBatchFromJSON, Columns) {
  auto s = schema({field("a", int32()), field("b", utf8())});
  auto r = testing::RecordBatchFromJSONString(s, R"([{"a": 1, "b": "x"}, {"a": null, "b": "y"}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto batch = *r;
  EXPECT_EQ(batch->num_rows(), 2);
  EXPECT_EQ(batch->num_columns(), 2);
  EXPECT_EQ(batch->column_data(0)->null_count, 1);
  EXPECT_EQ(batch->column_data(1)->buffers[2]->view(), "xy");
  EXPECT_FALSE(testing::RecordBatchFromJSONString(s, "[null]").ok());
}

}  // namespace
}  // namespace alkaid
