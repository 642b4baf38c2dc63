// Every encoding of every physical type it applies to: encode random values
// (with and without nulls) in odd-sized pieces, decode them in odd-sized
// batches, dense and spaced, and compare.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "alkaid/bitmap.h"
#include "decoder.h"
#include "encoder.h"
#include "src/parquet/parquet_test_util.h"

namespace alkaid::parquet::internal {
namespace {

struct Case {
  PhysicalType type;
  Encoding encoding;
  int32_t type_length = 0;
};

std::string Name(const Case& c) {
  return std::string(PhysicalTypeName(c.type)) + "_" + EncodingName(c.encoding) +
         (c.type_length ? "_" + std::to_string(c.type_length) : "");
}

const Case kCases[] = {
    {PhysicalType::kBoolean, Encoding::kPlain},
    {PhysicalType::kBoolean, Encoding::kRle},
    {PhysicalType::kInt32, Encoding::kPlain},
    {PhysicalType::kInt64, Encoding::kPlain},
    {PhysicalType::kInt96, Encoding::kPlain},
    {PhysicalType::kFloat, Encoding::kPlain},
    {PhysicalType::kDouble, Encoding::kPlain},
    {PhysicalType::kByteArray, Encoding::kPlain},
    {PhysicalType::kFixedLenByteArray, Encoding::kPlain, 3},
    {PhysicalType::kInt32, Encoding::kRleDictionary},
    {PhysicalType::kInt64, Encoding::kRleDictionary},
    {PhysicalType::kInt96, Encoding::kRleDictionary},
    {PhysicalType::kFloat, Encoding::kRleDictionary},
    {PhysicalType::kDouble, Encoding::kRleDictionary},
    {PhysicalType::kByteArray, Encoding::kRleDictionary},
    {PhysicalType::kFixedLenByteArray, Encoding::kRleDictionary, 16},
    {PhysicalType::kInt32, Encoding::kDeltaBinaryPacked},
    {PhysicalType::kInt64, Encoding::kDeltaBinaryPacked},
    {PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray},
    {PhysicalType::kByteArray, Encoding::kDeltaByteArray},
    {PhysicalType::kFixedLenByteArray, Encoding::kDeltaByteArray, 5},
    {PhysicalType::kFloat, Encoding::kByteStreamSplit},
    {PhysicalType::kDouble, Encoding::kByteStreamSplit},
    {PhysicalType::kInt32, Encoding::kByteStreamSplit},
    {PhysicalType::kInt64, Encoding::kByteStreamSplit},
    {PhysicalType::kFixedLenByteArray, Encoding::kByteStreamSplit, 7},
};

// Test data of one column: slots, validity, and each slot's value as bytes.
struct Column {
  int64_t n = 0;
  std::vector<uint8_t> valid;        // bitmap; empty: all valid
  std::vector<uint8_t> fixed;        // n * width bytes (nulls zero)
  std::vector<uint8_t> bits;         // booleans
  std::vector<int32_t> offsets{0};   // binary
  std::string data;                  // binary bytes
  int64_t null_count = 0;
  const uint8_t* valid_bits() const { return valid.empty() ? nullptr : valid.data(); }
  bool IsValid(int64_t i) const { return valid.empty() || bit_util::GetBit(valid.data(), i); }
};

Column MakeColumn(const Case& c, int width, int64_t n, bool nulls, uint32_t seed) {
  std::mt19937_64 rng(seed);
  Column col;
  col.n = n;
  if (nulls) {
    col.valid.assign(static_cast<size_t>((n + 7) / 8), 0);
    for (int64_t i = 0; i < n; ++i) {
      if (rng() % 10 >= 3) bit_util::SetBit(col.valid.data(), i);
      else ++col.null_count;
    }
  }
  // Few distinct values for dictionaries, extremes and small deltas for DELTA.
  const bool dict = c.encoding == Encoding::kRleDictionary;
  auto next = [&]() -> uint64_t {
    switch (rng() % 4) {
      case 0: return dict ? rng() % 5 : rng();
      case 1: return rng() % 2 ? ~uint64_t{0} >> 1 : uint64_t{1} << 63;
      default: return rng() % 100;
    }
  };
  col.bits.assign(static_cast<size_t>((n + 7) / 8), 0);
  col.fixed.assign(static_cast<size_t>(n * width), 0);
  for (int64_t i = 0; i < n; ++i) {
    const bool valid = col.IsValid(i);
    if (c.type == PhysicalType::kBoolean) {
      if (valid && rng() % 3) bit_util::SetBit(col.bits.data(), i);
    } else if (c.type == PhysicalType::kByteArray) {
      if (valid) {
        // Shared prefixes for DELTA_BYTE_ARRAY, repeats for dictionaries.
        std::string s = dict ? "value" + std::to_string(next() % 7)
                             : std::string(rng() % 3, 'p') + std::to_string(next());
        if (rng() % 17 == 0) s.clear();
        col.data += s;
      }
      col.offsets.push_back(static_cast<int32_t>(col.data.size()));
    } else if (valid) {
      for (int b = 0; b < width; b += 8) {
        const uint64_t v = next();
        std::memcpy(&col.fixed[static_cast<size_t>(i * width + b)], &v,
                    static_cast<size_t>(std::min(8, width - b)));
      }
    }
  }
  return col;
}

Result<BufferPtr> EncodeColumn(const Case& c, const Column& col, std::mt19937& rng,
                               BufferPtr* dictionary, int64_t* dict_entries) {
  std::unique_ptr<ValueEncoder> enc;
  DictionaryEncoder* dict = nullptr;
  if (c.encoding == Encoding::kRleDictionary) {
    ALKAID_ASSIGN_OR_RAISE(auto d, MakeDictionaryEncoder(c.type, c.type_length, 1 << 20));
    dict = d.get();
    enc = std::move(d);
  } else {
    ALKAID_ASSIGN_OR_RAISE(enc, MakeEncoder(c.type, c.encoding, c.type_length));
  }
  const int width = enc->value_width();
  for (int64_t at = 0; at < col.n;) {
    const int64_t k = std::min<int64_t>(col.n - at, rng() % 300 + 1);
    const uint8_t* valid = col.valid_bits();
    if (c.type == PhysicalType::kBoolean) {
      ALKAID_RETURN_NOT_OK(enc->PutBits(col.bits.data(), at, k, valid, at));
    } else if (c.type == PhysicalType::kByteArray) {
      ALKAID_RETURN_NOT_OK(enc->PutBinary(col.offsets.data() + at,
                                          reinterpret_cast<const uint8_t*>(col.data.data()), k,
                                          valid, at));
    } else {
      // Put's validity is relative to its own first slot: pass the column's bitmap with offset.
      ALKAID_RETURN_NOT_OK(enc->Put(col.fixed.data() + at * width, k, valid, at));
    }
    at += k;
  }
  if (enc->num_values() != col.n - col.null_count) {
    return Status::Invalid("encoder counted ", enc->num_values(), " values");
  }
  if (dict) {
    ALKAID_ASSIGN_OR_RAISE(*dictionary, dict->FlushDictionary());
    *dict_entries = dict->num_entries();
  }
  return enc->FlushValues();
}

class RoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTrip, DenseAndSpacedInBatches) {
  const Case c = GetParam();
  const int width = FixedValueWidth(c.type, c.type_length);
  for (int64_t n : {0, 1, 2, 127, 128, 129, 1000, 4099}) {
    for (bool nulls : {false, true}) {
      SCOPED_TRACE("n=" + std::to_string(n) + (nulls ? " with nulls" : ""));
      const Column col = MakeColumn(c, width, n, nulls, static_cast<uint32_t>(n * 2 + nulls));
      std::mt19937 rng(static_cast<uint32_t>(n));
      BufferPtr dict_page;
      int64_t entries = 0;
      ASSERT_OK_AND_ASSIGN(BufferPtr page, EncodeColumn(c, col, rng, &dict_page, &entries));

      ASSERT_OK_AND_ASSIGN(auto dec, MakeDecoder(c.type, c.encoding, c.type_length));
      if (dict_page) {
        auto* d = static_cast<DictionaryDecoder*>(dec.get());
        ASSERT_OK(d->SetDictionary(entries, dict_page->data(), dict_page->size()));
        EXPECT_EQ(d->dictionary().length, entries);
      }
      // v1 pages count nulls in num_values; decoders must accept that.
      ASSERT_OK(dec->SetData(n, page->data(), page->size()));
      // Decoded slots (spaced): fixed bytes, bits, or binary builders.
      std::vector<uint8_t> fixed(static_cast<size_t>(n * width) + 1, 0xee);
      std::vector<uint8_t> bits(static_cast<size_t>((n + 7) / 8) + 1, 0xff);
      alkaid::BufferBuilder offsets(default_memory_pool()), data(default_memory_pool());
      ASSERT_OK(offsets.Append("\0\0\0\0", 4));
      BinaryOutput out{&offsets, &data, false};
      for (int64_t at = 0; at < n;) {
        const int64_t k = std::min<int64_t>(n - at, rng() % 200 + 1);
        const int64_t nulls_here =
            nulls ? k - bit_util::CountSetBits(col.valid.data(), at, k) : 0;
        if (c.type == PhysicalType::kBoolean) {
          ASSERT_OK(dec->DecodeBitsSpaced(k, nulls_here, col.valid_bits(), at, bits.data(), at));
        } else if (c.type == PhysicalType::kByteArray) {
          ASSERT_OK_AND_ASSIGN(int64_t got, dec->DecodeBinarySpaced(k, nulls_here,
                                                                    col.valid_bits(), at, &out));
          ASSERT_EQ(got, k);
        } else if (nulls) {
          ASSERT_OK(dec->DecodeSpaced(k, nulls_here, col.valid.data(), at,
                                      fixed.data() + at * width));
        } else {
          ASSERT_OK(dec->Decode(k, fixed.data() + at * width));
        }
        at += k;
      }
      // Compare.
      for (int64_t i = 0; i < n; ++i) {
        if (c.type == PhysicalType::kBoolean) {
          ASSERT_EQ(bit_util::GetBit(bits.data(), i), bit_util::GetBit(col.bits.data(), i)) << i;
        } else if (c.type == PhysicalType::kByteArray) {
          const auto* o = reinterpret_cast<const int32_t*>(offsets.data());
          const std::string got(reinterpret_cast<const char*>(data.data()) + o[i],
                                static_cast<size_t>(o[i + 1] - o[i]));
          ASSERT_EQ(got, col.data.substr(static_cast<size_t>(col.offsets[i]),
                                         static_cast<size_t>(col.offsets[i + 1] - col.offsets[i])))
              << i;
        } else {
          ASSERT_EQ(0, std::memcmp(fixed.data() + i * width, col.fixed.data() + i * width,
                                   static_cast<size_t>(width)))
              << i;
        }
      }
      // Nothing more to decode (the page has only its non-null values).
      if (width > 0) {
        EXPECT_FALSE(dec->Decode(col.null_count + 1, fixed.data()).ok());
      }
    }
  }
}

TEST_P(RoundTrip, SkipThenDecode) {
  const Case c = GetParam();
  const int width = FixedValueWidth(c.type, c.type_length);
  const int64_t n = 700;
  const Column col = MakeColumn(c, width, n, false, 99);
  std::mt19937 rng(1);
  BufferPtr dict_page;
  int64_t entries = 0;
  ASSERT_OK_AND_ASSIGN(BufferPtr page, EncodeColumn(c, col, rng, &dict_page, &entries));
  for (int64_t skip : {0, 1, 31, 128, 300, 699}) {
    ASSERT_OK_AND_ASSIGN(auto dec, MakeDecoder(c.type, c.encoding, c.type_length));
    if (dict_page) {
      ASSERT_OK(static_cast<DictionaryDecoder*>(dec.get())
                    ->SetDictionary(entries, dict_page->data(), dict_page->size()));
    }
    ASSERT_OK(dec->SetData(n, page->data(), page->size()));
    ASSERT_OK(dec->Skip(skip));
    EXPECT_EQ(dec->values_left(), n - skip);
    if (c.type == PhysicalType::kBoolean) {
      uint8_t b = 0;
      ASSERT_OK(dec->DecodeBits(1, &b, 0));
      EXPECT_EQ(b & 1, bit_util::GetBit(col.bits.data(), skip) ? 1 : 0);
    } else if (c.type == PhysicalType::kByteArray) {
      alkaid::BufferBuilder offsets(default_memory_pool()), data(default_memory_pool());
      ASSERT_OK(offsets.Append("\0\0\0\0", 4));
      BinaryOutput out{&offsets, &data, false};
      ASSERT_OK(dec->DecodeBinary(1, &out).status());
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(data.data()),
                            static_cast<size_t>(data.size())),
                col.data.substr(static_cast<size_t>(col.offsets[skip]),
                                static_cast<size_t>(col.offsets[skip + 1] - col.offsets[skip])));
    } else {
      std::vector<uint8_t> v(static_cast<size_t>(width));
      ASSERT_OK(dec->Decode(1, v.data()));
      EXPECT_EQ(0, std::memcmp(v.data(), col.fixed.data() + skip * width, v.size()));
    }
  }
}

