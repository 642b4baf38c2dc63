// One integration JSON column object -> ArrayData, decoded token by token
// from a JsonPullParser straight into pool buffers: no document is built,
// members may come in any order, and every rule that input can break is
// checked with the JSON location in the message.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/status.h"
#include "integration_internal.h"
#include "json_pull_parser.h"

namespace alkaid::integration_json::internal {

// A dictionary-encoded column waiting for its dictionary.
struct PendingDictionary {
  ArrayDataPtr data;
  int64_t id;
  std::string path;
};

struct ReadContext {
  std::vector<PendingDictionary> pending;
};

// What a column's "name" member must say. A batch's columns and nested
// children are checked (with differently worded messages); dictionary
// columns are named freely.
struct ColumnName {
  std::string_view field;  // the schema field's name
  int batch_column = -1;   // >= 0: a batch's column of that index
  bool check = true;
};

// Reads the column object whose first token, already taken from `parser`,
// is `first`. `child_nodes` describe the children of the field's storage
// type; `path` names the column in messages; `expected_length` is the count
// the parent requires, when it is known.
Result<ArrayDataPtr> ReadColumn(JsonPullParser* parser, JsonToken first, const DataTypePtr& type,
                                const std::vector<FieldNode>& child_nodes,
                                std::optional<int64_t> dictionary_id, const std::string& path,
                                std::optional<int64_t> expected_length, const ColumnName& name,
                                ReadContext* ctx);

// The value whose first token is `token` as messages show it: as written
// (cut to 60 characters), or by its kind when it is an array or an object
// (which is skipped, so that its own syntax is checked first).
Result<std::string> ShowValue(JsonPullParser* parser, JsonToken token);

// "where: expected <expected>, got <the value>".
Status BadValue(JsonPullParser* parser, JsonToken token, const std::string& where,
                const std::string& expected);

// A member's integer value (a JSON number without fraction or exponent).
Result<int64_t> ReadCount(JsonPullParser* parser, const std::string& where);

}  // namespace alkaid::integration_json::internal
