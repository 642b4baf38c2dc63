// Array literals for tests, written as JSON and built with the builders.
//
//   auto a = ArrayFromJSON(int32(), "[1, null, 3]");
//   auto s = ArrayFromJSON(struct_({field("a", utf8())}), R"([{"a": "x"}, null, {}])");
//
// The JSON text is an array with one element per slot; `null` is a null slot.
// Per type:
//   bool                 true / false
//   integers, dates, times, timestamps, durations, month_interval
//                        integers (range-checked against the type)
//   float16/32/64        numbers, or "NaN", "Inf", "-Inf"; float16 values are
//                        rounded to the nearest half
//   day_time_interval    [days, milliseconds]
//   month_day_nano       [months, days, nanoseconds]
//   decimals             strings such as "-12.34" (scaled by the type's scale;
//                        integers are accepted too)
//   binary-like, views, fixed_size_binary
//                        strings, taken as their raw bytes
//   lists, list views, fixed-size lists
//                        JSON arrays of the child's literals
//   struct               objects keyed by field name (a missing key is a null
//                        child slot), or arrays of the fields in order
//   map                  arrays of [key, value] pairs
//   sparse/dense union   [type_code, value]
//   dictionary           the plain values; equal values share one dictionary
//                        entry
//   run_end_encoded      the plain values; equal neighbours (and neighbouring
//                        nulls) merge into one run
//   extension            the literal of its storage type
#pragma once

#include <string_view>

#include "alkaid/array_data.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::testing {

// Builds an array of `type` from JSON text; errors name the slot path.
Result<ArrayDataPtr> ArrayFromJSONString(const DataTypePtr& type, std::string_view json);

// Same, but on error records a gtest failure (ADD_FAILURE) and returns nullptr.
ArrayDataPtr ArrayFromJSON(const DataTypePtr& type, std::string_view json);

// A record batch from a JSON array of row objects keyed by column name.
Result<RecordBatchPtr> RecordBatchFromJSONString(const SchemaPtr& schema, std::string_view json);
RecordBatchPtr RecordBatchFromJSON(const SchemaPtr& schema, std::string_view json);

}  // namespace alkaid::testing
