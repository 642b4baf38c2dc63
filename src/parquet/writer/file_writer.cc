// FileWriter: row groups of column chunks, then the page index and the footer.
//
// File layout written: "PAR1", for each row group the chunks of its columns in column order
// (each chunk: dictionary page, data pages), then every ColumnIndex, then every OffsetIndex,
// then the FileMetaData, its 4-byte little-endian length and "PAR1".
#include "alkaid/parquet/writer.h"

#include <cstring>
#include <vector>

#include "alkaid/thread_pool.h"
#include "src/array/table_slices.h"
#include "src/parquet/schema/arrow_schema.h"
#include "src/parquet/schema/arrow_schema_key.h"
#include "src/parquet/schema/schema_tree.h"
#include "src/parquet/thrift/thrift.h"
#include "src/parquet/writer/levels.h"
#include "src/parquet/writer/writer_internal.h"

namespace alkaid::parquet {

using internal::ColumnChunkWriter;
using internal::EncodedChunk;

namespace {

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};

// Runs task(i) for i in [0, n), on the pool when asked, and returns the first error.
Status ForEach(int64_t n, const WriterProperties& props, const std::function<Status(int64_t)>& task) {
  if (!props.use_threads || n < 2) {
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(task(i));
    return Status::OK();
  }
  std::vector<Status> results(static_cast<size_t>(n));
  int threads = props.num_threads > 0 ? props.num_threads : ThreadPoolSize() + 1;
  RunParallel(n, threads, [&](int64_t i) { results[static_cast<size_t>(i)] = task(i); });
  for (auto& st : results) ALKAID_RETURN_NOT_OK(st);
  return Status::OK();
}

}  // namespace

class FileWriter::Impl {
 public:
  Impl(io::OutputStream* sink, SchemaPtr schema, WriterProperties props)
      : sink_(sink), schema_(std::move(schema)), props_(std::move(props)) {}

  Status Open() {
    ALKAID_RETURN_NOT_OK(props_.Validate());
    ALKAID_ASSIGN_OR_RAISE(layout_, internal::ArrowToParquetSchema(*schema_, props_.version));
    const auto& columns = layout_.descriptor.columns();
    for (size_t i = 0; i < columns.size(); ++i) {
      internal::ColumnWriterSettings settings =
          internal::ResolveColumn(props_, columns[i], layout_.leaves[i]);
      ALKAID_ASSIGN_OR_RAISE(auto writer, ColumnChunkWriter::Make(std::move(settings), props_.pool));
      writers_.push_back(std::move(writer));
    }
    ALKAID_ASSIGN_OR_RAISE(position_, sink_->Tell());
    return Write(kMagic, 4);
  }

  Status WriteRecordBatch(const RecordBatch& batch) {
    ALKAID_RETURN_NOT_OK(CheckOpen());
    ALKAID_RETURN_NOT_OK(CheckSchema(*batch.schema()));
    for (int64_t offset = 0; offset < batch.num_rows();) {
      int64_t n = std::min(batch.num_rows() - offset, props_.max_row_group_rows - group_rows_);
      RecordBatchPtr slice = batch.Slice(offset, n);
      ALKAID_RETURN_NOT_OK(WriteRows(*slice));
      group_rows_ += n;
      offset += n;
      if (group_rows_ >= props_.max_row_group_rows || GroupTooLarge()) {
        ALKAID_RETURN_NOT_OK(NewRowGroup());
      }
    }
    return Status::OK();
  }

  Status WriteTable(const Table& table) {
    ALKAID_RETURN_NOT_OK(CheckOpen());
    ALKAID_RETURN_NOT_OK(CheckSchema(*table.schema()));
    return alkaid::internal::ForEachChunkAlignedBatch(
        table, /*max_rows=*/0, [&](const RecordBatch& batch) { return WriteRecordBatch(batch); });
  }

