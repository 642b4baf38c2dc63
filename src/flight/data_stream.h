// The data path shared by server and client: record batches to FlightData messages (through
// ipc::MessageEncoder, no body copy) and FlightData messages back to chunks (through
// ipc::MessageDecoder: verifier, validation, memory budget, dictionary state).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "alkaid/flight/server.h"
#include "alkaid/ipc/message.h"
#include "flight_data.h"

namespace alkaid::flight::data {

/// Sends one FlightData; returns false when the peer is gone.
using SendFn = std::function<bool(const wire::FlightData&)>;
/// Receives the next FlightData; false at the end of the stream.
using ReceiveFn = std::function<bool(wire::FlightData*)>;
/// Called when ReceiveFn returned false: OK for a clean end (half close / final status OK),
/// the error otherwise (cancelled, disconnected, the peer's error status).
using EndFn = std::function<Status()>;

/// Encodes a data stream. The first message may carry a descriptor (the client's DoPut and
/// DoExchange uploads).
class Encoder final : public FlightMessageWriter {
 public:
  Encoder(SendFn send, ipc::IpcWriteOptions options, std::optional<std::string> descriptor,
          std::function<Status()> gone);
  Status Begin(const SchemaPtr& schema) override;
  Status WriteRecordBatch(const RecordBatch& batch) override;
  Status WriteWithMetadata(const RecordBatch& batch, std::string_view app_metadata) override;
  Status WriteMetadata(std::string_view app_metadata) override;
  bool begun() const { return encoder_ != nullptr; }
  /// Sends the descriptor alone if nothing was sent yet (an upload with no schema).
  Status SendDescriptorIfPending();

 private:
  Status Send(wire::FlightData data);
  Status Write(const RecordBatch& batch, const BufferPtr& app_metadata);

  SendFn send_;
  ipc::IpcWriteOptions options_;
  std::optional<std::string> descriptor_;
  std::function<Status()> gone_;
  std::unique_ptr<ipc::MessageEncoder> encoder_;
};

/// Decodes a received data stream into chunks.
class Decoder {
 public:
  Decoder(ReceiveFn receive, EndFn end, ipc::IpcReadOptions options);
  /// Reads until the first message has arrived; its descriptor (if any) is then available.
  Status ReadFirst();
  const std::optional<std::string>& descriptor() const { return descriptor_; }
  Result<SchemaPtr> GetSchema();
  /// The next chunk; nullopt at a clean end. After an error every call returns it again.
  Result<std::optional<FlightStreamChunk>> Next();
  int64_t messages() const { return messages_; }

 private:
  // One received message decoded; sets *chunk when it completes one.
  Status Pull(std::optional<FlightStreamChunk>* chunk, bool* ended);
  // Pull, remembering an error (every later call returns it) and the end.
  Status Step(std::optional<FlightStreamChunk>* chunk);

  ReceiveFn receive_;
  EndFn end_;
  ipc::IpcReadOptions options_;
  std::unique_ptr<ipc::MessageDecoder> decoder_;
  std::optional<std::string> descriptor_;
  std::optional<wire::FlightData> pending_;  // the first message, read ahead by ReadFirst
  std::optional<FlightStreamChunk> buffered_;  // a chunk read ahead by GetSchema
  SchemaPtr schema_;
  Status error_;
  bool ended_ = false;
  bool first_read_ = false;
  int64_t messages_ = 0;
};

}  // namespace alkaid::flight::data
