// Stored Parquet values -> Arrow values where the two layouts differ: narrow integers,
// decimals of every storage, INT96 timestamps, binary views. One place for these facts,
// used by the column reader and by the statistics formatting. Internal to the module.
#pragma once

#include <cstdint>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid::parquet::internal {

/// How the stored values of a column become the Arrow values of its decoded type.
enum class Conversion : int8_t {
  kNone,           ///< same bytes (fixed width), or decoded in place (boolean, binary)
  kInt32ToInt8,    ///< INT32 -> int8 / uint8 (truncating, as Arrow C++)
  kInt32ToInt16,   ///< INT32 -> int16 / uint16
  kInt32ToDecimal, ///< INT32 -> decimal128/256 (sign-extended)
  kInt64ToDecimal, ///< INT64 -> decimal128/256
  kInt96ToTimestamp,
  kFixedToDecimal,   ///< FIXED_LEN_BYTE_ARRAY big-endian two's complement -> decimal
  kBinaryToDecimal,  ///< BYTE_ARRAY big-endian two's complement -> decimal
  kBinaryToView,     ///< BYTE_ARRAY -> binary_view / utf8_view
};

/// The conversion from `physical` to the storage of `arrow_type` (dictionaries: none;
/// extension types: their storage), or TypeError when there is none.
Result<Conversion> ConversionFor(PhysicalType physical, const DataType& arrow_type);

/// Arrow byte width of a fixed-width storage type (bits for boolean: 0).
int ArrowValueWidth(const DataType& storage_type);

/// Converts `n` fixed-width stored values (`in`, `in_width` bytes each) into `out`
/// (`out_width` bytes each). For kFixedToDecimal fails when a value does not fit.
Status ConvertFixed(Conversion conversion, const uint8_t* in, int in_width, int64_t n,
                    uint8_t* out, int out_width, TimeUnit unit);

/// One big-endian two's complement integer of `size` bytes as a little-endian decimal of
/// `out_width` bytes (16 or 32); Invalid when it does not fit.
Status BigEndianToDecimal(const uint8_t* in, int64_t size, uint8_t* out, int out_width);

/// Timestamp of one INT96 value (nanoseconds of the day, then the Julian day) in `unit`.
int64_t Int96ToTimestamp(const uint8_t* in, TimeUnit unit);

/// Whether a binary or string type has 64-bit offsets (large_binary, large_string).
inline bool HasLargeOffsets(const DataType& type) {
  return type.id() == TypeId::kLargeBinary || type.id() == TypeId::kLargeString;
}

/// Where value `i` of a binary or string array lies in its data buffer: [*begin, *end).
/// `large` is HasLargeOffsets(type), computed once by the caller's loop.
inline void BinaryValueBounds(const ArrayData& binary, bool large, int64_t i, int64_t* begin,
                              int64_t* end) {
  if (large) {
    const int64_t* offsets = binary.GetValues<int64_t>(1);
    *begin = offsets[i];
    *end = offsets[i + 1];
  } else {
    const int32_t* offsets = binary.GetValues<int32_t>(1);
    *begin = offsets[i];
    *end = offsets[i + 1];
  }
}

/// Binary or string array (32- or 64-bit offsets) -> the same values as views of `type`
/// (binary_view / utf8_view); the data buffer is shared, not copied. CapacityError when a
/// value lies past 2 GiB of data (views address 32-bit offsets).
Result<ArrayDataPtr> BinaryToViews(const ArrayData& binary, const DataTypePtr& type,
                                   MemoryPool* pool);

}  // namespace alkaid::parquet::internal
