/// @file
/// The footer of a Parquet file as a read-only view: row groups, column chunks (encodings,
/// codec, sizes, offsets, statistics, page index and Bloom filter locations), key-value
/// metadata, the writer's name and the schema.
///
/// FileMetaData is immutable and may be read from any number of threads. RowGroupMetaData
/// and ColumnChunkMetaData are small views valid while their FileMetaData lives.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/parquet/schema.h"
#include "alkaid/parquet/types.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet {

namespace format {
struct FileMetaData;
struct ColumnChunk;
struct RowGroup;
}  // namespace format

/// Statistics of a column chunk as the file states them, with the format's rules applied:
/// min/max come from min_value/max_value, or from the legacy min/max fields only where
/// those are trustworthy (columns ordered as signed numbers); they are dropped for columns
/// whose order the file leaves undefined, for INT96, and when a float bound is NaN.
struct ALKAID_EXPORT Statistics {
  std::optional<int64_t> null_count;      ///< null values in the chunk, if stated
  std::optional<int64_t> distinct_count;  ///< distinct values, if stated (may be an estimate)
  std::optional<int64_t> nan_count;       ///< NaN values (float columns), if stated
  /// Lower and upper bound, PLAIN-encoded (BYTE_ARRAY without its length prefix). Both
  /// set or neither.
  std::optional<std::string> min;
  std::optional<std::string> max;  ///< upper bound, encoded as `min`
  /// Whether the bounds are values that occur (when the file says).
  std::optional<bool> is_min_exact;  ///< for `min`
  std::optional<bool> is_max_exact;  ///< same as is_min_exact, for `max`

  /// Whether both bounds are known.
  bool has_min_max() const { return min.has_value() && max.has_value(); }
};

/// `bytes` (a statistics bound of `column`) as text in the column's logical type: numbers,
/// dates ("2024-01-31"), timestamps, decimals, UTF-8 strings (quoted), or hex for binary.
ALKAID_EXPORT std::string FormatStatisticsValue(const ColumnDescriptor& column,
                                                std::string_view bytes);

/// Number of pages of one type written with one encoding (the footer's encoding_stats).
struct ALKAID_EXPORT PageEncodingCount {
  int32_t page_type = 0;  ///< 0 DATA_PAGE, 1 INDEX_PAGE, 2 DICTIONARY_PAGE, 3 DATA_PAGE_V2
  Encoding encoding = Encoding::kPlain;  ///< the pages' encoding
  int32_t count = 0;                     ///< how many such pages the chunk has
};

/// One column of one row group.
class ALKAID_EXPORT ColumnChunkMetaData {
 public:
  /// For the library's own use (RowGroupMetaData::column() hands these out).
  ColumnChunkMetaData(const format::ColumnChunk* chunk, const ColumnDescriptor* column,
                      const format::FileMetaData* file, int column_index)
      : chunk_(chunk), column_(column), file_(file), column_index_(column_index) {}

