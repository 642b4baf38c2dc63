// See parse_line.h.
#include "parse_line.h"

#include <algorithm>

namespace alkaid::jsonl::internal {

namespace dom = simdjson::dom;

const char* KindName(dom::element_type t) {
  switch (t) {
    case dom::element_type::ARRAY: return "an array";
    case dom::element_type::OBJECT: return "an object";
    case dom::element_type::INT64:
    case dom::element_type::UINT64: return "an integer";
    case dom::element_type::DOUBLE: return "a number";
    case dom::element_type::STRING: return "a string";
    case dom::element_type::BOOL: return "a boolean";
    case dom::element_type::NULL_VALUE: return "null";
  }
  return "a value";
}

simdjson::error_code ParseLine(const char* p, size_t n, int max_depth, dom::element* out) {
  thread_local dom::parser parser;
  if (parser.capacity() < n || parser.max_depth() != static_cast<size_t>(max_depth)) {
    auto err = parser.allocate(std::max<size_t>(n, 1 << 16), static_cast<size_t>(max_depth));
    if (err) return err;
  }
  return parser.parse(p, n, false).get(*out);
}

std::string DescribeParseError(simdjson::error_code err, int max_depth) {
  if (err == simdjson::DEPTH_ERROR) {
    return "nesting deeper than " + std::to_string(max_depth) + " levels";
  }
  if (err == simdjson::NUMBER_ERROR || err == simdjson::NUMBER_OUT_OF_RANGE) {
    return std::string("a number that is not a valid 64-bit integer or double (") +
           simdjson::error_message(err) + ")";
  }
  return std::string("not valid JSON: ") + simdjson::error_message(err);
}

}  // namespace alkaid::jsonl::internal
