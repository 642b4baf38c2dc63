// IPC stream and file writers.
//
// A record batch becomes one message: its arrays are walked in pre-order,
// each contributing a FieldNode and its buffers. Buffers are referenced, not
// copied, whenever the bytes on the wire are a window of an existing buffer;
// only sliced bitmaps at odd bit offsets, offsets that must be rebased to
// start at zero, and trimmed run ends are materialized. The body goes out in
// one gather write together with the framed metadata.
#include "alkaid/ipc/writer.h"

#include <algorithm>
#include <cstring>

#include "alkaid/bitmap.h"
#include "alkaid/compare.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "alkaid/ipc/message.h"
#include "body_builder.h"
#include "encoded_message.h"
#include "metadata.h"

namespace alkaid::ipc {

using internal::BufferMeta;
using internal::DictionaryBatchMeta;
using internal::DictionaryField;
using internal::FieldNodeMeta;
using internal::FileBlock;
using internal::RecordBatchMeta;

namespace {

using internal::BodyBuilder;
using internal::kZeroBytes;
using internal::FieldPathToString;

// ---------------------------------------------------------------------------
// The writer

// What the writer last sent for one dictionary id.
struct DictionaryState {
  ArrayDataPtr sent;       // the dictionary as last written (whole, not the delta)
  const ArrayData* seen_in_batch = nullptr;  // per-batch: dictionary chosen for this id
};

class IpcWriter final : public RecordBatchWriter {
 public:
  IpcWriter(io::OutputStream* sink, SchemaPtr schema, IpcWriteOptions options, bool file_format,
            MetadataPtr footer_metadata)
      : sink_(sink),
        schema_(std::move(schema)),
        options_(std::move(options)),
        file_format_(file_format),
        footer_metadata_(std::move(footer_metadata)),
        body_(options_.pool, options_.max_recursion_depth),
        fbb_(1024) {}

  Status Start() {
    ALKAID_RETURN_NOT_OK(options_.Validate());
    if (sink_ == nullptr && !encoding_) return Status::Invalid("IPC writer needs an output stream");
    if (schema_ == nullptr) return Status::Invalid("IPC writer needs a schema");
    ids_ = options_.dictionary_ids ? *options_.dictionary_ids
                                   : DictionaryIds::AssignSequential(*schema_);
    if (options_.compression != CompressionType::kNone) {
      ALKAID_ASSIGN_OR_RAISE(codec_, Codec::Create(options_.compression,
                                                   options_.compression_level));
    }
    if (file_format_) {
      uint8_t header[internal::kFileHeaderSize] = {};
      std::string_view magic = internal::FileMagic(options_.dialect);
      std::memcpy(header, magic.data(), magic.size());
      ALKAID_RETURN_NOT_OK(WriteRaw(header, internal::kFileHeaderSize));
    }
    // Building the schema first reports unsupported types before id problems.
    ALKAID_RETURN_NOT_OK(internal::BuildSchemaMessage(&fbb_, *schema_, ids_, options_.dialect,
                                                      options_.max_recursion_depth));
    ALKAID_ASSIGN_OR_RAISE(dictionary_fields_, internal::CollectDictionaryFields(*schema_, ids_));
    OrderDictionariesChildrenFirst();
    ranges_scratch_.clear();
    return WriteMessage(nullptr, MessageKind::kSchema);
  }

  Status WriteRecordBatch(const RecordBatch& batch) override {
    if (closed_) return Status::Invalid("cannot write a record batch: the writer is closed");
    if (!behind_error_.ok()) return behind_error_;
    ALKAID_RETURN_NOT_OK(CheckBatch(batch));
    if (!dictionary_fields_.empty()) ALKAID_RETURN_NOT_OK(WriteDictionaries(batch));
    if (WritesBehind()) return WriteBehind(batch);

    ALKAID_RETURN_NOT_OK(LayOutColumns(batch, &body_));
    ALKAID_RETURN_NOT_OK(FinishBody());
    return WriteRecordBatchMessage(body_.meta());
  }

