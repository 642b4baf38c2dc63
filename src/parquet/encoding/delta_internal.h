// The DELTA_BINARY_PACKED integer stream, which DELTA_LENGTH_BYTE_ARRAY and
// DELTA_BYTE_ARRAY also use for their lengths. Internal to the encoding folder.
#pragma once

#include <cstdint>

#include "alkaid/builder.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// Reads a DELTA_BINARY_PACKED stream of T (int32_t or int64_t; arithmetic
/// wraps as the format says). Every header field and miniblock is checked
/// against the bytes present; errors name `encoding`/`type` (of the page the
/// stream is part of) and the byte offset counted from `base_offset`.
template <typename T>
class DeltaInts {
 public:
  /// Parses the header of the stream at [data, data + size).
  Status Init(const uint8_t* data, int64_t size, Encoding encoding, PhysicalType type,
              int64_t base_offset);
  /// Values the header says the stream holds.
  int64_t total() const { return total_; }
  /// Values not yet read.
  int64_t left() const { return total_ - read_; }
  /// Reads the next `n` values (n <= left()).
  Status Get(int64_t n, T* out);
  /// Bytes of the stream up to the end of the last miniblock read (after
  /// reading every value: where the data that follows the stream starts).
  int64_t bytes_used() const;

 private:
  Status Error(const char* what, int64_t offset) const;
  Status NextBlock();
  Status NextMiniblock();

  using U = std::make_unsigned_t<T>;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;  // next unread byte (header, block header or miniblock)
  Encoding encoding_ = Encoding::kDeltaBinaryPacked;
  PhysicalType type_ = PhysicalType::kInt64;
  int64_t base_offset_ = 0;
  int64_t values_per_miniblock_ = 0;
  int64_t miniblocks_ = 0;
  int64_t total_ = 0;
  int64_t read_ = 0;
  U last_ = 0;
  U min_delta_ = 0;
  uint8_t widths_[256] = {};  // bit width of each miniblock of the block
  int64_t miniblock_ = 0;       // index within the block of the current miniblock
  int64_t miniblock_left_ = 0;  // values of the current miniblock not yet unpacked
  int64_t miniblock_data_ = 0;  // byte offset of its next 32 values
  int width_ = 0;
  // Deltas unpacked but not yet added up.
  U deltas_[32];
  int delta_pos_ = 0;
  int delta_count_ = 0;
};

/// Writes a DELTA_BINARY_PACKED stream of `n` values (blocks of 128 values
/// in 4 miniblocks, as common writers do) to `out`.
template <typename T>
ALKAID_EXPORT Status WriteDeltaInts(const T* values, int64_t n, alkaid::BufferBuilder* out);

}  // namespace alkaid::parquet::internal
