// Record batches <-> FlightData messages, and the helpers of server.h built on them.
#include "data_stream.h"

#include <algorithm>
#include <deque>

#include "../array/table_slices.h"

namespace alkaid::flight::data {

namespace {

BufferPtr MetadataBuffer(std::string_view app_metadata) {
  return Buffer::FromString(std::string(app_metadata));
}

}  // namespace

Encoder::Encoder(SendFn send, ipc::IpcWriteOptions options,
                 std::optional<std::string> descriptor, std::function<Status()> gone)
    : send_(std::move(send)),
      options_(std::move(options)),
      descriptor_(std::move(descriptor)),
      gone_(std::move(gone)) {}

Status Encoder::Send(wire::FlightData data) {
  // The descriptor rides on the first message, whatever it is.
  if (descriptor_) {
    data.descriptor = std::move(descriptor_);
    descriptor_.reset();
  }
  if (!send_(data)) return gone_();
  return Status::OK();
}

Status Encoder::SendDescriptorIfPending() {
  if (!descriptor_) return Status::OK();
  return Send(wire::FlightData());
}

Status Encoder::Begin(const SchemaPtr& schema) {
  if (encoder_) return Status::Invalid("Flight: the data stream has already begun");
  if (!schema) return Status::Invalid("Flight: Begin needs a schema");
  ALKAID_ASSIGN_OR_RAISE(encoder_, ipc::MessageEncoder::Make(schema, options_));
  ALKAID_ASSIGN_OR_RAISE(auto message, encoder_->EncodeSchema());
  wire::FlightData data;
  data.data_header = std::move(message.metadata);
  data.body = std::move(message.body);
  return Send(std::move(data));
}

Status Encoder::Write(const RecordBatch& batch, const BufferPtr& app_metadata) {
  if (!encoder_) return Status::Invalid("Flight: a record batch was written before Begin");
  std::vector<ipc::EncodedMessage> messages;
  ALKAID_RETURN_NOT_OK(encoder_->EncodeBatch(batch, &messages));
  for (size_t i = 0; i < messages.size(); ++i) {
    wire::FlightData data;
    data.data_header = std::move(messages[i].metadata);
    data.body = std::move(messages[i].body);
    // Dictionaries go first; the metadata belongs to the batch, the last message.
    if (i + 1 == messages.size()) data.app_metadata = app_metadata;
    ALKAID_RETURN_NOT_OK(Send(std::move(data)));
  }
  return Status::OK();
}

Status Encoder::WriteRecordBatch(const RecordBatch& batch) { return Write(batch, nullptr); }

Status Encoder::WriteWithMetadata(const RecordBatch& batch, std::string_view app_metadata) {
  return Write(batch, MetadataBuffer(app_metadata));
}

Status Encoder::WriteMetadata(std::string_view app_metadata) {
  wire::FlightData data;
  data.app_metadata = MetadataBuffer(app_metadata);
  return Send(std::move(data));
}

Decoder::Decoder(ReceiveFn receive, EndFn end, ipc::IpcReadOptions options)
    : receive_(std::move(receive)), end_(std::move(end)), options_(std::move(options)) {}

Status Decoder::ReadFirst() {
  if (first_read_) return Status::OK();
  first_read_ = true;
  wire::FlightData first;
  if (!receive_(&first)) {
    ended_ = true;
    Status st = end_();
    if (!st.ok()) error_ = st;
    return st;
  }
  if (first.parse_status.ok() && first.descriptor) descriptor_ = first.descriptor;
  pending_ = std::move(first);
  return Status::OK();
}

Status Decoder::Pull(std::optional<FlightStreamChunk>* chunk, bool* ended) {
  wire::FlightData msg;
  if (pending_) {
    msg = std::move(*pending_);
    pending_.reset();
  } else {
    first_read_ = true;
    if (!receive_(&msg)) {
      *ended = true;
      return end_();
    }
  }
  int64_t index = messages_++;
  if (!msg.parse_status.ok()) {
    // Same kind (SerializationError, or CapacityError for a message over the limit).
    if (msg.parse_status.code() == StatusCode::kCapacityError) {
      return Status::CapacityError("Flight data message ", index, ": ",
                                   msg.parse_status.message());
    }
    return Status::SerializationError("Flight data message ", index, ": ",
                                      msg.parse_status.message());
  }
  if (!msg.data_header || msg.data_header->size() == 0) {
    // Metadata-only (or empty) message.
    if (msg.app_metadata) *chunk = FlightStreamChunk{nullptr, std::move(msg.app_metadata)};
    return Status::OK();
  }
  if (!decoder_) {
    ALKAID_ASSIGN_OR_RAISE(decoder_, ipc::MessageDecoder::Make(options_));
  }
  BufferPtr body = msg.body.empty() ? nullptr : msg.body.front();
  ALKAID_ASSIGN_OR_RAISE(auto decoded, decoder_->Consume(msg.data_header, body));
  switch (decoded.kind) {
    case ipc::MessageKind::kSchema:
      if (schema_) {
        return Status::Invalid("Flight data message ", index, " is a second schema message");
      }
      schema_ = decoded.schema;
      break;
    case ipc::MessageKind::kRecordBatch:
      *chunk = FlightStreamChunk{std::move(decoded.batch), std::move(msg.app_metadata)};
      break;
    case ipc::MessageKind::kDictionaryBatch:
      break;
  }
  return Status::OK();
}

Status Decoder::Step(std::optional<FlightStreamChunk>* chunk) {
  bool ended = false;
  Status st = Pull(chunk, &ended);
  if (!st.ok()) error_ = st;
  if (ended) ended_ = true;
  return st;
}

Result<SchemaPtr> Decoder::GetSchema() {
  while (!schema_) {
    if (!error_.ok()) return error_;
    if (ended_) return Status::Invalid("Flight: the data stream ended before its schema");
    std::optional<FlightStreamChunk> chunk;
    ALKAID_RETURN_NOT_OK(Step(&chunk));
    // Metadata that came before the schema is kept for Next.
    if (chunk) {
      if (buffered_) {
        return Status::Invalid("Flight: more than one metadata message before the schema");
      }
      buffered_ = std::move(chunk);
    }
  }
  return schema_;
}

Result<std::optional<FlightStreamChunk>> Decoder::Next() {
  if (!error_.ok()) return error_;
  if (buffered_) {
    auto out = std::move(buffered_);
    buffered_.reset();
    return out;
  }
  while (!ended_) {
    std::optional<FlightStreamChunk> chunk;
    ALKAID_RETURN_NOT_OK(Step(&chunk));
    if (chunk) return chunk;
  }
  return std::optional<FlightStreamChunk>();
}

}  // namespace alkaid::flight::data

