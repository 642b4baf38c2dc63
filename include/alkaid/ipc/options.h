// Options of the IPC writers and readers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/export.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::ipc {

// Which spelling of the implementation-specific markers to use.
//  kArrow:  file magic "ARROW1", extension keys "ARROW:extension:name/metadata".
//  kAlkaid: file magic "ALKAID1", extension keys "ALKAID:extension:name/metadata".
// Readers accept both.
enum class IpcDialect : int8_t { kArrow, kAlkaid };

inline constexpr int kDefaultMaxRecursionDepth = 64;

struct ALKAID_EXPORT IpcWriteOptions {
  // Body buffers are padded to (and so start at) multiples of this: 8 or 64.
  int32_t alignment = 8;

  // Per-buffer body compression (kNone: bodies are raw).
  CompressionType compression = CompressionType::kNone;
  int compression_level = kDefaultCompressionLevel;
  // Compress the buffers of one batch on several threads (large bodies only).
  bool use_threads = false;
  int num_threads = 0;  // 0: hardware concurrency

  // Stream writer: write the end-of-stream marker on Close(). The file writer
  // always writes it before the footer.
  bool emit_eos = true;
  // Pre-0.15 framing: no 0xFFFFFFFF continuation marker before lengths.
  bool write_legacy_format = false;

  IpcDialect dialect = IpcDialect::kArrow;

  // Dictionary id of every dictionary-encoded field (paths as in
  // alkaid/dictionary_ids.h). Several paths may share one id. Unset: ids are
  // DictionaryIds::AssignSequential(schema).
  std::optional<DictionaryIds> dictionary_ids;
  // When a later batch's dictionary extends the previous one, send only the
  // new values as a delta batch (false: send a full replacement instead).
  bool emit_dictionary_deltas = true;

  // Deepest type nesting the writer accepts.
  int max_recursion_depth = kDefaultMaxRecursionDepth;

  // Memory for bitmap shifts, rebased offsets and compressed buffers.
  MemoryPool* pool = default_memory_pool();

  static IpcWriteOptions Defaults() { return IpcWriteOptions(); }
  // Checks alignment, level/codec pairing and thread counts.
  Status Validate() const;
};

struct ALKAID_EXPORT IpcReadOptions {
  // Top-level column indices to materialize (projection), in schema order of
  // the result as listed. Empty: all columns.
  std::vector<int> included_fields;

  // true: check every offset, index, run end and UTF-8 byte (untrusted input).
  // false: trusted input, only structural checks (buffer sizes, counts).
  bool validate_full = true;

  // Decompress the buffers of one batch on several threads.
  bool use_threads = false;
  int num_threads = 0;  // 0: hardware concurrency

  // Deepest type nesting accepted in a schema or batch.
  int max_recursion_depth = kDefaultMaxRecursionDepth;

  MemoryPool* pool = default_memory_pool();

  // Bounds what a reader allocates for one message, so that a few corrupt
  // bytes cannot request gigabytes: at most
  //   max(max_allocation_floor, max_allocation_ratio * on-wire message size)
  // bytes (used for decompressed buffers and any materialized copies).
  double max_allocation_ratio = 65536.0;
  int64_t max_allocation_floor = int64_t{64} << 20;

  static IpcReadOptions Defaults() { return IpcReadOptions(); }
};

}  // namespace alkaid::ipc