  Status Close() override {
    if (closed_) return Status::OK();
    closed_ = true;
    Status flushed = behind_error_.ok() ? FlushBehind() : behind_error_;
    ReleaseBehind();  // nothing of the batches is read after Close
    ALKAID_RETURN_NOT_OK(flushed);
    if (file_format_) {
      ALKAID_RETURN_NOT_OK(WriteEndOfStream());
      // The legacy 4-byte EOS would leave the footer misaligned for readers
      // that use it in place; they find it from the end, so padding is safe.
      if (position_ % 8 != 0) ALKAID_RETURN_NOT_OK(WriteRaw(kZeroBytes, 8 - position_ % 8));
      ALKAID_RETURN_NOT_OK(internal::BuildFooter(&fbb_, *schema_, ids_, options_.dialect,
                                                 dictionary_blocks_, record_blocks_,
                                                 footer_metadata_.get()));
      const int64_t footer_size = static_cast<int64_t>(fbb_.GetSize());
      if (footer_size > INT32_MAX) return Status::CapacityError("file footer exceeds 2 GiB");
      const int32_t footer_length = static_cast<int32_t>(footer_size);
      std::string_view magic = internal::FileMagic(options_.dialect);
      const io::IoSlice slices[3] = {{fbb_.GetBufferPointer(), footer_size},
                                     {&footer_length, 4},
                                     {magic.data(), static_cast<int64_t>(magic.size())}};
      return WriteSlices(slices);
    }
    if (options_.emit_eos) return WriteEndOfStream();
    return Status::OK();
  }

  WriteStats stats() const override { return stats_; }

  // --- message mode (MessageEncoder): no sink; each message is handed out
  // as an EncodedMessage instead of being framed and written ---

  // Call before Start.
  void EncodeMessages() { encoding_ = true; }
  const EncodedMessage& schema_message() const { return schema_message_; }
  // The messages for `batch` (dictionaries, then the batch) appended to
  // *out; on error *out is left as it was. An error after dictionary
  // messages were made sticks: the dictionary state now assumes a receiver
  // got messages that are dropped.
  Status EncodeBatch(const RecordBatch& batch, std::vector<EncodedMessage>* out) {
    if (!encode_error_.ok()) return encode_error_;
    const size_t before = out->size();
    owners_.Clear();
    for (const ArrayDataPtr& column : batch.columns()) {
      if (column != nullptr) owners_.AddArray(*column);
    }
    encoded_ = out;
    Status st = WriteRecordBatch(batch);
    encoded_ = nullptr;
    owners_.Clear();
    if (!st.ok()) {
      if (out->size() > before) {
        encode_error_ = st.WithContext("the encoder stopped after a failed batch");
      }
      out->resize(before);
    }
    return st;
  }

 private:
  Status CheckBatch(const RecordBatch& batch) const {
    if (batch.schema().get() != schema_.get() &&
        (batch.schema() == nullptr || !batch.schema()->Equals(*schema_))) {
      return Status::Invalid("record batch schema ",
                             batch.schema() ? batch.schema()->ToString() : "(null)",
                             " does not match the writer's schema ", schema_->ToString());
    }
    if (batch.num_columns() != schema_->num_fields()) {
      return Status::Invalid("record batch has ", batch.num_columns(), " columns, schema has ",
                             schema_->num_fields());
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      const ArrayDataPtr& column = batch.column_data(i);
      if (column == nullptr || column->length != batch.num_rows()) {
        return Status::Invalid("column ", i, " has ", column ? column->length : -1,
                               " rows, the batch has ", batch.num_rows());
      }
    }
    return Status::OK();
  }

