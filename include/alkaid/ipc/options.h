/// @file
/// Options of the IPC writers and readers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/visibility.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/validate.h"

namespace alkaid::ipc {

/// Which spelling of the implementation-specific markers to use.
///  kArrow:  file magic "ARROW1", extension keys "ARROW:extension:name/metadata".
///  kAlkaid: file magic "ALKAID1", extension keys "ALKAID:extension:name/metadata".
/// Readers accept both.
enum class IpcDialect : int8_t {
  kArrow,   ///< "ARROW1" magic and ARROW:extension:* keys, readable by every Arrow library
  kAlkaid,  ///< "ALKAID1" magic and ALKAID:extension:* keys
};

/// The one depth limit of the library (alkaid/validate.h): readers, writers
/// and validation agree on it.
using ::alkaid::kDefaultMaxRecursionDepth;

/// Settings of StreamWriter and FileWriter. A plain value; Validate() is run by
/// the writers when they are created.
struct ALKAID_EXPORT IpcWriteOptions {
  /// Body buffers are padded to (and so start at) multiples of this: 8 or 64.
  int32_t alignment = 8;

  /// Per-buffer body compression (kNone: bodies are raw).
  CompressionType compression = CompressionType::kNone;
  /// Codec level (see compression.h); kDefaultCompressionLevel picks the codec's
  /// own default. Ignored without compression.
  int compression_level = kDefaultCompressionLevel;
  /// Compress the buffers of one batch on several threads (large bodies only).
  bool use_threads = false;
  /// Threads used when use_threads is true; 0 means the hardware concurrency.
  int num_threads = 0;  ///< 0: hardware concurrency
  /// With use_threads and compression: WriteRecordBatch lays the batch out,
  /// starts compressing it on pool threads and returns; the batch reaches the
  /// sink during the next WriteRecordBatch (or Close), which writes it while
  /// the pool compresses the new one. Compression then overlaps the caller's
  /// own work and the writing of the previous batch. Until then the writer
  /// holds references to the batch's arrays, whose bytes must not change (a
  /// batch whose compression a preempted pool thread lost to the caller stays
  /// referenced one batch longer, until that thread has let go, at the latest
  /// until Close); an error compressing a batch is returned by the next call;
  /// stats() and the sink are one batch behind. Off: each batch is in the
  /// sink when WriteRecordBatch returns.
  bool write_behind = false;

  /// Stream writer: write the end-of-stream marker on Close(). The file writer
  /// always writes it before the footer.
  bool emit_eos = true;
  /// Pre-0.15 framing: no 0xFFFFFFFF continuation marker before lengths.
  bool write_legacy_format = false;

  /// Markers written: Arrow's (readable everywhere) or alkaid's own.
  IpcDialect dialect = IpcDialect::kArrow;

  /// Dictionary id of every dictionary-encoded field (paths as in
  /// alkaid/dictionary_ids.h). Several paths may share one id. Unset: ids are
  /// DictionaryIds::AssignSequential(schema).
  std::optional<DictionaryIds> dictionary_ids;
  /// When a later batch's dictionary extends the previous one, send only the
  /// new values as a delta batch (false: send a full replacement instead).
  bool emit_dictionary_deltas = true;

  /// Deepest type nesting the writer accepts.
  int max_recursion_depth = kDefaultMaxRecursionDepth;

  /// Memory for bitmap shifts, rebased offsets and compressed buffers.
  MemoryPool* pool = default_memory_pool();

  /// The default settings: 8-byte alignment, no compression, Arrow dialect.
  static IpcWriteOptions Defaults() { return IpcWriteOptions(); }
  /// Checks alignment, level/codec pairing and thread counts.
  Status Validate() const;
};

/// Settings of StreamReader, FileReader and StreamDecoder. A plain value. The
/// defaults are safe for untrusted input.
struct ALKAID_EXPORT IpcReadOptions {
  /// Top-level column indices to materialize (projection), in schema order of
  /// the result as listed. Empty: all columns.
  std::vector<int> included_fields;

  /// true: check every offset, index, run end and UTF-8 byte (untrusted input).
  /// false: trusted input, only structural checks (buffer sizes, counts).
  bool validate_full = true;

  /// Decode on several threads: Next() of StreamReader and FileReader (and
  /// FileReader::ReadAll) decode record batches on the caller and pool
  /// threads at once, num_threads + 1 of them in flight (up to twice that
  /// while the caller waits for a busy pool thread), and hand them out in
  /// order (errors included); a batch decoded alone (the last one, or
  /// FileReader::ReadRecordBatch) spreads its buffers over the threads
  /// instead. Batches with bodies under 64 KiB are decoded by the caller as
  /// they come.
  bool use_threads = false;
  /// Threads used when use_threads is true; 0 means the hardware concurrency.
  int num_threads = 0;  ///< 0: hardware concurrency

  /// Deepest type nesting accepted in a schema or batch.
  int max_recursion_depth = kDefaultMaxRecursionDepth;

  /// Memory for decompressed buffers, aligned copies, byte-swapped buffers and
  /// dictionaries; must outlive every batch read.
  MemoryPool* pool = default_memory_pool();

  /// Memory bounds. Compressed bodies, dictionary deltas and repeated footer
  /// blocks let a few kilobytes of input ask for gigabytes; two limits keep a
  /// read within a small multiple of what its bytes justify.
  ///
  /// 1. Per message: the buffers of one record batch or dictionary batch may
  ///    decompress to at most this many bytes together (checked against the
  ///    declared sizes before anything is allocated). 256 MiB, as the Go
  ///    implementation uses; raise it for larger batches.
  int64_t max_decompressed_message_bytes = int64_t{256} << 20;
  ///
  /// 2. Per reader: a budget for what the reader has materialized and what is
  ///    still held, i.e. decompressed buffers, copies made for alignment or
  ///    byte order, dictionaries (deltas included) and the ArrayData of the
  ///    columns of each batch (a fixed cost per field node). Zero-copy slices
  ///    of the input are not counted. A charge is released when the last
  ///    reference to what it paid for goes away: a caller reading a long
  ///    stream or file one batch at a time never reaches the budget; a caller
  ///    holding every batch reaches it after `budget` bytes and gets
  ///    OutOfMemory naming this option. The budget is
  ///      memory_budget                                            when > 0,
  ///      max(memory_budget_floor, memory_budget_ratio * input bytes) otherwise,
  ///    where the input is the file size (FileReader) or the bytes consumed so
  ///    far (StreamReader, StreamDecoder). The defaults (1 GiB, 64x) let every
  ///    file of up to 16 MiB materialize 1 GiB and larger files 64 times their
  ///    size, which covers real data, while a 3 KB footer repeating a 64 MiB
  ///    compressed block a thousand times is refused after 1 GiB.
  int64_t memory_budget = 0;
  /// Smallest budget in bytes when memory_budget is 0 (see above).
  int64_t memory_budget_floor = int64_t{1} << 30;
  /// Budget per byte of input when memory_budget is 0 (see above).
  double memory_budget_ratio = 64.0;

  /// The default settings: full validation, all columns, single-threaded.
  static IpcReadOptions Defaults() { return IpcReadOptions(); }
};

}  // namespace alkaid::ipc
