/// @file
/// Types from their names: the inverse of DataType::ToString().
///
/// ParseTypeName reads every form that ToString() writes, so for the types
/// listed below `ParseTypeName(t->ToString())` equals `t`:
///
///   null bool int8 ... uint64 halffloat float double
///   date32[day] date64[ms] month_interval day_time_interval month_day_nano_interval
///   time32[s] time64[ns] duration[ms] timestamp[us] timestamp[us, tz=Europe/Paris]
///   decimal32(9, 2) decimal64 decimal128 decimal256   fixed_size_binary[16]
///   binary string large_binary large_string binary_view string_view
///   list<item: int32> large_list<...> list_view<...> large_list_view<...>
///   fixed_size_list<item: float>[3]   struct<a: int32 not null, b: string>
///   map<string, int64[, keys_sorted]>   sparse_union<a: int32=0, b: string=5>
///   dense_union<...>   dictionary<values=string, indices=int8[, ordered]>
///   run_end_encoded<run_ends: int32, values: double>
///   extension<NAME, storage=TYPE>   (a registered type that needs no metadata)
///
/// It also takes a few common spellings: boolean, float16, float32, float64,
/// utf8, large_utf8, utf8_view, date32, date64, decimal(P, S) (decimal128),
/// timestamp[ms, UTC] (the zone without "tz="), list<int32> (a value field
/// named "item"); spaces after commas are optional.
///
/// What ToString() does not write cannot come back, so these do not round-trip:
/// field metadata; a map whose values are not nullable or whose fields are
/// not named key/value (the name shows only the two types); extension types
/// that keep parameters in their serialized metadata (fixed_shape_tensor,
/// variable_shape_tensor, opaque) and extension types not registered; field
/// names or time zones containing ':', ',', '<', '>', '[', ']' or '='.
///
/// Thread safety: a pure function (it reads the extension registry, which is
/// safe to read from several threads).
#pragma once

#include <string_view>

#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// The type `text` names (see the file comment for the accepted forms).
/// Fails with KeyError naming the text and the byte offset of the problem,
/// e.g. "unknown type 'int33' (at byte 0 of 'list<int33>')". Nesting deeper
/// than kDefaultMaxRecursionDepth levels is refused, never followed.
ALKAID_EXPORT Result<DataTypePtr> ParseTypeName(std::string_view text);

}  // namespace alkaid
