// One array -> an integration JSON column object, value by value.
#pragma once

#include <cstdint>
#include <string_view>

#include "alkaid/array_data.h"
#include "alkaid/status.h"
#include "json_text_writer.h"

namespace alkaid::integration_json::internal {

// Writes slots [begin, begin + length) of `data` as a column named `name`
// ({"name", "count", "VALIDITY", "DATA", ..., "children"}) where `out`
// expects a value. Errors (a value JSON cannot hold) carry "column <name>".
Status WriteColumn(JsonTextWriter* out, const ArrayData& data, int64_t begin, int64_t length,
                   std::string_view name);

}  // namespace alkaid::integration_json::internal
