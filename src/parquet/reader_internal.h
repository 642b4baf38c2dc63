// FileReader's state, shared by the reader and its record batch reader. Internal.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "alkaid/parquet/reader.h"
#include "src/parquet/column_reader.h"
#include "src/parquet/read_context.h"
#include "src/parquet/schema/arrow_schema.h"

namespace alkaid::parquet {

namespace internal {

/// The fields a read returns: pruned nodes, their schemas and the leaves they need.
struct Projection {
  std::vector<FieldNode> fields;
  std::vector<int> field_index;  ///< top-level index of each field in the file's schema
  SchemaPtr decoded_schema;
  SchemaPtr schema;                ///< what the read hands out
  std::vector<LeafSpec> specs;     ///< by column index (set for the selected leaves)
  std::vector<bool> leaf_selected;
  std::vector<int> columns;        ///< the selected leaves, ascending
};

/// Reads and checks the footer of `file`; `data_end` receives the offset where it starts.
Result<std::shared_ptr<FileMetaData>> ReadFooter(io::RandomAccessFile* file,
                                                 const std::string& name,
                                                 const thrift::ThriftLimits& limits,
                                                 int64_t* data_end);

}  // namespace internal

struct FileReader::Impl {
  std::shared_ptr<io::RandomAccessFile> file;
  std::string name;
  int64_t file_size = 0;
  int64_t data_end = 0;
  std::shared_ptr<FileMetaData> metadata;
  ReaderOptions options;
  internal::ColumnReadSettings settings;
  int64_t budget_limit = 0;
  internal::SchemaManifest manifest;
  internal::Projection projection;
  std::vector<int> selected_row_groups;

  Result<std::vector<int>> ResolveLeaves(const std::string& name_or_path) const;
  Result<internal::Projection> MakeProjection(const std::vector<std::string>& columns,
                                              const std::vector<int>& indices) const;
  Result<RecordBatchPtr> ReadRowGroup(int g, const internal::Projection& projection) const;
  Result<std::shared_ptr<Table>> ReadGroups(const std::vector<int>& groups,
                                            const internal::Projection& projection) const;
};

}  // namespace alkaid::parquet
