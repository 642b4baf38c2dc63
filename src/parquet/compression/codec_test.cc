#include "codec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "gold_pages_test_util.h"
#include "src/parquet/parquet_test_util.h"
#include "test_util/test_data.h"

namespace alkaid::parquet::internal {
namespace {

const Compression kCodecs[] = {Compression::kSnappy, Compression::kGzip,  Compression::kBrotli,
                               Compression::kZstd,   Compression::kLz4,   Compression::kLz4Raw};

std::string Sample(size_t n, int seed, bool compressible) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) {
    s[i] = compressible ? static_cast<char>("abcdefgh"[(i / 7 + rng() % 2) % 8])
                        : static_cast<char>(rng());
  }
  return s;
}

std::string Compress(const Codec& codec, const std::string& in) {
  alkaid::BufferBuilder out(default_memory_pool());
  auto n = codec.Compress(reinterpret_cast<const uint8_t*>(in.data()),
                          static_cast<int64_t>(in.size()), &out);
  EXPECT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(out.size(), n.ok() ? *n : -1);
  EXPECT_LE(out.size(), codec.MaxCompressedSize(static_cast<int64_t>(in.size())));
  return std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size()));
}

Status Decompress(const Codec& codec, const std::string& in, std::string* out, int64_t size) {
  out->assign(static_cast<size_t>(size), '\0');
  return codec.Decompress(reinterpret_cast<const uint8_t*>(in.data()),
                          static_cast<int64_t>(in.size()),
                          reinterpret_cast<uint8_t*>(out->data()), size);
}

class CodecTest : public ::testing::TestWithParam<Compression> {};

TEST_P(CodecTest, RoundTripsAndRefusesWrongSizes) {
  ASSERT_OK_AND_ASSIGN(auto codec, MakeCodec(GetParam()));
  EXPECT_EQ(codec->compression(), GetParam());
  for (size_t n : {size_t{0}, size_t{1}, size_t{100}, size_t{65536}, size_t{1 << 20}}) {
    for (bool compressible : {true, false}) {
      const std::string in = Sample(n, static_cast<int>(n), compressible);
      const std::string packed = Compress(*codec, in);
      std::string out;
      ASSERT_TRUE(Decompress(*codec, packed, &out, static_cast<int64_t>(n)).ok()) << n;
      EXPECT_EQ(out, in);
      if (n > 0) {
        // A page header that states one byte less or more is refused.
        EXPECT_FALSE(Decompress(*codec, packed, &out, static_cast<int64_t>(n) - 1).ok()) << n;
        EXPECT_FALSE(Decompress(*codec, packed, &out, static_cast<int64_t>(n) + 1).ok()) << n;
        // So is the data cut short.
        EXPECT_FALSE(
            Decompress(*codec, packed.substr(0, packed.size() / 2), &out, static_cast<int64_t>(n))
                .ok())
            << n;
      }
    }
  }
}

TEST_P(CodecTest, GarbageGivesAnErrorNotACrash) {
  ASSERT_OK_AND_ASSIGN(auto codec, MakeCodec(GetParam()));
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::string junk = Sample(rng() % 300, i, i % 2 == 0);
    std::string out;
    // Whatever the result, it stays inside `out` (ASan checks) and does not hang.
    (void)Decompress(*codec, junk, &out, static_cast<int64_t>(rng() % 1000));
  }
  // Flipped bytes in real compressed data.
  const std::string in = Sample(5000, 3, true);
  const std::string packed = Compress(*codec, in);
  for (size_t i = 0; i < packed.size(); i += 7) {
    std::string bad = packed;
    bad[i] = static_cast<char>(bad[i] ^ 0x5a);
    std::string out;
    (void)Decompress(*codec, bad, &out, 5000);
  }
}

TEST_P(CodecTest, Levels) {
  EXPECT_FALSE(MakeCodec(GetParam(), 1000).ok());
  EXPECT_TRUE(MakeCodec(GetParam(), kCodecDefaultLevel).ok());
}

