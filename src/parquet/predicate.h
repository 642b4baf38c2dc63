// Row-group skipping: ColumnPredicate conditions checked against column chunk statistics.
// Internal to the parquet module.
#pragma once

#include <vector>

#include "alkaid/parquet/metadata.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/status.h"

namespace alkaid::parquet::internal {

/// A predicate with its column found.
struct BoundPredicate {
  ColumnPredicate predicate;
  int column = -1;
};

/// Finds each predicate's leaf column (by dotted path, or by a top-level name that is a
/// leaf) and checks that its constant suits the column's type. KeyError / TypeError.
Result<std::vector<BoundPredicate>> BindPredicates(const std::vector<ColumnPredicate>& filter,
                                                   const SchemaDescriptor& schema);

/// False when the statistics of `row_group` prove some predicate false for every row.
bool RowGroupMayMatch(const RowGroupMetaData& row_group,
                      const std::vector<BoundPredicate>& predicates);

}  // namespace alkaid::parquet::internal
