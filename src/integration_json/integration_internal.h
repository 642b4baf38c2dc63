// Pieces shared by the integration JSON reader and writer: the schema tree
// with dictionary ids, and encodings of single values (hex, big decimals,
// half floats, floats printed the way the reference prints them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "alkaid/dictionary_ids.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::integration_json::internal {

using Json = nlohmann::json;
// Output keeps keys in insertion order so files read like the reference ones.
using OrderedJson = nlohmann::ordered_json;

// A schema field as the JSON declares it. `children` describe the children
// of the field's storage type (the value type when dictionary-encoded), so a
// reader can walk columns and dictionary batches alike.
struct FieldNode {
  FieldPtr field;
  std::optional<int64_t> dictionary_id;
  std::vector<FieldNode> children;
};

struct ParsedSchema {
  SchemaPtr schema;
  std::vector<FieldNode> fields;
  DictionaryIds dictionary_ids;
};

// `path` names the schema object in error messages (e.g. "schema"). Types
// nested deeper than `max_depth` levels are refused.
Result<ParsedSchema> ParseSchema(const Json& schema, const std::string& path, int max_depth);

// Deepest nesting of JSON arrays and objects in integration JSON whose types
// nest at most `max_type_depth` levels: each type level costs a field object
// and its children array, plus a few levels of framing. The parser refuses
// deeper text as it reads, so no input can exhaust the stack.
constexpr int MaxJsonNesting(int max_type_depth) { return 2 * max_type_depth + 16; }

// Field list in the reference layout; ids give each dictionary field's id.
Result<OrderedJson> SchemaToJson(const Schema& schema, const DictionaryIds& ids);

// The type with dictionary encoding and extensions peeled off, as written in
// a field's "type" member.
const DataType& UnwrapExtension(const DataType& type);

// ---------------------------------------------------------------------------
// Value encodings (ALKAID_EXPORT: the unit tests call them through the
// shared library)

// Upper-case hex of `size` bytes.
ALKAID_EXPORT std::string HexEncode(const uint8_t* data, int64_t size);
// Decodes hex (either case) into out[0, text.size() / 2); false when the
// text has odd length or a non-hex character (whose index goes to *bad_at).
ALKAID_EXPORT bool HexDecode(std::string_view text, uint8_t* out, size_t* bad_at);

// Decimal integer text <-> little-endian two's complement of `width` bytes
// (4, 8, 16 or 32). Parsing fails on non-digits and on values that do not fit.
ALKAID_EXPORT Status ParseDecimalInteger(std::string_view text, int width, uint8_t* out);
ALKAID_EXPORT std::string FormatDecimalInteger(const uint8_t* bytes, int width);

// IEEE 754 binary16 <-> binary32, rounding to nearest even.
ALKAID_EXPORT uint16_t FloatToHalf(float value);
ALKAID_EXPORT float HalfToFloat(uint16_t bits);

// The double whose shortest printed form equals the shortest printed form of
// the float `value` (so 641.818f is written as 641.818, not 641.817993...).
ALKAID_EXPORT double FloatForPrinting(float value);

// "SECOND", "MILLISECOND", ...
const char* TimeUnitJsonName(TimeUnit unit);

}  // namespace alkaid::integration_json::internal
