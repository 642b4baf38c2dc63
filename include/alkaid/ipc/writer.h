/// @file
/// IPC writers: the streaming format (schema, dictionaries, batches, EOS) and
/// the random-access file format (magic, the same messages, a footer indexing
/// them, magic).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/options.h"
#include "alkaid/table.h"

namespace alkaid::ipc {

/// Counters of what a writer has written so far. A plain value: stats() returns
/// a snapshot copy.
struct ALKAID_EXPORT WriteStats {
  int64_t num_messages = 0;               ///< schema + dictionary + record batch messages
  int64_t num_record_batches = 0;         ///< record batch messages written
  int64_t num_dictionary_batches = 0;     ///< all of them, deltas included
  int64_t num_dictionary_deltas = 0;      ///< dictionary batches sent as deltas
  int64_t num_replaced_dictionaries = 0;  ///< full dictionaries sent for an id already sent
  int64_t bytes_written = 0;              ///< everything this writer wrote to its sink
};

/// Writes record batches in one of the IPC formats to an io::OutputStream; made
/// by MakeStreamWriter or MakeFileWriter. Calls on one writer must not overlap;
/// separate writers are independent. With IpcWriteOptions::write_behind a
/// batch reaches the sink during the next call (see there), and destroying
/// the writer without Close() waits for the compression in progress.
class ALKAID_EXPORT RecordBatchWriter {
 public:
  virtual ~RecordBatchWriter() = default;

  /// Writes the dictionaries the batch needs (new, delta or replacement) and
  /// then the batch. Its schema must equal the writer's (field metadata is not
  /// compared). Fails after Close().
  virtual Status WriteRecordBatch(const RecordBatch& batch) = 0;
  /// Writes every batch of the table, split at the chunk boundaries of its columns.
  Status WriteTable(const Table& table);

  /// Finishes the stream (EOS) or file (EOS, footer, magic). Does not close
  /// the sink. A second call is a no-op.
  virtual Status Close() = 0;

  /// A snapshot of the counters.
  virtual WriteStats stats() const = 0;
};

/// The sink must outlive the writer. The schema message is written before the
/// first batch (or by Close() when there is none).
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchWriter>> MakeStreamWriter(
    io::OutputStream* sink, SchemaPtr schema,
    const IpcWriteOptions& options = IpcWriteOptions::Defaults());

/// File format. `footer_metadata` goes into the footer's custom_metadata.
/// Dictionary replacement is refused (the file format cannot express it).
ALKAID_EXPORT Result<std::unique_ptr<RecordBatchWriter>> MakeFileWriter(
    io::OutputStream* sink, SchemaPtr schema,
    const IpcWriteOptions& options = IpcWriteOptions::Defaults(),
    MetadataPtr footer_metadata = nullptr);

/// Whole streams and files in memory.
ALKAID_EXPORT Result<BufferPtr> SerializeStream(const SchemaPtr& schema,
                                  const std::vector<RecordBatchPtr>& batches,
                                  const IpcWriteOptions& options = IpcWriteOptions::Defaults());
/// The whole file format in one buffer (see MakeFileWriter).
ALKAID_EXPORT Result<BufferPtr> SerializeFile(const SchemaPtr& schema,
                                const std::vector<RecordBatchPtr>& batches,
                                const IpcWriteOptions& options = IpcWriteOptions::Defaults(),
                                MetadataPtr footer_metadata = nullptr);

/// One framed schema message (no EOS).
ALKAID_EXPORT Result<BufferPtr> SerializeSchema(const Schema& schema,
                                  const IpcWriteOptions& options = IpcWriteOptions::Defaults());

}  // namespace alkaid::ipc
