// Hostile pages: each check a decoder makes, by a page that fails it, plus
// random and mutated pages through the fuzz driver (which must never crash,
// hang or read out of bounds; run under the asan preset).
#include <gtest/gtest.h>

#include <random>

#include "bit_packing.h"
#include "decoder.h"
#include "delta_internal.h"
#include "encoder.h"
#include "fuzz_decoders.h"
#include "src/parquet/parquet_test_util.h"

namespace alkaid::parquet::internal {
namespace {

Status Decode(PhysicalType type, Encoding encoding, const std::vector<uint8_t>& page,
              int64_t num_values, int64_t n, int32_t type_length = 0) {
  ALKAID_ASSIGN_OR_RAISE(auto dec, MakeDecoder(type, encoding, type_length));
  ALKAID_RETURN_NOT_OK(dec->SetData(num_values, page.data(), static_cast<int64_t>(page.size())));
  if (type == PhysicalType::kByteArray) {
    alkaid::BufferBuilder offsets(default_memory_pool()), data(default_memory_pool());
    ALKAID_RETURN_NOT_OK(offsets.Append("\0\0\0\0", 4));
    BinaryOutput out{&offsets, &data, false};
    return dec->DecodeBinary(n, &out).status();
  }
  std::vector<uint8_t> out(static_cast<size_t>(n * 16 + 8));
  if (type == PhysicalType::kBoolean) return dec->DecodeBits(n, out.data(), 0);
  return dec->Decode(n, out.data());
}

std::vector<uint8_t> Varints(std::initializer_list<int64_t> unsigned_then_zigzag_last) {
  std::vector<uint8_t> out;
  uint8_t buf[10];
  const auto n = unsigned_then_zigzag_last.size();
  size_t i = 0;
  for (int64_t v : unsigned_then_zigzag_last) {
    const int k = ++i == n ? WriteZigZag(v, buf) : WriteUleb128(static_cast<uint64_t>(v), buf);
    out.insert(out.end(), buf, buf + k);
  }
  return out;
}

void ExpectError(const Status& st, const char* needle) {
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find(needle), std::string::npos) << st.ToString();
}

TEST(ParquetHostile, Plain) {
  // A BYTE_ARRAY length past the page, and a cut-off length.
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kPlain, {200, 0, 0, 0, 'a'}, 1, 1),
              "runs past the end");
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kPlain, {1, 0, 0, 0, 'a', 2}, 2, 2),
              "cut off");
  // Fixed-width values past the page, and more values than the page claims.
  ExpectError(Decode(PhysicalType::kInt64, Encoding::kPlain, {1, 2, 3}, 1, 1), "need 8 bytes");
  ExpectError(Decode(PhysicalType::kInt32, Encoding::kPlain, {1, 2, 3, 4}, 1, 2), "asked for 2");
  ExpectError(Decode(PhysicalType::kBoolean, Encoding::kPlain, {1}, 100, 9), "PLAIN BOOLEAN");
}

TEST(ParquetHostile, DeltaBinaryPacked) {
  const auto i64 = PhysicalType::kInt64;
  const auto e = Encoding::kDeltaBinaryPacked;
  ExpectError(Decode(i64, e, Varints({100, 4, 10, 0}), 10, 10), "block size");
  ExpectError(Decode(i64, e, Varints({128, 0, 10, 0}), 10, 10), "miniblock count");
  ExpectError(Decode(i64, e, Varints({128, 3, 10, 0}), 10, 10), "miniblock count");
  ExpectError(Decode(i64, e, Varints({128, 4, int64_t{1} << 40, 0}), 10, 10), "value count");
  ExpectError(Decode(i64, e, {0x80, 0x01}, 10, 10), "header");
  // A miniblock bit width of 65, and one of 33 for INT32.
  auto wide = Varints({128, 4, 10, 0});
  wide.insert(wide.end(), {0, 65, 0, 0, 0});
  ExpectError(Decode(i64, e, wide, 10, 10), "bit width");
  auto wide32 = Varints({128, 4, 10, 0});
  wide32.insert(wide32.end(), {0, 33, 0, 0, 0});
  ExpectError(Decode(PhysicalType::kInt32, e, wide32, 10, 10), "bit width");
  // Miniblock bytes missing.
  auto cut = Varints({128, 4, 100, 0});
  cut.insert(cut.end(), {0, 8, 8, 8, 8, 1, 2, 3});
  ExpectError(Decode(i64, e, cut, 100, 100), "past the end");
  // A header promising many values of width 0 costs nothing: the values are there.
  auto zeros = Varints({128, 4, 1000, 7});
  for (int b = 0; b < 8; ++b) zeros.insert(zeros.end(), {0, 0, 0, 0, 0});
  EXPECT_TRUE(Decode(i64, e, zeros, 1000, 1000).ok());
}

