/// @file
/// CSV (RFC 4180) reading and writing.
///
/// Reading:
///
///   ALKAID_ASSIGN_OR_RAISE(auto input, io::ReadableFile::Open("data.csv"));
///   csv::ReadOptions options;            // header, ',' and '"' by default
///   options.column_types["id"] = int32();
///   ALKAID_ASSIGN_OR_RAISE(auto reader, csv::MakeReader(input, options));
///   while (true) {
///     ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, reader->Next());
///     if (!batch) break;  // end of input
///     ...
///   }
///
/// The reader streams: it holds the blocks in flight (at most 2 * num_threads + 1
/// of them, block_size bytes each, plus the inference sample at the start) and never
/// the whole input. Each block of input becomes one record batch; batches come
/// out in input order.
///
/// The format accepted: fields separated by `delimiter`; records end with LF,
/// CRLF or a lone CR (mixed endings are fine); a field that starts with `quote`
/// runs to the matching closing quote and may hold delimiters, line breaks and
/// doubled quotes ("" for one "); after a closing quote only a delimiter or a
/// line end may follow. A quote inside an unquoted field is an error (it is
/// how a broken quoted field usually shows up, and accepting it would let one
/// stray byte silently merge records). A UTF-8 byte order mark at the start is
/// dropped. Empty lines are skipped unless ignore_empty_lines is false or
/// there is only one column (then an empty line is a record with one empty
/// field, by default a null).
///
/// Nulls: an unquoted field equal to one of `null_values` is null, in every
/// column (strings too). A quoted field is never null, so "" is an empty
/// string. The writer quotes strings that equal its null text, so tables
/// round-trip exactly.
///
/// Types. Columns named in `column_types`, or every column when `schema` is
/// set, get the given type; other columns are inferred from the first
/// `inference_rows` records (the sample): each column gets the narrowest of
///   null -> bool -> int64 -> float64 -> utf8,  date32 -> timestamp -> utf8
///   and  time32/time64 -> utf8
/// that holds every non-null value in the sample (int64 and float64 join to
/// float64; anything else that disagrees joins to utf8). Timestamps are ISO
/// 8601 ("2024-05-01T12:30:00.250", 'T' or ' '); the unit is the coarsest of
/// s/ms/us/ns that holds every fraction seen; values with a zone (Z, +02:00)
/// are converted to UTC and give timestamp[unit, tz=UTC]; a sample mixing
/// zoned and zone-less values is utf8. Times of day are HH:MM:SS with an
/// optional fraction ("12:30:00.250"): time32[s], time32[ms], time64[us] or
/// time64[ns], the coarsest unit that holds every fraction. So date32,
/// timestamp, time32 and time64 columns the writer wrote read back as
/// themselves (date64, durations and intervals need their type given). A
/// column that is null throughout the sample is utf8, unless the sample is
/// the whole input (then it is null).
/// Records after the sample are converted to the inferred type; a value that
/// does not fit is an error naming its line, column and text (the schema is
/// fixed once the first batch is out): enlarge inference_rows or give the
/// column's type. Integers too large for int64 are inferred as float64.
///
/// Types a column can be read as: null, bool, int8..int64, uint8..uint64,
/// float32, float64, decimal32/64/128/256, date32, date64, time32, time64,
/// timestamp (any unit and zone), duration (integer count of the unit),
/// float16 (read as a float; a finite value beyond its range is an error),
/// month_interval (integer months), day_time_interval and
/// month_day_nano_interval (ISO 8601 durations, each component with its own
/// sign: "P1Y2M3W4DT5H6M7.5S", "P-1MT-0.25S"; day-time takes no months and
/// whole milliseconds), utf8, large_utf8, utf8_view, binary, large_binary,
/// binary_view, fixed_size_binary, and dictionary or run-end encoded columns of
/// any of these (values parsed, then encoded per batch; a dictionary whose
/// index type cannot number its distinct values is a CapacityError). Decimal text must fit the type's width at its scale
/// without losing digits (the declared precision is not enforced, as in IPC
/// data). utf8 columns must be valid UTF-8 (an error names the
/// line and column otherwise); binary columns take the bytes as they are.
///
/// Errors (Status::Invalid) start with "CSV line N" (1-based physical line of
/// the record, counting the header, skipped rows and line breaks inside
/// quotes) and name the column (1-based number and name) and the text.
///
/// Threads: a reader is a cursor; calls on one reader must not overlap. It
/// uses up to num_threads threads of the process-wide pool (thread_pool.h)
/// inside Next() and the Make call. Writers: calls on one writer must not
/// overlap. Separate readers and writers are independent.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/memory.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::csv {