  // Dictionaries nested in another dictionary's values must reach the reader
  // before that dictionary, so descendants are ordered before ancestors.
  void OrderDictionariesChildrenFirst() {
    std::stable_sort(dictionary_fields_.begin(), dictionary_fields_.end(),
                     [](const DictionaryField& a, const DictionaryField& b) {
                       const size_t n = std::min(a.path.size(), b.path.size());
                       for (size_t i = 0; i < n; ++i) {
                         if (a.path[i] != b.path[i]) return a.path[i] < b.path[i];
                       }
                       return a.path.size() > b.path.size();
                     });
    for (const DictionaryField& f : dictionary_fields_) states_.try_emplace(f.id);
  }

  // The array at a field path; past a dictionary the path continues in its values.
  Result<const ArrayData*> ArrayAtPath(const RecordBatch& batch, const FieldPath& path) const {
    const ArrayData* node = batch.column_data(path[0]).get();
    for (size_t i = 1; i < path.size(); ++i) {
      const ArrayData* parent = node;
      if (parent->storage_type().id() == TypeId::kDictionary) {
        parent = parent->dictionary.get();
        if (parent == nullptr) {
          return Status::Invalid("dictionary array at path ", FieldPathToString(path),
                                 " has no values");
        }
      }
      const size_t child = static_cast<size_t>(path[i]);
      if (child >= parent->child_data.size() || parent->child_data[child] == nullptr) {
        return Status::Invalid("array at path ", FieldPathToString(path), " is missing child ",
                               child);
      }
      node = parent->child_data[child].get();
    }
    return node;
  }

  Status WriteDictionaries(const RecordBatch& batch) {
    for (auto& [id, state] : states_) state.seen_in_batch = nullptr;
    for (const DictionaryField& field : dictionary_fields_) {
      ALKAID_ASSIGN_OR_RAISE(const ArrayData* array, ArrayAtPath(batch, field.path));
      const ArrayDataPtr& dictionary = array->dictionary;
      if (dictionary == nullptr) {
        return Status::Invalid("dictionary array at path ", FieldPathToString(field.path),
                               " has no dictionary values");
      }
      DictionaryState& state = states_[field.id];
      if (state.seen_in_batch != nullptr) {
        // Another field with this id already decided; both must agree.
        if (state.seen_in_batch != dictionary.get() &&
            !ArrayEquals(*state.seen_in_batch, *dictionary)) {
          return Status::Invalid("fields sharing dictionary id ", field.id,
                                 " carry different dictionaries in one batch (path ",
                                 FieldPathToString(field.path), ")");
        }
        continue;
      }
      state.seen_in_batch = dictionary.get();
      ALKAID_RETURN_NOT_OK(UpdateDictionary(field.id, dictionary, &state));
    }
    return Status::OK();
  }

