// Arrow schema -> Parquet schema tree, as Arrow C++ writes it: the writer's side of the
// mapping whose reading side is arrow_schema.h. Internal to the parquet module.
//
// Leaves (StorageOf): bool BOOLEAN; int8/int16/uint8/uint16 INT32 INTEGER(8|16, signed?);
// int32 INT32; uint32 INT32 INTEGER(32,false) (INT64 in format 1.0); int64 INT64; uint64
// INT64 INTEGER(64,false); float16 FIXED_LEN_BYTE_ARRAY(2) FLOAT16; float FLOAT; double
// DOUBLE; decimal32 INT32 and decimal64 INT64 DECIMAL; decimal128/256
// FIXED_LEN_BYTE_ARRAY(fewest bytes for the precision) DECIMAL; date32/date64 INT32 DATE;
// time32 INT32 TIME(MILLIS) (seconds scaled); time64 INT64 TIME(MICROS|NANOS);
// timestamp INT64 TIMESTAMP(unit, adjusted to UTC when it has a time zone), seconds as
// MILLIS, nanoseconds as MICROS before format 2.6; duration INT64; month and day-time
// intervals FIXED_LEN_BYTE_ARRAY(12) INTERVAL; month-day-nano intervals
// FIXED_LEN_BYTE_ARRAY(16) (restored from ARROW:schema); binary-like and views BYTE_ARRAY
// (STRING for text); fixed_size_binary FIXED_LEN_BYTE_ARRAY; null INT32 UNKNOWN (always
// OPTIONAL); arrow.uuid FIXED_LEN_BYTE_ARRAY(16) UUID; arrow.json BYTE_ARRAY JSON; other
// extension types their storage; dictionaries and run-end encoded types their values.
// Groups: struct a plain group; list, large list, list view, large list view and
// fixed-size list `<opt|req> group name (LIST) { repeated group list { element } }`; map
// `<opt|req> group name (MAP) { repeated group key_value { required key; value } }`.
// A nullable field is OPTIONAL, any other REQUIRED. The "PARQUET:field_id" field metadata
// becomes the node's field_id.
#pragma once

#include <vector>

#include "alkaid/parquet/schema.h"
#include "alkaid/parquet/writer_properties.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "src/parquet/writer/leaf_values.h"
#include "src/parquet/writer/statistics.h"

namespace alkaid::parquet::internal {

/// How one Arrow leaf type is stored in a Parquet column.
struct LeafStorage {
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;  ///< FIXED_LEN_BYTE_ARRAY width
  LogicalType logical_type;
  ValueConversion conversion = ValueConversion::kFixed;
};

/// The storage of a leaf type (dictionary, run-end encoded and extension types included).
/// NotImplemented for types that are not leaves in Parquet (nested types, unions).
Result<LeafStorage> StorageOf(const DataType& type, FormatVersion version);

/// The order min/max statistics follow for a column (apache/parquet-format's ColumnOrder).
SortOrder SortOrderOf(PhysicalType physical_type, const LogicalType& logical_type);

/// The Parquet schema of an Arrow schema, with what the writer needs per leaf column.
struct WriterSchema {
  SchemaDescriptor descriptor;
  std::vector<LeafStorage> leaves;  ///< per column, in column order
  std::vector<int> first_column;    ///< per top-level field: its first column
};

/// Maps `schema`; the root is named "schema". Errors name the field path: unions and
/// structs without fields have no Parquet form (NotImplemented).
Result<WriterSchema> ArrowToParquetSchema(const Schema& schema, FormatVersion version);

}  // namespace alkaid::parquet::internal
