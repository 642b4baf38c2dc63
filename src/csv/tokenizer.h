// CSV block tokenizer (internal to src/csv).
//
// A block is a run of whole records. The loader (text/loader.h) finds where
// a block may end with a quote-parity scan (text/record_ends.h), carrying
// the parity across reads so no byte is scanned twice; the tokenizer then
// runs on each block independently, on any thread, and records every field
// as (start, length, flags) into the block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/visibility.h"

// Not installed; the tests call the functions through a shared library
// (BUILD_SHARED_LIBS=ON), hence ALKAID_EXPORT.
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
  ALKAID_EXPORT int64_t LineDelta(int64_t row) const;
};

// Tokenizes records of data[begin, size) (at most max_rows of them). The
// bytes data[size, round_up(size, 64)) must be readable (any content).
// `num_columns` in `out` may be preset; otherwise the first record sets it.
// Returns false and fills `error` on malformed input.
ALKAID_EXPORT bool Tokenize(const char* data, int64_t begin, int64_t size,
                            const TokenizeOptions& options, int64_t max_rows, Tokens* out,
                            BlockError* error);

// Copies the field text with doubled quotes collapsed.
ALKAID_EXPORT void Unescape(const char* text, uint32_t length, char quote, std::string* out);

}  // namespace alkaid::csv::internal
