// Metadata JSON of the canonical extension types that have parameters (the tensors, opaque, json),
// parsed without exceptions. Apart from extension_internal.h so that the types without
// parameters do not compile nlohmann/json.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/status.h"

namespace alkaid::extension_internal {

using Json = nlohmann::json;
// Keeps keys in insertion order so serialized metadata is deterministic and
// matches the order the spec shows.
using OrderedJson = nlohmann::ordered_json;

// Parses `text` as a JSON object; errors start with "<ext> metadata: ".
Result<Json> ParseObject(std::string_view ext, const std::string& text);

// Compact dump that never throws (invalid UTF-8 in strings is replaced).
std::string Dump(const OrderedJson& value);

// Reads obj[key] as an array of integers. A missing key gives nullopt.
Result<std::optional<std::vector<int64_t>>> GetIntArray(std::string_view ext, const Json& obj,
                                                        const char* key, bool non_negative);
// Reads obj[key] as an array of strings. A missing key gives nullopt.
Result<std::optional<std::vector<std::string>>> GetStringArray(std::string_view ext,
                                                               const Json& obj, const char* key);

}  // namespace alkaid::extension_internal
