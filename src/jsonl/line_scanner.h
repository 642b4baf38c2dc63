// The JSON Lines reader's first tier (internal): a scanner that walks a
// block's bytes once, expecting one flat-or-nested object per line shaped by
// the schema, and appends the values straight to the column builders. It
// takes only the common, plain forms (keys without escapes, strings without
// escapes, numbers the word-at-a-time parsers read, nothing the schema does
// not name) and checks the strict JSON grammar of everything it takes; on
// anything else it gives up on the whole block and the reader redoes the
// block on the simdjson tiers, which read it or word the error. So the
// scanner never accepts what they reject, and gives the values they give.
#pragma once

#include <cstdint>

#include "alkaid/type.h"
#include "alkaid/visibility.h"
#include "node.h"

// Not installed, but the tests call these through a shared library
// (BUILD_SHARED_LIBS=ON), hence ALKAID_EXPORT.

namespace alkaid::jsonl::internal {

// Whether the scanner reads objects of `struct_type` (the top-level fields
// as a struct, dictionaries and run-end encodings already decoded): bool,
// integers, float32/64, utf8 / large_utf8 / utf8_view, dates, times,
// timestamps, durations, and lists and structs of them, with field names
// that are valid UTF-8 without quotes, backslashes or control bytes.
ALKAID_EXPORT bool ScannerSupports(const DataType& struct_type);

// Reads the lines of data[0, size) into the builders of `root` (made by
// BuildNode for a type ScannerSupports accepts, reserved by the caller).
// The block must be followed by at least 64 zero bytes (the loader's
// padding). True with *rows set when every line with content held one
// object that was read; false when the scanner gave up, leaving the
// builders in an unspecified state (the caller makes them again).
ALKAID_EXPORT bool ScanLines(const char* data, int64_t size, Node* root, int64_t* rows);

}  // namespace alkaid::jsonl::internal
