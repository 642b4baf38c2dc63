/// @file
/// Factories of every type, field and schema: int32(), utf8(), list(int8()),
/// field("a", int64()), schema({...}), ... They trust their arguments; the
/// checked constructors are the static Make functions of the type classes
/// (used on untrusted input such as IPC).
///
/// Threads: the parameterless factories return one shared instance per type
/// (created on first use, thread-safe); the others allocate a new type on each
/// call. All may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "alkaid/type/metadata.h"
#include "alkaid/type/schema.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// The null type (shared instance).
ALKAID_EXPORT DataTypePtr null();
/// The boolean type (shared instance).
ALKAID_EXPORT DataTypePtr boolean();
/// Signed 8-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int8();
/// Signed 16-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int16();
/// Signed 32-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int32();
/// Signed 64-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr int64();
/// Unsigned 8-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint8();
/// Unsigned 16-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint16();
/// Unsigned 32-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint32();
/// Unsigned 64-bit integers (shared instance).
ALKAID_EXPORT DataTypePtr uint64();
/// IEEE 754 half-precision floats, HalfFloatType (shared instance).
ALKAID_EXPORT DataTypePtr float16();
/// IEEE 754 single-precision floats, FloatType (shared instance).
ALKAID_EXPORT DataTypePtr float32();
/// IEEE 754 double-precision floats, DoubleType (shared instance).
ALKAID_EXPORT DataTypePtr float64();
/// decimal32(precision, scale); precision should be 1..9 (unchecked; see MakeDecimal).
ALKAID_EXPORT DataTypePtr decimal32(int32_t precision, int32_t scale);
/// decimal64(precision, scale); precision should be 1..18 (unchecked).
ALKAID_EXPORT DataTypePtr decimal64(int32_t precision, int32_t scale);
/// decimal128(precision, scale); precision should be 1..38 (unchecked).
ALKAID_EXPORT DataTypePtr decimal128(int32_t precision, int32_t scale);
/// decimal256(precision, scale); precision should be 1..76 (unchecked).
ALKAID_EXPORT DataTypePtr decimal256(int32_t precision, int32_t scale);
/// Days since the UNIX epoch as int32 (shared instance).
ALKAID_EXPORT DataTypePtr date32();
/// Milliseconds since the UNIX epoch as int64 (shared instance).
ALKAID_EXPORT DataTypePtr date64();
/// Time of day as int32; `unit` should be seconds or milliseconds (unchecked;
/// see Time32Type::Make).
ALKAID_EXPORT DataTypePtr time32(TimeUnit unit);
/// Time of day as int64; `unit` should be micro- or nanoseconds (unchecked;
/// see Time64Type::Make).
ALKAID_EXPORT DataTypePtr time64(TimeUnit unit);
/// Timestamps in `unit`; empty `timezone` means zone-less (see TimestampType).
ALKAID_EXPORT DataTypePtr timestamp(TimeUnit unit, std::string timezone = "");
/// Durations in `unit`.
ALKAID_EXPORT DataTypePtr duration(TimeUnit unit);
/// Intervals in whole months (shared instance).
ALKAID_EXPORT DataTypePtr month_interval();
/// Intervals of days plus milliseconds (shared instance).
ALKAID_EXPORT DataTypePtr day_time_interval();
/// Intervals of months, days and nanoseconds (shared instance).
ALKAID_EXPORT DataTypePtr month_day_nano_interval();
/// Byte strings of `byte_width` bytes each (unchecked; see FixedSizeBinaryType::Make).
ALKAID_EXPORT DataTypePtr fixed_size_binary(int32_t byte_width);
/// Byte strings with 32-bit offsets (shared instance).
ALKAID_EXPORT DataTypePtr binary();
/// UTF-8 strings with 32-bit offsets, StringType (shared instance).
ALKAID_EXPORT DataTypePtr utf8();
/// Byte strings with 64-bit offsets (shared instance).
ALKAID_EXPORT DataTypePtr large_binary();
/// UTF-8 strings with 64-bit offsets, LargeStringType (shared instance).
ALKAID_EXPORT DataTypePtr large_utf8();
/// Byte strings as 16-byte views (shared instance).
ALKAID_EXPORT DataTypePtr binary_view();
/// UTF-8 strings as 16-byte views, StringViewType (shared instance).
ALKAID_EXPORT DataTypePtr utf8_view();
/// List of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr list(DataTypePtr value_type);
/// List whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr list(FieldPtr value_field);
/// Large list of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr large_list(DataTypePtr value_type);
/// Large list whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr large_list(FieldPtr value_field);
/// List view of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr list_view(DataTypePtr value_type);
/// List view whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr list_view(FieldPtr value_field);
/// Large list view of nullable `value_type` items named "item".
ALKAID_EXPORT DataTypePtr large_list_view(DataTypePtr value_type);
/// Large list view whose items are described by `value_field`.
ALKAID_EXPORT DataTypePtr large_list_view(FieldPtr value_field);
/// Lists of `list_size` nullable `value_type` items named "item" (unchecked;
/// see FixedSizeListType::Make).
ALKAID_EXPORT DataTypePtr fixed_size_list(DataTypePtr value_type, int32_t list_size);
/// Lists of `list_size` items described by `value_field` (unchecked).
ALKAID_EXPORT DataTypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
/// Struct of `fields` in order. The trailing underscore avoids the keyword.
ALKAID_EXPORT DataTypePtr struct_(FieldVector fields);
/// Map with canonical child names; keys are non-nullable, items nullable.
ALKAID_EXPORT DataTypePtr map(DataTypePtr key_type, DataTypePtr item_type, bool keys_sorted = false);
/// Sparse union of `fields`; empty `type_codes` means 0, 1, 2, ... (unchecked;
/// see UnionType::Make).
ALKAID_EXPORT DataTypePtr sparse_union(FieldVector fields, std::vector<int8_t> type_codes = {});
/// Dense union of `fields`; empty `type_codes` means 0, 1, 2, ... (unchecked;
/// see UnionType::Make).
ALKAID_EXPORT DataTypePtr dense_union(FieldVector fields, std::vector<int8_t> type_codes = {});
/// Dictionary of `value_type` values indexed by `index_type`, which should be
/// an integer type (unchecked; see DictionaryType::Make).
ALKAID_EXPORT DataTypePtr dictionary(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false);
/// Run-end encoding of `value_type` with run ends of `run_end_type`, which
/// should be int16, int32 or int64 (unchecked; see RunEndEncodedType::Make).
ALKAID_EXPORT DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type);

/// A new Field; same as its constructor, as a shared pointer.
ALKAID_EXPORT FieldPtr field(std::string name, DataTypePtr type, bool nullable = true,
               MetadataPtr metadata = nullptr);
/// A new little-endian Schema of `fields` with optional metadata.
ALKAID_EXPORT SchemaPtr schema(FieldVector fields, MetadataPtr metadata = nullptr);

}  // namespace alkaid
