// The decoded footer behind the public FileMetaData, its parsing and checks, and the
// sort-order rules that decide which statistics can be trusted. Internal to the module.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alkaid/parquet/metadata.h"
#include "alkaid/status.h"
#include "src/parquet/thrift/parquet_types.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet {

struct FileMetaData::Impl {
  format::FileMetaData thrift;
  SchemaDescriptor schema;
  MetadataPtr key_value_metadata;
  std::string created_by;
  int64_t footer_size = 0;
};

namespace internal {

/// Parses and checks the Thrift footer (`size` bytes at `data`): the schema tree, one
/// column chunk with metadata per leaf in every row group, physical types that agree with
/// the schema, non-negative counts and sizes, row counts that add up. Encrypted footers
/// are refused with NotImplemented. `file` names the input in messages.
Result<std::shared_ptr<FileMetaData>> ParseFileMetaData(const uint8_t* data, int64_t size,
                                                        const thrift::ThriftLimits& limits,
                                                        const std::string& file);

/// How min/max statistics of a column are ordered.
enum class SortOrder : int8_t { kSigned, kUnsigned, kUnknown };
SortOrder SortOrderOf(const ColumnDescriptor& column);

/// The statistics of a chunk with the trust rules applied (see Statistics).
Statistics DecodeStatistics(const format::Statistics& stats, const ColumnDescriptor& column,
                            const format::ColumnOrder* order);

/// The bytes of a column chunk in the file: [start, start + length).
struct ChunkRange {
  int64_t start = 0;
  int64_t length = 0;
};
/// The chunk's byte range, checked to lie between the leading magic and the footer
/// (`data_end`: the offset where the footer starts). Errors name row group and column.
Result<ChunkRange> ColumnChunkRange(const ColumnChunkMetaData& chunk, int64_t data_end,
                                    int row_group);

}  // namespace internal
}  // namespace alkaid::parquet
