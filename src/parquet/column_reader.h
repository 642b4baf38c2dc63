// One leaf column of one row group: its pages decoded into the levels and the Arrow values
// of the leaf (one slot per level entry where the leaf exists, null where its definition
// level is below the maximum). Record assembly (assemble.h) builds the nested arrays above
// it. Internal to the parquet module.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/parquet/metadata.h"
#include "alkaid/status.h"
#include "src/parquet/read_context.h"

namespace alkaid::parquet::internal {

/// What the column reader must know about the leaf besides the chunk.
struct LeafSpec {
  const ColumnDescriptor* column = nullptr;
  /// The leaf's decoded Arrow type (dictionary<int32, ...> to keep dictionary indices).
  DataTypePtr type;
  /// The leaf has a slot at entries with definition level >= slot_def.
  int16_t slot_def = 0;
  /// Keep the levels for the assembly of nested parents (structs, lists, maps).
  bool keep_levels = false;
};

/// A decoded leaf column chunk.
struct LeafData {
  int64_t num_entries = 0;  ///< level entries read
  int64_t num_rows = 0;     ///< entries starting a record (repetition level 0)
  /// int16 levels, one per entry, when kept and the column's maximum level is above 0.
  BufferPtr def_levels;
  BufferPtr rep_levels;
  ArrayDataPtr values;
};

/// Reads the column chunk whose bytes are `bytes` (starting at `file_offset` in the file).
Result<LeafData> ReadLeaf(const LeafSpec& spec, const ColumnChunkMetaData& chunk, BufferPtr bytes,
                          int64_t file_offset, const ColumnReadSettings& settings,
                          ReadBudget* budget, const ChunkName& name);

}  // namespace alkaid::parquet::internal
