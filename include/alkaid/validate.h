// Validation of arrays at two levels.
//
// ValidateArray: structural checks in O(number of buffers): buffer counts and
// sizes against length and offset, child counts and lengths, type parameters.
// ValidateArrayFull: everything ValidateArray does plus O(length) checks of the
// values: offsets, views, list-view ranges, union type ids and offsets,
// dictionary indices, run ends, null counts and UTF-8.
//
// Every error names the field path (e.g. "col1.b[item]"), the slot or buffer
// index, and the rule that was broken.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/status.h"

namespace alkaid {

Status ValidateArray(const ArrayData& data);
Status ValidateArrayFull(const ArrayData& data);

// True when `bytes` is well-formed UTF-8.
bool ValidateUtf8(const uint8_t* bytes, int64_t length);

}  // namespace alkaid
