/// @file
/// Reading Parquet files as Arrow data: whole tables, single row groups, or a stream of
/// record batches that holds at most a couple of row groups in memory; column projection,
/// row-group selection and skipping by statistics, dictionary columns as dictionary arrays,
/// columns decoded in parallel.
///
/// Types are what Arrow C++ gives for the same file (see docs/parquet.md); when the footer
/// holds the writer's Arrow schema (ARROW:schema), time zones, large and view layouts,
/// durations, dictionaries, extension types and field metadata are restored from it.
///
/// Input is untrusted: every length, count and offset is checked, memory is bounded by
/// ReaderOptions::memory_budget, and errors name the file, row group, column path and page.
/// Encrypted files are refused with NotImplemented.
///
/// Threads: a FileReader may be used from several threads at once; reading different (or
/// the same) row groups of one reader concurrently is safe. A RecordBatchReader it returns
/// is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "alkaid/io/input.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/metadata.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet {

/// A condition on one column, used to skip row groups whose statistics prove that no row
/// satisfies it. Rows of the row groups that are read are not filtered.
struct ALKAID_EXPORT ColumnPredicate {
  /// The comparison: column op value, or a null test.
  enum class Op : int8_t { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
                           kIsNull, kIsNotNull };
  /// Leaf column path ("price", "address.city").
  std::string column;
  Op op = Op::kEqual;  ///< how the column is compared with `value`
  /// The constant, compared with the stored value: integers for INT32/INT64 columns (dates
  /// in days, times and timestamps in the column's unit, decimals unscaled), doubles for
  /// FLOAT/DOUBLE (integers are accepted too), strings for BYTE_ARRAY and
  /// FIXED_LEN_BYTE_ARRAY (bytewise), booleans for BOOLEAN. Unused by kIsNull/kIsNotNull.
  std::variant<std::monostate, bool, int64_t, double, std::string> value;
};

/// How string and binary columns are laid out in Arrow.
enum class BinaryReadType : int8_t {
  kDefault,  ///< utf8 / binary (32-bit offsets)
  kLarge,    ///< large_utf8 / large_binary (64-bit offsets)
  kView,     ///< utf8_view / binary_view
};

/// Settings of FileReader. A plain value; the defaults are safe for untrusted files.
struct ALKAID_EXPORT ReaderOptions {
  /// Columns to read, by top-level field name or by the dotted path of a nested field or
  /// leaf ("s.x": struct s with only its field x). Empty (and column_indices empty): all.
  std::vector<std::string> columns;
  /// Alternatively, top-level field indices.
  std::vector<int> column_indices;
  /// Row groups to read, in this order. Empty: all.
  std::vector<int> row_groups;
  /// Row groups whose statistics prove one of these conditions false for every row are
  /// skipped (the conditions are AND-ed).
  std::vector<ColumnPredicate> filter;
  /// Columns (names or leaf paths) of string or binary type to read as
  /// dictionary<int32, utf8|binary> arrays, taking each row group's dictionary page as it
  /// is instead of decoding it into plain values.
  std::vector<std::string> read_dictionary;
  /// Threads decoding columns at once (the caller's included); 0: the hardware's.
  int num_threads = 1;
  /// Rows per batch of GetRecordBatchReader (a batch never spans row groups).
  int64_t batch_size = 64 * 1024;
  /// Arrow layout of string and binary columns.
  BinaryReadType binary_type = BinaryReadType::kDefault;
  /// Unit of INT96 timestamps (nanoseconds, as Arrow C++ reads them by default).
  TimeUnit int96_unit = TimeUnit::kNano;
  /// Restore the writer's Arrow types from the footer's ARROW:schema key.
  bool use_arrow_schema = true;
  /// Check the CRC-32 of pages that carry one.
  bool verify_checksums = true;
  /// Memory one read (ReadTable, ReadRowGroup, or one row group of a RecordBatchReader)
  /// may decode: decompressed pages, levels and the arrays built. Declared sizes are
  /// charged before anything is allocated, so a small file claiming huge pages fails early
  /// with OutOfMemory naming this option. 0: max(memory_budget_floor,
  /// memory_budget_ratio * file size).
  int64_t memory_budget = 0;
  int64_t memory_budget_floor = int64_t{1} << 30;  ///< bytes; the least automatic budget
  double memory_budget_ratio = 64.0;  ///< automatic budget as a multiple of the file size
  /// Bounds on the footer and page headers beyond their bytes: longest string, most list
  /// elements.
  int64_t max_metadata_string_size = int64_t{100} << 20;  ///< longest string, in bytes
  int64_t max_metadata_list_size = 10'000'000;  ///< most elements in one list
  /// Memory for everything the reader allocates; must outlive what it returns.
  MemoryPool* pool = default_memory_pool();