TEST(ParquetHostile, DeltaByteArrays) {
  // Lengths: DELTA_BINARY_PACKED of {5, -3}: a negative length.
  alkaid::BufferBuilder b(default_memory_pool());
  const int32_t negative[2] = {5, -3};
  ASSERT_OK(WriteDeltaInts(negative, 2, &b));
  std::vector<uint8_t> page(b.data(), b.data() + b.size());
  page.insert(page.end(), 5, 'x');
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, page, 2, 2),
              "negative length");
  // Lengths adding up to more than follows them.
  const int32_t big[2] = {5, 100};
  b.Reset();
  ASSERT_OK(WriteDeltaInts(big, 2, &b));
  page.assign(b.data(), b.data() + b.size());
  page.insert(page.end(), 10, 'x');
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, page, 2, 2),
              "add up to");
  // More lengths than the page has values.
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, page, 1, 1),
              "lengths for a page of 1");
  // DELTA_BYTE_ARRAY: a prefix longer than the previous value.
  const int32_t prefixes[2] = {0, 4};
  const int32_t suffixes[2] = {2, 1};
  b.Reset();
  ASSERT_OK(WriteDeltaInts(prefixes, 2, &b));
  ASSERT_OK(WriteDeltaInts(suffixes, 2, &b));
  page.assign(b.data(), b.data() + b.size());
  page.insert(page.end(), {'a', 'b', 'c'});
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kDeltaByteArray, page, 2, 2),
              "prefix length 4");
  // Prefixes that rebuild a huge value from a few bytes: bounded.
  std::vector<int32_t> many_prefixes(200000, 60000), many_suffixes(200000, 0);
  many_prefixes[0] = 0;
  many_suffixes[0] = 60000;
  b.Reset();
  ASSERT_OK(WriteDeltaInts(many_prefixes.data(), 200000, &b));
  ASSERT_OK(WriteDeltaInts(many_suffixes.data(), 200000, &b));
  page.assign(b.data(), b.data() + b.size());
  page.insert(page.end(), 60000, 'z');
  ExpectError(Decode(PhysicalType::kByteArray, Encoding::kDeltaByteArray, page, 200000, 200000),
              "would decode to more than");
  // FIXED_LEN_BYTE_ARRAY values of the wrong length.
  const int32_t p0[1] = {0}, s3[1] = {3};
  b.Reset();
  ASSERT_OK(WriteDeltaInts(p0, 1, &b));
  ASSERT_OK(WriteDeltaInts(s3, 1, &b));
  page.assign(b.data(), b.data() + b.size());
  page.insert(page.end(), {'a', 'b', 'c'});
  ExpectError(Decode(PhysicalType::kFixedLenByteArray, Encoding::kDeltaByteArray, page, 1, 1, 4),
              "not the column's 4");
}

