// Min/max in the order the Parquet format defines per type, and truncation of long values.
#include "src/parquet/writer/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace alkaid::parquet::internal {
namespace {

template <typename T>
std::string Bytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <typename T>
void UpdateAll(ColumnStatistics* stats, const std::vector<T>& values,
               const uint8_t* valid = nullptr) {
  stats->UpdateFixed(reinterpret_cast<const uint8_t*>(values.data()),
                     static_cast<int64_t>(values.size()), valid, 0);
}

TEST(ParquetStatistics, SignedAndUnsignedIntegers) {
  ColumnStatistics s(PhysicalType::kInt32, SortOrder::kSigned, 0);
  const uint8_t valid = 0b1011;  // slot 2 is null and holds the smallest number
  UpdateAll<int32_t>(&s, {5, -3, -100, 7}, &valid);
  s.AddNulls(1);
  ASSERT_TRUE(s.has_min_max());
  EXPECT_EQ(s.Min().bytes, Bytes<int32_t>(-3));
  EXPECT_EQ(s.Max().bytes, Bytes<int32_t>(7));
  EXPECT_EQ(s.null_count(), 1);
  EXPECT_EQ(s.num_values(), 3);

  // Unsigned: 0xFFFFFFFF is the largest value, not -1.
  ColumnStatistics u(PhysicalType::kInt32, SortOrder::kUnsigned, 0);
  UpdateAll<uint32_t>(&u, {1, 0xFFFFFFFFu, 2});
  EXPECT_EQ(u.Min().bytes, Bytes<uint32_t>(1));
  EXPECT_EQ(u.Max().bytes, Bytes<uint32_t>(0xFFFFFFFFu));
  EXPECT_GT(u.Compare(Bytes<uint32_t>(0xFFFFFFFFu), Bytes<uint32_t>(1)), 0);

  ColumnStatistics u64(PhysicalType::kInt64, SortOrder::kUnsigned, 0);
  UpdateAll<uint64_t>(&u64, {uint64_t{1} << 63, 3});
  EXPECT_EQ(u64.Min().bytes, Bytes<uint64_t>(3));
  EXPECT_EQ(u64.Max().bytes, Bytes<uint64_t>(uint64_t{1} << 63));
}

TEST(ParquetStatistics, FloatsSkipNaNAndWriteSignedZeros) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnStatistics d(PhysicalType::kDouble, SortOrder::kFloat, 0);
  UpdateAll<double>(&d, {nan, 0.0, 1.5, nan});
  ASSERT_TRUE(d.has_min_max());
  EXPECT_EQ(d.Min().bytes, Bytes<double>(-0.0));  // a zero minimum is -0
  EXPECT_EQ(d.Max().bytes, Bytes<double>(1.5));
  EXPECT_EQ(d.num_values(), 4);

  ColumnStatistics z(PhysicalType::kFloat, SortOrder::kFloat, 0);
  UpdateAll<float>(&z, {-0.0f, 0.0f, -0.0f});
  EXPECT_EQ(z.Min().bytes, Bytes<float>(-0.0f));
  EXPECT_EQ(z.Max().bytes, Bytes<float>(0.0f));  // a zero maximum is +0

  ColumnStatistics only_nan(PhysicalType::kFloat, SortOrder::kFloat, 0);
  UpdateAll<float>(&only_nan, {std::nanf("")});
  EXPECT_FALSE(only_nan.has_min_max());
  EXPECT_EQ(only_nan.num_values(), 1);

  ColumnStatistics inf(PhysicalType::kDouble, SortOrder::kFloat, 0);
  UpdateAll<double>(&inf, {-INFINITY, 2.0, INFINITY});
  EXPECT_EQ(inf.Min().bytes, Bytes<double>(-INFINITY));
  EXPECT_EQ(inf.Max().bytes, Bytes<double>(INFINITY));
}

TEST(ParquetStatistics, HalfFloats) {
  ColumnStatistics h(PhysicalType::kFixedLenByteArray, SortOrder::kHalfFloat, 2);
  // 0x7E00 NaN, 0x3C00 1.0, 0xC000 -2.0, 0x0000 +0.
  UpdateAll<uint16_t>(&h, {0x7E00, 0x3C00, 0xC000, 0x0000});
  EXPECT_EQ(h.Min().bytes, Bytes<uint16_t>(0xC000));
  EXPECT_EQ(h.Max().bytes, Bytes<uint16_t>(0x3C00));
  ColumnStatistics zeros(PhysicalType::kFixedLenByteArray, SortOrder::kHalfFloat, 2);
  UpdateAll<uint16_t>(&zeros, {0x0000});
  EXPECT_EQ(zeros.Min().bytes, Bytes<uint16_t>(0x8000));
  EXPECT_EQ(zeros.Max().bytes, Bytes<uint16_t>(0x0000));
}

TEST(ParquetStatistics, DecimalsCompareAsSignedBigEndian) {
  ColumnStatistics s(PhysicalType::kFixedLenByteArray, SortOrder::kDecimal, 2);
  const uint8_t values[] = {0x00, 0x05, 0x80, 0x00, 0x7F, 0xFF, 0xFF, 0xFF};  // 5, -32768, 32767, -1
  s.UpdateFixed(values, 4, nullptr, 0);
  EXPECT_EQ(s.Min().bytes, std::string("\x80\x00", 2));
  EXPECT_EQ(s.Max().bytes, std::string("\x7F\xFF", 2));
}

