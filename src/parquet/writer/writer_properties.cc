// WriterProperties::Validate, and the settings of each leaf column resolved from the file's
// properties and the per-column overrides.
#include "alkaid/parquet/writer_properties.h"

#include "alkaid/version.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/encoding/encoder.h"
#include "src/parquet/writer/writer_internal.h"

namespace alkaid::parquet {

namespace {

Status CheckCodec(Compression codec, const std::string& where) {
  if (!internal::IsCodecAvailable(codec)) {
    return Status::NotImplemented(where, "compression ", CompressionName(codec),
                                  " is not available for writing");
  }
  return Status::OK();
}

Status CheckValueEncoding(Encoding encoding, const std::string& where) {
  switch (encoding) {
    case Encoding::kPlain:
    case Encoding::kRle:
    case Encoding::kDeltaBinaryPacked:
    case Encoding::kDeltaLengthByteArray:
    case Encoding::kDeltaByteArray:
    case Encoding::kByteStreamSplit:
      return Status::OK();
    default:
      return Status::Invalid(where, "encoding ", EncodingName(encoding),
                             " cannot be asked for (dictionary encoding is the 'dictionary' "
                             "setting; the others are not value encodings the writer makes)");
  }
}

}  // namespace

Status WriterProperties::Validate() const {
  auto positive = [](int64_t v, const char* name) {
    return v > 0 ? Status::OK()
                 : Status::Invalid("WriterProperties::", name, " must be positive, not ", v);
  };
  ALKAID_RETURN_NOT_OK(positive(dictionary_page_size_limit, "dictionary_page_size_limit"));
  ALKAID_RETURN_NOT_OK(positive(data_page_size, "data_page_size"));
  ALKAID_RETURN_NOT_OK(positive(data_page_row_limit, "data_page_row_limit"));
  ALKAID_RETURN_NOT_OK(positive(max_row_group_rows, "max_row_group_rows"));
  if (data_page_size > INT32_MAX / 2 || dictionary_page_size_limit > INT32_MAX / 2) {
    return Status::Invalid("WriterProperties: page sizes must stay below 1 GiB (pages are at "
                           "most 2 GiB in the format)");
  }
  if (max_row_group_bytes < 0) {
    return Status::Invalid("WriterProperties::max_row_group_bytes must not be negative");
  }
  if (statistics_truncate_length < 0) {
    return Status::Invalid("WriterProperties::statistics_truncate_length must not be negative");
  }
  if (num_threads < 0) return Status::Invalid("WriterProperties::num_threads must not be negative");
  if (pool == nullptr) return Status::Invalid("WriterProperties::pool is null");
  ALKAID_RETURN_NOT_OK(CheckCodec(compression, "WriterProperties: "));
  ALKAID_RETURN_NOT_OK(CheckValueEncoding(encoding, "WriterProperties: "));
  for (const auto& [path, column] : columns) {
    const std::string where = "WriterProperties::columns[\"" + path + "\"]: ";
    if (column.compression) ALKAID_RETURN_NOT_OK(CheckCodec(*column.compression, where));
    if (column.encoding) ALKAID_RETURN_NOT_OK(CheckValueEncoding(*column.encoding, where));
  }
  return Status::OK();
}

namespace internal {

std::string CreatedBy(const WriterProperties& properties) {
  if (!properties.created_by.empty()) return properties.created_by;
  return std::string("alkaid version ") + Version();
}

ColumnWriterSettings ResolveColumn(const WriterProperties& p, const ColumnDescriptor& column,
                                   const LeafStorage& storage) {
  ColumnWriterSettings s;
  s.path = column.path;
  s.dotted_path = column.path_string();
  s.physical_type = storage.physical_type;
  s.type_length = storage.type_length;
  s.sort_order = SortOrderOf(storage.physical_type, storage.logical_type);
  s.conversion = storage.conversion;
  s.max_def = column.max_definition_level;
  s.max_rep = column.max_repetition_level;
  s.compression = p.compression;
  s.compression_level = p.compression_level;
  s.dictionary = p.dictionary;
  s.encoding = p.encoding;
  s.statistics = p.statistics;
  s.page_index = p.page_index;
  s.checksums = p.page_checksums;
  s.page_version = p.data_page_version;
  s.version = p.version;
  s.page_size = p.data_page_size;
  s.page_row_limit = p.data_page_row_limit;
  s.dictionary_limit = p.dictionary_page_size_limit;
  s.truncate_length = p.statistics_truncate_length;
  // The file's encoding applies to the columns it fits; a column's own must fit it.
  if (!EncodingFits(s.physical_type, s.encoding)) s.encoding = Encoding::kPlain;

  // The longest key that is the path or a group above it.
  const std::string& path = s.dotted_path;
  const ColumnProperties* best = nullptr;
  size_t best_length = 0;
  for (const auto& [key, props] : p.columns) {
    bool matches = path == key || (path.size() > key.size() && path.compare(0, key.size(), key) == 0 &&
                                   path[key.size()] == '.');
    if (matches && (best == nullptr || key.size() > best_length)) {
      best = &props;
      best_length = key.size();
    }
  }
  if (best != nullptr) {
    if (best->compression) s.compression = *best->compression;
    if (best->compression_level) s.compression_level = *best->compression_level;
    if (best->dictionary) s.dictionary = *best->dictionary;
    if (best->encoding) s.encoding = *best->encoding;
    if (best->statistics) s.statistics = *best->statistics;
    if (best->page_index) s.page_index = *best->page_index;
  }
  return s;
}

}  // namespace internal
}  // namespace alkaid::parquet
