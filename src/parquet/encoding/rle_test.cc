#include "rle.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "alkaid/bitmap.h"
#include "bit_packing.h"
#include "src/parquet/parquet_test_util.h"

namespace alkaid::parquet::internal {
namespace {

std::vector<uint8_t> Encode(const std::vector<uint32_t>& values, int width, bool prefix = false) {
  RleBitPackedEncoder enc(width, default_memory_pool());
  EXPECT_TRUE(enc.Put(values.data(), static_cast<int64_t>(values.size())).ok());
  auto buf = enc.Finish(prefix);
  EXPECT_TRUE(buf.ok());
  return std::vector<uint8_t>((*buf)->data(), (*buf)->data() + (*buf)->size());
}

// Values with runs of every length, so both run kinds and their boundaries occur.
std::vector<uint32_t> Runs(int64_t n, int width, uint32_t seed) {
  std::mt19937 rng(seed);
  const uint32_t mask = width == 32 ? ~0u : (1u << width) - 1;
  std::vector<uint32_t> v;
  while (static_cast<int64_t>(v.size()) < n) {
    const uint32_t value = rng() & mask;
    const int run = rng() % 3 == 0 ? static_cast<int>(rng() % 40) : 1;
    for (int i = 0; i < run && static_cast<int64_t>(v.size()) < n; ++i) v.push_back(value);
  }
  return v;
}

TEST(ParquetRle, RoundTripEveryWidthInOddBatches) {
  for (int width = 0; width <= 32; ++width) {
    for (int64_t n : {0, 1, 8, 9, 100, 5000}) {
      const auto values = Runs(n, width, static_cast<uint32_t>(width * 1000 + n));
      const auto bytes = Encode(values, width);
      RleBitPackedDecoder dec;
      dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), width);
      std::vector<uint32_t> out;
      std::mt19937 rng(3);
      while (static_cast<int64_t>(out.size()) < n) {
        const int64_t k = std::min<int64_t>(n - static_cast<int64_t>(out.size()), rng() % 70 + 1);
        std::vector<uint32_t> batch(static_cast<size_t>(k));
        ASSERT_OK_AND_ASSIGN(int64_t got, dec.GetBatch(k, batch.data()));
        ASSERT_EQ(got, k);
        out.insert(out.end(), batch.begin(), batch.end());
      }
      ASSERT_EQ(out, values) << "width " << width << " n " << n;
      // The end: nothing more (the padding of the last group is not a value
      // unless the caller asks for it, and then only zeros).
      uint32_t extra[16];
      ASSERT_OK_AND_ASSIGN(int64_t more, dec.GetBatch(16, extra));
      EXPECT_LT(more, 8);
    }
  }
}

TEST(ParquetRle, PicksRunsAndGroups) {
  // 100 equal values: one RLE run (header 200 as a varint, then one value byte).
  std::vector<uint32_t> same(100, 5);
  EXPECT_EQ(Encode(same, 3), (std::vector<uint8_t>{0xc8, 0x01, 0x05}));
  // 0..7 width 3: one bit-packed group (header 3), the spec's three bytes.
  EXPECT_EQ(Encode({0, 1, 2, 3, 4, 5, 6, 7}, 3),
            (std::vector<uint8_t>{0x03, 0b10001000, 0b11000110, 0b11111010}));
  // With the 4-byte length prefix.
  EXPECT_EQ(Encode(same, 3, true), (std::vector<uint8_t>{3, 0, 0, 0, 0xc8, 0x01, 0x05}));
}

TEST(ParquetRle, GatherChecksIndices) {
  const std::vector<uint32_t> idx = {0, 1, 2, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1};
  const auto bytes = Encode(idx, 2);
  const int32_t dict[3] = {10, 20, 30};
  RleBitPackedDecoder dec;
  dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), 2);
  int32_t out[15];
  ASSERT_OK_AND_ASSIGN(int64_t got, dec.GetGathered(15, reinterpret_cast<const uint8_t*>(dict), 3,
                                                    4, reinterpret_cast<uint8_t*>(out)));
  ASSERT_EQ(got, 15);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(out[i], dict[idx[static_cast<size_t>(i)]]);
  // A dictionary of two entries: index 2 is out of range, in a group and in a run.
  dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), 2);
  auto bad = dec.GetGathered(15, reinterpret_cast<const uint8_t*>(dict), 2, 4,
                             reinterpret_cast<uint8_t*>(out));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("index 2"), std::string::npos) << bad.status().ToString();
  const auto run = Encode(std::vector<uint32_t>(20, 3), 2);
  dec.Reset(run.data(), static_cast<int64_t>(run.size()), 2);
  EXPECT_FALSE(dec.GetGathered(20, reinterpret_cast<const uint8_t*>(dict), 3, 4,
                               reinterpret_cast<uint8_t*>(out))
                   .ok());
}

TEST(ParquetRle, BitsAtAnyOffset) {
  std::vector<uint32_t> bits = Runs(1000, 1, 11);
  const auto bytes = Encode(bits, 1);
  for (int64_t offset : {0, 3, 8}) {
    RleBitPackedDecoder dec;
    dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
    std::vector<uint8_t> bitmap(200, 0xff);
    ASSERT_OK_AND_ASSIGN(int64_t got, dec.GetBits(1000, bitmap.data(), offset));
    ASSERT_EQ(got, 1000);
    for (int64_t i = 0; i < 1000; ++i) {
      ASSERT_EQ(bit_util::GetBit(bitmap.data(), offset + i), bits[static_cast<size_t>(i)] != 0);
    }
    if (offset > 0) {
      EXPECT_TRUE(bit_util::GetBit(bitmap.data(), 0));  // bits before untouched
    }
  }
}

