// The JSON Lines reader's line-level pieces (internal), shared by inference,
// the converters and the reader: walking a block's lines, parsing one line
// with simdjson's DOM parser, and wording what is wrong with a value.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "alkaid/status.h"

namespace alkaid::jsonl::internal {

// A failure deep in a value: the message, and the field path built while
// the recursion unwinds.
struct PathError {
  std::string path;
  std::string message;
  bool too_wide = false;  // the inferred schema passed max_columns
  // Which ReadOptions change the outcome (Status::detail()), when some do.
  std::optional<StatusDetail> detail;

  // Put the step to the failing value in front of the path: "[i]" for an
  // array item, ".key" for an object member. (Built step by step: GCC 12
  // warns wrongly (-Wrestrict) about "[" + std::to_string(i) here.)
  void PrependIndex(int64_t i) {
    std::string step(1, '[');
    step += std::to_string(i);
    step += ']';
    path.insert(0, step);
  }
  void PrependKey(std::string_view key) {
    std::string step(1, '.');
    step += key;
    path.insert(0, step);
  }
};

// "an array", "an integer", ...: what a parsed value is, for messages.
const char* KindName(simdjson::dom::element_type t);

// Parses one line with this thread's parser.
simdjson::error_code ParseLine(const char* p, size_t n, int max_depth,
                               simdjson::dom::element* out);

// The message for a line simdjson could not parse.
std::string DescribeParseError(simdjson::error_code err, int max_depth);

inline bool IsLineBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Calls fn(line_index, begin, end) for every line of data[0, size) that is
// not blank; stops at the first non-OK status.
template <typename Fn>
Status ForEachLine(const char* data, int64_t size, Fn&& fn) {
  int64_t p = 0, line = 0;
  while (p < size) {
    const void* nl = std::memchr(data + p, '\n', static_cast<size_t>(size - p));
    int64_t end = nl ? static_cast<const char*>(nl) - data : size;
    int64_t b = p, e = end;
    while (b < e && IsLineBlank(data[b])) ++b;
    while (e > b && IsLineBlank(data[e - 1])) --e;
    if (e > b) ALKAID_RETURN_NOT_OK(fn(line, b, e));
    ++line;
    p = end + 1;
  }
  return Status::OK();
}

// The start of the next line of [*p, size) with something besides blanks
// (as ForEachLine trims them), or -1; *p moves past that line.
inline int64_t NextContent(const char* data, int64_t size, int64_t* p) {
  while (*p < size) {
    const void* nl = std::memchr(data + *p, '\n', static_cast<size_t>(size - *p));
    int64_t end = nl ? static_cast<const char*>(nl) - data : size;
    int64_t b = *p;
    while (b < end && IsLineBlank(data[b])) ++b;
    *p = end + 1;
    if (b < end) return b;
  }
  return -1;
}

}  // namespace alkaid::jsonl::internal
