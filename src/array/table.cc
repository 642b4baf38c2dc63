// RecordBatch, ChunkedArray and Table.
#include "alkaid/table.h"

#include <algorithm>
#include <sstream>

#include "alkaid/concatenate.h"
#include "alkaid/pretty_print.h"
#include "alkaid/validate.h"

namespace alkaid {

namespace {

// Clamps [offset, offset + length) to [0, total) so that slicing past the end
// yields a shorter (possibly empty) result instead of reading out of bounds.
void ClampRange(int64_t total, int64_t* offset, int64_t* length) {
  *offset = std::clamp<int64_t>(*offset, 0, total);
  *length = std::clamp<int64_t>(*length, 0, total - *offset);
}

std::string ColumnContext(const Schema& schema, int i) {
  return "column " + std::to_string(i) + " (" + schema.field(i)->name() + ")";
}

// Column count, lengths and types of `columns` against `schema`.
Status CheckColumnsMatch(const Schema& schema, int64_t num_rows, const ArrayDataVector& columns) {
  if (static_cast<int>(columns.size()) != schema.num_fields())
    return Status::Invalid("record batch has ", columns.size(), " columns but its schema has ",
                           schema.num_fields(), " fields");
  for (int i = 0; i < schema.num_fields(); ++i) {
    const ArrayDataPtr& column = columns[static_cast<size_t>(i)];
    if (column == nullptr || column->type == nullptr)
      return Status::Invalid(ColumnContext(schema, i), ": column is missing");
    if (column->length != num_rows)
      return Status::Invalid(ColumnContext(schema, i), ": length ", column->length,
                             " differs from the batch's ", num_rows, " rows");
    if (!column->type->Equals(*schema.field(i)->type()))
      return Status::TypeError(ColumnContext(schema, i), ": type ", column->type->ToString(),
                               " differs from the schema's ", schema.field(i)->type()->ToString());
  }
  return Status::OK();
}

// The columns `get(i)` for i in `indices` (each checked against
// num_columns) and the schema of those fields, for SelectColumns.
template <typename Column, typename Get>
Status PickColumns(const Schema& schema, int num_columns, const std::vector<int>& indices,
                   const char* holder, Get get, std::vector<Column>* columns,
                   SchemaPtr* projected) {
  columns->reserve(indices.size());
  for (int index : indices) {
    if (index < 0 || index >= num_columns)
      return Status::IndexError("column index ", index, " is out of range for a ", holder,
                                " of ", num_columns, " columns");
    columns->push_back(get(index));
  }
  ALKAID_ASSIGN_OR_RAISE(*projected, schema.Project(indices));
  return Status::OK();
}

// Equals of a record batch or a table: the same object, or the same number
// of rows, equal schemas and column i equal to column i (column_equal(i)).
template <typename T, typename ColumnEqual>
bool TabularEquals(const T& a, const T& b, const EqualOptions& options, ColumnEqual&& column_equal) {
  if (&a == &b) return true;
  if (a.num_rows() != b.num_rows() || a.num_columns() != b.num_columns()) return false;
  if (!a.schema()->Equals(*b.schema(), options.check_metadata)) return false;
  for (int i = 0; i < a.num_columns(); ++i) {
    if (!column_equal(i)) return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// RecordBatch

Result<RecordBatchPtr> RecordBatch::MakeChecked(SchemaPtr schema, int64_t num_rows,
                                                ArrayDataVector columns) {
  if (schema == nullptr) return Status::Invalid("record batch needs a schema");
  if (num_rows < 0) return Status::Invalid("record batch has negative row count ", num_rows);
  ALKAID_RETURN_NOT_OK(CheckColumnsMatch(*schema, num_rows, columns));
  return Make(std::move(schema), num_rows, std::move(columns));
}

ArrayDataVector RecordBatch::ToArrayData(const ArrayVector& arrays) {
  ArrayDataVector data;
  data.reserve(arrays.size());
  for (const auto& array : arrays) data.push_back(array ? array->data() : nullptr);
  return data;
}

ArrayPtr RecordBatch::GetColumnByName(std::string_view name) const {
  const int i = schema_->GetFieldIndex(name);
  return i < 0 || i >= num_columns() ? nullptr : column(i);
}

RecordBatchPtr RecordBatch::Slice(int64_t offset, int64_t length) const {
  ClampRange(num_rows_, &offset, &length);
  ArrayDataVector sliced;
  sliced.reserve(columns_.size());
  for (const auto& column : columns_) sliced.push_back(column->Slice(offset, length));
  return Make(schema_, length, std::move(sliced));
}

Result<RecordBatchPtr> RecordBatch::SelectColumns(const std::vector<int>& indices) const {
  ArrayDataVector selected;
  SchemaPtr projected;
  ALKAID_RETURN_NOT_OK(PickColumns(*schema_, num_columns(), indices, "batch",
                                   [this](int i) { return column_data(i); }, &selected, &projected));
  return Make(std::move(projected), num_rows_, std::move(selected));
}

Status RecordBatch::Validate() const {
  if (schema_ == nullptr) return Status::Invalid("record batch has no schema");
  ALKAID_RETURN_NOT_OK(CheckColumnsMatch(*schema_, num_rows_, columns_));
  for (int i = 0; i < num_columns(); ++i) {
    Status st = ValidateArray(*column_data(i));
    if (!st.ok()) return st.WithContext(ColumnContext(*schema_, i));
  }
  return Status::OK();
}

Status RecordBatch::ValidateFull() const {
  ALKAID_RETURN_NOT_OK(Validate());
  for (int i = 0; i < num_columns(); ++i) {
    Status st = ValidateArrayFull(*column_data(i));
    if (!st.ok()) return st.WithContext(ColumnContext(*schema_, i));
  }
  return Status::OK();
}

bool RecordBatch::Equals(const RecordBatch& other, const EqualOptions& options) const {
  return TabularEquals(*this, other, options, [&](int i) {
    return ArrayEquals(*column_data(i), *other.column_data(i), options);
  });
}

std::string RecordBatch::ToString() const {
  std::ostringstream out;
  out << schema_->ToString() << "\n";
  PrettyPrintOptions options;
  options.indent = 2;
  for (int i = 0; i < num_columns(); ++i) {
    out << "-- " << schema_->field(i)->ToString() << "\n";
    out << PrettyPrintToString(*column_data(i), options) << "\n";
  }
  return out.str();
}

// ---------------------------------------------------------------------------
// ChunkedArray

Result<ChunkedArrayPtr> ChunkedArray::Make(ArrayVector chunks, DataTypePtr type) {
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (chunks[c] == nullptr) return Status::Invalid("chunk ", c, " is null");
  }
  if (type == nullptr) {
    if (chunks.empty()) return Status::Invalid("a chunked array without chunks needs a type");
    type = chunks[0]->type();
  }
  for (size_t c = 0; c < chunks.size(); ++c) {
    if (!chunks[c]->type()->Equals(*type))
      return Status::TypeError("chunk ", c, " has type ", chunks[c]->type()->ToString(),
                               " but the chunked array has ", type->ToString());
  }
  return std::make_shared<ChunkedArray>(chunks, std::move(type));
}

int64_t ChunkedArray::length() const {
  int64_t total = 0;
  for (const auto& chunk : chunks_) total += chunk->length;
  return total;
}

int64_t ChunkedArray::null_count() const {
  int64_t total = 0;
  for (const auto& chunk : chunks_) total += chunk->GetNullCount();
  return total;
}

std::shared_ptr<ChunkedArray> ChunkedArray::Slice(int64_t offset, int64_t length) const {
  ClampRange(this->length(), &offset, &length);
  ArrayDataVector sliced;
  for (const auto& chunk : chunks_) {
    if (length == 0) break;
    if (offset >= chunk->length) {
      offset -= chunk->length;  // the window starts after this chunk
      continue;
    }
    const int64_t take = std::min(length, chunk->length - offset);
    sliced.push_back(offset == 0 && take == chunk->length ? chunk : chunk->Slice(offset, take));
    length -= take;
    offset = 0;
  }
  return std::make_shared<ChunkedArray>(std::move(sliced), type_);
}

Result<ArrayDataPtr> ChunkedArray::Combine(MemoryPool* pool) const {
  if (chunks_.empty()) return MakeArrayOfNull(type_, 0, pool);
  return Concatenate(chunks_, pool);
}

bool ChunkedArray::Equals(const ChunkedArray& other, const EqualOptions& options) const {
  if (this == &other) return true;
  if (!type_->Equals(*other.type_, options.check_metadata)) return false;
  if (length() != other.length()) return false;
  // Walk both chunk lists together, comparing the overlapping pieces.
  size_t li = 0, ri = 0;
  int64_t loff = 0, roff = 0;
  while (true) {
    while (li < chunks_.size() && loff == chunks_[li]->length) { ++li; loff = 0; }
    while (ri < other.chunks_.size() && roff == other.chunks_[ri]->length) { ++ri; roff = 0; }
    if (li == chunks_.size() || ri == other.chunks_.size()) break;
    const ArrayData& l = *chunks_[li];
    const ArrayData& r = *other.chunks_[ri];
    const int64_t n = std::min(l.length - loff, r.length - roff);
    const bool whole = loff == 0 && roff == 0 && n == l.length && n == r.length;
    if (whole ? !ArrayEquals(l, r, options)
              : !ArrayEquals(*l.Slice(loff, n), *r.Slice(roff, n), options)) {
      return false;
    }
    loff += n;
    roff += n;
  }
  return true;
}

std::string ChunkedArray::ToString() const {
  std::ostringstream out;
  PrettyPrintOptions options;
  options.indent = 2;
  out << "[\n";
  for (size_t i = 0; i < chunks_.size(); ++i) {
    out << PrettyPrintToString(*chunks_[i], options);
    out << (i + 1 < chunks_.size() ? ",\n" : "\n");
  }
  out << "]";
  return out.str();
}

// ---------------------------------------------------------------------------
// Table

Result<TablePtr> Table::FromRecordBatches(SchemaPtr schema,
                                          const std::vector<RecordBatchPtr>& batches) {
  if (schema == nullptr) return Status::Invalid("table needs a schema");
  int64_t num_rows = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    if (batches[b] == nullptr) return Status::Invalid("record batch ", b, " is null");
    if (!batches[b]->schema()->Equals(*schema))
      return Status::Invalid("record batch ", b, " has schema ", batches[b]->schema()->ToString(),
                             " which differs from the table's ", schema->ToString());
    if (batches[b]->num_columns() != schema->num_fields())
      return Status::Invalid("record batch ", b, " has ", batches[b]->num_columns(),
                             " columns but the schema has ", schema->num_fields());
    num_rows += batches[b]->num_rows();
  }
  std::vector<ChunkedArrayPtr> columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    ArrayDataVector chunks;
    for (const auto& batch : batches) chunks.push_back(batch->column_data(i));
    columns.push_back(std::make_shared<ChunkedArray>(std::move(chunks), schema->field(i)->type()));
  }
  return std::make_shared<Table>(std::move(schema), std::move(columns), num_rows);
}

Result<TablePtr> Table::FromRecordBatches(const std::vector<RecordBatchPtr>& batches) {
  if (batches.empty())
    return Status::Invalid("a table from no record batches needs an explicit schema");
  if (batches[0] == nullptr) return Status::Invalid("record batch 0 is null");
  return FromRecordBatches(batches[0]->schema(), batches);
}

Result<TablePtr> Table::Make(SchemaPtr schema, std::vector<ChunkedArrayPtr> columns,
                             int64_t num_rows) {
  if (schema == nullptr) return Status::Invalid("table needs a schema");
  if (static_cast<int>(columns.size()) != schema->num_fields())
    return Status::Invalid("table has ", columns.size(), " columns but its schema has ",
                           schema->num_fields(), " fields");
  for (int i = 0; i < schema->num_fields(); ++i) {
    if (columns[static_cast<size_t>(i)] == nullptr)
      return Status::Invalid(ColumnContext(*schema, i), ": column is missing");
  }
  if (num_rows < 0) num_rows = columns.empty() ? 0 : columns[0]->length();
  for (int i = 0; i < schema->num_fields(); ++i) {
    const ChunkedArray& column = *columns[static_cast<size_t>(i)];
    if (!column.type()->Equals(*schema->field(i)->type()))
      return Status::TypeError(ColumnContext(*schema, i), ": type ", column.type()->ToString(),
                               " differs from the schema's ", schema->field(i)->type()->ToString());
    if (column.length() != num_rows)
      return Status::Invalid(ColumnContext(*schema, i), ": length ", column.length(),
                             " differs from the table's ", num_rows, " rows");
  }
  return std::make_shared<Table>(std::move(schema), std::move(columns), num_rows);
}

Result<TablePtr> Table::Make(SchemaPtr schema, const ArrayVector& arrays, int64_t num_rows) {
  std::vector<ChunkedArrayPtr> columns;
  columns.reserve(arrays.size());
  for (const auto& array : arrays) {
    columns.push_back(array == nullptr ? nullptr
                                       : std::make_shared<ChunkedArray>(ArrayDataVector{array->data()},
                                                                        array->type()));
  }
  return Make(std::move(schema), std::move(columns), num_rows);
}

ChunkedArrayPtr Table::GetColumnByName(std::string_view name) const {
  const int i = schema_->GetFieldIndex(name);
  return i < 0 || i >= num_columns() ? nullptr : column(i);
}

Result<TablePtr> Table::SelectColumns(const std::vector<int>& indices) const {
  std::vector<ChunkedArrayPtr> selected;
  SchemaPtr projected;
  ALKAID_RETURN_NOT_OK(PickColumns(*schema_, num_columns(), indices, "table",
                                   [this](int i) { return column(i); }, &selected, &projected));
  return std::make_shared<Table>(std::move(projected), std::move(selected), num_rows_);
}

Result<TablePtr> Table::SelectColumnsByName(const std::vector<std::string>& names) const {
  std::vector<int> indices;
  indices.reserve(names.size());
  for (const auto& name : names) {
    const int i = schema_->GetFieldIndex(name);
    if (i < 0) return Status::KeyError("table has no column named '", name, "'");
    indices.push_back(i);
  }
  return SelectColumns(indices);
}

TablePtr Table::Slice(int64_t offset, int64_t length) const {
  ClampRange(num_rows_, &offset, &length);
  std::vector<ChunkedArrayPtr> sliced;
  for (const auto& column : columns_) sliced.push_back(column->Slice(offset, length));
  return std::make_shared<Table>(schema_, std::move(sliced), length);
}

Result<TablePtr> Table::CombineChunks(MemoryPool* pool) const {
  std::vector<ChunkedArrayPtr> combined;
  for (int i = 0; i < num_columns(); ++i) {
    const ChunkedArrayPtr& column = columns_[static_cast<size_t>(i)];
    if (column->num_chunks() == 1) {
      combined.push_back(column);  // already one chunk: share it
      continue;
    }
    Result<ArrayDataPtr> one = column->Combine(pool);
    if (!one.ok()) return one.status().WithContext(ColumnContext(*schema_, i));
    combined.push_back(std::make_shared<ChunkedArray>(ArrayDataVector{*one}, column->type()));
  }
  return std::make_shared<Table>(schema_, std::move(combined), num_rows_);
}

Status Table::ValidateFull() const {
  if (schema_ == nullptr) return Status::Invalid("table has no schema");
  if (num_columns() != schema_->num_fields())
    return Status::Invalid("table has ", num_columns(), " columns but its schema has ",
                           schema_->num_fields(), " fields");
  for (int i = 0; i < num_columns(); ++i) {
    const ChunkedArray& column = *columns_[static_cast<size_t>(i)];
    const std::string context = ColumnContext(*schema_, i);
    if (!column.type()->Equals(*schema_->field(i)->type()))
      return Status::TypeError(context, ": type ", column.type()->ToString(),
                               " differs from the schema's ", schema_->field(i)->type()->ToString());
    if (column.length() != num_rows_)
      return Status::Invalid(context, ": length ", column.length(), " differs from the table's ",
                             num_rows_, " rows");
    for (int c = 0; c < column.num_chunks(); ++c) {
      const ArrayData& chunk = *column.chunks()[static_cast<size_t>(c)];
      const std::string where = context + " chunk " + std::to_string(c);
      if (!chunk.type->Equals(*column.type()))
        return Status::TypeError(where, ": type ", chunk.type->ToString(),
                                 " differs from the column's ", column.type()->ToString());
      Status st = ValidateArrayFull(chunk);
      if (!st.ok()) return st.WithContext(where);
    }
  }
  return Status::OK();
}

bool Table::Equals(const Table& other, const EqualOptions& options) const {
  return TabularEquals(*this, other, options,
                       [&](int i) { return column(i)->Equals(*other.column(i), options); });
}

std::string Table::ToString() const {
  std::ostringstream out;
  out << schema_->ToString() << "\n";
  for (int i = 0; i < num_columns(); ++i) {
    out << "-- " << schema_->field(i)->ToString() << "\n";
    out << column(i)->ToString() << "\n";
  }
  return out.str();
}

}  // namespace alkaid
