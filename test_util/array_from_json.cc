#include "test_util/array_from_json.h"

#include <gtest/gtest.h>

namespace alkaid::testing {

ArrayDataPtr ArrayFromJSON(const DataTypePtr& type, std::string_view text) {
  auto result = ArrayFromJSONString(type, text);
  if (!result.ok()) {
    ADD_FAILURE() << "ArrayFromJSON(" << type->ToString() << "): " << result.status().ToString();
    return nullptr;
  }
  return std::move(result).MoveValueUnsafe();
}

RecordBatchPtr RecordBatchFromJSON(const SchemaPtr& schema, std::string_view text) {
  auto result = RecordBatchFromJSONString(schema, text);
  if (!result.ok()) {
    ADD_FAILURE() << "RecordBatchFromJSON: " << result.status().ToString();
    return nullptr;
  }
  return std::move(result).MoveValueUnsafe();
}

}  // namespace alkaid::testing