  Status UpdateDictionary(int64_t id, const ArrayDataPtr& dictionary, DictionaryState* state) {
    if (state->sent == nullptr) {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, 0, false));
      state->sent = dictionary;
      return Status::OK();
    }
    const ArrayData& previous = *state->sent;
    if (state->sent == dictionary || ArrayEquals(previous, *dictionary)) {
      state->sent = dictionary;  // cheaper pointer check next time
      return Status::OK();
    }
    const bool extends = dictionary->length > previous.length &&
                         ArrayEquals(previous, *dictionary->Slice(0, previous.length));
    if (extends && options_.emit_dictionary_deltas) {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, previous.length, true));
      ++stats_.num_dictionary_deltas;
    } else if (file_format_) {
      return Status::Invalid("dictionary replacement is not allowed in the IPC file format "
                             "(dictionary id ", id, " changed to values that do not extend "
                             "the ones already written",
                             extends ? ", and dictionary deltas are disabled" : "", ")");
    } else {
      ALKAID_RETURN_NOT_OK(WriteDictionaryBatch(id, *dictionary, 0, false));
      ++stats_.num_replaced_dictionaries;
    }
    state->sent = dictionary;
    return Status::OK();
  }

  // Writes values [from, length) of `dictionary` as a dictionary batch.
  Status WriteDictionaryBatch(int64_t id, const ArrayData& dictionary, int64_t from,
                              bool is_delta) {
    // The batch written behind used the dictionary as it was: it goes first.
    ALKAID_RETURN_NOT_OK(FlushBehind());
    body_.Reset();
    ALKAID_RETURN_NOT_OK(body_.AppendColumn(dictionary, from, dictionary.length - from, 0)
                             .WithContext("dictionary " + std::to_string(id)));
    body_.meta().length = dictionary.length - from;
    ALKAID_RETURN_NOT_OK(FinishBody());
    dictionary_meta_.id = id;
    dictionary_meta_.is_delta = is_delta;
    std::swap(dictionary_meta_.data, body_.meta());
    internal::BuildDictionaryBatchMessage(&fbb_, dictionary_meta_, body_length_);
    std::swap(dictionary_meta_.data, body_.meta());
    FileBlock block;
    ALKAID_RETURN_NOT_OK(WriteMessage(&block, MessageKind::kDictionaryBatch));
    if (file_format_) dictionary_blocks_.push_back(block);
    ++stats_.num_dictionary_batches;
    return Status::OK();
  }

  // Compresses (if asked) and lays out the body: buffer offsets, padding,
  // total length. Leaves the gather list in ranges_scratch_.
  Status FinishBody() {
    if (codec_ == nullptr) {
      LayOutBody(body_.ranges(), &body_.meta());
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(CompressBodyBuffers(*codec_, body_.ranges(), &compressed_,
                                             Parallel(), options_.pool));
    LayOutCompressedBody(compressed_, &body_.meta());
    return Status::OK();
  }

  // The batch's columns into `body` (reset first), and its length.
  static Status LayOutColumns(const RecordBatch& batch, BodyBuilder* body) {
    body->Reset();
    for (int i = 0; i < batch.num_columns(); ++i) {
      const ArrayData& column = *batch.column_data(i);
      ALKAID_RETURN_NOT_OK(body->AppendColumn(column, 0, column.length, i));
    }
    body->meta().length = batch.num_rows();
    return Status::OK();
  }

  // The record batch message for `meta` with the body laid out last.
  Status WriteRecordBatchMessage(const RecordBatchMeta& meta) {
    internal::BuildRecordBatchMessage(&fbb_, meta, body_length_);
    FileBlock block;
    ALKAID_RETURN_NOT_OK(WriteMessage(&block, MessageKind::kRecordBatch));
    if (file_format_) record_blocks_.push_back(block);
    ++stats_.num_record_batches;
    return Status::OK();
  }

  ParallelOptions Parallel() const {
    ParallelOptions parallel;
    parallel.use_threads = options_.use_threads;
    parallel.num_threads = options_.num_threads;
    return parallel;
  }

  void LayOutCompressedBody(const std::vector<std::shared_ptr<ResizableBuffer>>& compressed,
                            RecordBatchMeta* meta) {
    compressed_ranges_.clear();
    for (const auto& b : compressed) compressed_ranges_.push_back({b->data(), b->size()});
    meta->compression = options_.compression;
    LayOutBody(compressed_ranges_, meta);
  }

  // Write-behind (IpcWriteOptions::write_behind): a batch laid out, its
  // compression started, and the arrays it points into kept alive until it
  // is written. Two alternate: one being compressed while the other is
  // written.
  struct Behind {
    Behind(MemoryPool* pool, int max_depth) : body(pool, max_depth) {}
    BodyBuilder body;
    std::vector<std::shared_ptr<ResizableBuffer>> compressed;
    ArrayDataVector columns;
    int64_t index = 0;  // batch number, for error messages
    bool pending = false;
    BodyCompression compression;  // last member: finished before the rest goes away
  };

  bool WritesBehind() const {
    return options_.write_behind && options_.use_threads && codec_ != nullptr && !encoding_;
  }

  Status WriteBehind(const RecordBatch& batch) {
    std::unique_ptr<Behind>& slot = behind_[next_behind_];
    if (slot == nullptr) slot = std::make_unique<Behind>(options_.pool, options_.max_recursion_depth);
    Behind& b = *slot;
    // A pool thread that lost its race on this slot's last batch may still
    // be reading that batch's arrays through the layout about to be reused.
    b.compression.Release();
    b.columns.clear();
    ALKAID_RETURN_NOT_OK(LayOutColumns(batch, &b.body));
    b.columns = batch.columns();  // their buffers stay alive until written
    b.index = batches_started_++;
    ALKAID_RETURN_NOT_OK(
        b.compression.Start(*codec_, b.body.ranges(), &b.compressed, Parallel(), options_.pool));
    b.pending = true;
    next_behind_ ^= 1;
    // The other slot holds the previous batch: written now, while pool
    // threads compress this one.
    return WriteBehindSlot(behind_[next_behind_].get());
  }

  // Writes every batch still behind, oldest first.
  Status FlushBehind() {
    for (int k = 0; k < 2; ++k) {
      ALKAID_RETURN_NOT_OK(WriteBehindSlot(behind_[(next_behind_ + k) % 2].get()));
    }
    return Status::OK();
  }

  // Waits for pool threads still reading batches already written (see
  // WriteBehindSlot) and lets go of those batches.
  void ReleaseBehind() {
    for (auto& b : behind_) {
      if (b == nullptr) continue;
      b->compression.Release();
      if (!b->pending) b->columns.clear();
    }
  }

  Status WriteBehindSlot(Behind* b) {
    if (b == nullptr || !b->pending) return Status::OK();
    b->pending = false;
    // Results only: waiting here for a pool thread that lost a race and was
    // preempted before noticing would stall the writer on a busy machine.
    Status st = b->compression.FinishResults();
    if (st.ok()) {
      LayOutCompressedBody(b->compressed, &b->body.meta());
      st = WriteRecordBatchMessage(b->body.meta());
    }
    // The arrays stay referenced while such a thread may still read them
    // (until this slot is used again, or Close).
    if (!b->compression.lingering()) b->columns.clear();
    if (!st.ok()) behind_error_ = st.WithContext("record batch " + std::to_string(b->index));
    return behind_error_;
  }

  // Buffer offsets, padding and total length of a body made of `ranges`;
  // leaves the gather list in ranges_scratch_.
  void LayOutBody(const std::vector<ByteRange>& ranges, RecordBatchMeta* meta) {
    const int64_t alignment = options_.alignment;
    meta->buffers.resize(ranges.size());
    ranges_scratch_.clear();
    int64_t position = 0;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const ByteRange& r = ranges[i];
      meta->buffers[i] = BufferMeta{position, r.size};
      const int64_t padding = (alignment - r.size % alignment) % alignment;
      if (r.size > 0) ranges_scratch_.push_back(io::IoSlice{r.data, r.size});
      if (padding > 0) ranges_scratch_.push_back(io::IoSlice{kZeroBytes, padding});
      position += r.size + padding;
    }
    body_length_ = position;
  }

  // Frames the message in fbb_ and writes it with the body in
  // ranges_scratch_ (pass an empty list for bodiless messages).
  Status WriteMessage(FileBlock* block, MessageKind kind) {
    const int64_t fb_size = static_cast<int64_t>(fbb_.GetSize());
    const internal::FramedMetadata framed = internal::FrameMetadata(
        fb_size, options_.write_legacy_format, options_.alignment);
    if (framed.total - framed.prefix_size > INT32_MAX) {
      return Status::CapacityError("message metadata of ", fb_size, " bytes exceeds 2 GiB");
    }
    if (encoding_) return EncodeMessage(framed.total, block != nullptr, kind);
    if (block != nullptr) {
      block->offset = position_;
      block->metadata_length = static_cast<int32_t>(framed.total);
      block->body_length = body_length_;
    }
    slices_.clear();
    slices_.push_back({framed.prefix, framed.prefix_size});
    slices_.push_back({fbb_.GetBufferPointer(), fb_size});
    if (framed.padding > 0) slices_.push_back({kZeroBytes, framed.padding});
    if (block != nullptr) slices_.insert(slices_.end(), ranges_scratch_.begin(), ranges_scratch_.end());
    ALKAID_RETURN_NOT_OK(WriteSlices(slices_));
    ++stats_.num_messages;
    return Status::OK();
  }

  // Message mode's WriteMessage: the message in fbb_ with the body in
  // ranges_scratch_ (when `has_body`) as an EncodedMessage sharing the
  // body's memory. Counted as the framed bytes a stream would hold.
  Status EncodeMessage(int64_t framed_size, bool has_body, MessageKind kind) {
    std::span<const io::IoSlice> body;
    if (has_body) {
      owners_.Add(body_.temporaries());
      owners_.Add(compressed_);
      body = ranges_scratch_;
    }
    ALKAID_ASSIGN_OR_RAISE(
        EncodedMessage message,
        internal::MakeEncodedMessage(kind, fbb_.GetBufferPointer(),
                                     static_cast<int64_t>(fbb_.GetSize()), body, &owners_,
                                     options_.pool));
    position_ += framed_size + (has_body ? body_length_ : 0);
    stats_.bytes_written = position_;
    ++stats_.num_messages;
    if (kind == MessageKind::kSchema) {
      schema_message_ = std::move(message);
    } else {
      encoded_->push_back(std::move(message));
    }
    return Status::OK();
  }

  Status WriteEndOfStream() {
    static constexpr uint8_t kEos[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0};
    return options_.write_legacy_format ? WriteRaw(kEos + 4, 4) : WriteRaw(kEos, 8);
  }

  Status WriteRaw(const void* data, int64_t size) {
    ALKAID_RETURN_NOT_OK(sink_->Write(data, size));
    position_ += size;
    stats_.bytes_written = position_;
    return Status::OK();
  }

  Status WriteSlices(std::span<const io::IoSlice> slices) {
    ALKAID_RETURN_NOT_OK(sink_->WriteV(slices));
    for (const io::IoSlice& s : slices) position_ += s.size;
    stats_.bytes_written = position_;
    return Status::OK();
  }

  io::OutputStream* sink_;
  SchemaPtr schema_;
  IpcWriteOptions options_;
  bool file_format_;
  MetadataPtr footer_metadata_;

  DictionaryIds ids_;
  std::vector<DictionaryField> dictionary_fields_;
  std::map<int64_t, DictionaryState> states_;
  std::unique_ptr<Codec> codec_;

  // Reused from message to message so a batch costs no fresh allocations.
  BodyBuilder body_;
  flatbuffers::FlatBufferBuilder fbb_;
  DictionaryBatchMeta dictionary_meta_;
  // Compression output, overwritten batch after batch (its capacity is kept
  // for the writer's lifetime: about one uncompressed batch body).
  std::vector<std::shared_ptr<ResizableBuffer>> compressed_;
  std::vector<ByteRange> compressed_ranges_;
  std::vector<io::IoSlice> ranges_scratch_;
  std::vector<io::IoSlice> slices_;
  int64_t body_length_ = 0;

  // Write-behind state (see Behind); the slots are destroyed first, which
  // waits for compression still running on the pool.
  std::unique_ptr<Behind> behind_[2];
  int next_behind_ = 0;
  int64_t batches_started_ = 0;
  Status behind_error_;

  int64_t position_ = 0;  // bytes written since the writer started
  std::vector<FileBlock> dictionary_blocks_;
  std::vector<FileBlock> record_blocks_;
  WriteStats stats_;
  bool closed_ = false;

  // Message mode (see EncodeMessages).
  bool encoding_ = false;
  EncodedMessage schema_message_;
  std::vector<EncodedMessage>* encoded_ = nullptr;
  Status encode_error_;
  internal::BodyOwners owners_;
};

