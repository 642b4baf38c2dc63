/// @file
/// RecordBatch (equal-length columns under a schema), ChunkedArray (one logical
/// column split into chunks) and Table (a schema over chunked columns).
///
/// Arrays and ArrayData: ArrayData is the one physical representation and what
/// these classes store; an Array (ArrayPtr) is a typed view over one ArrayData
/// (array->data() one way, MakeArray(data) the other, both O(1)). Every
/// constructor and factory here takes either form: RecordBatch::Make(schema, n,
/// {int_array, string_array}) with ArrayPtr columns works as well as with
/// ArrayDataPtr columns, and accessors come in both forms as well
/// (RecordBatch::column(i) -> ArrayPtr, column_data(i) -> ArrayDataPtr;
/// ChunkedArray::chunk(i) -> ArrayPtr, chunks() -> ArrayDataVector).
///
/// Threads: all three classes are immutable after construction; any method may
/// be called from several threads at once.
#pragma once

#include <initializer_list>
#include <string_view>

#include <memory>
#include <string>
#include <vector>

#include "alkaid/array.h"
#include "alkaid/compare.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

class RecordBatch;
/// Shared, immutable record batch; how every reader hands batches out.
using RecordBatchPtr = std::shared_ptr<RecordBatch>;

/// A set of equal-length columns under a schema: the unit the IPC formats, the C
/// Stream Interface and the CSV/JSON Lines readers produce and consume. Columns
/// are shared, never copied.
class ALKAID_EXPORT RecordBatch {
 public:
  /// Stores the arguments as given, without checks (see MakeChecked).
  RecordBatch(SchemaPtr schema, int64_t num_rows, ArrayDataVector columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}
  /// Make trusts the caller; MakeChecked checks that column count, lengths and
  /// types match the schema. The ArrayVector and braced-list forms take typed
  /// arrays (a null ArrayPtr becomes a missing column, which MakeChecked reports).
  static RecordBatchPtr Make(SchemaPtr schema, int64_t num_rows, ArrayDataVector columns) {
    return std::make_shared<RecordBatch>(std::move(schema), num_rows, std::move(columns));
  }
  /// Make with typed arrays as columns.
  static RecordBatchPtr Make(SchemaPtr schema, int64_t num_rows, const ArrayVector& columns) {
    return Make(std::move(schema), num_rows, ToArrayData(columns));
  }
  /// `{}` picks this form: an empty column list.
  static RecordBatchPtr Make(SchemaPtr schema, int64_t num_rows,
                             std::initializer_list<ArrayPtr> columns) {
    return Make(std::move(schema), num_rows, ArrayVector(columns));
  }
  /// A batch whose column count, column lengths and column types are checked
  /// against `schema` and `num_rows`; Invalid (naming the column) when they do not
  /// match. The column contents are not validated (see ValidateFull).
  static Result<RecordBatchPtr> MakeChecked(SchemaPtr schema, int64_t num_rows,
                                            ArrayDataVector columns);
  /// MakeChecked with typed arrays as columns.
  static Result<RecordBatchPtr> MakeChecked(SchemaPtr schema, int64_t num_rows,
                                            const ArrayVector& columns) {
    return MakeChecked(std::move(schema), num_rows, ToArrayData(columns));
  }
  /// MakeChecked with a braced list of typed arrays; `{}` is an empty list.
  static Result<RecordBatchPtr> MakeChecked(SchemaPtr schema, int64_t num_rows,
                                            std::initializer_list<ArrayPtr> columns) {
    return MakeChecked(std::move(schema), num_rows, ArrayVector(columns));
  }
  /// The ArrayData of each array, in order (nullptr for a null ArrayPtr).
  static ArrayDataVector ToArrayData(const ArrayVector& arrays);

