// The RLE/bit-packed hybrid encoding (Parquet encoding RLE = 3): definition and
// repetition levels, dictionary indices and RLE booleans. Also the level
// decoder, which reads both the hybrid and the deprecated BIT_PACKED levels.
// Internal to the parquet module.
//
// Input is untrusted: every run header, run length and bit width is checked
// against the bytes present before use, and errors say "RLE/bit-packed hybrid"
// (or the level kind) and the byte offset within the encoded data. Decoders and
// encoders are single-threaded objects; separate objects may be used on
// separate threads.
#pragma once

#include <cstdint>

#include "alkaid/builder.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// Reads the 4-byte little-endian length that prefixes hybrid data in v1 pages
/// (levels) and RLE booleans: on success *runs/*runs_size describe the encoded
/// runs and the return value is the bytes consumed (4 + length). `what` names the
/// data in errors ("definition levels", ...).
Result<int64_t> ReadLengthPrefixed(const uint8_t* data, int64_t size, const char* what,
                                   const uint8_t** runs, int64_t* runs_size);

/// Decodes runs of the hybrid encoding with a bit width of 0..32 in batches.
/// RLE runs are expanded with a fill; bit-packed runs are unpacked 32 values at a
/// time. The decoder stops cleanly where the input ends: GetBatch returns fewer
/// values than asked, and the caller decides whether that is an error (it is,
/// when the page said there are more values).
class ALKAID_EXPORT RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  /// Starts decoding `size` bytes at `data` (borrowed; kept alive by the caller).
  void Reset(const uint8_t* data, int64_t size, int bit_width);

  /// Decodes up to `n` values into `out`; returns how many were decoded (fewer
  /// only at the end of the input). Fails on a malformed run header. T is
  /// int16_t (levels), int32_t or uint32_t (indices), uint8_t (bit width <= 8).
  template <typename T>
  Result<int64_t> GetBatch(int64_t n, T* out);

  /// Decodes up to `n` dictionary indices and writes dict[index] (each
  /// `value_width` bytes) to `out`; an index >= dict_size is an error (checked
  /// once per run, or once per group of bit-packed values, not per value).
  Result<int64_t> GetGathered(int64_t n, const uint8_t* dict, int64_t dict_size, int value_width,
                              uint8_t* out);

  /// Decodes up to `n` values of bit width 1 into a bitmap, starting at bit
  /// `bit_offset` of `bits` (RLE booleans).
  Result<int64_t> GetBits(int64_t n, uint8_t* bits, int64_t bit_offset);

  /// Skips up to `n` values; returns how many were skipped.
  Result<int64_t> Skip(int64_t n);

  /// The byte offset of the next run header within the encoded data (for messages).
  int64_t byte_offset() const { return pos_ - begin_; }
  int bit_width() const { return bit_width_; }

 private:
  // Loads the next run header; false at the end of the input.
  Result<bool> NextRun();
  template <typename OnRun, typename OnPacked>
  Result<int64_t> VisitRuns(int64_t n, OnRun&& on_run, OnPacked&& on_packed);

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int bit_width_ = 0;
  // The current run: repeat `rle_value` rle_left times, or unpack
  // packed_left values starting at packed_pos_ (bit-packed run).
  int64_t rle_left_ = 0;
  uint64_t rle_value_ = 0;
  int64_t packed_left_ = 0;
  const uint8_t* packed_pos_ = nullptr;
  // Values of a partially consumed group of 32 bit-packed values.
  uint32_t group_[32];
  int group_pos_ = 32;
  int group_size_ = 0;
};

/// Definition or repetition levels of one page, in either encoding levels may
/// use (kRle or kBitPacked). Every decoded level is checked against max_level.
class ALKAID_EXPORT LevelDecoder {
 public:
  /// Sets up decoding of `num_values` levels of at most `max_level` from `data`.
  /// With `length_prefixed` (v1 data pages, RLE) the data starts with the 4-byte
  /// length; v2 pages pass the level bytes without it. Returns the bytes the
  /// levels occupy, so the caller finds what follows them. `what` names the
  /// levels in errors ("definition levels").
  Result<int64_t> Reset(Encoding encoding, int16_t max_level, int64_t num_values,
                        const uint8_t* data, int64_t size, bool length_prefixed,
                        const char* what);

  /// Decodes the next `n` levels into `out`; fails when fewer are left in the
  /// data or a level exceeds max_level.
  Status Decode(int64_t n, int16_t* out);

 private:
  Encoding encoding_ = Encoding::kRle;
  int16_t max_level_ = 0;
  int bit_width_ = 0;
  const char* what_ = "levels";
  RleBitPackedDecoder rle_;
  // BIT_PACKED: the packed bytes and the next value's index.
  const uint8_t* packed_ = nullptr;
  int64_t packed_count_ = 0;
  int64_t packed_next_ = 0;
};

/// Encodes values of a fixed bit width (0..32) in the hybrid encoding. Values
/// are kept until Finish, which then picks runs knowing what follows: repeats
/// of 8 or more become RLE runs and the rest bit-packed groups of 8 (only the
/// last group is padded, with zeros, as the format allows). Used for levels,
/// dictionary indices and RLE booleans.
class ALKAID_EXPORT RleBitPackedEncoder {
 public:
  RleBitPackedEncoder(int bit_width, MemoryPool* pool);

  /// Appends `n` values (each must fit in bit_width bits). T is an integer type.
  template <typename T>
  Status Put(const T* values, int64_t n);

  /// Appends the encoded runs to `out`, preceded by their 4-byte length when
  /// `length_prefix` is true; returns the bytes appended. The encoder is then
  /// empty and may be reused.
  Result<int64_t> FinishInto(alkaid::BufferBuilder* out, bool length_prefix);
  /// The same into a new buffer.
  Result<BufferPtr> Finish(bool length_prefix = false);

  /// Values appended since the last Finish.
  int64_t num_values() const { return values_.size() / 4; }
  /// The bit-packed size of the values so far (what the runs cost at most,
  /// give or take a header per 8 values).
  int64_t EstimatedSize() const;
  /// An upper bound of the bytes FinishInto appends for `n` values.
  static int64_t MaxEncodedSize(int64_t n, int bit_width);
  int bit_width() const { return bit_width_; }

 private:
  int bit_width_;
  MemoryPool* pool_;
  alkaid::BufferBuilder values_;  // uint32 values appended so far
};

/// Bit width of dictionary indices for a dictionary of `num_entries` values.
inline int DictionaryIndexBitWidth(int64_t num_entries) {
  int width = 0;
  while (num_entries > 1 && (int64_t{1} << width) < num_entries) ++width;
  return width;
}

}  // namespace alkaid::parquet::internal
