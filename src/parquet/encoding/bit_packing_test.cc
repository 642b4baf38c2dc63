#include "bit_packing.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace alkaid::parquet::internal {
namespace {

TEST(ParquetBitPacking, SpecExamples) {
  // Encodings.md: 0..7 with bit width 3, LSB first (hybrid) and MSB first (BIT_PACKED).
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t packed[3];
  EXPECT_EQ(PackBits32(values, 3, 8, packed), 3);
  EXPECT_EQ(packed[0], 0b10001000);
  EXPECT_EQ(packed[1], 0b11000110);
  EXPECT_EQ(packed[2], 0b11111010);
  const uint8_t msb[3] = {0b00000101, 0b00111001, 0b01110111};
  int16_t levels[8];
  UnpackBitsMsbFirst(msb, 3, 8, levels);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(levels[i], i);
}

TEST(ParquetBitPacking, RoundTripEveryWidthAndLength) {
  std::mt19937_64 rng(42);
  for (int width = 0; width <= 64; ++width) {
    const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    for (int64_t n : {0, 1, 7, 8, 31, 32, 33, 64, 100, 1000}) {
      std::vector<uint64_t> in(static_cast<size_t>(n));
      for (auto& v : in) v = rng() & mask;
      // Exactly sized input: ASan catches any read past it.
      std::vector<uint8_t> packed(static_cast<size_t>(BitPackedBytes(n, width)));
      EXPECT_EQ(PackBits64(in.data(), width, n, packed.data()), BitPackedBytes(n, width));
      std::vector<uint64_t> out(static_cast<size_t>(n), 12345);
      UnpackBits64(packed.data(), width, n, out.data());
      ASSERT_EQ(out, in) << "width " << width << " n " << n;
      if (width <= 32) {
        std::vector<uint32_t> in32(in.begin(), in.end());
        std::vector<uint8_t> packed32(packed.size());
        PackBits32(in32.data(), width, n, packed32.data());
        EXPECT_EQ(packed32, packed);
        std::vector<uint32_t> out32(static_cast<size_t>(n));
        UnpackBits32(packed.data(), width, n, out32.data());
        ASSERT_EQ(out32, in32) << "width " << width << " n " << n;
      }
    }
  }
}

TEST(ParquetBitPacking, Varints) {
  uint8_t buf[10];
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128}, uint64_t{300},
                     ~uint64_t{0}}) {
    const int n = WriteUleb128(v, buf);
    const uint8_t* p = buf;
    uint64_t back;
    ASSERT_TRUE(ReadUleb128(&p, buf + n, &back));
    EXPECT_EQ(back, v);
    EXPECT_EQ(p, buf + n);
    p = buf;
    EXPECT_FALSE(ReadUleb128(&p, buf + n - 1, &back));  // truncated
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX}) {
    const int n = WriteZigZag(v, buf);
    const uint8_t* p = buf;
    int64_t back;
    ASSERT_TRUE(ReadZigZag(&p, buf + n, &back));
    EXPECT_EQ(back, v);
  }
  // Eleven continuation bytes, and a tenth byte that overflows 64 bits.
  const uint8_t too_long[11] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0};
  const uint8_t overflow[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
  const uint8_t* p = too_long;
  uint64_t v;
  EXPECT_FALSE(ReadUleb128(&p, too_long + 11, &v));
  p = overflow;
  EXPECT_FALSE(ReadUleb128(&p, overflow + 10, &v));
  EXPECT_EQ(BitWidthOf(0), 0);
  EXPECT_EQ(BitWidthOf(1), 1);
  EXPECT_EQ(BitWidthOf(255), 8);
  EXPECT_EQ(BitWidthOf(256), 9);
}

}  // namespace
}  // namespace alkaid::parquet::internal
