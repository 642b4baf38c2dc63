// Bounds shared by the text readers (CSV, JSON Lines; internal): the
// largest block, the nulls a block may fill in for left-out fields, block
// sizes for wide input, and the error for input wider than max_columns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "alkaid/status.h"

namespace alkaid::text::internal {

// The largest block a text reader takes (the CSV tokenizer's field offsets
// are 32-bit and its lengths 29-bit).
inline constexpr int64_t kMaxBlockBytes = int64_t{1} << 29;

// Nulls a block of `bytes` bytes may fill in for left-out fields (short CSV
// records, keys left out of JSON Lines objects): max(floor, per_byte *
// bytes), saturating; per_byte 0 means no limit.
inline int64_t MissingAllowance(int64_t bytes, int64_t per_byte, int64_t floor) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (per_byte == 0 || bytes > kMax / per_byte) return kMax;
  return std::max(floor, bytes * per_byte);
}

// Wide input. Every column of a batch costs about a kilobyte (its array,
// buffers, field and IPC metadata), however few rows the batch has, while
// its text may be a byte or two; so the width a reader takes from its input
// is capped (max_columns), and once there are more than kWideColumns columns
// a block holds at least kWideBlockBytesPerColumn bytes of text a column,
// which keeps the per-column cost of each batch within a small multiple of
// its bytes.
inline constexpr int64_t kWideColumns = 16384;
inline constexpr int64_t kWideBlockBytesPerColumn = 64;

// The block size a reader of `columns` columns uses: `block_size`, grown
// for wide input as above, and never so big that a block and the longest
// record pass kMaxBlockBytes.
inline int64_t BlockSizeForColumns(int64_t block_size, int64_t max_record_bytes,
                                   int64_t columns) {
  if (columns <= kWideColumns) return block_size;
  const int64_t room = kMaxBlockBytes - 256 - max_record_bytes;
  return std::max(block_size, std::min(columns * kWideBlockBytesPerColumn, room));
}

// The error for input wider than max_columns; `what` says what was found
// ("the header has 200000 columns"), `instead` the other way out.
inline Status TooManyColumns(const std::string& what, int64_t max_columns,
                             const char* instead) {
  return Status::Invalid(what, ", more than max_columns (", max_columns,
                         "): each column costs about 1 KB of memory a batch, however few its "
                         "rows; raise max_columns (0: no limit) or ",
                         instead);
}

}  // namespace alkaid::text::internal