// MessageEncoder: the writer in message mode.
class MessageEncoderImpl final : public MessageEncoder {
 public:
  explicit MessageEncoderImpl(std::unique_ptr<IpcWriter> writer) : writer_(std::move(writer)) {}
  Result<EncodedMessage> EncodeSchema() override { return writer_->schema_message(); }
  Status EncodeBatch(const RecordBatch& batch, std::vector<EncodedMessage>* out) override {
    if (out == nullptr) {
      return Status::Invalid("MessageEncoder::EncodeBatch needs an output vector");
    }
    return writer_->EncodeBatch(batch, out);
  }
  WriteStats stats() const override { return writer_->stats(); }

 private:
  std::unique_ptr<IpcWriter> writer_;
};

Result<std::unique_ptr<RecordBatchWriter>> MakeWriter(io::OutputStream* sink, SchemaPtr schema,
                                                      const IpcWriteOptions& options, bool file,
                                                      MetadataPtr footer_metadata) {
  auto writer = std::make_unique<IpcWriter>(sink, std::move(schema), options, file,
                                            std::move(footer_metadata));
  ALKAID_RETURN_NOT_OK(writer->Start());
  return std::unique_ptr<RecordBatchWriter>(std::move(writer));
}

Status WriteAllTo(io::OutputStream* sink, const SchemaPtr& schema,
                  const std::vector<RecordBatchPtr>& batches, const IpcWriteOptions& options,
                  bool file, MetadataPtr footer_metadata) {
  ALKAID_ASSIGN_OR_RAISE(auto writer,
                         MakeWriter(sink, schema, options, file, std::move(footer_metadata)));
  for (const RecordBatchPtr& batch : batches) {
    if (batch == nullptr) return Status::Invalid("null record batch");
    ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  }
  return writer->Close();
}

