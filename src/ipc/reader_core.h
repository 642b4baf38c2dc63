// Internal: the state every IPC reader shares (StreamReader, FileReader and
// the StreamDecoder's StreamMessageDecoder): the schema, projection, dictionaries
// and the loading of record batches and dictionary batches. Not installed.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/table.h"
#include "alkaid/validate.h"
#include "../array/buffer_scan.h"
#include "array_loader.h"
#include "dictionary_memo.h"
#include "load_plan.h"
#include "message_body.h"
#include "message_location.h"
#include "metadata.h"
#include "read_budget.h"

namespace alkaid::ipc::internal {

// `options` with the default memory pool filled in where it has none: every
// reader starts from this.
inline IpcReadOptions WithDefaultPool(IpcReadOptions options) {
  if (options.pool == nullptr) options.pool = default_memory_pool();
  return options;
}

// Counters behind ReadStats; atomic because a FileReader may be read from
// several threads.
struct AtomicStats {
  std::atomic<int64_t> num_messages{0};
  std::atomic<int64_t> num_record_batches{0};
  std::atomic<int64_t> num_dictionary_batches{0};
  std::atomic<int64_t> num_dictionary_deltas{0};
  std::atomic<int64_t> num_replaced_dictionaries{0};
  ReadStats Snapshot() const;
};

// The per-call state of loading one record batch. A stream reader reuses one;
// a file reader takes one per concurrent call.
struct BatchScratch {
  RecordBatchMeta meta;
  ArrayLoader loader;
};

// A record batch whose body was read only in part (a projection reading the
// selected columns' buffers from a file): `offsets[i]` moves buffer
// `indices[i]` to where its bytes sit in the partial body. Every buffer is
// still checked against the body length the message declares.
struct PartialBody {
  int64_t declared_size = 0;
  std::vector<uint32_t> indices;
  std::vector<int64_t> offsets;
};

// A decoded dictionary batch, before it is applied to the memo.
struct DecodedDictionary {
  int64_t id = 0;
  bool is_delta = false;
  bool skipped = false;  // no selected field uses the id
  ArrayDataPtr values;
};

// State shared by every reader: the schema, projection, dictionaries and the
// batch loader.
//
// Thread safety: after Init, ReadRecordBatch with a caller-provided scratch
// may run on several threads at once provided no dictionary batch is being
// read or applied at the same time (the file reader loads all dictionaries
// once, under its own lock, before any batch). Everything else is for one
// thread at a time.
class ReaderCore {
 public:
  ReaderCore() = default;
  ReaderCore(const ReaderCore&) = delete;
  ReaderCore& operator=(const ReaderCore&) = delete;

  // `is_file`: dictionary replacement is refused (file format rule).
  Status Init(const fb::Schema* schema, const IpcReadOptions& options, bool is_file);

