// What the decoder source files share: the factory of each encoding, the
// appender of BYTE_ARRAY values to Arrow offsets + data, and error text.
// Internal to the encoding folder.
#pragma once

#include <cstring>
#include <limits>
#include <memory>

#include "bit_packing.h"
#include "decoder.h"
#include "encoder.h"

namespace alkaid::parquet::internal {

std::unique_ptr<ValueDecoder> MakePlainDecoder(PhysicalType type, int value_width);
std::unique_ptr<ValueDecoder> MakeRleBooleanDecoder();
std::unique_ptr<ValueDecoder> MakeDeltaBinaryPackedDecoder(PhysicalType type, MemoryPool* pool);
std::unique_ptr<ValueDecoder> MakeDeltaLengthByteArrayDecoder(MemoryPool* pool);
std::unique_ptr<ValueDecoder> MakeDeltaByteArrayDecoder(PhysicalType type, int value_width,
                                                        MemoryPool* pool);
std::unique_ptr<ValueDecoder> MakeByteStreamSplitDecoder(PhysicalType type, int value_width);
std::unique_ptr<DictionaryDecoder> MakeDictionaryDecoderImpl(PhysicalType type, int value_width,
                                                             MemoryPool* pool);

std::unique_ptr<ValueEncoder> MakePlainEncoder(PhysicalType type, int value_width,
                                               MemoryPool* pool);
std::unique_ptr<ValueEncoder> MakeRleBooleanEncoder(MemoryPool* pool);
std::unique_ptr<ValueEncoder> MakeDeltaBinaryPackedEncoder(PhysicalType type, MemoryPool* pool);
std::unique_ptr<ValueEncoder> MakeDeltaLengthByteArrayEncoder(MemoryPool* pool);
std::unique_ptr<ValueEncoder> MakeDeltaByteArrayEncoder(PhysicalType type, int value_width,
                                                        MemoryPool* pool);
std::unique_ptr<ValueEncoder> MakeByteStreamSplitEncoder(PhysicalType type, int value_width,
                                                         MemoryPool* pool);
std::unique_ptr<DictionaryEncoder> MakeDictionaryEncoderImpl(PhysicalType type, int value_width,
                                                             int64_t byte_limit, MemoryPool* pool);

// For MakeDecoder and MakeEncoder: the value width of `type` (FixedValueWidth)
// once CheckTypeLength passes and `encoding` can hold the type (EncodingFits).
Result<int> FactoryValueWidth(PhysicalType type, Encoding encoding, int32_t type_length);
// The physical type is one Parquet defines, and a FIXED_LEN_BYTE_ARRAY's
// length is positive and at most 2^24.
Status CheckTypeLength(PhysicalType type, int32_t type_length);

/// "<ENCODING> <TYPE>: <what> at byte <offset>" as Status::Invalid.
Status DecodeError(Encoding encoding, PhysicalType type, const std::string& what, int64_t offset);

/// The error of asking for more values than the page has left.
Status NotEnoughValues(Encoding encoding, PhysicalType type, int64_t wanted, int64_t left);

/// Moves out[0, valid) (dense values of `width` bytes) to the slots [0, n) of
/// `out` whose validity bit is set; null slots are zeroed.
void SpreadValues(uint8_t* out, int64_t n, int64_t valid, const uint8_t* valid_bits,
                  int64_t valid_offset, int width);
/// Invalid unless 0 <= null_count <= n.
Status CheckSpaced(int64_t n, int64_t null_count);

/// Appends BYTE_ARRAY values to a BinaryOutput whose offsets are of type
/// Offset (int32_t or int64_t). Reserve first, then UnsafeAppend.
template <typename Offset>
class BinaryAppender {
 public:
  explicit BinaryAppender(BinaryOutput* out) : offsets_(out->offsets), data_(out->data) {}

  /// How many more data bytes the offsets can address.
  int64_t room() const { return std::numeric_limits<Offset>::max() - data_->size(); }
  /// Makes room for `n` values with `bytes` bytes of data in total.
  Status Reserve(int64_t n, int64_t bytes) {
    ALKAID_RETURN_NOT_OK(offsets_->Reserve(n * static_cast<int64_t>(sizeof(Offset))));
    return data_->Reserve(bytes);
  }
  void UnsafeAppend(const uint8_t* bytes, int64_t length) {
    data_->UnsafeAppend(bytes, length);
    offsets_->UnsafeAppendValue(static_cast<Offset>(data_->size()));
  }
  /// Appends a value whose bytes the caller already wrote at data_tail().
  void UnsafeCommit(int64_t length) {
    data_->UnsafeAdvance(length);
    offsets_->UnsafeAppendValue(static_cast<Offset>(data_->size()));
  }
  uint8_t* data_tail() { return data_->mutable_data() + data_->size(); }

  /// Short values are copied kSlack bytes at a time (one fixed-size move
  /// instead of a call with a variable length): reserve `bytes + kSlack`, pass
  /// whether kSlack bytes can be read at `bytes`, and call ZeroSlack after the
  /// batch so the bytes past the data are zero again.
  static constexpr int64_t kSlack = 16;
  void UnsafeAppendShort(const uint8_t* bytes, int64_t length, bool slack_readable) {
    uint8_t* dst = data_tail();
    if (length <= kSlack && slack_readable) {
      std::memcpy(dst, bytes, kSlack);
    } else {
      std::memcpy(dst, bytes, static_cast<size_t>(length));
    }
    data_->UnsafeAdvance(length);
    offsets_->UnsafeAppendValue(static_cast<Offset>(data_->size()));
  }
  void ZeroSlack() { std::memset(data_tail(), 0, kSlack); }

 private:
  alkaid::BufferBuilder* offsets_;
  alkaid::BufferBuilder* data_;
};

/// Calls f.template operator()<Offset>() with the offset type of `out`.
template <typename F>
decltype(auto) WithOffsetType(const BinaryOutput& out, F&& f) {
  if (out.large_offsets) return f.template operator()<int64_t>();
  return f.template operator()<int32_t>();
}

}  // namespace alkaid::parquet::internal
