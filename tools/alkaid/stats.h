// Per-column statistics for `alkaid stats`, gathered batch by batch in
// fixed memory per column: nulls; min and max of numbers, temporal values,
// decimals, and strings and binary (bytewise order); the mean of numbers;
// and an estimate of the distinct values (HyperLogLog, below).
//
// Strings and binary are compared and hashed on their first kStatsKeyBytes
// bytes only, so a column of 16,000 views of one 64 MiB string costs what
// 16,000 short strings cost: the min and max shown are exact up to that
// prefix (which is more than a cell shows), and values equal in their first
// kStatsKeyBytes bytes and in length count as one distinct value.
#pragma once

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "alkaid/table.h"

namespace alkaid::cli {

// Bytes of a string or binary value that stats compares and hashes.
constexpr int64_t kStatsKeyBytes = 256;

// Distinct-count estimate in 4 KiB: a HyperLogLog of 2^12 one-byte
// registers, standard error 1.04 / sqrt(4096) = 1.6% (exact-ish, by linear
// counting, for small counts).
class DistinctEstimate {
 public:
  void Add(uint64_t hash);
  int64_t Estimate() const;

 private:
  static constexpr int kBits = 12;
  std::array<uint8_t, size_t{1} << kBits> registers_{};
};

// A 64-bit hash of `size` bytes (values of equal bytes hash equal).
uint64_t HashBytes(const uint8_t* data, int64_t size);

struct ColumnStats {
  int64_t values = 0;  // non-null
  int64_t nulls = 0;
  bool ordered = false;  // min and max apply
  bool numeric = false;  // mean applies
  bool hashed = false;   // the distinct estimate applies
  long double min = 0, max = 0, sum = 0;
  // Strings, binary and decimals: the bytes of the current min and max
  // (strings: their first kStatsKeyBytes bytes).
  std::string min_key, max_key;
  std::string min_text, max_text;
  DistinctEstimate distinct;
  bool from_metadata = false;  // nulls, min and max stated by the input's metadata
};

class StatsCollector {
 public:
  explicit StatsCollector(const Schema& schema);
  void Add(const RecordBatch& batch);
  // A batch holding only some columns: its column i is the schema's
  // columns[i] (columns empty: all of them, in order).
  void Add(const RecordBatch& batch, const std::vector<int>& columns);
  // Column `c` as metadata states it: nulls, non-null values, and values
  // among which are its least and greatest (may be null: none). Min and max
  // are chosen and printed as they are for data that is read; distinct and
  // mean are left blank.
  void AddFromMetadata(int c, int64_t nulls, int64_t values, const ArrayData* bounds);
  // Rows of an input whose columns all came from metadata.
  void SetRows(int64_t rows) { rows_ = rows; }
  // The table (column, type, nulls, distinct, min, max, mean, and source
  // when some column came from metadata) and the totals line.
  void Print(std::ostream* out) const;

 private:
  void AddColumn(ColumnStats* s, const ArrayData& data);

  SchemaPtr schema_;
  std::vector<ColumnStats> columns_;
  int64_t rows_ = 0, batches_ = 0;
};

}  // namespace alkaid::cli
