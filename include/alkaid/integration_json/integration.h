/// @file
/// Reader and writer of the Arrow integration-test JSON format (the
/// X.json / X.json.gz files the Arrow projects exchange in cross-language
/// tests): a schema, optional dictionaries and record batches whose buffers
/// are spelled out value by value.
///
/// Reading builds every ArrayData directly from the JSON arrays, checking
/// counts, value ranges and encodings; errors carry a JSON path such as
/// "batches[2].columns[1](name).children[0].DATA[5]". Writing produces the
/// same layout and value encodings as the reference generator (two-space
/// indentation, 64-bit integers as strings, upper-case hex, ASCII escapes).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/dictionary_ids.h"
#include "alkaid/io/output.h"
#include "alkaid/visibility.h"
#include "alkaid/table.h"
#include "alkaid/type.h"
#include "alkaid/validate.h"

namespace alkaid::integration_json {

/// The content of one integration JSON document, as read or to be written.
struct ALKAID_EXPORT IntegrationFile {
  /// The schema of every batch (dictionary-encoded fields with their value types).
  SchemaPtr schema;
  /// Field path -> dictionary id, as the JSON declares them.
  DictionaryIds dictionary_ids;
  /// Dictionary id -> values (typed as the dictionary's value type).
  std::map<int64_t, ArrayDataPtr> dictionaries;
  /// Dictionary-encoded columns (at any depth, and inside dictionaries) have
  /// ArrayData::dictionary set from `dictionaries`.
  std::vector<RecordBatchPtr> batches;
};

/// The default cap of GzipDecompress's output: 2 GiB.
inline constexpr int64_t kDefaultMaxGunzipBytes = int64_t{2} << 30;

/// Limits of ReadIntegrationFile and ParseIntegrationJson.
struct IntegrationReadOptions {
  /// Deepest type nesting accepted (as IpcReadOptions::max_recursion_depth).
  /// The JSON text itself may nest at most about twice as deep; deeper text is
  /// refused before it is parsed, so no input can exhaust the stack.
  int max_recursion_depth = kDefaultMaxRecursionDepth;
  /// How far a gzip-compressed input may inflate: to at most
  /// max(gunzip_floor_bytes, gunzip_ratio x its compressed size) bytes of
  /// text, and never past kDefaultMaxGunzipBytes. Deflate expands up to
  /// about 1000 times, and the arrays built from the text can take several
  /// times its size (an int64 written as "0," is 2 bytes of text and 8 of
  /// array), so without a bound a 2 MB file could take gigabytes. Plain text
  /// has no such cap: its own size is what it costs.
  int64_t gunzip_ratio = 64;
  /// See gunzip_ratio.
  int64_t gunzip_floor_bytes = int64_t{16} << 20;
  /// The cap on the text of a gzip input of `compressed_size` bytes.
  int64_t MaxGunzipBytes(int64_t compressed_size) const {
    constexpr int64_t kCeiling = kDefaultMaxGunzipBytes;
    if (gunzip_ratio > 0 && compressed_size > kCeiling / gunzip_ratio) return kCeiling;
    const int64_t by_ratio = gunzip_ratio > 0 ? gunzip_ratio * compressed_size : 0;
    return std::min(kCeiling, std::max(gunzip_floor_bytes, by_ratio));
  }
};

/// Reads a file holding integration JSON, gzip-compressed or not (decided by
/// the 1f 8b magic bytes, not by the file name). What is built is fully
/// validated (ValidateArrayFull) like the output of every other reader; errors
/// name the batch and column. Parsing holds no document: the text is read in
/// chunks and decoded into the arrays as it comes (see IntegrationJsonReader
/// for reading one batch at a time).
ALKAID_EXPORT Result<IntegrationFile> ReadIntegrationFile(
    const std::string& path, const IntegrationReadOptions& options = {});
/// The same from JSON text already in memory (not compressed).
ALKAID_EXPORT Result<IntegrationFile> ParseIntegrationJson(
    std::string_view text, const IntegrationReadOptions& options = {});

/// Serializes `file`; the dictionaries written are `file.dictionaries` and the
/// ids those of `file.dictionary_ids` (sequential ids when it is empty).
/// Output is deterministic.
ALKAID_EXPORT Result<std::string> WriteIntegrationJson(const IntegrationFile& file);
/// Serializes batches under `schema`, collecting dictionaries from the
/// dictionary-encoded columns. Ids come from `ids`, or are assigned in
/// depth-first order when null. Every batch must carry the same dictionary per
/// id (the format has one dictionary per id).
ALKAID_EXPORT Result<std::string> WriteIntegrationJson(const Schema& schema,
                                                       const std::vector<RecordBatchPtr>& batches,
                                                       const DictionaryIds* ids = nullptr);

/// Limits of IntegrationJsonWriter; the defaults set none. The writer's memory
/// does not depend on them: it writes value by value through a fixed buffer.
struct IntegrationWriteOptions {
  /// Refuse to write more than this many bytes (-1: no limit). Before each
  /// batch or dictionary is written, a lower bound of its size computed from
  /// lengths alone is checked against what is left, so a column of 2^62 slots
  /// is refused up front instead of being written for ever.
  int64_t max_output_bytes = -1;
  /// Refuse a column (or dictionary) whose JSON would take at least this many
  /// bytes by the same lower bound (-1: no limit).
  int64_t max_column_bytes = -1;
};

/// Writes integration JSON incrementally: Open() writes the schema and the
/// dictionaries, WriteRecordBatch() each batch as it comes, Close() the end of
/// the document. Values go from the arrays' buffers straight into a fixed
/// 256 KiB buffer handed to the output in chunks (at least once per batch),
/// so memory is the batch being written plus that buffer, whatever its
/// length; no document is built. The text is identical to
/// WriteIntegrationJson's. Integration JSON puts dictionaries before batches,
/// so they must be known at Open() (IntegrationDictionaries collects them in
/// a first pass). When a call fails the output holds an incomplete document.
/// Not thread-safe: one caller at a time.
class ALKAID_EXPORT IntegrationJsonWriter {
 public:
  /// Writes to `out`, which must outlive the writer. `dictionaries`: id -> values.
  static Result<std::unique_ptr<IntegrationJsonWriter>> Open(
      io::OutputStream* out, SchemaPtr schema, const DictionaryIds& ids,
      const std::map<int64_t, ArrayDataPtr>& dictionaries,
      const IntegrationWriteOptions& options = {});
  /// The same to a std::ostream (flushed by Close()).
  static Result<std::unique_ptr<IntegrationJsonWriter>> Open(
      std::ostream* out, SchemaPtr schema, const DictionaryIds& ids,
      const std::map<int64_t, ArrayDataPtr>& dictionaries,
      const IntegrationWriteOptions& options = {});
  ~IntegrationJsonWriter();

