/// @file
/// Validation of arrays at two levels.
///
/// ValidateArray: structural checks in O(number of buffers): buffer counts and
/// sizes against length and offset, child counts and lengths, type parameters.
/// ValidateArrayFull: everything ValidateArray does plus O(length) checks of the
/// values: offsets, views, list-view ranges, union type ids and offsets,
/// dictionary indices, run ends, null counts and UTF-8.
///
/// Both are safe on untrusted input (e.g. arrays read from IPC): every size is
/// checked before a byte is read, arithmetic on lengths is overflow-checked and
/// nesting deeper than ValidateOptions::max_recursion_depth levels (64 unless
/// raised) is refused.
///
/// Every error is Status::Invalid and reads
///   `"<type name> array at <path>: <what is wrong>"`
/// where `<path>` starts at the root name (`"<root>"` unless one is given) and
/// appends `".<field name>"` for each child (".[i]" when the field has no name)
/// and `".<dictionary>"` for dictionary values, e.g. "col.b.item" or
/// "col.entries.key". Slot indices are relative to the array's offset; the
/// physical index is added when the array is sliced.
///
/// Choices where the spec leaves room:
/// - UTF-8 is checked only for non-null slots (null slots may hold any bytes).
/// - Views of null slots may hold any bytes (the validity bitmap masks them);
///   every non-null view must be in bounds, name an existing data buffer, have
///   a non-negative size and, when inline (12 bytes or fewer), be zero after
///   its value, as the format requires.
/// - List-view offsets and sizes are checked for every slot, as the spec asks.
/// - Dense union offsets must point into the selected child; their order per
///   child (a SHOULD in the spec) is not enforced.
/// - utf8_view UTF-8 costs O(min(sum of view lengths, data buffer bytes) +
///   views): overlapping views do not multiply the work (each referenced data
///   buffer is then decoded once and views must start and end on character
///   boundaries); bytes that no non-null view covers may be anything.
/// - A run-end encoded array's values child may be longer than its run ends
///   (values past the last run are never read); it may not be shorter.
/// - A zero-length binary, string or list array may omit its offsets, but an
///   offset it does carry must not be negative.
#pragma once

#include <string_view>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/status.h"

namespace alkaid {

/// How deeply types and arrays may nest (children, dictionaries, extension
/// storage) before validation refuses them. Readers use the same default, so
/// whatever they load at their default also validates; raise both together.
inline constexpr int kDefaultMaxRecursionDepth = 64;

/// Structural checks of `data` and everything below it, O(number of buffers);
/// Invalid with the path of the first problem. Only reads `data`, so several
/// threads may validate the same array at once.
ALKAID_EXPORT Status ValidateArray(const ArrayData& data);
/// ValidateArray plus the O(length) checks of the values. Use it on data from
/// an untrusted source before reading values.
ALKAID_EXPORT Status ValidateArrayFull(const ArrayData& data);

/// Same, with error paths rooted at `root_name` (e.g. a column name).
ALKAID_EXPORT Status ValidateArray(const ArrayData& data, std::string_view root_name);
/// Same as ValidateArrayFull(data), with error paths rooted at `root_name`.
ALKAID_EXPORT Status ValidateArrayFull(const ArrayData& data, std::string_view root_name);

/// A type on its own: every field and type present, parameters in range
/// (precision, units, list sizes, union codes, run-end and index types),
/// nesting within `max_recursion_depth` levels. Arrays of a valid type still
/// need ValidateArray.
ALKAID_EXPORT Status ValidateType(const DataType& type, int max_recursion_depth = kDefaultMaxRecursionDepth);

/// Every knob of validation, for ValidateArray(data, options). A plain value.
struct ALKAID_EXPORT ValidateOptions {
  /// Also the O(length) checks of the values (ValidateArrayFull).
  bool full = true;
  /// The caller guarantees that the type of `data`, and of every child and
  /// dictionary below it, passed ValidateType (a reader checks its schema
  /// once instead of once per batch). Per-node type checks are skipped; the
  /// types of children are still compared with their fields.
  bool types_validated = false;
  /// The caller guarantees that every dictionary below `data` already passed
  /// validation (full, when `full` is set): a reader validates each dictionary
  /// batch once when it arrives instead of once per record batch using it.
  /// Dictionary indices are still checked against the dictionary's length.
  bool dictionaries_validated = false;
  /// First element of error paths (e.g. a column name). Not owned: the string
  /// must outlive the call.
  std::string_view root_name = "<root>";
  /// Deepest nesting accepted (a root with no children is depth 0). Checks
  /// recurse once per level, so a huge value trades the bound on stack use for
  /// the ability to validate very deep types.
  int max_recursion_depth = kDefaultMaxRecursionDepth;
};
/// Validates `data` as `options` ask (structural only, or full when
/// options.full).
ALKAID_EXPORT Status ValidateArray(const ArrayData& data, const ValidateOptions& options);

/// True when `bytes` is well-formed UTF-8 (see alkaid/utf8.h).
ALKAID_EXPORT bool ValidateUtf8(const uint8_t* bytes, int64_t length);

}  // namespace alkaid