INSTANTIATE_TEST_SUITE_P(Parquet, CodecTest, ::testing::ValuesIn(kCodecs),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

TEST(ParquetCodec, UnsupportedAndUncompressed) {
  EXPECT_TRUE(MakeCodec(Compression::kLzo).status().IsNotImplemented());
  EXPECT_FALSE(IsCodecAvailable(Compression::kLzo));
  EXPECT_TRUE(IsCodecAvailable(Compression::kZstd));
  auto raw = Buffer::FromString("hello");
  ASSERT_OK_AND_ASSIGN(auto same, DecompressPage(nullptr, raw, 5));
  EXPECT_EQ(same.get(), raw.get());  // zero-copy
  EXPECT_FALSE(DecompressPage(nullptr, raw, 6).ok());
  EXPECT_FALSE(DecompressPage(nullptr, raw, -1).ok());
}

TEST(ParquetCodec, Lz4ReadsRawBlocksAndFramesUnderTheHadoopCodec) {
  ASSERT_OK_AND_ASSIGN(auto hadoop, MakeCodec(Compression::kLz4));
  ASSERT_OK_AND_ASSIGN(auto raw, MakeCodec(Compression::kLz4Raw));
  const std::string in = Sample(10000, 5, true);
  const std::string block = Compress(*raw, in);
  std::string out;
  ASSERT_TRUE(Decompress(*hadoop, block, &out, 10000).ok());
  EXPECT_EQ(out, in);
  // Hadoop framing: two blocks back to back.
  const std::string a = Compress(*hadoop, in.substr(0, 4000));
  const std::string b = Compress(*hadoop, in.substr(4000));
  ASSERT_TRUE(Decompress(*hadoop, a + b, &out, 10000).ok());
  EXPECT_EQ(out, in);
  EXPECT_EQ(static_cast<uint8_t>(a[3]), 4000 % 256);  // big-endian uncompressed size
}

TEST(ParquetCodec, GzipReadsConcatenatedMembersAndZlibStreams) {
  ASSERT_OK_AND_ASSIGN(auto gzip, MakeCodec(Compression::kGzip));
  const std::string in = Sample(3000, 9, true);
  const std::string two = Compress(*gzip, in.substr(0, 1000)) + Compress(*gzip, in.substr(1000));
  std::string out;
  ASSERT_TRUE(Decompress(*gzip, two, &out, 3000).ok());
  EXPECT_EQ(out, in);
  EXPECT_FALSE(Decompress(*gzip, two + "junk", &out, 3000).ok());
}

// Every page of every unencrypted gold file decompresses to exactly the size
// its header states.
TEST(ParquetCodec, EveryGoldFilePageDecompresses) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  int files = 0, pages = 0;
  std::map<int, int> by_codec;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/parquet-testing/data")) {
    if (entry.path().extension() != ".parquet") continue;
    auto file = testing::ReadGoldFile(entry.path().string());
    if (!file) continue;  // not walkable by the test's small footer reader
    ++files;
    for (const auto& chunk : file->chunks) {
      std::unique_ptr<Codec> codec;
      if (chunk.codec != 0) {
        auto made = MakeCodec(static_cast<Compression>(chunk.codec));
        ASSERT_TRUE(made.ok()) << entry.path() << ": " << made.status().ToString();
        codec = std::move(*made);
      }
      for (const auto& page : chunk.pages) {
        std::string body = page.body;
        int64_t size = page.uncompressed_size;
        bool compressed = codec != nullptr;
        if (page.type == 3) {
          // v2: the levels precede the compressed values and are never compressed.
          const auto* v2 = page.header.Field(8);
          const int64_t levels = v2->Int(5, 0) + v2->Int(6, 0);
          body = body.substr(static_cast<size_t>(levels));
          size -= levels;
          compressed = compressed && v2->Int(7, 1) != 0;
        }
        // The 1 GiB pages of large_string_map.brotli.parquet cost seconds: its
        // small pages still cover BROTLI.
        if (size > (int64_t{64} << 20)) continue;
        auto out = DecompressPage(compressed ? codec.get() : nullptr, Buffer::FromString(body), size);
        EXPECT_TRUE(out.ok()) << entry.path() << " column " << chunk.path << ": "
                              << out.status().ToString();
        if (!compressed) continue;
        ++pages;
        ++by_codec[chunk.codec];
      }
    }
  }
  EXPECT_GT(files, 40);
  for (Compression c : kCodecs) {
    EXPECT_GT(by_codec[static_cast<int>(c)], 0) << "no gold page uses " << CompressionName(c);
  }
  std::cout << files << " files, " << pages << " compressed pages\n";
}

}  // namespace
}  // namespace alkaid::parquet::internal