/// What to do with a record whose field count differs from the header's.
enum class RaggedRows : int8_t {
  kError,     ///< Invalid, naming the line and both counts
  kFillNull,  ///< missing trailing fields are null; extra fields are still an error
};

/// The null spellings a reader accepts by default. The writer quotes strings
/// equal to any of them (and to its own null_text), so they read back as
/// strings.
inline const std::vector<std::string>& DefaultNullValues() {
  static const std::vector<std::string> values = {"", "NA", "N/A", "NULL", "null"};
  return values;
}

/// How MakeReader and the other read functions parse CSV text. A plain value,
/// copied by the reader; the defaults read RFC 4180 files with a header.
struct ReadOptions {
  /// The byte separating fields; must differ from `quote` and from CR and LF.
  char delimiter = ',';
  /// `'\0'` turns quoting off (quote characters are then ordinary bytes).
  char quote = '"';
  /// The first record (after skip_rows) holds the column names.
  bool header = true;
  /// Names for the columns. With header == true the header record is read and
  /// dropped (its field count must match); without either, names are f0, f1, ...
  std::vector<std::string> column_names;
  /// Unquoted field texts that mean null.
  std::vector<std::string> null_values = DefaultNullValues();
  /// Lines dropped before anything else (before the header). These are raw
  /// lines: quotes are not interpreted in them.
  int64_t skip_rows = 0;
  /// Skip lines with no bytes at all (see the top of this file for the
  /// one-column case). A line of blanks is not empty.
  bool ignore_empty_lines = true;
  /// Every column's name and type, in file order. When header is true the
  /// header record is dropped; the field count must match.
  SchemaPtr schema;
  /// Types of some columns by name; the rest are inferred.
  std::map<std::string, DataTypePtr> column_types;
  /// Only these columns, in this order (names). Empty: all columns.
  std::vector<std::string> include_columns;
  /// Records used for type inference (at least 1).
  int64_t inference_rows = 10000;
  /// Bytes of input parsed per batch. Bigger blocks mean fewer, longer
  /// batches; memory held is at most about (2 * num_threads + 1) blocks.
  int64_t block_size = 1 << 20;
  /// Threads parsing blocks; 0 means the number of hardware threads.
  int num_threads = 0;
  /// The longest record accepted, in bytes: one that does not end within
  /// max_record_bytes + block_size bytes of its start is an error (which says
  /// whether a quote is open in it). Guards against an unterminated quote
  /// making the reader buffer the rest of the input.
  int64_t max_record_bytes = 64 << 20;
  /// What to do with a record whose field count differs from the header's.
  RaggedRows ragged_rows = RaggedRows::kError;
  /// With RaggedRows::kFillNull a record of one byte is a row of every
  /// column, mostly nulls. These two bound what such input may cost: the
  /// short records of one block (block_size bytes) may leave out at most
  /// max(missing_nulls_floor, missing_nulls_per_byte * the block's bytes)
  /// fields; beyond that Next fails with Invalid, naming the line. 0 per
  /// byte: no limit.
  int64_t missing_nulls_per_byte = 16;
  /// See missing_nulls_per_byte.
  int64_t missing_nulls_floor = int64_t{4} << 20;
  /// The most columns a batch may have when the input says how many (the
  /// header or the first record; columns left out by include_columns do not
  /// count, and a given schema or column_names is not capped). Each column
  /// costs about 1 KB of memory a batch however few its rows, so a header of
  /// short names would otherwise cost hundreds of times its bytes. More
  /// columns: MakeReader fails with Invalid, naming this option. 0: no
  /// limit. Input with more than 16,384 columns is also read in blocks of at
  /// least 64 bytes a column (more than block_size), so batches are not a
  /// few rows each.
  int64_t max_columns = 100'000;
  /// Memory of the columns built; must outlive the batches.
  MemoryPool* pool = default_memory_pool();
};

