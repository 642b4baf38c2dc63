// Human-readable rendering of arrays, record batches and tables.
#pragma once

#include <ostream>
#include <string>

#include "alkaid/array_data.h"

namespace alkaid {

struct PrettyPrintOptions {
  int indent = 0;            // spaces before every line
  int indent_size = 2;       // added per nesting level
  int64_t window = 10;       // values shown at each end before "..."
  int64_t container_window = 2;  // same, for elements inside nested values
  std::string null_rep = "null";
  bool skip_new_lines = false;   // render on one line
};

Status PrettyPrint(const ArrayData& data, const PrettyPrintOptions& options, std::ostream* out);
std::string PrettyPrintToString(const ArrayData& data,
                                const PrettyPrintOptions& options = PrettyPrintOptions());

// Rendering of a single slot (used by printers, diffs and the CLI).
std::string FormatValue(const ArrayData& data, int64_t i);

}  // namespace alkaid
