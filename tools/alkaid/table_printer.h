// Renders record batches as an aligned text table for `alkaid cat`.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "alkaid/table.h"

namespace alkaid::cli {

struct TablePrintOptions {
  int64_t limit = -1;          // rows to print; -1 for all
  size_t max_cell_width = 40;  // longer cells are cut with "..."
};

// Prints the batches as one table (a header with names and types, then rows)
// followed by a summary line. Returns the number of rows printed.
int64_t PrintTable(const Schema& schema, const std::vector<RecordBatchPtr>& batches,
                   const TablePrintOptions& options, std::ostream& out);

}  // namespace alkaid::cli
