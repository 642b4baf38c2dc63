// The pages of one column chunk: page headers read and checked, CRCs verified, bodies
// decompressed, and data pages v1 and v2 split into repetition levels, definition levels
// and values. Internal to the parquet module; the column reader is the user.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/read_context.h"
#include "src/parquet/thrift/parquet_types.h"

namespace alkaid::parquet::internal {

/// A dictionary page, decompressed.
struct DictionaryPage {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  BufferPtr data;
};

/// A data page, decompressed. For version 1 pages the levels are inside `body` (the column
/// reader finds their lengths); for version 2 pages they are separate.
struct DataPage {
  bool v2 = false;
  int32_t num_values = 0;  ///< level entries (values, nulls and empty lists)
  int32_t num_nulls = -1;  ///< v2 only
  int32_t num_rows = -1;   ///< v2 only
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;  ///< v1
  Encoding repetition_level_encoding = Encoding::kRle;  ///< v1
  BufferPtr levels;  ///< v2: repetition levels then definition levels (never compressed)
  int64_t repetition_levels_size = 0;  ///< v2
  int64_t definition_levels_size = 0;  ///< v2
  BufferPtr body;  ///< v1: levels and values; v2: values
};

class PageReader {
 public:
  /// `chunk` holds the column chunk's bytes, which start at `file_offset` in the file.
  /// `codec` is null for uncompressed chunks. `total_values` is the chunk's value count
  /// from the footer: reading stops once that many level entries were read.
  PageReader(BufferPtr chunk, int64_t file_offset, const Codec* codec, int64_t total_values,
             const ColumnReadSettings& settings, ReadBudget* budget, const ChunkName* name)
      : chunk_(std::move(chunk)), file_offset_(file_offset), codec_(codec),
        total_values_(total_values), settings_(settings), budget_(budget), name_(name) {}

  enum class Kind { kEnd, kDictionary, kData };
  /// The next dictionary or data page (index pages and unknown page types are skipped), or
  /// kEnd after the chunk's last value. Fails when the chunk's bytes end first.
  Result<Kind> Next(DictionaryPage* dictionary, DataPage* data);

  /// "<chunk>, page <n> (byte <offset> of the file)" for the page last returned.
  std::string Where() const;
  int page_index() const { return page_index_; }

 private:
  Status Error(const std::string& what) const;
  Result<BufferPtr> Decompress(const BufferPtr& stored, int64_t uncompressed_size,
                               const char* what);

  BufferPtr chunk_;
  int64_t file_offset_;
  const Codec* codec_;
  int64_t total_values_;
  ColumnReadSettings settings_;
  ReadBudget* budget_;
  const ChunkName* name_;
  int64_t pos_ = 0;
  int64_t values_seen_ = 0;
  int page_index_ = -1;
  int64_t page_offset_ = 0;
  bool seen_dictionary_ = false;
  bool seen_data_ = false;
};

}  // namespace alkaid::parquet::internal
