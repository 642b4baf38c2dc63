// Cutting a Table into record batches whose columns are each a slice of one chunk: what the
// writers that take whole tables (Parquet, Flight) need, since a batch column is one ArrayData.
// Internal: a template over the caller's sink, not part of the public API.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/table.h"

namespace alkaid::internal {

/// Calls `visit(const RecordBatch&)` for consecutive row ranges that cover `table`, each at most
/// `max_rows` rows (<= 0: no limit) and cut wherever a chunk of any column ends, so that every
/// column of every batch is a zero-copy slice of one chunk. Returns the first error of `visit`;
/// Invalid when a column holds fewer rows than the table.
template <typename Visit>
Status ForEachChunkAlignedBatch(const Table& table, int64_t max_rows, Visit&& visit) {
  const auto num_columns = static_cast<size_t>(table.num_columns());
  std::vector<size_t> chunk(num_columns, 0);  // each column's current chunk
  std::vector<int64_t> used(num_columns, 0);  // rows of that chunk already in batches
  for (int64_t row = 0; row < table.num_rows();) {
    int64_t n = table.num_rows() - row;
    if (max_rows > 0) n = std::min(n, max_rows);
    for (size_t c = 0; c < num_columns; ++c) {
      const auto& chunks = table.column(static_cast<int>(c))->chunks();
      while (chunk[c] < chunks.size() && used[c] >= chunks[chunk[c]]->length) {
        ++chunk[c];
        used[c] = 0;
      }
      if (chunk[c] == chunks.size()) {
        return Status::Invalid("table column ", c, " is shorter than the table's ",
                               table.num_rows(), " rows");
      }
      n = std::min(n, chunks[chunk[c]]->length - used[c]);
    }
    ArrayDataVector columns;
    columns.reserve(num_columns);
    for (size_t c = 0; c < num_columns; ++c) {
      columns.push_back(table.column(static_cast<int>(c))->chunks()[chunk[c]]->Slice(used[c], n));
      used[c] += n;
    }
    ALKAID_RETURN_NOT_OK(visit(RecordBatch(table.schema(), n, std::move(columns))));
    row += n;
  }
  return Status::OK();
}

}  // namespace alkaid::internal
