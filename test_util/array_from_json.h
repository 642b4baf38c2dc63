// Array literals for tests: thin wrappers over the library's JSON literal
// functions (alkaid/integration_json/array_from_json.h, which documents the JSON form of
// every type).
//
//   auto a = ArrayFromJSON(int32(), "[1, null, 3]");
//   auto s = ArrayFromJSON(struct_({field("a", utf8())}), R"([{"a": "x"}, null, {}])");
#pragma once

#include <string_view>

#include "alkaid/array_data.h"
#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::testing {

// Builds an array of `type` from JSON text; errors name the slot path.
inline Result<ArrayDataPtr> ArrayFromJSONString(const DataTypePtr& type, std::string_view json) {
  return alkaid::integration_json::ArrayFromJSONString(type, json);
}

// Same, but on error records a gtest failure (ADD_FAILURE) and returns nullptr.
ArrayDataPtr ArrayFromJSON(const DataTypePtr& type, std::string_view json);

// A record batch from a JSON array of row objects keyed by column name.
inline Result<RecordBatchPtr> RecordBatchFromJSONString(const SchemaPtr& schema,
                                                        std::string_view json) {
  return alkaid::integration_json::RecordBatchFromJSONString(schema, json);
}
RecordBatchPtr RecordBatchFromJSON(const SchemaPtr& schema, std::string_view json);

}  // namespace alkaid::testing