  /// Writes `batch`, whose columns must match the writer's schema in number,
  /// length and type. Errors: a column over max_column_bytes or output over
  /// max_output_bytes (both checked before anything of the batch is
  /// written), a value JSON cannot hold (a valid NaN or infinity, text that
  /// is not UTF-8), a write failure of `out`, or a call after Close().
  Status WriteRecordBatch(const RecordBatch& batch);
  /// Ends the document (no trailing newline). Batches may not follow.
  Status Close();
  /// Bytes of JSON text produced so far (all of them written to `out` once
  /// Open, WriteRecordBatch or Close returns).
  int64_t bytes_written() const;

 private:
  struct Impl;
  explicit IntegrationJsonWriter(std::unique_ptr<Impl> impl);
  static Result<std::unique_ptr<IntegrationJsonWriter>> Start(
      std::unique_ptr<io::OutputStream> owned, io::OutputStream* out, SchemaPtr schema,
      const DictionaryIds& ids, const std::map<int64_t, ArrayDataPtr>& dictionaries,
      const IntegrationWriteOptions& options);
  std::unique_ptr<Impl> impl_;
};

/// Reads integration JSON one batch at a time. Open() reads the schema and
/// the dictionaries; Next() parses and returns one batch (fully validated,
/// dictionaries attached), so memory is the dictionaries plus one batch and
/// the parser's 1 MiB of text, whatever the file's size. The text is pulled
/// token by token, never held as a document. Members may come in any order:
/// when the batches come before the schema or a needed "dictionaries" member,
/// the reader skips them, reads on, and returns to them (reading a file, or
/// inflating a .json.gz, a second time); no more than one dictionary's text
/// is held at once. Errors name the JSON path and the line and column. Not
/// thread-safe: one caller at a time.
class ALKAID_EXPORT IntegrationJsonReader {
 public:
  /// Reads the file at `path`, gzip-compressed or not (by its first bytes).
  static Result<std::unique_ptr<IntegrationJsonReader>> OpenFile(
      const std::string& path, const IntegrationReadOptions& options = {});
  /// Reads `text` (integration JSON, or its gzip encoding), which the reader keeps.
  static Result<std::unique_ptr<IntegrationJsonReader>> OpenText(
      std::string text, const IntegrationReadOptions& options = {});
  ~IntegrationJsonReader();