  /// The default options.
  static ReaderOptions Defaults() { return ReaderOptions(); }
};

/// A Parquet file open for reading.
class ALKAID_EXPORT FileReader {
 public:
  ~FileReader();

  /// Memory-maps the file at `path`.
  static Result<std::unique_ptr<FileReader>> Open(const std::string& path,
                                                  const ReaderOptions& options = {});
  /// Reads through `file` (positioned reads; the reader shares ownership).
  static Result<std::unique_ptr<FileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                  const ReaderOptions& options = {});
  /// A whole file in memory; arrays point into `buffer` where they can.
  static Result<std::unique_ptr<FileReader>> Open(BufferPtr buffer,
                                                  const ReaderOptions& options = {});

  /// The file's footer.
  const FileMetaData& metadata() const;
  /// The Arrow schema of the whole file (no projection).
  const SchemaPtr& schema() const;
  /// The schema of what ReadTable() returns with the options' projection.
  const SchemaPtr& projected_schema() const;

  /// Row groups in the file.
  int num_row_groups() const;
  /// The row groups a read selects: options.row_groups (or all), minus those the filter
  /// skips by their statistics.
  const std::vector<int>& selected_row_groups() const;

  /// The selected row groups and columns of the options, as one table (a chunk per row
  /// group).
  Result<std::shared_ptr<Table>> ReadTable();
  /// The selected row groups, with these columns (names or paths as ReaderOptions::columns).
  Result<std::shared_ptr<Table>> ReadTable(const std::vector<std::string>& columns);
  /// One row group (any index, filter not applied), with the options' columns.
  Result<std::shared_ptr<Table>> ReadRowGroup(int i);
  /// One row group (filter not applied), with these columns (names or paths).
  Result<std::shared_ptr<Table>> ReadRowGroup(int i, const std::vector<std::string>& columns);
  /// Batches of at most options.batch_size rows over the selected row groups, decoding one
  /// row group at a time (and, with num_threads > 1, the next one in the background).
  Result<std::unique_ptr<RecordBatchReader>> GetRecordBatchReader();
  /// Same over `row_groups` and `columns` (empty: the options'), `batch_size` rows (0: the
  /// options').
  Result<std::unique_ptr<RecordBatchReader>> GetRecordBatchReader(
      const std::vector<int>& row_groups, const std::vector<std::string>& columns,
      int64_t batch_size = 0);

  /// Rows of the selected row groups, from the footer (no page is read).
  int64_t CountRows() const;

  struct Impl;

 private:
  explicit FileReader(std::shared_ptr<Impl> impl);
  static Result<std::unique_ptr<FileReader>> OpenNamed(std::shared_ptr<io::RandomAccessFile> file,
                                                       const std::string& name,
                                                       const ReaderOptions& options);
  std::shared_ptr<Impl> impl_;
};

/// Reads the footer of a file only.
ALKAID_EXPORT Result<std::shared_ptr<FileMetaData>> ReadMetaData(
    std::shared_ptr<io::RandomAccessFile> file, const ReaderOptions& options = {});

/// The whole file at `path` as a table (FileReader::Open then ReadTable).
ALKAID_EXPORT Result<std::shared_ptr<Table>> ReadTable(const std::string& path,
                                                       const ReaderOptions& options = {});

}  // namespace alkaid::parquet