TEST(ParquetStatistics, Booleans) {
  ColumnStatistics s(PhysicalType::kBoolean, SortOrder::kSigned, 0);
  const uint8_t bits = 0b0010;
  const uint8_t valid = 0b1110;
  s.UpdateBits(&bits, 0, 4, &valid, 0);
  EXPECT_EQ(s.Min().bytes, std::string(1, '\0'));
  EXPECT_EQ(s.Max().bytes, std::string(1, '\1'));
  ColumnStatistics t(PhysicalType::kBoolean, SortOrder::kSigned, 0);
  const uint8_t ones = 0xFF;
  t.UpdateBits(&ones, 3, 2, nullptr, 0);
  EXPECT_EQ(t.Min().bytes, std::string(1, '\1'));
}

TEST(ParquetStatistics, BinaryIsBytewiseUnsigned) {
  ColumnStatistics s(PhysicalType::kByteArray, SortOrder::kBytes, 0);
  std::string data = std::string("b") + "\xC3\xA9" + "" + "a" + "ab";
  std::vector<int32_t> offsets = {0, 1, 3, 3, 4, 6};  // "b", "é", "", "a", "ab"
  s.UpdateBinary(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), 5, nullptr, 0);
  EXPECT_EQ(s.Min().bytes, "");
  EXPECT_EQ(s.Max().bytes, "\xC3\xA9");  // 0xC3 > 'b' unsigned
  std::vector<int64_t> wide = {0, 1};
  ColumnStatistics t(PhysicalType::kByteArray, SortOrder::kBytes, 0);
  t.UpdateBinary(wide.data(), reinterpret_cast<const uint8_t*>("z"), 1, nullptr, 0);
  s.Merge(t);
  EXPECT_EQ(s.Max().bytes, "\xC3\xA9");
  EXPECT_EQ(s.num_values(), 6);
}

TEST(ParquetStatistics, TruncationKeepsMinBelowAndMaxAbove) {
  ColumnStatistics s(PhysicalType::kByteArray, SortOrder::kBytes, 0);
  std::string data = "abcdefab\xFF\xFF\xFFzz";
  std::vector<int32_t> offsets = {0, 6, 13};  // "abcdef", "ab\xFF\xFF\xFFzz"
  s.UpdateBinary(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), 2, nullptr, 0);
  StatisticValue min = s.Min(3), max = s.Max(3);
  EXPECT_EQ(min.bytes, "abc");
  EXPECT_FALSE(min.exact);
  EXPECT_EQ(max.bytes, "ac");  // "ab\xFF" cannot grow in its last byte: "ab" + 1
  EXPECT_FALSE(max.exact);
  EXPECT_LE(s.Compare(min.bytes, "abcdef"), 0);
  EXPECT_GE(s.Compare(max.bytes, "ab\xFF\xFF\xFFzz"), 0);
  // Short enough values stay exact.
  EXPECT_TRUE(s.Min(64).exact);
  EXPECT_EQ(s.Max(64).bytes, "ab\xFF\xFF\xFFzz");

  // Nothing shorter is >= a run of 0xFF bytes: the max stays whole.
  ColumnStatistics ff(PhysicalType::kByteArray, SortOrder::kBytes, 0);
  std::vector<int32_t> one = {0, 4};
  ff.UpdateBinary(one.data(), reinterpret_cast<const uint8_t*>("\xFF\xFF\xFF\xFF"), 1, nullptr, 0);
  EXPECT_EQ(ff.Max(2).bytes, "\xFF\xFF\xFF\xFF");
  EXPECT_TRUE(ff.Max(2).exact);
}

TEST(ParquetStatistics, Utf8TruncationKeepsWholeCharacters) {
  ColumnStatistics s(PhysicalType::kByteArray, SortOrder::kUtf8, 0);
  std::string text = "a\xC3\xA9\xE2\x82\xAC";  // "aé€": 1 + 2 + 3 bytes
  std::vector<int32_t> offsets = {0, static_cast<int32_t>(text.size())};
  s.UpdateBinary(offsets.data(), reinterpret_cast<const uint8_t*>(text.data()), 1, nullptr, 0);
  EXPECT_EQ(s.Min(4).bytes, "a\xC3\xA9");     // the euro sign does not fit in 4 bytes
  EXPECT_EQ(s.Max(4).bytes, "a\xC3\xAA");     // é (U+00E9) + 1 = ê (U+00EA)
  EXPECT_EQ(s.Min(2).bytes, "a");
  EXPECT_EQ(s.Max(2).bytes, "b");
  // U+10FFFF cannot be incremented: the character before it is.
  ColumnStatistics top(PhysicalType::kByteArray, SortOrder::kUtf8, 0);
  std::string high = "x\xF4\x8F\xBF\xBFyy";
  std::vector<int32_t> hoff = {0, static_cast<int32_t>(high.size())};
  top.UpdateBinary(hoff.data(), reinterpret_cast<const uint8_t*>(high.data()), 1, nullptr, 0);
  EXPECT_EQ(top.Max(5).bytes, "y");
  // U+D7FF + 1 skips the surrogates.
  ColumnStatistics sur(PhysicalType::kByteArray, SortOrder::kUtf8, 0);
  std::string before = "\xED\x9F\xBFzz";
  std::vector<int32_t> soff = {0, static_cast<int32_t>(before.size())};
  sur.UpdateBinary(soff.data(), reinterpret_cast<const uint8_t*>(before.data()), 1, nullptr, 0);
  EXPECT_EQ(sur.Max(3).bytes, "\xEE\x80\x80");
}

TEST(ParquetStatistics, NoOrderMeansNoMinMax) {
  ColumnStatistics s(PhysicalType::kInt96, SortOrder::kNone, 0);
  uint8_t values[24] = {1};
  s.UpdateFixed(values, 2, nullptr, 0);
  EXPECT_FALSE(s.has_min_max());
  EXPECT_EQ(s.num_values(), 2);
}

}  // namespace
}  // namespace alkaid::parquet::internal
