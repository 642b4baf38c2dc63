// Fixed-size binary, decimal, binary/utf8 and binary view builders.
#include <array>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "alkaid/array.h"
#include "alkaid/builder/binary.h"
#include "alkaid/builder/decimal.h"
#include "src/builder/builder_test_util.h"

namespace alkaid {
namespace {

using namespace builder_test;

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

}  // namespace
}  // namespace alkaid