  /// The schema: one field per column, in order.
  const SchemaPtr& schema() const { return schema_; }
  /// Number of rows (the length of every column).
  int64_t num_rows() const { return num_rows_; }
  /// Number of columns.
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// All columns, in schema order.
  const ArrayDataVector& columns() const { return columns_; }
  /// Column `i` (0 <= i < num_columns(), unchecked).
  const ArrayDataPtr& column_data(int i) const { return columns_[static_cast<size_t>(i)]; }
  /// Column `i` as a typed array (0 <= i < num_columns(), unchecked).
  ArrayPtr column(int i) const { return MakeArray(column_data(i)); }
  /// The name of column `i` (0 <= i < num_columns(), unchecked).
  const std::string& column_name(int i) const { return schema_->field(i)->name(); }
  /// The first column whose field is called `name` (as Schema::GetFieldIndex);
  /// nullptr when there is none.
  ArrayPtr GetColumnByName(std::string_view name) const;

  /// Rows [offset, offset + length), zero-copy. The range is clamped to the
  /// batch, so an out-of-range request gives fewer (possibly no) rows.
  RecordBatchPtr Slice(int64_t offset, int64_t length) const;
  /// Rows from `offset` to the end, zero-copy.
  RecordBatchPtr Slice(int64_t offset) const { return Slice(offset, num_rows_ - offset); }
  /// A batch of the chosen columns in the given order,
  /// zero-copy; IndexError for an index out of range.
  Result<RecordBatchPtr> SelectColumns(const std::vector<int>& indices) const;
  /// The same columns under another schema (for renaming fields or changing
  /// metadata); the schema is not checked against the columns.
  RecordBatchPtr WithSchema(SchemaPtr schema) const {
    return Make(std::move(schema), num_rows_, columns_);
  }

