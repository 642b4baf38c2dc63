// From the slots of an Arrow leaf array to the physical values of a Parquet column: the
// conversions some Arrow types need (narrow integers widened, seconds to milliseconds,
// decimals to big-endian bytes, views to offsets, dictionary entries looked up), then the
// value encoder and the statistics. Internal to the parquet module.
//
// A LeafValueWriter is used by one thread at a time (it keeps scratch buffers).
#pragma once

#include <cstdint>

#include "alkaid/array_data.h"
#include "alkaid/builder.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "src/parquet/encoding/encoder.h"
#include "src/parquet/writer/statistics.h"

namespace alkaid::parquet::internal {

/// How the values of an Arrow leaf type become physical values (decided with the physical
/// type by the Arrow-to-Parquet mapping, src/parquet/schema/arrow_to_parquet.h).
enum class ValueConversion : uint8_t {
  kNone,             ///< null type: no values
  kFixed,            ///< the Arrow bytes are the physical values (same width)
  kBoolean,          ///< Arrow bitmap to BOOLEAN
  kBinary,           ///< int32 offsets + data to BYTE_ARRAY
  kLargeBinary,      ///< int64 offsets + data to BYTE_ARRAY
  kView,             ///< 16-byte views to BYTE_ARRAY
  kInt8,             ///< int8 sign-extended to INT32
  kUInt8,            ///< uint8 zero-extended to INT32
  kInt16,            ///< int16 sign-extended to INT32
  kUInt16,           ///< uint16 zero-extended to INT32
  kUInt32ToInt64,    ///< uint32 zero-extended to INT64 (format version 1.0)
  kDate64,           ///< milliseconds to days (INT32 DATE)
  kSecondsToMillis32,  ///< time32[s] to INT32 TIME(MILLIS)
  kSecondsToMillis64,  ///< timestamp[s] to INT64 TIMESTAMP(MILLIS)
  kNanosToMicros,    ///< timestamp[ns] to INT64 TIMESTAMP(MICROS) (format version < 2.6)
  kDecimalBigEndian,  ///< decimal128/256 to FIXED_LEN_BYTE_ARRAY of type_length bytes
  kMonthInterval,    ///< months to INTERVAL (months, 0, 0)
  kDayTimeInterval,  ///< days and milliseconds to INTERVAL (0, days, milliseconds)
};

/// Writes slots of a leaf array to a value encoder and statistics.
class LeafValueWriter {
 public:
  /// `type_length` is the FIXED_LEN_BYTE_ARRAY width (decimals).
  LeafValueWriter(ValueConversion conversion, PhysicalType physical_type, int32_t type_length,
                  MemoryPool* pool);

  /// Slots [begin, end) of `leaf` (logical indices); a slot is null when its bit in `valid`
  /// (bit offset `valid_offset` for slot 0) is clear (null `valid`: none is). Null slots
  /// are skipped: their levels say so. A dictionary leaf writes the entries its indices
  /// select. `stats` may be null.
  Status Write(const ArrayData& leaf, int64_t begin, int64_t end, const uint8_t* valid,
               int64_t valid_offset, ValueEncoder* encoder, ColumnStatistics* stats);

 private:
  Status WritePlain(const ArrayData& leaf, int64_t begin, int64_t end, const uint8_t* valid,
                    int64_t valid_offset, ValueEncoder* encoder, ColumnStatistics* stats);
  Status WriteFixed(const uint8_t* values, int64_t n, const uint8_t* valid, int64_t valid_offset,
                    ValueEncoder* encoder, ColumnStatistics* stats);
  // The dictionary entries of slots [begin, end) as an array of the value type (null slots
  // empty), in gathered_.
  Status Gather(const ArrayData& leaf, int64_t begin, int64_t end, const uint8_t* valid,
                int64_t valid_offset);

  ValueConversion conversion_;
  PhysicalType physical_type_;
  int32_t type_length_;
  MemoryPool* pool_;
  alkaid::BufferBuilder scratch_;   // converted fixed-width values
  alkaid::BufferBuilder offsets_;   // views as int64 offsets
  alkaid::BufferBuilder data_;      // views' bytes
  alkaid::BufferBuilder gather_values_;  // dictionary entries gathered
  alkaid::BufferBuilder gather_data_;
  ArrayDataPtr gathered_;
};

}  // namespace alkaid::parquet::internal
