// Format strings and binary metadata of the C Data Interface: the one place
// that knows how each alkaid type is spelled there.
#pragma once

#include <string>

#include "alkaid/c_data/abi.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/validate.h"

// Not installed. What the tests call through a shared library (BUILD_SHARED_LIBS=ON) is
// marked ALKAID_EXPORT; the rest stays hidden.

namespace alkaid::c_data {

// Nesting limit of exported and imported structs: the one shared with
// validation and the IPC reader.
inline constexpr int kMaxDepth = kDefaultMaxRecursionDepth;

// Format string of a type that is neither dictionary nor extension (those are
// expressed through ArrowSchema.dictionary and metadata).
Result<std::string> FormatOf(const DataType& type);

// Parses a format string. `children` are the already imported child fields
// (their count is checked against the format). `flags` gives the map's
// keys-sorted bit. Errors do not name the path; the caller adds it.
Result<DataTypePtr> TypeOfFormat(const std::string& format, FieldVector children, int64_t flags);

// int32 count, then per pair int32 key length, key bytes, int32 value length,
// value bytes (native byte order).
std::string EncodeMetadata(const KeyValueMetadata& metadata);
// Reads metadata from an untrusted pointer; null means none. The encoding has
// no total size, so the bounds come from the lengths it states; each is
// checked for sign and a total under 2^31 bytes.
ALKAID_EXPORT Result<MetadataPtr> DecodeMetadata(const char* bytes);

}  // namespace alkaid::c_data