Result<BufferPtr> SerializeAll(const SchemaPtr& schema, const std::vector<RecordBatchPtr>& batches,
                               const IpcWriteOptions& options, bool file,
                               MetadataPtr footer_metadata) {
  // Without compression the output size follows from the metadata alone, so a
  // counting pass (no body bytes are touched) lets the body be copied exactly
  // once into a buffer of the right size, instead of again on every doubling.
  int64_t capacity = 4096;
  if (options.compression == CompressionType::kNone) {
    io::MockOutputStream counter;
    ALKAID_RETURN_NOT_OK(WriteAllTo(&counter, schema, batches, options, file, footer_metadata));
    ALKAID_ASSIGN_OR_RAISE(capacity, counter.Tell());
  }
  ALKAID_ASSIGN_OR_RAISE(auto sink, io::BufferOutputStream::Create(capacity, options.pool));
  ALKAID_RETURN_NOT_OK(WriteAllTo(sink.get(), schema, batches, options, file, std::move(footer_metadata)));
  return sink->Finish();
}

}  // namespace

Result<std::unique_ptr<MessageEncoder>> MessageEncoder::Make(SchemaPtr schema,
                                                            const IpcWriteOptions& options) {
  auto writer = std::make_unique<IpcWriter>(nullptr, std::move(schema), options, false, nullptr);
  writer->EncodeMessages();
  ALKAID_RETURN_NOT_OK(writer->Start());
  return std::unique_ptr<MessageEncoder>(std::make_unique<MessageEncoderImpl>(std::move(writer)));
}