  // Decodes a DictionaryBatch message without applying it.
  Result<DecodedDictionary> DecodeDictionaryBatch(const fb::Message& message,
                                                  const MessageBody& body,
                                                  const MessageLocation& where);
  // Applies a decoded dictionary batch (delta or not).
  Status ApplyDictionary(const DecodedDictionary& dict, const MessageLocation& where);
  // Decode and apply.
  Status ReadDictionaryBatch(const fb::Message& message, const MessageBody& body,
                             const MessageLocation& where);
  // Concatenates every queued delta (file reader: once all dictionary blocks
  // are read, before any batch).
  Status MaterializeDictionaries();
  // Loads and validates a RecordBatch message. `scratch` null: the core's
  // own (single-threaded use).
  // `partial`: the body holds only the buffers it lists (see PartialBody).
  Result<RecordBatchPtr> ReadRecordBatch(const fb::Message& message, const MessageBody& body,
                                         const MessageLocation& where,
                                         BatchScratch* scratch = nullptr,
                                         const PartialBody* partial = nullptr);
  // Same, into *out (no Result to move through on the per-batch path).
  Status ReadRecordBatchInto(const fb::Message& message, const MessageBody& body,
                             const MessageLocation& where, BatchScratch* scratch,
                             const PartialBody* partial, RecordBatchPtr* out);
  // True when included_fields leaves out some top-level field.
  bool projects() const {
    return out_schema_ != nullptr && full_schema_ != nullptr &&
           out_schema_->num_fields() < full_schema_->num_fields();
  }
  // The indices of the buffers the selected columns of a record batch use
  // (in header order, so ascending) and, in scratch->meta, the parsed header.
  // An error means the header does not fit the schema: the caller then reads
  // the whole body and lets ReadRecordBatch report the problem in full.
  Status SelectedBuffers(const fb::Message& message, int64_t body_size, BatchScratch* scratch,
                         std::vector<uint32_t>* indices) const;
  // Dispatches a stream message after the schema: dictionary batches are
  // applied (and *batch left null), record batches loaded into *batch.
  // `wire_size` counts towards the stream's input for the memory budget.
  Status HandleStreamMessage(const fb::Message& message, const MessageBody& body, int64_t wire_size,
                             const MessageLocation& where, RecordBatchPtr* batch);
  // Counts a stream message after the schema (stats, and its bytes towards
  // the input the memory budget allows for). HandleStreamMessage does it.
  void CountStreamMessage(int64_t wire_size) {
    stats_.num_messages.fetch_add(1, std::memory_order_relaxed);
    budget_->AddInput(wire_size);
  }

  const SchemaPtr& schema() const { return out_schema_; }
  const DictionaryIds& dictionary_ids() const { return out_ids_; }
  const DictionaryIds& full_dictionary_ids() const { return full_ids_; }
  const DictionaryMemo& memo() const { return memo_; }
  AtomicStats& stats() { return stats_; }
  ReadStats stats_snapshot() const { return stats_.Snapshot(); }
  const IpcReadOptions& options() const { return options_; }
  const ReadBudgetPtr& budget() const { return budget_; }

 private:
  const Codec* GetCodec(CompressionType type) const;
  Status PrepareLoader(ArrayLoader* loader, const LoadPlan* plan, const RecordBatchMeta& meta,
                       const MessageBody& body, fb::MetadataVersion version) const;
  Status BuildPlans();
  // The plan of dictionary `id`'s values, made on first use.
  Result<const LoadPlan*> DictionaryPlan(int64_t id, const DictionaryMemo::Entry& entry);
  [[gnu::cold]] Status ColumnFailed(const Status& st, size_t index) const;
  [[gnu::cold]] Status ColumnLengthMismatch(size_t index, int64_t length, int64_t declared) const;
  // The data pass of full validation (the loader checked the structure),
  // taking what the loader's scans found.
  Status ValidateLoaded(const ArrayData& data,
                        const alkaid::internal::ScannedBuffers& scanned) const;

  IpcReadOptions options_;
  ValidateOptions data_pass_options_;  // for full validation of loaded arrays, set by Init
  bool is_file_ = false;
  bool swap_endian_ = false;
  SchemaPtr full_schema_;
  SchemaPtr out_schema_;
  DictionaryIds full_ids_;
  DictionaryIds out_ids_;
  // For each top-level field of the wire schema: its output column, or -1.
  std::vector<int> output_position_;
  DictionaryMemo memo_;
  // Per-schema work done once: how the wire schema's fields are loaded, and
  // each needed dictionary's values.
  LoadPlan batch_plan_;
  std::map<int64_t, LoadPlan> dictionary_plans_;
  // Per output column: 1 when full validation has nothing to check unless
  // the column has nulls (fixed-width layouts).
  std::vector<uint8_t> plain_columns_;
  AtomicStats stats_;
  ReadBudgetPtr budget_;
  BatchScratch scratch_;  // single-threaded callers
  DictionaryBatchMeta dict_meta_;
  ArrayLoader dict_loader_;
  // Created in Init: codecs keep no per-call state (contexts are per
  // thread), so concurrent loads share them.
  std::unique_ptr<Codec> codecs_[3];
};

}  // namespace alkaid::ipc::internal
