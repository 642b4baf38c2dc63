/// @file
/// JSON Lines (one JSON object per line) reading and writing.
///
///   ALKAID_ASSIGN_OR_RAISE(auto reader, jsonl::OpenReader("events.jsonl"));
///   while (true) {
///     ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, reader->Next());
///     if (!batch) break;
///     ...
///   }
///
/// Reading. Each non-blank line holds one JSON object (RFC 8259; lines end
/// with LF, a CR before it is whitespace); its keys are the columns. Parsing
/// uses simdjson. The reader streams block by block (block_size bytes, split
/// at line feeds, parsed on num_threads threads, batches in input order).
///
/// Types, given (`schema`) or inferred from the first `inference_rows` lines:
///   JSON null   -> null in any column (a column null throughout the sample is
///                  utf8, unless the sample is the whole input: then null)
///   true/false  -> bool
///   integers    -> int64, exactly (never through a double); integers above
///                  INT64_MAX make the column uint64 if none is negative
///   other numbers -> float64 (int64 and float64 join to float64)
///   strings     -> utf8; but when every string of the field in the sample is
///                  a date (YYYY-MM-DD) or timestamp, or every one a time of
///                  day (HH:MM:SS[.f]), the type CSV infers for them
///                  (infer_temporal): date32 when all are dates, otherwise a
///                  timestamp in the coarsest unit holding every fraction,
///                  "UTC" when all have a zone (Z or an offset; values are
///                  converted to UTC); zoned and zone-less mixed stay utf8;
///                  times of day are time32[s|ms] or time64[us|ns]
///   arrays      -> `list<item type joined over every element>`
///   objects     -> `struct<fields in first-seen order>`
/// Any other disagreement inside the sample (a string where a number was) is
/// an error naming the line and the field path (e.g. "a.b[2]"). Keys missing
/// from an object are null. Keys not in the schema (given, or inferred from
/// the sample) are an error unless unexpected_fields is kIgnore.
///
/// With a given schema, the JSON form each type accepts is the one the writer
/// produces (below); in addition integers are accepted for timestamp, date,
/// time and duration columns (the count of the unit), and numbers for decimal
/// columns when they are integers. Dictionary and run-end encoded columns
/// (also inside structs, lists and maps) are read as their values and
/// encoded per batch; dictionaries of nested values are a TypeError. A
/// float16 value beyond its range is an error.
///
/// Errors start with "JSON Lines line N" and name the field path. Nesting is
/// limited to max_depth levels (default 64); deeper input is an error.
///
/// Writing: one object per line, keys in schema order, every key present
/// (null values as null). Value forms:
///   null                 null
///   bool                 true / false
///   integers             JSON integers, exact at 64 bits
///   float32/64           shortest round-trip numbers; NaN and infinities as
///                        the strings "nan", "inf", "-inf"
///   float16              the number it equals, as float32
///   decimals             strings of the exact decimal ("-12.30")
///   date32/date64        "YYYY-MM-DD" (date64 with a time of day as a
///                        timestamp string)
///   time32/time64        "HH:MM:SS[.fff...]" (digits by unit)
///   timestamp            "YYYY-MM-DDTHH:MM:SS[.f]" with the unit's fraction
///                        digits, and "Z" when the type has a time zone (the
///                        values are UTC)
///   duration             integer count of the unit
///   month_interval       integer months
///   day_time_interval    {"days": d, "milliseconds": ms}
///   month_day_nano       {"months": m, "days": d, "nanoseconds": ns}
///   utf8 (all forms)     JSON strings
///   binary (all forms), fixed_size_binary
///                        strings of lower-case hex digits
///   list, large_list, list_view, large_list_view, fixed_size_list
///                        arrays
///   struct               objects keyed by field name
///   map                  arrays of entry objects {"key": k, "value": v}
///                        (named as the map's entry fields)
///   sparse/dense union   [type_code, value]
///   dictionary, run_end_encoded
///                        the decoded value
///   extension            the storage value
///
/// Threads: calls on one reader (or writer) must not overlap; different
/// readers and writers are independent. A reader uses up to num_threads
/// threads of the process-wide pool inside Make and Next.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "alkaid/visibility.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/memory.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace alkaid::jsonl {

/// What the reader does with an object key that is not a column of the schema.
enum class UnexpectedFields : int8_t {
  kError,   ///< Invalid, naming the line and the field path
  kIgnore,  ///< the key and its value are skipped
};

