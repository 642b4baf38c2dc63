// RecordBatch (equal-length columns under a schema), ChunkedArray (one logical
// column split into chunks) and Table (a schema over chunked columns).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

class RecordBatch;
using RecordBatchPtr = std::shared_ptr<RecordBatch>;

class ALKAID_EXPORT RecordBatch {
 public:
  RecordBatch(SchemaPtr schema, int64_t num_rows, ArrayDataVector columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}
  static RecordBatchPtr Make(SchemaPtr schema, int64_t num_rows, ArrayDataVector columns) {
    return std::make_shared<RecordBatch>(std::move(schema), num_rows, std::move(columns));
  }
  // Checks that column count, lengths and types match the schema.
  static Result<RecordBatchPtr> MakeChecked(SchemaPtr schema, int64_t num_rows,
                                            ArrayDataVector columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ArrayDataVector& columns() const { return columns_; }
  const ArrayDataPtr& column_data(int i) const { return columns_[static_cast<size_t>(i)]; }
  ArrayPtr column(int i) const { return MakeArray(column_data(i)); }
  const std::string& column_name(int i) const { return schema_->field(i)->name(); }

  RecordBatchPtr Slice(int64_t offset, int64_t length) const;
  RecordBatchPtr Slice(int64_t offset) const { return Slice(offset, num_rows_ - offset); }
  Result<RecordBatchPtr> SelectColumns(const std::vector<int>& indices) const;
  RecordBatchPtr WithSchema(SchemaPtr schema) const {
    return Make(std::move(schema), num_rows_, columns_);
  }

  Status Validate() const;
  Status ValidateFull() const;
  // Schemas equal (metadata only when options.check_metadata) and columns equal.
  bool Equals(const RecordBatch& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  ArrayDataVector columns_;
};

class ALKAID_EXPORT ChunkedArray {
 public:
  ChunkedArray(ArrayDataVector chunks, DataTypePtr type)
      : chunks_(std::move(chunks)), type_(std::move(type)) {}
  const DataTypePtr& type() const { return type_; }
  int num_chunks() const { return static_cast<int>(chunks_.size()); }
  const ArrayDataVector& chunks() const { return chunks_; }
  int64_t length() const;
  int64_t null_count() const;
  std::shared_ptr<ChunkedArray> Slice(int64_t offset, int64_t length) const;
  // All chunks concatenated into one array.
  Result<ArrayDataPtr> Combine(MemoryPool* pool = default_memory_pool()) const;
  // Equal values regardless of where chunks split.
  bool Equals(const ChunkedArray& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  std::string ToString() const;

 private:
  ArrayDataVector chunks_;
  DataTypePtr type_;
};
using ChunkedArrayPtr = std::shared_ptr<ChunkedArray>;

class ALKAID_EXPORT Table {
 public:
  Table(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}
  static Result<std::shared_ptr<Table>> FromRecordBatches(SchemaPtr schema,
                                                          const std::vector<RecordBatchPtr>& batches);
  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const ChunkedArrayPtr& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  std::shared_ptr<Table> Slice(int64_t offset, int64_t length) const;
  // One chunk per column.
  Result<std::shared_ptr<Table>> CombineChunks(MemoryPool* pool = default_memory_pool()) const;
  Status ValidateFull() const;
  bool Equals(const Table& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  std::vector<ChunkedArrayPtr> columns_;
  int64_t num_rows_;
};
using TablePtr = std::shared_ptr<Table>;

}  // namespace alkaid
