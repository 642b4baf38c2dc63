// The writer of one leaf column's chunks: levels and values in, encoded pages out (data
// pages v1 or v2, a dictionary page with RLE_DICTIONARY data pages and a fallback to the
// column's encoding past the dictionary size limit, compression, CRC), with the chunk's
// statistics, ColumnIndex and OffsetIndex. Internal to the parquet module.
//
// The pages of the current chunk stay in memory until Finish hands them to the file writer,
// which must write a chunk's pages contiguously. A page is cut at a row boundary once its
// levels and values reach the page size or its row limit.
//
// A ColumnChunkWriter is used by one thread at a time; the file writer may run the writers
// of different columns on different threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/parquet/writer_properties.h"
#include "alkaid/status.h"
#include "src/parquet/thrift/parquet_types.h"
#include "src/parquet/writer/leaf_values.h"
#include "src/parquet/writer/levels.h"
#include "src/parquet/writer/statistics.h"

namespace alkaid::parquet::internal {

/// Everything the writer of one leaf column needs to know, resolved from the schema and the
/// writer properties.
struct ColumnWriterSettings {
  std::vector<std::string> path;  ///< path_in_schema
  std::string dotted_path;        ///< the same joined by '.', for messages and overrides
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;
  SortOrder sort_order = SortOrder::kSigned;
  ValueConversion conversion = ValueConversion::kFixed;
  int16_t max_def = 0;
  int16_t max_rep = 0;

  Compression compression = Compression::kUncompressed;
  int compression_level = kDefaultCodecLevel;
  bool dictionary = true;
  Encoding encoding = Encoding::kPlain;
  bool statistics = true;
  bool page_index = true;
  bool checksums = false;
  DataPageVersion page_version = DataPageVersion::kV1;
  FormatVersion version = FormatVersion::k2_6;
  int64_t page_size = int64_t{1} << 20;
  int64_t page_row_limit = 20'000;
  int64_t dictionary_limit = int64_t{1} << 20;
  int64_t truncate_length = 64;
};

/// One finished column chunk: its bytes and what the footer and page index say about it.
/// Offsets in `meta` and `offset_index` are relative to the chunk's first byte; the file
/// writer adds where the chunk lands.
struct EncodedChunk {
  std::vector<BufferPtr> pieces;  ///< page headers and bodies, in file order
  int64_t size = 0;               ///< bytes of all pieces
  format::ColumnMetaData meta;
  std::optional<format::ColumnIndex> column_index;
  std::optional<format::OffsetIndex> offset_index;
};

class ColumnChunkWriter {
 public:
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(ColumnWriterSettings settings,
                                                         MemoryPool* pool);
  ~ColumnChunkWriter();

  /// Appends the entries of one batch (levels from ComputeLeafLevels of this column).
  Status Write(const LeafLevels& levels);
  /// Encoded bytes the current chunk holds (pages cut, plus the open page's estimate).
  int64_t buffered_bytes() const;
  /// Cuts the last page and returns the chunk; the writer then starts the next chunk.
  Result<EncodedChunk> Finish();

  const ColumnWriterSettings& settings() const { return settings_; }

 private:
  class Impl;
  explicit ColumnChunkWriter(ColumnWriterSettings settings);
  ColumnWriterSettings settings_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace alkaid::parquet::internal