TEST(ParquetHostile, DictionaryAndByteStreamSplit) {
  ASSERT_OK_AND_ASSIGN(auto dict, MakeDictionaryDecoder(PhysicalType::kInt32, 0));
  const std::vector<uint8_t> entries = {1, 0, 0, 0, 2, 0, 0, 0};
  // More entries than bytes; then a good dictionary.
  ExpectError(dict->SetDictionary(3, entries.data(), 8), "has only 8 bytes");
  ASSERT_OK(dict->SetDictionary(2, entries.data(), 8));
  const std::vector<uint8_t> wide = {33, 0};
  ExpectError(dict->SetData(1, wide.data(), 2), "bit width 33");
  // Index 5 (an RLE run) past the two entries.
  const std::vector<uint8_t> run = {3, 0x08, 5};
  ASSERT_OK(dict->SetData(4, run.data(), 3));
  int32_t out[4];
  ExpectError(dict->Decode(4, reinterpret_cast<uint8_t*>(out)), "past the dictionary");
  ASSERT_OK(dict->SetData(4, run.data(), 3));
  ExpectError(dict->DecodeIndices(4, out), "past the dictionary");
  // Indices that end early.
  const std::vector<uint8_t> short_run = {1, 0x04, 1};
  ASSERT_OK(dict->SetData(4, short_run.data(), 3));
  ExpectError(dict->Decode(4, reinterpret_cast<uint8_t*>(out)), "end after 2 of 4");
  // BYTE_STREAM_SPLIT of a size that is not whole values, or of more values than the page.
  ExpectError(Decode(PhysicalType::kFloat, Encoding::kByteStreamSplit, {1, 2, 3, 4, 5}, 2, 1),
              "whole number");
  ExpectError(Decode(PhysicalType::kFloat, Encoding::kByteStreamSplit, std::vector<uint8_t>(8), 1,
                     1),
              "values in a page of 1");
}

TEST(ParquetHostile, WrongTypeAndEncoding) {
  EXPECT_FALSE(MakeDecoder(PhysicalType::kDouble, Encoding::kDeltaBinaryPacked, 0).ok());
  EXPECT_FALSE(MakeDecoder(PhysicalType::kInt32, Encoding::kRle, 0).ok());
  EXPECT_FALSE(MakeDecoder(PhysicalType::kFixedLenByteArray, Encoding::kPlain, 0).ok());
  EXPECT_FALSE(MakeDecoder(PhysicalType::kFixedLenByteArray, Encoding::kPlain, -5).ok());
  EXPECT_TRUE(MakeDecoder(PhysicalType::kDouble, Encoding::kAlp, 0).status().IsNotImplemented());
  EXPECT_FALSE(MakeDecoder(static_cast<PhysicalType>(42), Encoding::kPlain, 0).ok());
  EXPECT_FALSE(MakeEncoder(PhysicalType::kInt96, Encoding::kByteStreamSplit, 0).ok());
  EXPECT_FALSE(MakeDictionaryEncoder(PhysicalType::kBoolean, 0, 100).ok());
}

// Random pages, and pages of real encoded data with bytes flipped, through
// every decoder, the level decoder and every codec.
TEST(ParquetHostile, RandomAndMutatedPages) {
  std::mt19937 rng(2024);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> input(4 + rng() % 200);
    for (auto& b : input) b = static_cast<uint8_t>(rng());
    input[2] = static_cast<uint8_t>(rng() % 40);
    input[3] = 0;
    FuzzDecodersOnce(input.data(), input.size());
  }
  // Valid pages of each encoding, mutated.
  for (int choice = 0; choice < kFuzzValueChoices; ++choice) {
    const FuzzChoice& c = kFuzzChoices[choice];
    if (c.encoding == Encoding::kRleDictionary || c.encoding == Encoding::kPlainDictionary) continue;
    auto enc = MakeEncoder(c.type, c.encoding, c.type_length);
    ASSERT_TRUE(enc.ok()) << enc.status().ToString();
    std::vector<uint8_t> values(300 * 16);
    for (auto& b : values) b = static_cast<uint8_t>(rng() % 4);
    std::vector<int32_t> offsets(301);
    for (int k = 0; k <= 300; ++k) offsets[static_cast<size_t>(k)] = k * 3;
    if (c.type == PhysicalType::kBoolean) ASSERT_OK((*enc)->PutBits(values.data(), 0, 300));
    else if (c.type == PhysicalType::kByteArray) ASSERT_OK((*enc)->PutBinary(offsets.data(), values.data(), 300));
    else ASSERT_OK((*enc)->Put(values.data(), 300));
    ASSERT_OK_AND_ASSIGN(auto page, (*enc)->FlushValues());
    for (int m = 0; m < 300; ++m) {
      std::vector<uint8_t> input = {static_cast<uint8_t>(choice), static_cast<uint8_t>(rng()), 0, 0};
      input.insert(input.end(), page->data(), page->data() + page->size());
      input[4 + rng() % page->size()] ^= static_cast<uint8_t>(1 + rng() % 255);
      FuzzDecodersOnce(input.data(), input.size());
    }
  }
}

}  // namespace
}  // namespace alkaid::parquet::internal