  /// The schema's description of this leaf column.
  const ColumnDescriptor& descriptor() const { return *column_; }
  /// The column's dotted path as the chunk states it ("a.list.element").
  std::string path() const;
  /// The stored type of the column's values.
  PhysicalType physical_type() const;
  /// Encodings of its pages, as the footer lists them (numbers alkaid does not know are left
  /// out).
  std::vector<Encoding> encodings() const;
  /// The footer's per page-type and encoding counts (empty when not written).
  std::vector<PageEncodingCount> encoding_stats() const;
  /// The codec of the chunk's pages.
  Compression compression() const;
  /// Values in the chunk, nulls and list entries included (the count of level entries).
  int64_t num_values() const;
  /// Bytes of the chunk's pages (headers included) as stored, and once decompressed.
  int64_t total_compressed_size() const;
  int64_t total_uncompressed_size() const;  ///< as total_compressed_size, decompressed
  /// File offset in bytes of the chunk's first data page.
  int64_t data_page_offset() const;
  /// File offset in bytes of the dictionary page, when the chunk has one.
  std::optional<int64_t> dictionary_page_offset() const;
  /// File offset in bytes of the legacy index page, when the footer states one.
  std::optional<int64_t> index_page_offset() const;
  /// Where the chunk's bytes start: its dictionary page when it has one, else its first
  /// data page.
  int64_t start_offset() const;
  /// Whether the footer carries statistics for the chunk.
  bool has_statistics() const;
  /// The statistics, with the format's ordering rules applied (see Statistics).
  Statistics statistics() const;
  /// File offset in bytes of the chunk's OffsetIndex (page locations), if written.
  std::optional<int64_t> offset_index_offset() const;
  /// Size in bytes of the OffsetIndex, if written.
  std::optional<int32_t> offset_index_length() const;
  /// File offset in bytes of the chunk's ColumnIndex (per-page statistics), if written.
  std::optional<int64_t> column_index_offset() const;
  /// Size in bytes of the ColumnIndex, if written.
  std::optional<int32_t> column_index_length() const;
  /// File offset in bytes of the chunk's Bloom filter, if written.
  std::optional<int64_t> bloom_filter_offset() const;
  /// Size in bytes of the Bloom filter, if the footer states it.
  std::optional<int32_t> bloom_filter_length() const;
  /// A path when the chunk lives in another file (summary files); empty otherwise.
  std::string file_path() const;
  /// Whether the chunk is encrypted (alkaid does not read such chunks).
  bool is_encrypted() const;

 private:
  const format::ColumnChunk* chunk_;
  const ColumnDescriptor* column_;
  const format::FileMetaData* file_;
  int column_index_;
};

/// One row group.
class ALKAID_EXPORT RowGroupMetaData {
 public:
  /// For the library's own use (FileMetaData::row_group() hands these out).
  RowGroupMetaData(const format::RowGroup* row_group, const SchemaDescriptor* schema,
                   const format::FileMetaData* file)
      : row_group_(row_group), schema_(schema), file_(file) {}

  /// Rows in the row group.
  int64_t num_rows() const;
  /// Uncompressed bytes of all its column data, as the footer states.
  int64_t total_byte_size() const;
  /// Stored bytes of all its column chunks (summed when the footer does not say).
  int64_t total_compressed_size() const;
  /// Column chunks in the row group (one per leaf column).
  int num_columns() const;
  /// Precondition: 0 <= i < num_columns().
  ColumnChunkMetaData column(int i) const;
  /// The row group's position in the file when the writer states it.
  std::optional<int16_t> ordinal() const;

 private:
  const format::RowGroup* row_group_;
  const SchemaDescriptor* schema_;
  const format::FileMetaData* file_;
};

/// The whole footer.
class ALKAID_EXPORT FileMetaData {
 public:
  FileMetaData();
  ~FileMetaData();
  /// Moves the footer; the moved-from object is left empty.
  FileMetaData(FileMetaData&&) noexcept;
  /// Moves the footer; the moved-from object is left empty.
  FileMetaData& operator=(FileMetaData&&) noexcept;

  /// The format version the writer states (1 or 2).
  int32_t version() const;
  /// Rows in the file (all row groups).
  int64_t num_rows() const;
  /// Row groups in the file.
  int num_row_groups() const;
  /// Precondition: 0 <= i < num_row_groups().
  RowGroupMetaData row_group(int i) const;
  /// Leaf columns.
  int num_columns() const { return schema().num_columns(); }
  /// The file's Parquet schema tree.
  const SchemaDescriptor& schema() const;
  /// The writer's name and version ("parquet-cpp-arrow version 20.0.0"); empty if unstated.
  const std::string& created_by() const;
  /// The footer's key-value metadata (ARROW:schema included); null when there is none.
  const MetadataPtr& key_value_metadata() const;
  /// Bytes of the Thrift-encoded footer.
  int64_t footer_size() const;

  /// For the reader: the decoded footer (internal type).
  const format::FileMetaData& thrift() const;
  struct Impl;
  /// For the library's own use: the reader builds the footer from its decoded form.
  explicit FileMetaData(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace alkaid::parquet
