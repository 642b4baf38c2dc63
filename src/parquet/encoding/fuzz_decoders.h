// One input of the decoder fuzz driver: the libFuzzer target
// fuzz/fuzz_parquet_decoders.cc and the hostile-input test both call
// FuzzDecodersOnce. Internal, test and fuzz code only.
//
// Input layout: byte 0 picks what is decoded (a value decoder of one type
// and encoding, the level decoder, or a codec), byte 1 the batch sizes and
// whether slots are spaced, bytes 2-3 where a dictionary page ends (for
// dictionary encodings) and the rest is the page. Every call must end in
// success or a Status: a crash, hang, sanitizer report or an allocation the
// page does not justify is a finding.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/bitmap.h"
#include "decoder.h"
#include "rle.h"
#include "src/parquet/compression/codec.h"

namespace alkaid::parquet::internal {

struct FuzzChoice {
  PhysicalType type;
  Encoding encoding;
  int32_t type_length;
};

inline constexpr FuzzChoice kFuzzChoices[] = {
    {PhysicalType::kBoolean, Encoding::kPlain, 0},
    {PhysicalType::kBoolean, Encoding::kRle, 0},
    {PhysicalType::kBoolean, Encoding::kRleDictionary, 0},
    {PhysicalType::kInt32, Encoding::kPlain, 0},
    {PhysicalType::kInt64, Encoding::kPlain, 0},
    {PhysicalType::kInt96, Encoding::kPlain, 0},
    {PhysicalType::kDouble, Encoding::kPlain, 0},
    {PhysicalType::kByteArray, Encoding::kPlain, 0},
    {PhysicalType::kFixedLenByteArray, Encoding::kPlain, 3},
    {PhysicalType::kInt32, Encoding::kRleDictionary, 0},
    {PhysicalType::kInt64, Encoding::kPlainDictionary, 0},
    {PhysicalType::kByteArray, Encoding::kRleDictionary, 0},
    {PhysicalType::kFixedLenByteArray, Encoding::kRleDictionary, 5},
    {PhysicalType::kInt32, Encoding::kDeltaBinaryPacked, 0},
    {PhysicalType::kInt64, Encoding::kDeltaBinaryPacked, 0},
    {PhysicalType::kByteArray, Encoding::kDeltaLengthByteArray, 0},
    {PhysicalType::kByteArray, Encoding::kDeltaByteArray, 0},
    {PhysicalType::kFixedLenByteArray, Encoding::kDeltaByteArray, 4},
    {PhysicalType::kFloat, Encoding::kByteStreamSplit, 0},
    {PhysicalType::kInt64, Encoding::kByteStreamSplit, 0},
    {PhysicalType::kFixedLenByteArray, Encoding::kByteStreamSplit, 6},
};
inline constexpr int kFuzzValueChoices = sizeof(kFuzzChoices) / sizeof(kFuzzChoices[0]);

// Value slots the driver decodes at most per input (bounds its own buffers).
inline constexpr int64_t kFuzzMaxValues = 1 << 16;

inline void FuzzValues(const FuzzChoice& c, uint8_t mode, const uint8_t* dict, int64_t dict_size,
                       const uint8_t* page, int64_t size) {
  auto made = MakeDecoder(c.type, c.encoding, c.type_length);
  if (!made.ok()) return;
  ValueDecoder& dec = **made;
  if (c.encoding == Encoding::kRleDictionary || c.encoding == Encoding::kPlainDictionary) {
    // The dictionary's count is taken from its own first byte, as a header would state it.
    const int64_t entries = dict_size > 0 ? dict[0] * 3 : 0;
    auto& d = static_cast<DictionaryDecoder&>(dec);
    if (!d.SetDictionary(entries, dict_size > 0 ? dict + 1 : dict, dict_size > 0 ? dict_size - 1 : 0)
             .ok()) {
      return;
    }
  }
  // The page claims a value count from its size (and the mode), as a header would.
  const int64_t num_values = std::min<int64_t>(kFuzzMaxValues, size * (1 + (mode & 7)) + 3);
  if (!dec.SetData(num_values, page, size).ok()) return;
  const int width = dec.value_width();
  const bool spaced = mode & 0x40;
  const int64_t batch = 1 + ((mode >> 3) & 7) * 37;
  std::vector<uint8_t> fixed(static_cast<size_t>(batch * std::max(width, 1)));
  std::vector<uint8_t> valid(static_cast<size_t>(batch / 8 + 1), 0x5b);  // some nulls
  const int64_t nulls = spaced ? batch - bit_util::CountSetBits(valid.data(), 0, batch) : 0;
  std::vector<int32_t> indices(static_cast<size_t>(batch));
  alkaid::BufferBuilder offsets(default_memory_pool()), bytes(default_memory_pool());
  if (!offsets.Append("\0\0\0\0\0\0\0\0", 8).ok()) return;
  BinaryOutput bin{&offsets, &bytes, (mode & 0x80) != 0};
  for (int64_t done = 0; done < num_values; done += batch) {
    Status st;
    if ((mode & 0x20) && done == 0) st = dec.Skip(std::min<int64_t>(batch, num_values));
    else if (c.type == PhysicalType::kBoolean && spaced)
      st = dec.DecodeBitsSpaced(batch, nulls, valid.data(), 0, fixed.data(), 0);
    else if (c.type == PhysicalType::kBoolean) st = dec.DecodeBits(batch, fixed.data(), 0);
    else if (c.type == PhysicalType::kByteArray && spaced)
      st = dec.DecodeBinarySpaced(batch, nulls, valid.data(), 0, &bin).status();
    else if (c.type == PhysicalType::kByteArray) st = dec.DecodeBinary(batch, &bin).status();
    else if (spaced) st = dec.DecodeSpaced(batch, nulls, valid.data(), 0, fixed.data());
    else if ((mode & 1) && dynamic_cast<DictionaryDecoder*>(&dec) != nullptr)
      st = static_cast<DictionaryDecoder&>(dec).DecodeIndices(batch, indices.data());
    else st = dec.Decode(batch, fixed.data());
    if (!st.ok()) return;
  }
}

inline void FuzzLevels(uint8_t mode, const uint8_t* page, int64_t size) {
  LevelDecoder levels;
  const auto max_level = static_cast<int16_t>(mode & 15);
  const int64_t count = std::min<int64_t>(kFuzzMaxValues, size * 8);
  const Encoding encoding = (mode & 16) ? Encoding::kBitPacked : Encoding::kRle;
  if (!levels.Reset(encoding, max_level, count, page, size, (mode & 32) != 0, "levels").ok()) {
    return;
  }
  std::vector<int16_t> out(1024);
  for (int64_t done = 0; done < count; done += 1024) {
    if (!levels.Decode(std::min<int64_t>(1024, count - done), out.data()).ok()) return;
  }
}

inline void FuzzCodec(Compression compression, uint8_t mode, const uint8_t* page, int64_t size) {
  auto codec = MakeCodec(compression);
  if (!codec.ok()) return;
  // A stated size near the input's, or far above it (bounded by the driver).
  const int64_t out_size = std::min<int64_t>(int64_t{1} << 22, (size + 1) * (1 + mode));
  std::vector<uint8_t> out(static_cast<size_t>(out_size));
  (void)(*codec)->Decompress(page, size, out.data(), out_size);
}

inline void FuzzDecodersOnce(const uint8_t* data, size_t size) {
  if (size < 4) return;
  const uint8_t what = data[0];
  const uint8_t mode = data[1];
  const int64_t dict_size = std::min<int64_t>(static_cast<int64_t>(size) - 4, data[2] | data[3] << 8);
  const uint8_t* rest = data + 4;
  const int64_t rest_size = static_cast<int64_t>(size) - 4;
  const int choice = what % (kFuzzValueChoices + 7);
  if (choice < kFuzzValueChoices) {
    const bool dictionary = kFuzzChoices[choice].encoding == Encoding::kRleDictionary ||
                            kFuzzChoices[choice].encoding == Encoding::kPlainDictionary;
    const int64_t d = dictionary ? dict_size : 0;
    FuzzValues(kFuzzChoices[choice], mode, rest, d, rest + d, rest_size - d);
  } else if (choice == kFuzzValueChoices) {
    FuzzLevels(mode, rest, rest_size);
  } else {
    static constexpr Compression kCodecs[] = {Compression::kSnappy, Compression::kGzip,
                                              Compression::kBrotli, Compression::kZstd,
                                              Compression::kLz4,    Compression::kLz4Raw};
    FuzzCodec(kCodecs[choice - kFuzzValueChoices - 1], mode, rest, rest_size);
  }
}

}  // namespace alkaid::parquet::internal