  /// The schema of every batch.
  const SchemaPtr& schema() const;
  /// Field path -> dictionary id, as the JSON declares them.
  const DictionaryIds& dictionary_ids() const;
  /// Dictionary id -> values, all read by Open().
  const std::map<int64_t, ArrayDataPtr>& dictionaries() const;
  /// The next batch, or null after the last one (the rest of the document
  /// has then been checked too). After an error, every later call fails.
  Result<RecordBatchPtr> Next();
  /// Batches returned so far.
  int64_t num_batches_read() const;

 private:
  class Impl;
  explicit IntegrationJsonReader(std::unique_ptr<Impl> impl);
  friend Result<IntegrationFile> ParseIntegrationJson(std::string_view text,
                                                      const IntegrationReadOptions& options);
  std::unique_ptr<Impl> impl_;
};

/// Collects, batch by batch, the dictionaries that dictionary-encoded columns
/// carry, keyed by the ids of `ids`; fails when one id gets two different
/// dictionaries (the format holds one per id). Holds references only.
class ALKAID_EXPORT IntegrationDictionaries {
 public:
  /// Collects under the ids of `ids` (the dictionary-encoded fields of the schema
  /// the batches will have).
  explicit IntegrationDictionaries(DictionaryIds ids);
  ~IntegrationDictionaries();
  /// Records the dictionaries of `batch`'s dictionary-encoded columns; an error
  /// naming the batch and column when an id already has a different dictionary.
  Status Add(const RecordBatch& batch);
  /// The dictionaries collected (id -> values), moved out; ready for
  /// IntegrationJsonWriter::Open.
  std::map<int64_t, ArrayDataPtr> Take();

 private:
  DictionaryIds ids_;
  class Collector;  // defined in src/integration_json
  std::unique_ptr<Collector> collector_;
  int64_t num_batches_ = 0;
};

/// The schema part alone, e.g. for tools that print a schema.
ALKAID_EXPORT Result<std::string> WriteIntegrationSchemaJson(const Schema& schema,
                                                             const DictionaryIds* ids = nullptr);

// Whole-file helpers used by the reader (and handy in tools and tests).

/// The bytes of the file at `path`, gunzipped when they start with the gzip
/// magic (1f 8b), else as they are; IOError when it cannot be read, and
/// CapacityError when it inflates past options.MaxGunzipBytes.
ALKAID_EXPORT Result<std::string> ReadMaybeGzip(const std::string& path,
                                                const IntegrationReadOptions& options = {});
/// `bytes` gunzipped when they start with the gzip magic, within
/// options.MaxGunzipBytes, else as they are.
ALKAID_EXPORT Result<std::string> MaybeGunzip(std::string bytes,
                                              const IntegrationReadOptions& options = {});
/// Inflates gzip data (header and trailer included). Refuses
/// (CapacityError) output beyond `max_size` bytes: deflate expands up to about
/// 1000 times, so a small file could otherwise ask for terabytes. Corrupt or
/// truncated input is an error.
ALKAID_EXPORT Result<std::string> GzipDecompress(std::string_view compressed,
                                                 int64_t max_size = kDefaultMaxGunzipBytes);
/// The gzip encoding of `bytes` at zlib `level` (0 to 9, or -1 for zlib's
/// default); Invalid for other levels.
ALKAID_EXPORT Result<std::string> GzipCompress(std::string_view bytes, int level = 6);
/// True when `bytes` starts with the gzip magic 1f 8b.
ALKAID_EXPORT bool LooksGzipped(std::string_view bytes);

}  // namespace alkaid::integration_json
