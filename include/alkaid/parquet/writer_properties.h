/// @file
/// Settings of the Parquet writer: compression, encodings, page and row group sizes,
/// statistics, page index, checksums and footer metadata, for the whole file and per
/// column. A plain value; the writer checks it (Validate) when it is created.
///
/// @code
///   parquet::WriterProperties props;
///   props.compression = parquet::Compression::kZstd;
///   props.max_row_group_rows = 500'000;
///   props.columns["id"].encoding = parquet::Encoding::kDeltaBinaryPacked;
///   props.columns["id"].dictionary = false;
///   props.columns["payload"].compression = parquet::Compression::kUncompressed;
/// @endcode
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet {

/// The codec's own default level (for WriterProperties::compression_level).
inline constexpr int kDefaultCodecLevel = -1000;

/// Which data page layout the writer uses.
enum class DataPageVersion : int8_t {
  kV1,  ///< DATA_PAGE: levels and values compressed together (read by every reader)
  kV2,  ///< DATA_PAGE_V2: levels stored uncompressed before the compressed values
};

/// Which format version's logical types the writer may use.
enum class FormatVersion : int8_t {
  k1_0,  ///< legacy annotations only: uint32 is stored as INT64, no nanosecond timestamps
  k2_4,  ///< unsigned INTEGER annotations; nanosecond timestamps stored as microseconds
  k2_6,  ///< everything, nanosecond timestamps included (the default, as Arrow C++'s)
};

/// Settings of one column that override the file's. Unset members take the file's value.
struct ALKAID_EXPORT ColumnProperties {
  std::optional<Compression> compression;  ///< codec of the column's pages
  std::optional<int> compression_level;    ///< codec level
  /// Dictionary-encode the column (RLE_DICTIONARY data pages after a dictionary page).
  std::optional<bool> dictionary;
  /// The encoding of values that are not dictionary-encoded (and of every value once the
  /// dictionary passes its size limit): kPlain, kDeltaBinaryPacked (INT32/INT64),
  /// kDeltaLengthByteArray, kDeltaByteArray (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY),
  /// kByteStreamSplit (FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY), or kRle
  /// (BOOLEAN). An encoding that does not fit the column's physical type is an error.
  std::optional<Encoding> encoding;
  std::optional<bool> statistics;  ///< write the column's statistics
  std::optional<bool> page_index;  ///< write the column's page index
};

/// Settings of a Parquet file writer.
struct ALKAID_EXPORT WriterProperties {
  /// Codec of every page (BROTLI too; LZO is not supported).
  Compression compression = Compression::kSnappy;
  /// Codec level; kDefaultCodecLevel is the codec's default.
  int compression_level = kDefaultCodecLevel;

  /// Dictionary-encode columns by default. A column whose dictionary page would pass
  /// dictionary_page_size_limit continues with `encoding` for the rest of its chunk.
  bool dictionary = true;
  /// Bytes a dictionary page may reach before the column stops dictionary encoding.
  int64_t dictionary_page_size_limit = int64_t{1} << 20;
  /// Encoding of values that are not dictionary-encoded (see ColumnProperties::encoding).
  Encoding encoding = Encoding::kPlain;

  /// A data page is cut once its encoded levels and values reach about this many bytes
  /// (before compression) or it holds data_page_row_limit rows, at a row boundary.
  int64_t data_page_size = int64_t{1} << 20;
  int64_t data_page_row_limit = 20'000;  ///< most rows in one data page
  DataPageVersion data_page_version = DataPageVersion::kV1;  ///< the data page layout
  /// A row group is closed once it holds this many rows; WriteTable also splits tables
  /// at this size. The writer keeps one row group's encoded pages in memory.
  int64_t max_row_group_rows = int64_t{1} << 20;
  /// ... or once its encoded pages reach this many bytes (0: no byte limit).
  int64_t max_row_group_bytes = 0;

  /// The format version whose annotations and types the writer may use.
  FormatVersion version = FormatVersion::k2_6;

  /// Column chunk and page statistics (null count, min/max).
  bool statistics = true;
  /// Longest min/max kept whole for BYTE_ARRAY columns in statistics and the page index;
  /// longer ones are truncated so that min stays <= and max >= every value.
  int64_t statistics_truncate_length = 64;
  /// Write the page index (ColumnIndex and OffsetIndex of every column chunk, after the
  /// row groups) so that readers can skip pages.
  bool page_index = true;
  /// Store a CRC-32 of every page in its header.
  bool page_checksums = false;

  /// Store the Arrow schema in the footer's ARROW:schema key (base64 of the IPC schema
  /// message, as Arrow C++ does) so that Arrow readers get the exact types back.
  bool store_arrow_schema = true;
  /// Extra footer key-value metadata (the Arrow schema's own metadata is written too).
  MetadataPtr key_value_metadata;
  /// The footer's created_by; empty: "alkaid version <version>".
  std::string created_by;

  /// Encode the columns of a row group on several threads.
  bool use_threads = false;
  /// Threads used when use_threads is true; 0: the thread pool's size.
  int num_threads = 0;
  /// Memory for encoded pages and scratch buffers.
  MemoryPool* pool = default_memory_pool();

  /// Per-column overrides, keyed by the column's dotted Parquet path ("a", "s.b",
  /// "l.list.element", "m.key_value.key"); a key that names a group (a struct, list or map
  /// column) applies to every leaf below it, and the longest matching key wins.
  std::map<std::string, ColumnProperties> columns;

  /// The defaults: Snappy, dictionary encoding, 1 MiB pages, 1 Mi-row row groups,
  /// statistics, page index, format version 2.6, data page v1.
  static WriterProperties Defaults() { return WriterProperties(); }
  /// Checks sizes, limits and codecs; the error names the setting.
  Status Validate() const;
};

}  // namespace alkaid::parquet