Status IpcWriteOptions::Validate() const {
  if (alignment != 8 && alignment != 64) {
    return Status::Invalid("IPC alignment must be 8 or 64, got ", alignment);
  }
  if (num_threads < 0) return Status::Invalid("num_threads must be >= 0, got ", num_threads);
  if (max_recursion_depth < 1) {
    return Status::Invalid("max_recursion_depth must be >= 1, got ", max_recursion_depth);
  }
  if (pool == nullptr) return Status::Invalid("IPC write options need a memory pool");
  if (compression != CompressionType::kNone) {
    ALKAID_RETURN_NOT_OK(Codec::Create(compression, compression_level).status());
  }
  return Status::OK();
}

Status RecordBatchWriter::WriteTable(const Table& table) {
  const int n = table.num_columns();
  std::vector<int> chunk(static_cast<size_t>(n), 0);
  std::vector<int64_t> within(static_cast<size_t>(n), 0);
  int64_t written = 0;
  while (written < table.num_rows()) {
    // The next batch ends at the nearest chunk boundary of any column.
    int64_t length = table.num_rows() - written;
    for (int c = 0; c < n; ++c) {
      const ChunkedArray& column = *table.column(c);
      while (chunk[c] < column.num_chunks() &&
             within[c] >= column.chunks()[static_cast<size_t>(chunk[c])]->length) {
        ++chunk[c];
        within[c] = 0;
      }
      if (chunk[c] >= column.num_chunks()) {
        return Status::Invalid("table column ", c, " has fewer rows than the table");
      }
      length = std::min(length, column.chunks()[static_cast<size_t>(chunk[c])]->length - within[c]);
    }
    ArrayDataVector columns;
    columns.reserve(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
      const ArrayDataPtr& data = table.column(c)->chunks()[static_cast<size_t>(chunk[c])];
      columns.push_back(within[c] == 0 && length == data->length ? data
                                                                : data->Slice(within[c], length));
      within[c] += length;
    }
    ALKAID_RETURN_NOT_OK(WriteRecordBatch(RecordBatch(table.schema(), length, std::move(columns))));
    written += length;
  }
  return Status::OK();
}

