// Statistics the writer keeps per page and per column chunk: null count, number of values,
// and min/max in the order the Parquet format defines for the column (its ColumnOrder
// TYPE_ORDER), turned into the PLAIN bytes that Statistics.min_value/max_value and the
// ColumnIndex hold. Internal to the parquet module.
//
// Order rules (apache/parquet-format, LogicalTypes.md and parquet.thrift ColumnOrder):
//   - signed integers (INT32/INT64, and decimals, dates, times, timestamps stored in them)
//     compare as signed numbers; INTEGER(unsigned) as unsigned numbers;
//   - FLOAT/DOUBLE/FLOAT16 ignore NaN; a zero minimum is written as -0 and a zero maximum
//     as +0, so a reader comparing against either zero is right; only NaN: no min/max;
//   - BOOLEAN: false < true;
//   - BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: unsigned bytewise, shorter prefix first;
//   - DECIMAL in FIXED_LEN_BYTE_ARRAY: signed big-endian two's complement;
//   - INT96 and INTERVAL have no defined order: no min/max at all.
//
// An object is used by one thread at a time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "alkaid/parquet/types.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet::internal {

/// How the values of a column compare.
enum class SortOrder : uint8_t {
  kSigned,     ///< two's complement integers; BOOLEAN false < true
  kUnsigned,   ///< INT32/INT64 of an unsigned INTEGER logical type
  kFloat,      ///< FLOAT, DOUBLE (NaN excluded)
  kHalfFloat,  ///< FIXED_LEN_BYTE_ARRAY(2) of logical type FLOAT16, little-endian
  kBytes,      ///< unsigned bytewise (binary, FIXED_LEN_BYTE_ARRAY)
  kUtf8,       ///< unsigned bytewise; truncation keeps whole characters
  kDecimal,    ///< big-endian two's complement bytes
  kNone,       ///< no defined order: no min/max
};

/// A min or max in PLAIN bytes; `exact` is false when truncation changed it.
struct StatisticValue {
  std::string bytes;
  bool exact = true;
};

/// Null count, value count and min/max of the values it has seen.
class ALKAID_EXPORT ColumnStatistics {
 public:
  ColumnStatistics(PhysicalType type, SortOrder order, int32_t type_length);

  /// INT32, INT64, FLOAT, DOUBLE, INT96, FIXED_LEN_BYTE_ARRAY: `n` slots of the physical
  /// width at `values`; the slots whose bit in `valid_bits` (from `valid_offset`) is clear
  /// are skipped (null `valid_bits`: all count).
  void UpdateFixed(const uint8_t* values, int64_t n, const uint8_t* valid_bits,
                   int64_t valid_offset);
  /// BOOLEAN: bits [bit_offset, bit_offset + n) of `bits`, filtered as in UpdateFixed.
  void UpdateBits(const uint8_t* bits, int64_t bit_offset, int64_t n, const uint8_t* valid_bits,
                  int64_t valid_offset);
  /// BYTE_ARRAY: `n` values given by Arrow offsets (n + 1 of them) into `data`.
  void UpdateBinary(const int32_t* offsets, const uint8_t* data, int64_t n,
                    const uint8_t* valid_bits, int64_t valid_offset);
  /// Same with 64-bit offsets.
  void UpdateBinary(const int64_t* offsets, const uint8_t* data, int64_t n,
                    const uint8_t* valid_bits, int64_t valid_offset);
  /// Counts `n` nulls.
  void AddNulls(int64_t n) { null_count_ += n; }
  /// Folds another object's statistics (same column) into this one.
  void Merge(const ColumnStatistics& other);
  /// Forgets everything (a new page or column chunk).
  void Reset();

  int64_t null_count() const { return null_count_; }
  /// Non-null values seen.
  int64_t num_values() const { return num_values_; }
  /// Whether there is a min/max: some value was seen that the order covers (not only NaN).
  bool has_min_max() const { return has_min_max_; }
  SortOrder order() const { return order_; }

  /// The minimum, cut to at most `max_length` bytes (0: no limit) for BYTE_ARRAY so that it
  /// is still <= every value. Precondition: has_min_max().
  StatisticValue Min(int64_t max_length = 0) const;
  /// The maximum, cut to at most `max_length` bytes (a character or so more for UTF-8) so
  /// that it is still >= every value; kept whole when no shorter value is >= it.
  StatisticValue Max(int64_t max_length = 0) const;

  /// Orders two PLAIN-encoded values of this column: < 0, 0 or > 0.
  int Compare(std::string_view a, std::string_view b) const;

 private:
  template <typename T, typename Less>
  void UpdateNumbers(const T* values, int64_t n, const uint8_t* valid_bits, int64_t valid_offset,
                     Less less);
  template <typename Offset>
  void UpdateBinaryImpl(const Offset* offsets, const uint8_t* data, int64_t n,
                        const uint8_t* valid_bits, int64_t valid_offset);
  // Considers one value in PLAIN bytes (the slow path of FLBA and binary).
  void Consider(std::string_view value);

  PhysicalType type_;
  SortOrder order_;
  int32_t type_length_;
  int64_t null_count_ = 0;
  int64_t num_values_ = 0;
  bool has_min_max_ = false;
  // PLAIN bytes of the min and max so far.
  std::string min_;
  std::string max_;
};

}  // namespace alkaid::parquet::internal
