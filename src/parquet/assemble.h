// Record assembly: the Arrow arrays of structs, lists and maps at any depth, built from the
// definition and repetition levels of their leaves (see NodeLevels in arrow_schema.h for
// which level entries are slots of which node). Internal to the parquet module.
#pragma once

#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "src/parquet/column_reader.h"
#include "src/parquet/schema/arrow_schema.h"

namespace alkaid::parquet::internal {

/// The array of `node` from the decoded leaves (indexed by column index; only the leaves
/// under `node` are used). `num_rows` is the row group's row count (the length of a
/// top-level struct without leaves).
Result<ArrayDataPtr> AssembleField(const FieldNode& node, const std::vector<LeafData>& leaves,
                                   int64_t num_rows, MemoryPool* pool);

/// The leaf specs of the leaves under `node`: types, slot definition levels, whether
/// levels must be kept.
void CollectLeafSpecs(const FieldNode& node, const SchemaDescriptor& schema,
                      std::vector<LeafSpec>* specs_by_column);

}  // namespace alkaid::parquet::internal