Result<std::unique_ptr<RecordBatchWriter>> MakeStreamWriter(io::OutputStream* sink,
                                                            SchemaPtr schema,
                                                            const IpcWriteOptions& options) {
  return MakeWriter(sink, std::move(schema), options, /*file=*/false, nullptr);
}

Result<std::unique_ptr<RecordBatchWriter>> MakeFileWriter(io::OutputStream* sink,
                                                          SchemaPtr schema,
                                                          const IpcWriteOptions& options,
                                                          MetadataPtr footer_metadata) {
  return MakeWriter(sink, std::move(schema), options, /*file=*/true, std::move(footer_metadata));
}

Result<BufferPtr> SerializeStream(const SchemaPtr& schema,
                                  const std::vector<RecordBatchPtr>& batches,
                                  const IpcWriteOptions& options) {
  return SerializeAll(schema, batches, options, /*file=*/false, nullptr);
}

Result<BufferPtr> SerializeFile(const SchemaPtr& schema, const std::vector<RecordBatchPtr>& batches,
                                const IpcWriteOptions& options, MetadataPtr footer_metadata) {
  return SerializeAll(schema, batches, options, /*file=*/true, std::move(footer_metadata));
}

Result<BufferPtr> SerializeSchema(const Schema& schema, const IpcWriteOptions& options) {
  ALKAID_RETURN_NOT_OK(options.Validate());
  DictionaryIds ids =
      options.dictionary_ids ? *options.dictionary_ids : DictionaryIds::AssignSequential(schema);
  flatbuffers::FlatBufferBuilder fbb(1024);
  ALKAID_RETURN_NOT_OK(internal::BuildSchemaMessage(&fbb, schema, ids, options.dialect,
                                                    options.max_recursion_depth));
  ALKAID_ASSIGN_OR_RAISE(auto sink, io::BufferOutputStream::Create(
                                        static_cast<int64_t>(fbb.GetSize()) + 72, options.pool));
  ALKAID_RETURN_NOT_OK(internal::WriteFramedMetadata(sink.get(), fbb.GetBufferPointer(),
                                                     static_cast<int64_t>(fbb.GetSize()),
                                                     options.write_legacy_format,
                                                     options.alignment)
                           .status());
  return sink->Finish();
}

}  // namespace alkaid::ipc
