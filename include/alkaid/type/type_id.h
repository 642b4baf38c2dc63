/// @file
/// The ids of the data types (TypeId) and the small enumerations that go with
/// them (TimeUnit, UnionMode, Endianness), and the shared handles every other
/// header passes around: DataTypePtr, FieldPtr, FieldVector, SchemaPtr.
///
/// Threads: plain values and pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/visibility.h"

namespace alkaid {

/// Ids of every data type. Values are ours, not the Flatbuffers ones, so
/// they are not a wire format: do not persist them (IPC writes the
/// Flatbuffers enumeration instead).
enum class TypeId : int8_t {
  kNull,                  ///< No storage at all; every slot is null (NullType).
  kBool,                  ///< One bit per value (BooleanType).
  kUInt8,                 ///< Unsigned 8-bit integer (UInt8Type).
  kInt8,                  ///< Signed 8-bit integer (Int8Type).
  kUInt16,                ///< Unsigned 16-bit integer (UInt16Type).
  kInt16,                 ///< Signed 16-bit integer (Int16Type).
  kUInt32,                ///< Unsigned 32-bit integer (UInt32Type).
  kInt32,                 ///< Signed 32-bit integer (Int32Type).
  kUInt64,                ///< Unsigned 64-bit integer (UInt64Type).
  kInt64,                 ///< Signed 64-bit integer (Int64Type).
  kHalfFloat,             ///< IEEE 754 binary16, stored as raw bits (HalfFloatType).
  kFloat,                 ///< IEEE 754 binary32 (FloatType).
  kDouble,                ///< IEEE 754 binary64 (DoubleType).
  kDecimal32,             ///< Decimal in a 4-byte integer, precision <= 9 (Decimal32Type).
  kDecimal64,             ///< Decimal in an 8-byte integer, precision <= 18 (Decimal64Type).
  kDecimal128,            ///< Decimal in a 16-byte integer, precision <= 38 (Decimal128Type).
  kDecimal256,            ///< Decimal in a 32-byte integer, precision <= 76 (Decimal256Type).
  kDate32,                ///< Days since the UNIX epoch as int32 (Date32Type).
  kDate64,                ///< Milliseconds since the UNIX epoch as int64 (Date64Type).
  kTime32,                ///< Time of day in s or ms as int32 (Time32Type).
  kTime64,                ///< Time of day in us or ns as int64 (Time64Type).
  kTimestamp,             ///< Instant since the UNIX epoch as int64, optional zone (TimestampType).
  kDuration,              ///< Elapsed time as int64 in a TimeUnit (DurationType).
  kIntervalMonths,        ///< Calendar interval in whole months, int32 (MonthIntervalType).
  kIntervalDayTime,       ///< Days plus milliseconds (DayTimeIntervalType).
  kIntervalMonthDayNano,  ///< Months, days and nanoseconds (MonthDayNanoIntervalType).
  kFixedSizeBinary,       ///< Byte strings of one fixed width (FixedSizeBinaryType).
  kBinary,                ///< Byte strings with 32-bit offsets (BinaryType).
  kString,                ///< UTF-8 strings with 32-bit offsets (StringType).
  kLargeBinary,           ///< Byte strings with 64-bit offsets (LargeBinaryType).
  kLargeString,           ///< UTF-8 strings with 64-bit offsets (LargeStringType).
  kBinaryView,            ///< Byte strings as 16-byte views (BinaryViewType).
  kStringView,            ///< UTF-8 strings as 16-byte views (StringViewType).
  kList,                  ///< Lists with 32-bit offsets (ListType).
  kLargeList,             ///< Lists with 64-bit offsets (LargeListType).
  kListView,              ///< Lists as 32-bit offset + size pairs (ListViewType).
  kLargeListView,         ///< Lists as 64-bit offset + size pairs (LargeListViewType).
  kFixedSizeList,         ///< Lists of one fixed length (FixedSizeListType).
  kStruct,                ///< Named children of equal length (StructType).
  kMap,                   ///< Lists of key/value entries (MapType).
  kSparseUnion,           ///< Union whose children are as long as the union (SparseUnionType).
  kDenseUnion,            ///< Union with per-slot offsets into its children (DenseUnionType).
  kDictionary,            ///< Integer indices into a dictionary of values (DictionaryType).
  kRunEndEncoded,         ///< Run ends plus one value per run (RunEndEncodedType).
  kExtension,             ///< User or canonical type over a storage type (ExtensionType).
};

/// Lower-case name of a type id ("int32", "timestamp", "dense_union"), for
/// messages. Returns a static string; never nullptr.
ALKAID_EXPORT const char* TypeIdName(TypeId id);

/// Resolution of times, timestamps and durations. The values match the
/// Arrow Flatbuffers enumeration.
enum class TimeUnit : int8_t {
  kSecond = 0,  ///< Seconds.
  kMilli = 1,   ///< Milliseconds (10^-3 s).
  kMicro = 2,   ///< Microseconds (10^-6 s).
  kNano = 3     ///< Nanoseconds (10^-9 s).
};
/// Abbreviation of a unit as used in type strings: "s", "ms", "us", "ns".
/// Returns a static string.
ALKAID_EXPORT const char* TimeUnitName(TimeUnit unit);

/// How a union lays out its children.
enum class UnionMode : int8_t {
  kSparse = 0,  ///< Every child has the union's length; slot i reads child slot i.
  kDense = 1    ///< An int32 offsets buffer says where in the chosen child slot i is.
};

/// Byte order of the buffers described by a Schema.
enum class Endianness : int8_t {
  kLittle = 0,  ///< Least significant byte first.
  kBig = 1      ///< Most significant byte first.
};
/// Byte order of the machine this code was compiled for.
constexpr Endianness NativeEndianness() {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return Endianness::kBig;
#else
  return Endianness::kLittle;
#endif
}

class DataType;
class Field;
class Schema;
/// Shared, immutable handle to a data type; the usual way types are passed around.
using DataTypePtr = std::shared_ptr<DataType>;
/// Shared, immutable handle to a field.
using FieldPtr = std::shared_ptr<Field>;
/// Ordered list of fields: the children of a nested type or the columns of a schema.
using FieldVector = std::vector<FieldPtr>;
/// Shared, immutable handle to a schema.
using SchemaPtr = std::shared_ptr<Schema>;

}  // namespace alkaid