  Status NewRowGroup() {
    ALKAID_RETURN_NOT_OK(CheckOpen());
    if (group_rows_ == 0) return Status::OK();
    Status st = FlushRowGroup();
    if (!st.ok()) return Fail(std::move(st));
    return Status::OK();
  }

  Status Close() {
    if (closed_) return Status::OK();
    ALKAID_RETURN_NOT_OK(CheckOpen());
    Status st = NewRowGroup();
    if (st.ok()) st = WritePageIndex();
    if (st.ok()) st = WriteFooter();
    if (!st.ok()) return Fail(std::move(st));
    closed_ = true;
    return Status::OK();
  }

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return total_rows_ + group_rows_; }
  int num_row_groups() const { return num_row_groups_; }

 private:
  Status CheckOpen() const {
    if (closed_) return Status::Invalid("Parquet writer: the file is already closed");
    if (!failed_.ok()) {
      return Status(failed_.code(), "Parquet writer: an earlier call failed, the file cannot be "
                                    "finished: " + failed_.message());
    }
    return Status::OK();
  }

  // A failure in the middle of a row group leaves the column writers out of step: the
  // writer refuses further calls.
  Status Fail(Status st) {
    failed_ = st;
    return st;
  }

  Status CheckSchema(const Schema& other) const {
    if (other.num_fields() != schema_->num_fields()) {
      return Status::Invalid("Parquet writer: the data has ", other.num_fields(),
                             " columns, the file's schema ", schema_->num_fields());
    }
    for (int i = 0; i < other.num_fields(); ++i) {
      if (!other.field(i)->type()->Equals(*schema_->field(i)->type())) {
        return Status::TypeError("Parquet writer: column ", i, " ('", schema_->field(i)->name(),
                                 "') is ", other.field(i)->type()->ToString(),
                                 " but the file's schema says ",
                                 schema_->field(i)->type()->ToString());
      }
    }
    return Status::OK();
  }

  bool GroupTooLarge() const {
    if (props_.max_row_group_bytes <= 0) return false;
    int64_t bytes = 0;
    for (const auto& w : writers_) bytes += w->buffered_bytes();
    return bytes >= props_.max_row_group_bytes;
  }

  // Levels of every column first (bad data is found before any column writer has taken
  // part of the batch), then the column writers.
  Status WriteRows(const RecordBatch& batch) {
    std::vector<std::vector<internal::LeafLevels>> levels(static_cast<size_t>(batch.num_columns()));
    ALKAID_RETURN_NOT_OK(ForEach(batch.num_columns(), props_, [&](int64_t i) -> Status {
      const Field& field = *schema_->field(static_cast<int>(i));
      const ArrayData& column = *batch.column_data(static_cast<int>(i));
      if (column.length != batch.num_rows()) {
        return Status::Invalid("Parquet writer: column '", field.name(), "' has ", column.length,
                               " rows, the batch ", batch.num_rows());
      }
      ALKAID_ASSIGN_OR_RAISE(levels[static_cast<size_t>(i)],
                             internal::ComputeLeafLevels(field, column, props_.pool));
      return Status::OK();
    }));
    Status st = ForEach(batch.num_columns(), props_, [&](int64_t i) -> Status {
      const auto& leaves = levels[static_cast<size_t>(i)];
      const int first = layout_.first_column[static_cast<size_t>(i)];
      for (size_t j = 0; j < leaves.size(); ++j) {
        auto& writer = *writers_[static_cast<size_t>(first) + j];
        Status written = writer.Write(leaves[j]);
        if (!written.ok()) {
          return written.WithContext("Parquet writer: row group " +
                                     std::to_string(num_row_groups_) + ", column '" +
                                     writer.settings().dotted_path + "'");
        }
      }
      return Status::OK();
    });
    return st.ok() ? st : Fail(std::move(st));
  }

  Status Write(const void* data, int64_t size) {
    ALKAID_RETURN_NOT_OK(sink_->Write(data, size));
    position_ += size;
    return Status::OK();
  }

  Status FlushRowGroup() {
    std::vector<EncodedChunk> chunks(writers_.size());
    ALKAID_RETURN_NOT_OK(ForEach(static_cast<int64_t>(writers_.size()), props_, [&](int64_t i) -> Status {
      auto k = static_cast<size_t>(i);
      ALKAID_ASSIGN_OR_RAISE(chunks[k], writers_[k]->Finish());
      return Status::OK();
    }));
    format::RowGroup group;
    group.num_rows = group_rows_;
    group.file_offset = position_;
    int64_t compressed = 0;
    std::vector<std::optional<format::ColumnIndex>> column_indexes;
    std::vector<std::optional<format::OffsetIndex>> offset_indexes;
    for (EncodedChunk& chunk : chunks) {
      const int64_t start = position_;
      std::vector<io::IoSlice> slices;
      slices.reserve(chunk.pieces.size());
      for (const auto& piece : chunk.pieces) slices.push_back({piece->data(), piece->size()});
      ALKAID_RETURN_NOT_OK(sink_->WriteV(slices));
      position_ += chunk.size;
      format::ColumnChunk cc;
      cc.file_offset = start;
      chunk.meta.data_page_offset += start;
      if (chunk.meta.dictionary_page_offset) *chunk.meta.dictionary_page_offset += start;
      group.total_byte_size += chunk.meta.total_uncompressed_size;
      compressed += chunk.meta.total_compressed_size;
      cc.meta_data = std::move(chunk.meta);
      group.columns.push_back(std::move(cc));
      if (chunk.offset_index) {
        for (auto& loc : chunk.offset_index->page_locations) loc.offset += start;
      }
      column_indexes.push_back(std::move(chunk.column_index));
      offset_indexes.push_back(std::move(chunk.offset_index));
    }
    group.total_compressed_size = compressed;
    if (row_groups_.size() <= INT16_MAX) group.ordinal = static_cast<int16_t>(row_groups_.size());
    row_groups_.push_back(std::move(group));
    ++num_row_groups_;
    column_indexes_.push_back(std::move(column_indexes));
    offset_indexes_.push_back(std::move(offset_indexes));
    total_rows_ += group_rows_;
    group_rows_ = 0;
    return Status::OK();
  }

  template <typename Index, typename SetLocation>
  Status WriteIndexes(std::vector<std::vector<std::optional<Index>>>* indexes, SetLocation set) {
    std::string bytes;
    for (size_t g = 0; g < indexes->size(); ++g) {
      auto& group = (*indexes)[g];
      for (size_t c = 0; c < group.size(); ++c) {
        if (!group[c]) continue;
        bytes.clear();
        thrift::SerializeThrift(*group[c], &bytes);
        set(&row_groups_[g].columns[c], position_, static_cast<int32_t>(bytes.size()));
        ALKAID_RETURN_NOT_OK(Write(bytes.data(), static_cast<int64_t>(bytes.size())));
      }
      group.clear();
    }
    return Status::OK();
  }

  Status WritePageIndex() {
    ALKAID_RETURN_NOT_OK(WriteIndexes(&column_indexes_, [](format::ColumnChunk* cc, int64_t at, int32_t n) {
      cc->column_index_offset = at;
      cc->column_index_length = n;
    }));
    return WriteIndexes(&offset_indexes_, [](format::ColumnChunk* cc, int64_t at, int32_t n) {
      cc->offset_index_offset = at;
      cc->offset_index_length = n;
    });
  }

  Status WriteFooter() {
    format::FileMetaData meta;
    meta.version = props_.version == FormatVersion::k1_0 ? 1 : 2;
    meta.schema = internal::ToSchemaElements(layout_.descriptor);
    meta.num_rows = total_rows_;
    meta.row_groups = std::move(row_groups_);
    std::vector<format::KeyValue> kv;
    auto add = [&](const std::string& key, const std::string& value) {
      for (auto& existing : kv) {
        if (existing.key == key) {
          existing.value = value;
          return;
        }
      }
      format::KeyValue entry;
      entry.key = key;
      entry.value = value;
      kv.push_back(std::move(entry));
    };
    for (const MetadataPtr& source : {schema_->metadata(), props_.key_value_metadata}) {
      if (source == nullptr) continue;
      for (int64_t i = 0; i < source->size(); ++i) {
        if (source->key(i) != internal::kArrowSchemaKey) add(source->key(i), source->value(i));
      }
    }
    if (props_.store_arrow_schema) {
      ALKAID_ASSIGN_OR_RAISE(std::string encoded, internal::EncodeArrowSchemaKey(*schema_));
      add(internal::kArrowSchemaKey, encoded);
    }
    if (!kv.empty()) meta.key_value_metadata = std::move(kv);
    meta.created_by = internal::CreatedBy(props_);
    std::vector<format::ColumnOrder> orders(static_cast<size_t>(layout_.descriptor.num_columns()));
    for (auto& order : orders) order.TYPE_ORDER.emplace();
    meta.column_orders = std::move(orders);
    std::string bytes;
    thrift::SerializeThrift(meta, &bytes);
    if (bytes.size() > UINT32_MAX) return Status::CapacityError("Parquet footer passes 4 GiB");
    uint8_t tail[8];
    uint32_t length = static_cast<uint32_t>(bytes.size());
    for (int i = 0; i < 4; ++i) tail[i] = static_cast<uint8_t>(length >> (8 * i));
    std::memcpy(tail + 4, kMagic, 4);
    ALKAID_RETURN_NOT_OK(Write(bytes.data(), static_cast<int64_t>(bytes.size())));
    return Write(tail, 8);
  }

  io::OutputStream* sink_;
  SchemaPtr schema_;
  WriterProperties props_;
  internal::WriterSchema layout_;
  std::vector<std::unique_ptr<ColumnChunkWriter>> writers_;
  int64_t position_ = 0;
  int64_t group_rows_ = 0;
  int64_t total_rows_ = 0;
  std::vector<format::RowGroup> row_groups_;
  std::vector<std::vector<std::optional<format::ColumnIndex>>> column_indexes_;
  std::vector<std::vector<std::optional<format::OffsetIndex>>> offset_indexes_;
  int num_row_groups_ = 0;  // row_groups_ moves into the footer at Close
  bool closed_ = false;
  Status failed_;
};

