// Parquet encodings: decode (and encode) throughput of each encoding on one
// page of 256 Ki values, next to a memcpy of the decoded bytes (the floor any
// decoder that writes its output once can reach). Bytes are the decoded
// (Arrow) bytes; items are values.
//
//   build/release/bench/parquet_encoding_bench --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "alkaid/bitmap.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/encoding/bit_packing.h"
#include "src/parquet/encoding/decoder.h"
#include "src/parquet/encoding/encoder.h"
#include "src/parquet/encoding/rle.h"

namespace {

using namespace alkaid;
using namespace alkaid::parquet;
using namespace alkaid::parquet::internal;

constexpr int64_t kValues = 256 * 1024;

void Check(const Status& st) {
  if (!st.ok()) {
    fprintf(stderr, "%s\n", st.ToString().c_str());
    std::abort();
  }
}
template <typename T>
T Check(Result<T> r) {
  Check(r.status());
  return std::move(*r);
}

// kValues values of `width` bytes: small integers (distinct = how many different ones).
std::vector<uint8_t> FixedValues(int width, uint64_t distinct, bool sorted = false) {
  std::mt19937_64 rng(1);
  std::vector<uint8_t> out(static_cast<size_t>(kValues * width));
  for (int64_t i = 0; i < kValues; ++i) {
    uint64_t v = sorted ? static_cast<uint64_t>(i) * 3 + rng() % 3 : rng() % distinct;
    std::memcpy(&out[static_cast<size_t>(i * width)], &v, static_cast<size_t>(std::min(width, 8)));
  }
  return out;
}

struct Strings {
  std::vector<int32_t> offsets{0};
  std::string data;
};
Strings StringValues(uint64_t distinct) {
  std::mt19937_64 rng(2);
  Strings s;
  for (int64_t i = 0; i < kValues; ++i) {
    s.data += "customer#" + std::to_string(rng() % distinct);
    s.offsets.push_back(static_cast<int32_t>(s.data.size()));
  }
  return s;
}

// The encoded page and the dictionary page (if any) of kValues values.
struct Page {
  BufferPtr values;
  BufferPtr dictionary;
  int64_t entries = 0;
};

Page Encode(PhysicalType type, Encoding encoding, const std::vector<uint8_t>& fixed,
            const Strings* strings) {
  Page page;
  std::unique_ptr<ValueEncoder> enc;
  DictionaryEncoder* dict = nullptr;
  if (encoding == Encoding::kRleDictionary) {
    auto d = Check(MakeDictionaryEncoder(type, 0, int64_t{1} << 30));
    dict = d.get();
    enc = std::move(d);
  } else {
    enc = Check(MakeEncoder(type, encoding, 0));
  }
  if (strings) {
    Check(enc->PutBinary(strings->offsets.data(),
                         reinterpret_cast<const uint8_t*>(strings->data.data()), kValues));
  } else if (type == PhysicalType::kBoolean) {
    Check(enc->PutBits(fixed.data(), 0, kValues));
  } else {
    Check(enc->Put(fixed.data(), kValues));
  }
  if (dict) {
    page.dictionary = Check(dict->FlushDictionary());
    page.entries = dict->num_entries();
  }
  page.values = Check(enc->FlushValues());
  return page;
}

std::unique_ptr<ValueDecoder> Decoder(PhysicalType type, Encoding encoding, const Page& page) {
  auto dec = Check(MakeDecoder(type, encoding, 0));
  if (page.dictionary) {
    Check(static_cast<DictionaryDecoder*>(dec.get())
              ->SetDictionary(page.entries, page.dictionary->data(), page.dictionary->size()));
  }
  return dec;
}

void BM_Memcpy(benchmark::State& state) {
  const int64_t bytes = state.range(0);
  std::vector<uint8_t> src(static_cast<size_t>(bytes), 1), dst(static_cast<size_t>(bytes));
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), static_cast<size_t>(bytes));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_Memcpy)->Arg(kValues * 4)->Arg(kValues * 8);