namespace alkaid::flight {

namespace {

class RecordBatchStream final : public FlightDataStream {
 public:
  explicit RecordBatchStream(RecordBatchReaderPtr reader) : reader_(std::move(reader)) {}
  SchemaPtr schema() const override { return reader_->schema(); }
  Result<std::optional<FlightStreamChunk>> Next() override {
    ALKAID_ASSIGN_OR_RAISE(auto batch, reader_->Next());
    if (!batch) return std::optional<FlightStreamChunk>();
    return std::optional<FlightStreamChunk>(FlightStreamChunk{std::move(batch), nullptr});
  }

 private:
  RecordBatchReaderPtr reader_;
};

}  // namespace

std::unique_ptr<FlightDataStream> MakeRecordBatchStream(RecordBatchReaderPtr reader) {
  return std::make_unique<RecordBatchStream>(std::move(reader));
}

Result<TablePtr> FlightMessageReader::ToTable() {
  ALKAID_ASSIGN_OR_RAISE(auto schema, GetSchema());
  std::vector<RecordBatchPtr> batches;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, Next());
    if (!chunk) break;
    if (chunk->batch) batches.push_back(std::move(chunk->batch));
  }
  return Table::FromRecordBatches(schema, batches);
}

Status FlightMessageWriter::WriteTable(const Table& table, int64_t max_chunk_rows) {
  // Begin unless the caller already did (Begin on a begun stream says so).
  Status begun = Begin(table.schema());
  if (!begun.ok() && begun.message().find("already begun") == std::string::npos) return begun;
  // Batches never straddle a chunk boundary of any column, so every column is a slice.
  return alkaid::internal::ForEachChunkAlignedBatch(
      table, max_chunk_rows, [&](const RecordBatch& batch) { return WriteRecordBatch(batch); });
}

}  // namespace alkaid::flight
