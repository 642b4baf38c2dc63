/// @file
/// Human-readable rendering of arrays.
///
/// Style (multi-line mode): the array is a bracketed block with one slot per
/// line; every container value is itself a block, one level deeper:
///
///   [                        list<int32>:  [[1, 2], null, []]
///     [
///       1,
///       2
///     ],
///     null,
///     []
///   ]
///
/// In one-line mode (skip_new_lines, and FormatValue) the same text is joined
/// with ", ": [[1, 2], null, []].
///
/// Values:
///   lists, list views, fixed-size lists  [1, 2]
///   structs                             {a: 1, b: "x"}      (field names as is)
///   maps                                {"k": 1, "j": null} (keys rendered as values)
///   unions                              2: "x"              (type code: value)
///   dictionary arrays                   the decoded value
///   run-end encoded arrays              the decoded value
///   extension arrays                    the storage value
///   strings                             `"a\"b\n"` (C-style escapes, `\xNN` for other
///                                       control bytes)
///   binary, fixed-size binary           hex digits 68690A (an empty value is "")
///   floats, half floats                 shortest round-trip text: 1.5, -0, nan, inf
///   decimals                            exact: -12.345, 0.05
///   date32, date64                      2024-02-29
///   time32, time64                      13:45:07, 13:45:07.250 (digits of the unit)
///   timestamps                          2024-02-29T13:45:07.250 (digits of the unit); with a
///                                       time zone: ...Z for UTC, local time plus the offset
///                                       for "+05:30"-style zones, ...Z[Europe/Paris] for named
///                                       zones (the instant in UTC, zone annotated)
///   durations                           15ms
///   intervals                           2M, 3d400ms, 2M3d400000ns
///
/// A long array shows its first and last `window` slots with "..." between
/// them; containers inside values use `container_window` the same way.
/// Output has no trailing newline.
#pragma once

#include <ostream>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Layout of PrettyPrint's output. A plain value; the defaults print up to ten
/// slots at each end, two spaces per level.
struct ALKAID_EXPORT PrettyPrintOptions {
  int indent = 0;                 ///< spaces before every line
  int indent_size = 2;            ///< added per nesting level
  int64_t window = 10;            ///< values shown at each end before "..."
  int64_t container_window = 2;   ///< same, for elements inside nested values
  std::string null_rep = "null";  ///< text shown for a null slot
  bool skip_new_lines = false;    ///< render on one line
};

/// The array is fully validated first (alkaid/validate.h), so any input is
/// safe to print; the work and the text are bounded by the windows, not by the
/// array's length (a run-end encoded array of 2^62 slots prints 2 * window
/// values). Fails on invalid options (negative window or indentation), an
/// invalid array, memory running out, or when the stream reports an error.
ALKAID_EXPORT Status PrettyPrint(const ArrayData& data, const PrettyPrintOptions& options, std::ostream* out);
/// Same; on failure the text is `"<"` + the error + `">"`.
ALKAID_EXPORT std::string PrettyPrintToString(const ArrayData& data,
                                const PrettyPrintOptions& options = PrettyPrintOptions());

/// Elements FormatValue shows at each end of a container value before "...".
inline constexpr int64_t kFormatValueWindow = 10;
/// Rendering of a single slot on one line (used by printers, diffs and the
/// CLI). Containers show up to kFormatValueWindow elements at each end.
/// Precondition: `data` is valid (unlike PrettyPrint, FormatValue does not
/// validate it, since callers format many slots of one array); an `i` outside
/// [0, length) gives `"<slot i out of range>"`.
ALKAID_EXPORT std::string FormatValue(const ArrayData& data, int64_t i);
/// Same with caller options (skip_new_lines is implied).
ALKAID_EXPORT std::string FormatValue(const ArrayData& data, int64_t i, const PrettyPrintOptions& options);
/// Same, producing at most `max_bytes` bytes of text (cut at a character
/// boundary), for a display of bounded width: the work and memory are
/// O(max_bytes) whatever the value's size (a 64 MiB string, a list of
/// millions of elements, a deeply nested value), since formatting stops once
/// the budget is spent. `*cut` (may be null) is set to whether the value's
/// text was longer than what is returned.
ALKAID_EXPORT std::string FormatValue(const ArrayData& data, int64_t i,
                                      const PrettyPrintOptions& options, int64_t max_bytes,
                                      bool* cut);

}  // namespace alkaid