TEST(ParquetRle, SkipThenRead) {
  const auto values = Runs(3000, 7, 5);
  const auto bytes = Encode(values, 7);
  for (int64_t skip : {0, 1, 7, 8, 33, 1500, 2999}) {
    RleBitPackedDecoder dec;
    dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), 7);
    ASSERT_OK_AND_ASSIGN(int64_t skipped, dec.Skip(skip));
    ASSERT_EQ(skipped, skip);
    uint32_t v;
    ASSERT_OK_AND_ASSIGN(int64_t got, dec.GetBatch(1, &v));
    ASSERT_EQ(got, 1);
    EXPECT_EQ(v, values[static_cast<size_t>(skip)]) << skip;
  }
}

TEST(ParquetRle, HostileRuns) {
  RleBitPackedDecoder dec;
  uint32_t out[64];
  // Truncated varint header.
  const uint8_t cut[] = {0x80};
  dec.Reset(cut, 1, 3);
  EXPECT_FALSE(dec.GetBatch(1, out).ok());
  // RLE run whose value is missing, or wider than the bit width.
  const uint8_t no_value[] = {0x10};
  dec.Reset(no_value, 1, 3);
  EXPECT_FALSE(dec.GetBatch(1, out).ok());
  const uint8_t wide[] = {0x10, 0xff};
  dec.Reset(wide, 2, 3);
  EXPECT_FALSE(dec.GetBatch(1, out).ok());
  // A run of 2^40 values: refused (runs are at most 2^31 - 1 long).
  uint8_t huge[12];
  int n = WriteUleb128(uint64_t{1} << 41, huge);
  huge[n] = 1;
  dec.Reset(huge, n + 1, 3);
  EXPECT_FALSE(dec.GetBatch(1, out).ok());
  // A bit-packed run claiming more groups than there are bytes gives the values present.
  const uint8_t short_packed[] = {0x0b, 0xff, 0xff, 0xff};  // 5 groups of 3 bits, 3 bytes
  dec.Reset(short_packed, 4, 3);
  ASSERT_OK_AND_ASSIGN(int64_t got, dec.GetBatch(64, out));
  EXPECT_EQ(got, 8);
  // Random bytes never read past the input (ASan) and end in an error or a short count.
  std::mt19937 rng(1);
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> junk(rng() % 40);
    for (auto& b : junk) b = static_cast<uint8_t>(rng());
    const int width = static_cast<int>(rng() % 33);
    dec.Reset(junk.data(), static_cast<int64_t>(junk.size()), width);
    std::vector<uint32_t> sink(5000);
    (void)dec.GetBatch(5000, sink.data());
  }
}

TEST(ParquetLevels, RleAndBitPackedWithMaxLevelCheck) {
  std::vector<uint32_t> levels = Runs(500, 2, 9);
  for (auto& l : levels) l = std::min(l, 2u);
  const auto bytes = Encode(levels, 2, /*prefix=*/true);
  std::vector<uint8_t> page = bytes;
  page.push_back(0xaa);  // values follow the levels
  LevelDecoder dec;
  ASSERT_OK_AND_ASSIGN(int64_t used, dec.Reset(Encoding::kRle, 2, 500, page.data(),
                                               static_cast<int64_t>(page.size()), true,
                                               "definition levels"));
  EXPECT_EQ(used, static_cast<int64_t>(bytes.size()));
  std::vector<int16_t> out(500);
  ASSERT_OK(dec.Decode(500, out.data()));
  for (size_t i = 0; i < 500; ++i) ASSERT_EQ(out[i], static_cast<int16_t>(levels[i]));
  EXPECT_FALSE(dec.Decode(1, out.data()).ok());  // no more
  // The same runs with a maximum of 1: level 2 is refused, naming the levels.
  ASSERT_OK(dec.Reset(Encoding::kRle, 1, 500, page.data(), static_cast<int64_t>(page.size()), true,
                      "definition levels")
                .status());
  auto st = dec.Decode(500, out.data());
  EXPECT_FALSE(st.ok());
  // A length prefix longer than the page.
  const uint8_t lying[] = {100, 0, 0, 0, 1};
  EXPECT_FALSE(dec.Reset(Encoding::kRle, 1, 5, lying, 5, true, "repetition levels").ok());
  // BIT_PACKED levels (MSB first): 0..7 at width 3.
  const uint8_t msb[3] = {0b00000101, 0b00111001, 0b01110111};
  ASSERT_OK_AND_ASSIGN(used, dec.Reset(Encoding::kBitPacked, 7, 8, msb, 3, false, "levels"));
  EXPECT_EQ(used, 3);
  ASSERT_OK(dec.Decode(3, out.data()));
  ASSERT_OK(dec.Decode(5, out.data() + 3));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], i);
  EXPECT_FALSE(dec.Reset(Encoding::kBitPacked, 7, 9, msb, 3, false, "levels").ok());
  EXPECT_FALSE(dec.Reset(Encoding::kPlain, 7, 9, msb, 3, false, "levels").ok());
}

}  // namespace
}  // namespace alkaid::parquet::internal