TEST(ParquetPlain, DecodeInPlacePointsIntoThePage) {
  const int64_t values[4] = {1, -2, 3, 1 << 30};
  ASSERT_OK_AND_ASSIGN(auto dec, MakeDecoder(PhysicalType::kInt64, Encoding::kPlain, 0));
  const auto* page = reinterpret_cast<const uint8_t*>(values);
  ASSERT_OK(dec->SetData(4, page, sizeof(values)));
  ASSERT_OK_AND_ASSIGN(const uint8_t* first, dec->DecodeInPlace(3));
  EXPECT_EQ(first, page);
  ASSERT_OK_AND_ASSIGN(const uint8_t* last, dec->DecodeInPlace(1));
  EXPECT_EQ(last, page + 24);
  EXPECT_FALSE(dec->DecodeInPlace(1).ok());
  // Encodings that transform their values say so with null.
  ASSERT_OK_AND_ASSIGN(auto bss, MakeDecoder(PhysicalType::kInt64, Encoding::kByteStreamSplit, 0));
  ASSERT_OK(bss->SetData(4, page, sizeof(values)));
  ASSERT_OK_AND_ASSIGN(const uint8_t* none, bss->DecodeInPlace(1));
  EXPECT_EQ(none, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Parquet, RoundTrip, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return Name(info.param); });

}  // namespace
}  // namespace alkaid::parquet::internal
