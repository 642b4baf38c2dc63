// The footer: parsing and checks, the public views over it, and the statistics rules.
#include <cmath>
#include <cstring>

#include "src/parquet/metadata_internal.h"
#include "src/parquet/schema/schema_tree.h"

namespace alkaid::parquet {

// ---- ColumnChunkMetaData ----------------------------------------------------------------------

namespace {
const format::ColumnMetaData& Meta(const format::ColumnChunk* chunk) {
  // ParseFileMetaData guarantees meta_data on every chunk.
  return *chunk->meta_data;
}
}  // namespace

std::string ColumnChunkMetaData::path() const {
  std::string out;
  for (const auto& part : Meta(chunk_).path_in_schema) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

PhysicalType ColumnChunkMetaData::physical_type() const { return column_->physical_type; }

std::vector<Encoding> ColumnChunkMetaData::encodings() const {
  std::vector<Encoding> out;
  for (int32_t e : Meta(chunk_).encodings) {
    if (auto known = EncodingFromWire(e)) out.push_back(*known);
  }
  return out;
}

std::vector<PageEncodingCount> ColumnChunkMetaData::encoding_stats() const {
  std::vector<PageEncodingCount> out;
  if (!Meta(chunk_).encoding_stats) return out;
  for (const auto& s : *Meta(chunk_).encoding_stats) {
    auto encoding = EncodingFromWire(s.encoding);
    if (!encoding) continue;
    out.push_back({static_cast<int32_t>(s.page_type), *encoding, s.count});
  }
  return out;
}

Compression ColumnChunkMetaData::compression() const {
  return CompressionFromWire(Meta(chunk_).codec).value_or(Compression::kLzo);
}
int64_t ColumnChunkMetaData::num_values() const { return Meta(chunk_).num_values; }
int64_t ColumnChunkMetaData::total_compressed_size() const {
  return Meta(chunk_).total_compressed_size;
}
int64_t ColumnChunkMetaData::total_uncompressed_size() const {
  return Meta(chunk_).total_uncompressed_size;
}
int64_t ColumnChunkMetaData::data_page_offset() const { return Meta(chunk_).data_page_offset; }
std::optional<int64_t> ColumnChunkMetaData::dictionary_page_offset() const {
  return Meta(chunk_).dictionary_page_offset;
}
std::optional<int64_t> ColumnChunkMetaData::index_page_offset() const {
  return Meta(chunk_).index_page_offset;
}
int64_t ColumnChunkMetaData::start_offset() const {
  int64_t start = data_page_offset();
  auto dict = dictionary_page_offset();
  // Some writers store 0 for "no dictionary page"; a dictionary page precedes the data.
  if (dict && *dict > 0 && *dict < start) start = *dict;
  return start;
}
bool ColumnChunkMetaData::has_statistics() const { return Meta(chunk_).statistics.has_value(); }

Statistics ColumnChunkMetaData::statistics() const {
  if (!Meta(chunk_).statistics) return Statistics{};
  // column_orders has one entry per leaf, in leaf order.
  const format::ColumnOrder* order = nullptr;
  if (file_->column_orders && static_cast<size_t>(column_index_) < file_->column_orders->size()) {
    order = &(*file_->column_orders)[static_cast<size_t>(column_index_)];
  }
  return internal::DecodeStatistics(*Meta(chunk_).statistics, *column_, order);
}

std::optional<int64_t> ColumnChunkMetaData::offset_index_offset() const {
  return chunk_->offset_index_offset;
}
std::optional<int32_t> ColumnChunkMetaData::offset_index_length() const {
  return chunk_->offset_index_length;
}
std::optional<int64_t> ColumnChunkMetaData::column_index_offset() const {
  return chunk_->column_index_offset;
}
std::optional<int32_t> ColumnChunkMetaData::column_index_length() const {
  return chunk_->column_index_length;
}
std::optional<int64_t> ColumnChunkMetaData::bloom_filter_offset() const {
  return Meta(chunk_).bloom_filter_offset;
}
std::optional<int32_t> ColumnChunkMetaData::bloom_filter_length() const {
  return Meta(chunk_).bloom_filter_length;
}
std::string ColumnChunkMetaData::file_path() const { return chunk_->file_path.value_or(""); }
bool ColumnChunkMetaData::is_encrypted() const {
  return chunk_->crypto_metadata.has_value() || chunk_->encrypted_column_metadata.has_value();
}

// ---- RowGroupMetaData ------------------------------------------------------------------------

int64_t RowGroupMetaData::num_rows() const { return row_group_->num_rows; }
int64_t RowGroupMetaData::total_byte_size() const { return row_group_->total_byte_size; }
int64_t RowGroupMetaData::total_compressed_size() const {
  if (row_group_->total_compressed_size) return *row_group_->total_compressed_size;
  int64_t sum = 0;
  for (const auto& c : row_group_->columns) sum += c.meta_data->total_compressed_size;
  return sum;
}
int RowGroupMetaData::num_columns() const { return static_cast<int>(row_group_->columns.size()); }
ColumnChunkMetaData RowGroupMetaData::column(int i) const {
  return ColumnChunkMetaData(&row_group_->columns[static_cast<size_t>(i)], &schema_->column(i),
                             file_, i);
}
std::optional<int16_t> RowGroupMetaData::ordinal() const { return row_group_->ordinal; }

// ---- FileMetaData ----------------------------------------------------------------------------

FileMetaData::FileMetaData() : impl_(std::make_unique<Impl>()) {}
FileMetaData::FileMetaData(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileMetaData::~FileMetaData() = default;
FileMetaData::FileMetaData(FileMetaData&&) noexcept = default;
FileMetaData& FileMetaData::operator=(FileMetaData&&) noexcept = default;

int32_t FileMetaData::version() const { return impl_->thrift.version; }
int64_t FileMetaData::num_rows() const { return impl_->thrift.num_rows; }
int FileMetaData::num_row_groups() const {
  return static_cast<int>(impl_->thrift.row_groups.size());
}
RowGroupMetaData FileMetaData::row_group(int i) const {
  return RowGroupMetaData(&impl_->thrift.row_groups[static_cast<size_t>(i)], &impl_->schema,
                          &impl_->thrift);
}
const SchemaDescriptor& FileMetaData::schema() const { return impl_->schema; }
const std::string& FileMetaData::created_by() const { return impl_->created_by; }
const MetadataPtr& FileMetaData::key_value_metadata() const { return impl_->key_value_metadata; }
int64_t FileMetaData::footer_size() const { return impl_->footer_size; }
const format::FileMetaData& FileMetaData::thrift() const { return impl_->thrift; }

namespace internal {

Result<std::shared_ptr<FileMetaData>> ParseFileMetaData(const uint8_t* data, int64_t size,
                                                        const thrift::ThriftLimits& limits,
                                                        const std::string& file) {
  auto impl = std::make_unique<FileMetaData::Impl>();
  impl->footer_size = size;
  Status st = thrift::DeserializeThrift(data, static_cast<size_t>(size), &impl->thrift, nullptr,
                                        limits);
  if (!st.ok()) return Status(st.code(), file + ": footer: " + st.message());
  format::FileMetaData& md = impl->thrift;
  if (md.encryption_algorithm) {
    return Status::NotImplemented(file, ": encrypted Parquet files are not supported");
  }
  auto schema = BuildSchema(md.schema);
  if (!schema.ok()) return Status(schema.status().code(), file + ": " + schema.status().message());
  impl->schema = std::move(*schema);
  const SchemaDescriptor& s = impl->schema;
  if (md.num_rows < 0) return Status::Invalid(file, ": footer states ", md.num_rows, " rows");
  int64_t rows = 0;
  for (size_t g = 0; g < md.row_groups.size(); ++g) {
    const format::RowGroup& rg = md.row_groups[g];
    auto where = [&] { return file + ": row group " + std::to_string(g); };
    if (rg.columns.size() != static_cast<size_t>(s.num_columns())) {
      return Status::Invalid(where(), " has ", rg.columns.size(), " column chunks, the schema ",
                             s.num_columns(), " columns");
    }
    if (rg.num_rows < 0) return Status::Invalid(where(), " states ", rg.num_rows, " rows");
    if (rows > INT64_MAX - rg.num_rows) return Status::Invalid(where(), ": row counts overflow");
    rows += rg.num_rows;
    for (size_t c = 0; c < rg.columns.size(); ++c) {
      const format::ColumnChunk& chunk = rg.columns[c];
      const ColumnDescriptor& column = s.column(static_cast<int>(c));
      auto cwhere = [&] { return where() + ", column " + column.path_string(); };
      if (chunk.crypto_metadata || chunk.encrypted_column_metadata) {
        return Status::NotImplemented(file, ": encrypted Parquet files are not supported");
      }
      if (!chunk.meta_data) return Status::Invalid(cwhere(), ": column chunk has no metadata");
      const format::ColumnMetaData& meta = *chunk.meta_data;
      if (meta.type != static_cast<int32_t>(column.physical_type)) {
        return Status::Invalid(cwhere(), ": chunk type ", meta.type,
                               " differs from the schema's ",
                               PhysicalTypeName(column.physical_type));
      }
      if (meta.num_values < 0 || meta.total_compressed_size < 0 ||
          meta.total_uncompressed_size < 0 || meta.data_page_offset < 0) {
        return Status::Invalid(cwhere(), ": negative count, size or offset in the metadata");
      }
    }
  }
  if (md.key_value_metadata) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& kv : *md.key_value_metadata) pairs.emplace_back(kv.key, kv.value.value_or(""));
    impl->key_value_metadata = KeyValueMetadata::Make(std::move(pairs));
  }
  impl->created_by = md.created_by.value_or("");
  return std::make_shared<FileMetaData>(std::move(impl));
}

SortOrder SortOrderOf(const ColumnDescriptor& column) {
  using K = LogicalType::Kind;
  const LogicalType& logical = column.logical_type;
  switch (logical.kind) {
    case K::kString:
    case K::kEnum:
    case K::kJson:
    case K::kBson:
    case K::kUuid:
      return SortOrder::kUnsigned;
    case K::kInteger:
      return logical.is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
    case K::kDecimal:
    case K::kDate:
    case K::kTime:
    case K::kTimestamp:
    case K::kFloat16:
      return SortOrder::kSigned;
    case K::kInterval:
    case K::kMap:
    case K::kList:
    case K::kVariant:
    case K::kGeometry:
    case K::kGeography:
    case K::kVector:
    case K::kUnknown:
      return SortOrder::kUnknown;
    case K::kNone:
      break;
  }
  switch (column.physical_type) {
    case PhysicalType::kInt96: return SortOrder::kUnknown;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray: return SortOrder::kUnsigned;
    default: return SortOrder::kSigned;
  }
}

namespace {

bool IsNaNBound(const ColumnDescriptor& column, const std::string& bytes) {
  if (column.physical_type == PhysicalType::kFloat && bytes.size() == 4) {
    float v;
    std::memcpy(&v, bytes.data(), 4);
    return std::isnan(v);
  }
  if (column.physical_type == PhysicalType::kDouble && bytes.size() == 8) {
    double v;
    std::memcpy(&v, bytes.data(), 8);
    return std::isnan(v);
  }
  return false;
}

// A bound of the wrong size for a fixed-width type is not a bound.
bool SizeFits(const ColumnDescriptor& column, const std::string& bytes) {
  switch (column.physical_type) {
    case PhysicalType::kBoolean: return bytes.size() == 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return bytes.size() == 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return bytes.size() == 8;
    case PhysicalType::kInt96: return bytes.size() == 12;
    case PhysicalType::kFixedLenByteArray:
      return bytes.size() == static_cast<size_t>(column.type_length);
    case PhysicalType::kByteArray: return true;
  }
  return false;
}

}  // namespace

Statistics DecodeStatistics(const format::Statistics& stats, const ColumnDescriptor& column,
                            const format::ColumnOrder* order) {
  Statistics out;
  if (stats.null_count && *stats.null_count >= 0) out.null_count = stats.null_count;
  if (stats.distinct_count && *stats.distinct_count >= 0) out.distinct_count = stats.distinct_count;
  if (stats.nan_count && *stats.nan_count >= 0) out.nan_count = stats.nan_count;
  SortOrder sort = SortOrderOf(column);
  if (sort == SortOrder::kUnknown) return out;
  if (order != nullptr && !order->TYPE_ORDER && !order->IEEE_754_TOTAL_ORDER) return out;
  const std::string* min = nullptr;
  const std::string* max = nullptr;
  if (stats.min_value && stats.max_value) {
    min = &*stats.min_value;
    max = &*stats.max_value;
    out.is_min_exact = stats.is_min_value_exact;
    out.is_max_exact = stats.is_max_value_exact;
  } else if (stats.min && stats.max && sort == SortOrder::kSigned) {
    // The legacy fields were written in signed order by every writer: trustworthy only for
    // columns whose order is signed.
    min = &*stats.min;
    max = &*stats.max;
  }
  if (min == nullptr || !SizeFits(column, *min) || !SizeFits(column, *max)) return out;
  if (IsNaNBound(column, *min) || IsNaNBound(column, *max)) return out;
  out.min = *min;
  out.max = *max;
  return out;
}

Result<ChunkRange> ColumnChunkRange(const ColumnChunkMetaData& chunk, int64_t data_end,
                                    int row_group) {
  int64_t start = chunk.start_offset();
  int64_t length = chunk.total_compressed_size();
  if (start < 4 || length < 0 || start > data_end || length > data_end - start) {
    return Status::Invalid("row group ", row_group, ", column ", chunk.descriptor().path_string(),
                           ": column chunk [", start, ", +", length,
                           ") lies outside the file's data (bytes 4 to ", data_end,
                           ", where the footer starts)");
  }
  return ChunkRange{start, length};
}

}  // namespace internal
}  // namespace alkaid::parquet
