/// @file
/// Arrays, chunked arrays and record batches from JSON literals, built with
/// the builders: handy in tests, examples and small programs.
///
///   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr a, integration_json::ArrayFromJSONString(int32(), "[1, null, 3]"));
///   ALKAID_ASSIGN_OR_RAISE(auto batch, integration_json::RecordBatchFromJSONString(
///       schema({field("id", int32()), field("name", utf8())}),
///       R"([{"id": 1, "name": "ada"}, {"id": 2, "name": null}])"));
///
/// The names follow Arrow C++ (arrow::json::ArrayFromJSONString); like every
/// alkaid producer they return the ArrayData, which MakeArray() views as a
/// typed array.
///
/// The JSON text is an array with one element per slot; `null` is a null slot.
/// Per type:
///   bool                 true / false
///   integers, dates, times, timestamps, durations, month_interval
///                        integers (range-checked against the type)
///   float16/32/64        numbers, or "NaN", "Inf", "-Inf"; float16 values are
///                        rounded to the nearest half
///   day_time_interval    [days, milliseconds]
///   month_day_nano       [months, days, nanoseconds]
///   decimals             strings such as "-12.34" (scaled by the type's scale;
///                        integers are accepted too)
///   binary-like, views, fixed_size_binary
///                        strings, taken as their raw bytes
///   lists, list views, fixed-size lists
///                        JSON arrays of the child's literals
///   struct               objects keyed by field name (a missing key is a null
///                        child slot), or arrays of the fields in order
///   map                  arrays of [key, value] pairs
///   sparse/dense union   [type_code, value]
///   dictionary           the plain values; equal values share one dictionary
///                        entry
///   run_end_encoded      the plain values; equal neighbours (and neighbouring
///                        nulls) merge into one run
///   extension            the literal of its storage type
///
/// The text may be untrusted: malformed JSON is an Invalid status naming the
/// byte offset, a value that does not fit the type names its slot path
/// ("[1].a[2]: ..."), and text nested deeper than kMaxJsonNestingDepth is
/// refused before it is parsed. No exception leaves these functions.
///
/// Threads: the functions share no state; call them from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::integration_json {

/// Deepest nesting of JSON arrays and objects the literal functions accept.
inline constexpr int kMaxJsonNestingDepth = 64;

/// An array of `type` from a JSON array of slot literals.
ALKAID_EXPORT Result<ArrayDataPtr> ArrayFromJSONString(const DataTypePtr& type,
                                                       std::string_view json);

/// A chunked array of `type`, one chunk per JSON text.
ALKAID_EXPORT Result<ChunkedArrayPtr> ChunkedArrayFromJSONString(
    const DataTypePtr& type, const std::vector<std::string>& chunks);

/// A record batch from a JSON array of row objects keyed by column name (a
/// missing key is a null).
ALKAID_EXPORT Result<RecordBatchPtr> RecordBatchFromJSONString(const SchemaPtr& schema,
                                                               std::string_view json);

}  // namespace alkaid::integration_json