  /// Checks the batch against its schema (column count, lengths, types) and runs
  /// ValidateArray on each column: O(columns), not O(rows). Errors name the
  /// column.
  Status Validate() const;
  /// Validate() plus ValidateArrayFull on each column (offsets, UTF-8,
  /// dictionary indices, ...): O(rows). Use it on data from untrusted sources.
  Status ValidateFull() const;
  /// Schemas equal (metadata only when options.check_metadata) and columns equal.
  bool Equals(const RecordBatch& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  /// A readable multi-line rendering of the schema and the columns (see
  /// pretty_print.h), for debugging and tests.
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  ArrayDataVector columns_;
};

/// One logical column made of arrays (chunks) of the same type laid end to end,
/// as a Table column or a reader's output gathers them. Chunks are shared, not
/// copied; there may be none.
class ALKAID_EXPORT ChunkedArray {
 public:
  /// Stores the chunks as given, without checks; `type` must be the type of every
  /// chunk (see Make for a checked form).
  ChunkedArray(ArrayDataVector chunks, DataTypePtr type)
      : chunks_(std::move(chunks)), type_(std::move(type)) {}
  /// The same from typed arrays.
  ChunkedArray(const ArrayVector& chunks, DataTypePtr type)
      : ChunkedArray(RecordBatch::ToArrayData(chunks), std::move(type)) {}
  /// `{}` picks this form: no chunks.
  ChunkedArray(std::initializer_list<ArrayPtr> chunks, DataTypePtr type)
      : ChunkedArray(ArrayVector(chunks), std::move(type)) {}
  /// Checks that every chunk is non-null and has `type`; a null `type` is
  /// taken from the first chunk (an error when there are no chunks).
  static Result<std::shared_ptr<ChunkedArray>> Make(ArrayVector chunks, DataTypePtr type = nullptr);
  /// The type every chunk has.
  const DataTypePtr& type() const { return type_; }
  /// Number of chunks.
  int num_chunks() const { return static_cast<int>(chunks_.size()); }
  /// All chunks, in order.
  const ArrayDataVector& chunks() const { return chunks_; }
  /// Chunk i as a typed array (0 <= i < num_chunks()).
  ArrayPtr chunk(int i) const { return MakeArray(chunks_[static_cast<size_t>(i)]); }
  /// Total number of values: the sum of the chunk lengths.
  int64_t length() const;
  /// Total number of nulls over all chunks.
  int64_t null_count() const;
  /// Values [offset, offset + length) of the whole column, zero-copy; chunks
  /// outside the window are dropped and the range is clamped to length().
  std::shared_ptr<ChunkedArray> Slice(int64_t offset, int64_t length) const;
  /// All chunks concatenated into one array.
  Result<ArrayDataPtr> Combine(MemoryPool* pool = default_memory_pool()) const;
  /// Equal values regardless of where chunks split.
  bool Equals(const ChunkedArray& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  /// A readable rendering of the chunks, for debugging and tests.
  std::string ToString() const;

 private:
  ArrayDataVector chunks_;
  DataTypePtr type_;
};
/// Shared, immutable chunked array.
using ChunkedArrayPtr = std::shared_ptr<ChunkedArray>;

/// A schema over chunked columns of equal length: a whole data set in memory,
/// such as ReadTable and RecordBatchReader::ToTable return. Columns are shared,
/// not copied.
class ALKAID_EXPORT Table {
 public:
  /// Stores the arguments as given, without checks (see Make).
  Table(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns, int64_t num_rows)
      : schema_(std::move(schema)), columns_(std::move(columns)), num_rows_(num_rows) {}
  /// Checks column count, types and lengths against `schema`. num_rows < 0
  /// takes the length of the first column (0 when there are none).
  static Result<std::shared_ptr<Table>> Make(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns,
                                             int64_t num_rows = -1);
  /// One single-chunk column per array.
  static Result<std::shared_ptr<Table>> Make(SchemaPtr schema, const ArrayVector& arrays,
                                             int64_t num_rows = -1);
  /// `{}` picks this form: no columns.
  static Result<std::shared_ptr<Table>> Make(SchemaPtr schema, std::initializer_list<ArrayPtr> arrays,
                                             int64_t num_rows = -1) {
    return Make(std::move(schema), ArrayVector(arrays), num_rows);
  }
  /// The batches become the chunks of each column (zero-copy). Every batch must
  /// have `schema`; the second form takes the schema of the first batch and
  /// fails on an empty list (use the first form for an empty table).
  static Result<std::shared_ptr<Table>> FromRecordBatches(SchemaPtr schema,
                                                          const std::vector<RecordBatchPtr>& batches);
  /// The schema is that of the first batch; an empty list is an error.
  static Result<std::shared_ptr<Table>> FromRecordBatches(const std::vector<RecordBatchPtr>& batches);
  /// The schema: one field per column, in order.
  const SchemaPtr& schema() const { return schema_; }
  /// Number of rows (the length of every column).
  int64_t num_rows() const { return num_rows_; }
  /// Number of columns.
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// Column `i` (0 <= i < num_columns(), unchecked).
  const ChunkedArrayPtr& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  /// All columns, in schema order.
  const std::vector<ChunkedArrayPtr>& columns() const { return columns_; }
  /// The first column whose field is called `name` (as Schema::GetFieldIndex);
  /// nullptr when there is none.
  ChunkedArrayPtr GetColumnByName(std::string_view name) const;
  /// A table of the chosen columns in the given order (zero-copy); IndexError
  /// for an index out of range, KeyError for an unknown name.
  Result<std::shared_ptr<Table>> SelectColumns(const std::vector<int>& indices) const;
  /// The same by field name (the first field with each name).
  Result<std::shared_ptr<Table>> SelectColumnsByName(const std::vector<std::string>& names) const;
  /// Rows [offset, offset + length), zero-copy; the range is clamped to the table.
  std::shared_ptr<Table> Slice(int64_t offset, int64_t length) const;
  /// One chunk per column.
  Result<std::shared_ptr<Table>> CombineChunks(MemoryPool* pool = default_memory_pool()) const;
  /// Checks the columns against the schema (count, types, lengths) and runs
  /// ValidateArrayFull on every chunk: O(rows). Errors name the column.
  Status ValidateFull() const;
  /// Schemas equal (metadata only when options.check_metadata) and columns equal
  /// value by value, regardless of where the chunks split.
  bool Equals(const Table& other, const EqualOptions& options = EqualOptions::Defaults()) const;
  /// A readable rendering of the schema and columns, for debugging and tests.
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  std::vector<ChunkedArrayPtr> columns_;
  int64_t num_rows_;
};
/// Shared, immutable table.
using TablePtr = std::shared_ptr<Table>;

}  // namespace alkaid