FileWriter::FileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileWriter::~FileWriter() = default;

Result<std::unique_ptr<FileWriter>> FileWriter::Open(io::OutputStream* sink, SchemaPtr schema,
                                                     WriterProperties properties) {
  if (sink == nullptr || schema == nullptr) {
    return Status::Invalid("Parquet writer: the sink and the schema must not be null");
  }
  auto impl = std::make_unique<Impl>(sink, std::move(schema), std::move(properties));
  ALKAID_RETURN_NOT_OK(impl->Open());
  return std::unique_ptr<FileWriter>(new FileWriter(std::move(impl)));
}

Status FileWriter::WriteRecordBatch(const RecordBatch& batch) { return impl_->WriteRecordBatch(batch); }
Status FileWriter::WriteTable(const Table& table) { return impl_->WriteTable(table); }
Status FileWriter::NewRowGroup() { return impl_->NewRowGroup(); }
Status FileWriter::Close() { return impl_->Close(); }
const SchemaPtr& FileWriter::schema() const { return impl_->schema(); }
int64_t FileWriter::num_rows() const { return impl_->num_rows(); }
int FileWriter::num_row_groups() const { return impl_->num_row_groups(); }

Result<BufferPtr> WriteTableToBuffer(const Table& table, const WriterProperties& properties) {
  io::BufferOutputStream sink(properties.pool);
  ALKAID_ASSIGN_OR_RAISE(auto writer, FileWriter::Open(&sink, table.schema(), properties));
  ALKAID_RETURN_NOT_OK(writer->WriteTable(table));
  ALKAID_RETURN_NOT_OK(writer->Close());
  return sink.Finish();
}

}  // namespace alkaid::parquet
