// CSV block tokenizer and record-boundary finder (internal to src/csv).
//
// A block is a run of whole records. The loader finds where a block may end
// with a quote-parity scan (memchr for quotes, memrchr for line feeds in the
// stretches outside quotes), carrying the parity across reads so no byte is
// scanned twice; the tokenizer then runs on each block independently, on any
// thread, and records every field as (start, length, flags) into the block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "alkaid/status.h"

// Not installed, but the JSON Lines library and the tests call these through a shared library (BUILD_SHARED_LIBS=ON),
// so they keep default visibility.
#pragma GCC visibility push(default)

namespace alkaid::csv::internal {

struct FieldRef {
  static constexpr uint32_t kQuoted = 1u << 31;   // was quoted: never null
  static constexpr uint32_t kEscaped = 1u << 30;  // holds doubled quotes
  static constexpr uint32_t kMissing = 1u << 29;  // filled in for a short record
  static constexpr uint32_t kLengthMask = kMissing - 1;
  // Left uninitialized by default: the tokenizer sizes its output first and
  // writes every slot.
  FieldRef() {}  // NOLINT(modernize-use-equals-default): "= default" would zero in resize()
  FieldRef(uint32_t s, uint32_t b) : start(s), bits(b) {}
  uint32_t start;
  uint32_t bits;
  uint32_t length() const { return bits & kLengthMask; }
};

// The largest block the tokenizer addresses (field offsets are 32-bit and
// lengths 29-bit).
inline constexpr int64_t kMaxBlockBytes = int64_t{1} << 29;

struct TokenizeOptions {
  char delimiter = ',';
  char quote = '"';  // '\0': no quoting
  bool ignore_empty_lines = true;
  bool fill_missing = false;  // short records padded with kMissing fields
  // Fields a block may pad short records with: max(missing_floor,
  // missing_per_byte * the block's bytes); beyond that Tokenize fails (a
  // record of one byte would otherwise stand for a row of every column).
  // 0 per byte: no limit.
  int64_t missing_per_byte = 0;
  int64_t missing_floor = 0;
  // The fast path for plain records: 0 off (general path only), 1 with
  // baseline vector masks, 2 with AVX2 ones where the CPU has AVX2, 3 with
  // AVX-512 ones where it has AVX-512 (else as 2). The result is the same at
  // every level (tests compare them).
  int fast_path = 3;
};

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

// A problem at a line relative to the block's first line; the reader adds the
// block's line number when it reports it.
struct BlockError {
  int64_t line_delta = 0;
  Status status;
};

struct Tokens {
  int num_columns = -1;   // -1 before the first record fixes it
  int64_t num_rows = 0;
  int64_t end = 0;        // byte offset just past the last record consumed
  int64_t lines = 0;      // line terminators consumed (quoted ones too)
  std::vector<FieldRef> fields;  // num_rows * num_columns
  // (row, extra lines before that row beyond one per earlier row): grows when
  // records span lines or empty lines are skipped. Sorted by row.
  std::vector<std::pair<int64_t, int64_t>> extra_lines;

  // Lines between the block start and the start of `row`.
  int64_t LineDelta(int64_t row) const;
};

// Tokenizes records of data[begin, size) (at most max_rows of them). The
// bytes data[size, round_up(size, 64)) must be readable (any content).
// `num_columns` in `out` may be preset; otherwise the first record sets it.
// Returns false and fills `error` on malformed input.
bool Tokenize(const char* data, int64_t begin, int64_t size, const TokenizeOptions& options,
              int64_t max_rows, Tokens* out, BlockError* error);

// Quote-parity scan of data[from, size) starting outside quotes when
// *in_quote is false. Returns the offset just past the last line feed (or
// lone CR not at the very end) outside quotes, or -1; updates *in_quote to
// the parity at `size`.
// With `lone_cr`, a CR not followed by LF also ends a record (used only when
// the range has no line feed outside quotes).
int64_t FindLastRecordEnd(const char* data, int64_t from, int64_t size, char quote,
                          bool* in_quote, bool lone_cr = true);

// Number of '\n' bytes in p[0, n).
int64_t CountLineFeeds(const char* p, int64_t n);

// Copies the field text with doubled quotes collapsed.
void Unescape(const char* text, uint32_t length, char quote, std::string* out);

}  // namespace alkaid::csv::internal

#pragma GCC visibility pop