/// How MakeReader and the other read functions parse JSON Lines. A plain value,
/// copied by the reader.
struct ReadOptions {
  /// Every column's name and type; null means infer.
  SchemaPtr schema;
  /// Lines used to infer the schema when none is given (at least 1).
  int64_t inference_rows = 10000;
  /// Bytes of input parsed per batch; memory held is at most about
  /// (2 * num_threads + 1) blocks.
  int64_t block_size = 1 << 20;
  /// Threads parsing blocks; 0 means the number of hardware threads.
  int num_threads = 0;
  /// The longest line accepted, in bytes: one that does not end within
  /// max_line_bytes + block_size bytes of its start is an error instead of
  /// being buffered whole.
  int64_t max_line_bytes = 64 << 20;
  /// Deepest nesting of arrays and objects accepted on a line.
  int max_depth = 64;
  /// Whether inference reads fields whose sampled strings are all dates or
  /// timestamps, or all times of day, as date32 / timestamp / time32 / time64
  /// (see the top of this file); false: strings are always utf8. A later
  /// string of such a field that does not fit is an error naming its line
  /// and inference_rows.
  bool infer_temporal = true;
  /// Whether keys outside the schema are an error or dropped.
  UnexpectedFields unexpected_fields = UnexpectedFields::kError;
  /// A key left out of an object is a null in its column and in every column
  /// below it, so a line of two bytes (`{}`) is a row across the whole
  /// schema. These two bound what such sparse input may cost: the objects of
  /// one block (block_size bytes of text) may leave out keys worth at most
  /// max(missing_nulls_floor, missing_nulls_per_byte * the block's bytes)
  /// nulls; beyond that Next fails with Invalid, naming the line. A null
  /// takes at most 8 bytes and a bit in an inferred column. Sparse lines
  /// over a wide schema read best with a schema of the wanted fields and
  /// UnexpectedFields::kIgnore. 0 per byte: no limit.
  int64_t missing_nulls_per_byte = 16;
  /// See missing_nulls_per_byte.
  int64_t missing_nulls_floor = int64_t{4} << 20;
  /// The most fields an inferred schema may have, nested ones included (each
  /// is a column of the batch: about 1 KB of memory a batch however few its
  /// rows, so objects of many short keys would otherwise cost hundreds of
  /// times their bytes). More: MakeReader fails with Invalid, naming this
  /// option. A given schema is not capped. 0: no limit. Schemas of more than
  /// 16,384 fields are also read in blocks of at least 64 bytes a field
  /// (more than block_size), so batches are not a few lines each.
  int64_t max_columns = 100'000;
  /// Memory of the columns built; must outlive the batches.
  MemoryPool* pool = default_memory_pool();
};

/// A reader over `input`. Reads the inference sample (when no schema is given)
/// before returning, so schema() is known at once and errors in the sample
/// surface here.
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> MakeReader(
    std::shared_ptr<io::InputStream> input, const ReadOptions& options = {});
/// Opens `path` and reads it as JSON Lines; IOError when it cannot be opened.
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchReader>> OpenReader(
    const std::string& path, const ReadOptions& options = {});
/// The whole input as one table.
ALKAID_EXPORT Result<TablePtr> ReadTable(std::shared_ptr<io::InputStream> input,
                                         const ReadOptions& options = {});
/// The whole of `text` as one table; convenient for tests and literals.
ALKAID_EXPORT Result<TablePtr> ReadString(std::string_view text, const ReadOptions& options = {});

/// Writes record batches as JSON Lines, one object per row, in the forms listed
/// at the top of this file.
class ALKAID_EXPORT Writer {
 public:
  /// `sink` must outlive the writer.
  /// Invalid when `sink` or `schema` is null.
  static Result<std::unique_ptr<Writer>> Make(io::OutputStream* sink, SchemaPtr schema);
  /// Appends one line per row of `batch`, whose schema must equal the writer's
  /// (Invalid otherwise); errors of the sink are passed on.
  Status WriteBatch(const RecordBatch& batch);
  /// Appends every row of `table`, chunk by chunk, as WriteBatch does.
  Status WriteTable(const Table& table);
  /// Nothing to finish (JSON Lines has no trailer); does not close the sink.
  /// Present so the writer is used like the others.
  Status Close() { return Status::OK(); }

 private:
  Writer(io::OutputStream* sink, SchemaPtr schema);
  io::OutputStream* sink_;
  SchemaPtr schema_;
  std::vector<std::string> keys_;  // "\"name\":" per field
};

/// The whole table as JSON Lines on `sink`.
ALKAID_EXPORT Status WriteTable(const Table& table, io::OutputStream* sink);
/// The whole table as JSON Lines text.
ALKAID_EXPORT Result<std::string> WriteToString(const Table& table);

}  // namespace alkaid::jsonl