/// A reader over `input`. Reads the header and the inference sample before
/// returning, so schema() is known at once (and errors in them surface here).
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> MakeReader(
    std::shared_ptr<io::InputStream> input, const ReadOptions& options = {});
/// Opens `path` and reads it as CSV.
/// IOError when the file cannot be opened.
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> OpenReader(
    const std::string& path, const ReadOptions& options = {});
/// The whole input as one table.
/// Reads `input` to its end; errors are those of MakeReader and Next.
ALKAID_EXPORT Result<TablePtr> ReadTable(std::shared_ptr<io::InputStream> input,
                                         const ReadOptions& options = {});
/// Convenience for small inputs (tests, literals).
ALKAID_EXPORT Result<TablePtr> ReadString(std::string_view text, const ReadOptions& options = {});

/// How Writer and the write functions format CSV text. A plain value, copied by
/// the writer.
struct WriteOptions {
  /// The byte written between fields.
  char delimiter = ',';
  /// The byte that quotes fields; a quote inside a quoted field is doubled.
  char quote = '"';
  /// Write a first record with the column names.
  bool header = true;
  /// Text written for nulls. Strings equal to it are quoted.
  std::string null_text;
  /// Quote every string and binary value, not just those that need it.
  bool quote_all_strings = false;
  /// Record terminator: `"\n"` or `"\r\n"`.
  std::string line_ending = "\n";
};

/// Writes record batches as CSV. Value text: see the top of this file and
/// src/csv/text_values.h (ISO 8601 temporal values with the unit's fraction
/// digits and 'Z' for zoned timestamps, shortest round-trip floats, exact
/// decimals, raw bytes for binary). A field is quoted when it contains the
/// delimiter, the quote, a line break, leading or trailing blanks, is empty,
/// or equals null_text or a DefaultNullValues() spelling. float16 is written
/// as the float it equals, day-time and month-day-nano intervals as ISO 8601
/// durations ("P14M2DT-0.25S", "PT0S"), dictionary and run-end encoded
/// columns as their values. Nested types are NotImplemented (use JSON Lines).
class ALKAID_EXPORT Writer {
 public:
  /// `sink` must outlive the writer. The header is written by the first
  /// WriteBatch (or by Close when no batch was written). Invalid when `sink` or
  /// `schema` is null, when delimiter and quote clash (with each other, with
  /// line breaks, or a `'\0'` quote) or when line_ending is not `"\n"` or `"\r\n"`.
  static Result<std::unique_ptr<Writer>> Make(io::OutputStream* sink, SchemaPtr schema,
                                              const WriteOptions& options = {});
  /// Does not write anything: call Close() first so errors are seen.
  ~Writer();
  /// Appends the rows of `batch`, whose schema must equal the writer's
  /// (Invalid otherwise). NotImplemented for a column type CSV cannot hold;
  /// errors of the sink are passed on.
  Status WriteBatch(const RecordBatch& batch);
  /// Appends every row of `table`, chunk by chunk, as WriteBatch does.
  Status WriteTable(const Table& table);
  /// Writes the header if nothing was written yet; does not close the sink.
  Status Close();

 private:
  Writer(io::OutputStream* sink, SchemaPtr schema, WriteOptions options);
  Status WriteHeader();
  io::OutputStream* sink_;
  SchemaPtr schema_;
  WriteOptions options_;
  bool header_written_ = false;
  bool at_start_ = true;  // nothing written yet (see AppendField in writer.cc)
};

/// The whole table as CSV on `sink`.
ALKAID_EXPORT Status WriteTable(const Table& table, io::OutputStream* sink,
                                const WriteOptions& options = {});
/// The whole table as CSV text.
ALKAID_EXPORT Result<std::string> WriteToString(const Table& table,
                                                const WriteOptions& options = {});

}  // namespace alkaid::csv