// Fixed-width decode: PLAIN, dictionary, delta, byte stream split.
void DecodeFixed(benchmark::State& state, PhysicalType type, Encoding encoding, int width,
                 uint64_t distinct, bool sorted, double null_fraction) {
  const auto values = FixedValues(width, distinct, sorted);
  const Page page = Encode(type, encoding, values, nullptr);
  auto dec = Decoder(type, encoding, page);
  std::vector<uint8_t> out(static_cast<size_t>(kValues * width));
  std::vector<uint8_t> valid(static_cast<size_t>(kValues / 8), 0xff);
  std::mt19937 rng(3);
  int64_t nulls = 0;
  for (int64_t i = 0; i < kValues && null_fraction > 0; ++i) {
    if (rng() % 1000 < null_fraction * 1000) {
      bit_util::ClearBit(valid.data(), i);
      ++nulls;
    }
  }
  constexpr int64_t kBatch = 4096;
  for (auto _ : state) {
    Check(dec->SetData(kValues, page.values->data(), page.values->size()));
    for (int64_t at = 0; at < kValues; at += kBatch) {
      if (null_fraction > 0) {
        const int64_t batch_nulls = kBatch - bit_util::CountSetBits(valid.data(), at, kBatch);
        Check(dec->DecodeSpaced(kBatch, batch_nulls, valid.data(), at, out.data() + at * width));
      } else {
        Check(dec->Decode(kBatch, out.data() + at * width));
      }
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * width);
  state.SetItemsProcessed(state.iterations() * kValues);
  state.counters["encoded_bytes"] = static_cast<double>(page.values->size());
}

BENCHMARK_CAPTURE(DecodeFixed, plain_int32, PhysicalType::kInt32, Encoding::kPlain, 4, 1 << 30, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, plain_int64, PhysicalType::kInt64, Encoding::kPlain, 8, 1 << 30, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, plain_double_10pct_null, PhysicalType::kDouble, Encoding::kPlain, 8, 1 << 30, false, 0.1);
BENCHMARK_CAPTURE(DecodeFixed, dict_int32_1k, PhysicalType::kInt32, Encoding::kRleDictionary, 4, 1000, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, dict_int64_100, PhysicalType::kInt64, Encoding::kRleDictionary, 8, 100, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, dict_int64_100_10pct_null, PhysicalType::kInt64, Encoding::kRleDictionary, 8, 100, false, 0.1);
BENCHMARK_CAPTURE(DecodeFixed, delta_int32_sorted, PhysicalType::kInt32, Encoding::kDeltaBinaryPacked, 4, 0, true, 0);
BENCHMARK_CAPTURE(DecodeFixed, delta_int64_sorted, PhysicalType::kInt64, Encoding::kDeltaBinaryPacked, 8, 0, true, 0);
BENCHMARK_CAPTURE(DecodeFixed, delta_int64_random, PhysicalType::kInt64, Encoding::kDeltaBinaryPacked, 8, 1 << 30, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, bss_float, PhysicalType::kFloat, Encoding::kByteStreamSplit, 4, 1 << 30, false, 0);
BENCHMARK_CAPTURE(DecodeFixed, bss_double, PhysicalType::kDouble, Encoding::kByteStreamSplit, 8, 1 << 30, false, 0);

void DecodeBools(benchmark::State& state, Encoding encoding) {
  std::vector<uint8_t> bits(static_cast<size_t>(kValues / 8));
  std::mt19937 rng(4);
  // Runs of 1..20 equal bits, so RLE has runs to find.
  for (int64_t i = 0; i < kValues;) {
    const int run = 1 + static_cast<int>(rng() % 20);
    const bool v = rng() % 2;
    for (int k = 0; k < run && i < kValues; ++k, ++i) bit_util::SetBitTo(bits.data(), i, v);
  }
  const Page page = Encode(PhysicalType::kBoolean, encoding, bits, nullptr);
  auto dec = Decoder(PhysicalType::kBoolean, encoding, page);
  std::vector<uint8_t> out(bits.size());
  for (auto _ : state) {
    Check(dec->SetData(kValues, page.values->data(), page.values->size()));
    for (int64_t at = 0; at < kValues; at += 4096) Check(dec->DecodeBits(4096, out.data(), at));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues / 8);
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK_CAPTURE(DecodeBools, plain, Encoding::kPlain);
BENCHMARK_CAPTURE(DecodeBools, rle, Encoding::kRle);

void DecodeStrings(benchmark::State& state, Encoding encoding, uint64_t distinct) {
  const Strings s = StringValues(distinct);
  const Page page = Encode(PhysicalType::kByteArray, encoding, {}, &s);
  auto dec = Decoder(PhysicalType::kByteArray, encoding, page);
  for (auto _ : state) {
    alkaid::BufferBuilder offsets(default_memory_pool()), data(default_memory_pool());
    // A reader knows the page's value count and roughly its bytes: one allocation each.
    Check(offsets.Reserve((kValues + 1) * 4));
    Check(data.Reserve(static_cast<int64_t>(s.data.size()) + 64));
    Check(offsets.Append("\0\0\0\0", 4));
    BinaryOutput out{&offsets, &data, false};
    Check(dec->SetData(kValues, page.values->data(), page.values->size()));
    for (int64_t at = 0; at < kValues; at += 4096) Check(dec->DecodeBinary(4096, &out).status());
    benchmark::DoNotOptimize(data.data());
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(s.data.size() + s.offsets.size() * 4));
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK_CAPTURE(DecodeStrings, plain, Encoding::kPlain, 1 << 30);
BENCHMARK_CAPTURE(DecodeStrings, dict_1k, Encoding::kRleDictionary, 1000);
BENCHMARK_CAPTURE(DecodeStrings, delta_length, Encoding::kDeltaLengthByteArray, 1 << 30);
BENCHMARK_CAPTURE(DecodeStrings, delta_byte_array, Encoding::kDeltaByteArray, 1 << 30);

void BM_MemcpyStrings(benchmark::State& state) {
  const Strings s = StringValues(1 << 30);
  std::vector<char> data(s.data.size());
  std::vector<int32_t> offsets(s.offsets.size());
  for (auto _ : state) {
    std::memcpy(data.data(), s.data.data(), s.data.size());
    std::memcpy(offsets.data(), s.offsets.data(), offsets.size() * 4);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(s.data.size() + s.offsets.size() * 4));
}
BENCHMARK(BM_MemcpyStrings);

void BM_DictionaryIndices(benchmark::State& state) {
  const auto values = FixedValues(4, static_cast<uint64_t>(state.range(0)));
  const Page page = Encode(PhysicalType::kInt32, Encoding::kRleDictionary, values, nullptr);
  auto dec = Decoder(PhysicalType::kInt32, Encoding::kRleDictionary, page);
  auto* dict = static_cast<DictionaryDecoder*>(dec.get());
  std::vector<int32_t> out(kValues);
  for (auto _ : state) {
    Check(dec->SetData(kValues, page.values->data(), page.values->size()));
    for (int64_t at = 0; at < kValues; at += 4096) Check(dict->DecodeIndices(4096, out.data() + at));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 4);
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryIndices)->Arg(2)->Arg(1000)->Arg(100000);

void BM_Levels(benchmark::State& state) {
  // Definition levels of a nullable column: long runs of 1 with scattered 0s.
  std::vector<int16_t> levels(kValues, 1);
  std::mt19937 rng(5);
  for (auto& l : levels) l = rng() % 100 < state.range(0) ? 0 : 1;
  RleBitPackedEncoder enc(1, default_memory_pool());
  Check(enc.Put(levels.data(), kValues));
  auto bytes = Check(enc.Finish(true));
  LevelDecoder dec;
  std::vector<int16_t> out(kValues);
  for (auto _ : state) {
    Check(dec.Reset(Encoding::kRle, 1, kValues, bytes->data(), bytes->size(), true, "levels")
              .status());
    for (int64_t at = 0; at < kValues; at += 4096) Check(dec.Decode(4096, out.data() + at));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 2);
}
BENCHMARK(BM_Levels)->Arg(0)->Arg(10)->Arg(50);

void BM_Unpack32(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  std::vector<uint8_t> packed(static_cast<size_t>(BitPackedBytes(kValues, width)) + 8, 0x5a);
  std::vector<uint32_t> out(kValues);
  for (auto _ : state) {
    UnpackBits32(packed.data(), width, kValues, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 4);
}
BENCHMARK(BM_Unpack32)->Arg(1)->Arg(3)->Arg(8)->Arg(13)->Arg(20)->Arg(32);

// Encoders (the writer's side).
void EncodeFixed(benchmark::State& state, PhysicalType type, Encoding encoding, int width,
                 uint64_t distinct) {
  const auto values = FixedValues(width, distinct, encoding == Encoding::kDeltaBinaryPacked);
  for (auto _ : state) {
    Page page = Encode(type, encoding, values, nullptr);
    benchmark::DoNotOptimize(page.values->data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * width);
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK_CAPTURE(EncodeFixed, plain_int64, PhysicalType::kInt64, Encoding::kPlain, 8, 1 << 30);
BENCHMARK_CAPTURE(EncodeFixed, dict_int64_1k, PhysicalType::kInt64, Encoding::kRleDictionary, 8, 1000);
BENCHMARK_CAPTURE(EncodeFixed, delta_int64, PhysicalType::kInt64, Encoding::kDeltaBinaryPacked, 8, 0);
BENCHMARK_CAPTURE(EncodeFixed, bss_double, PhysicalType::kDouble, Encoding::kByteStreamSplit, 8, 1 << 30);

void EncodeStrings(benchmark::State& state, Encoding encoding, uint64_t distinct) {
  const Strings s = StringValues(distinct);
  for (auto _ : state) {
    Page page = Encode(PhysicalType::kByteArray, encoding, {}, &s);
    benchmark::DoNotOptimize(page.values->data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(s.data.size()));
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK_CAPTURE(EncodeStrings, plain, Encoding::kPlain, 1 << 30);
BENCHMARK_CAPTURE(EncodeStrings, dict_1k, Encoding::kRleDictionary, 1000);
BENCHMARK_CAPTURE(EncodeStrings, delta_byte_array, Encoding::kDeltaByteArray, 1 << 30);

// Codecs on a page of mixed-compressibility bytes.
void Codecs(benchmark::State& state, Compression compression, bool decompress) {
  const auto values = FixedValues(8, 5000);
  auto codec = Check(MakeCodec(compression));
  alkaid::BufferBuilder packed(default_memory_pool());
  Check(codec->Compress(values.data(), static_cast<int64_t>(values.size()), &packed).status());
  std::vector<uint8_t> out(values.size());
  for (auto _ : state) {
    if (decompress) {
      Check(codec->Decompress(packed.data(), packed.size(), out.data(),
                              static_cast<int64_t>(out.size())));
    } else {
      alkaid::BufferBuilder again(default_memory_pool());
      Check(codec->Compress(values.data(), static_cast<int64_t>(values.size()), &again).status());
    }
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(values.size()));
  state.counters["ratio"] = static_cast<double>(values.size()) / static_cast<double>(packed.size());
}
BENCHMARK_CAPTURE(Codecs, snappy_decompress, Compression::kSnappy, true);
BENCHMARK_CAPTURE(Codecs, zstd_decompress, Compression::kZstd, true);
BENCHMARK_CAPTURE(Codecs, lz4_raw_decompress, Compression::kLz4Raw, true);
BENCHMARK_CAPTURE(Codecs, gzip_decompress, Compression::kGzip, true);
BENCHMARK_CAPTURE(Codecs, brotli_decompress, Compression::kBrotli, true);
BENCHMARK_CAPTURE(Codecs, snappy_compress, Compression::kSnappy, false);
BENCHMARK_CAPTURE(Codecs, zstd_compress, Compression::kZstd, false);
BENCHMARK_CAPTURE(Codecs, lz4_raw_compress, Compression::kLz4Raw, false);

}  // namespace

BENCHMARK_MAIN();
