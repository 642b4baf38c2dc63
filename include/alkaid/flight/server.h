/// @file
/// Flight server: derive from FlightServerBase, override the RPCs you serve
/// (the others answer NotImplemented), then Init and Serve.
///
///   class MyServer : public alkaid::flight::FlightServerBase {
///     Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext& ctx,
///                                                     const Ticket& ticket) override;
///   };
///   MyServer server;
///   ALKAID_RETURN_NOT_OK(server.Init({.location = "grpc://127.0.0.1:0"}));
///   int port = server.port();
///   ALKAID_RETURN_NOT_OK(server.Serve());  // until Shutdown() from another thread
///
/// Data: DoGet answers with a FlightDataStream whose record batches are sent
/// without copying their buffers; DoPut and DoExchange read batches through a
/// FlightMessageReader that verifies and validates everything a client sends
/// and bounds its memory (ServerOptions::read_options).
///
/// Errors a handler returns reach the client with their code and message
/// (message cut to ServerOptions::max_error_text_bytes); FlightError codes map
/// to the matching gRPC codes.
///
/// Threads: gRPC calls the handlers from its threads, many calls at once: an
/// override must be thread-safe. Each reader, writer and context belongs to
/// its call and is used from the handler's thread only. Shutdown may be
/// called from any thread (also from a handler).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/memory.h"
#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"
#include "alkaid/flight/types.h"
#include "alkaid/record_batch_reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::flight {

/// One message of a data stream as an application sees it: a record batch,
/// application metadata, or both. In a metadata-only message `batch` is null.
struct ALKAID_EXPORT FlightStreamChunk {
  /// The record batch; null for a metadata-only message.
  RecordBatchPtr batch;
  BufferPtr app_metadata;  ///< null when the message carried none
};

/// What a server handler learns about its call.
class ALKAID_EXPORT ServerCallContext {
 public:
  virtual ~ServerCallContext() = default;
  /// The identity the auth handler gave the peer ("" without authentication).
  virtual const std::string& peer_identity() const = 0;
  /// The peer's address as gRPC names it ("ipv4:127.0.0.1:5000", ...).
  virtual const std::string& peer() const = 0;
  /// True once the client cancelled, disconnected or passed its deadline; a
  /// long handler should check it and stop.
  virtual bool is_cancelled() const = 0;
  /// The headers the client sent with the call.
  virtual const CallHeaders& incoming_headers() const = 0;
  /// The call's middleware registered under `name` (ServerOptions::middleware), or null.
  virtual ServerMiddleware* GetMiddleware(std::string_view name) const = 0;
};

/// Source of a DoGet answer. The server asks for the schema once, then for
/// chunks until nullopt; dictionaries are sent as the batches need them.
class ALKAID_EXPORT FlightDataStream {
 public:
  virtual ~FlightDataStream() = default;
  /// The schema of every batch the stream yields.
  virtual SchemaPtr schema() const = 0;
  /// The next chunk; nullopt at the end. An error ends the call with it.
  virtual Result<std::optional<FlightStreamChunk>> Next() = 0;
};

/// A FlightDataStream over a record batch reader (the batches of a table, an
/// IPC file, a CSV reader, ...).
ALKAID_EXPORT std::unique_ptr<FlightDataStream> MakeRecordBatchStream(RecordBatchReaderPtr reader);

/// Reads what a client sends in DoPut or DoExchange.
class ALKAID_EXPORT FlightMessageReader {
 public:
  virtual ~FlightMessageReader() = default;
  /// The descriptor of the stream's first message.
  virtual const FlightDescriptor& descriptor() const = 0;
  /// The schema, waiting for the schema message if it has not arrived yet.
  /// Error when the stream ended or failed first.
  virtual Result<SchemaPtr> GetSchema() = 0;
  /// The next chunk; nullopt when the client finished sending cleanly (half
  /// close). An error when the client cancelled, disconnected or sent a
  /// message that does not decode: a DoPut handler that sees an error must
  /// keep nothing of the upload.
  virtual Result<std::optional<FlightStreamChunk>> Next() = 0;
  /// Reads every remaining batch (app metadata is dropped).
  Result<TablePtr> ToTable();
};

/// Sends PutResult messages to a DoPut client while the upload runs.
class ALKAID_EXPORT FlightMetadataWriter {
 public:
  virtual ~FlightMetadataWriter() = default;
  /// Sends one PutResult carrying `app_metadata` to the client.
  virtual Status WriteMetadata(std::string_view app_metadata) = 0;
};

/// Writes a data stream: DoExchange's answer (server) and DoPut/DoExchange
/// uploads (client). Begin sends the schema; then batches, with or without
/// metadata, or metadata alone. Record batch buffers are sent without copying.
class ALKAID_EXPORT FlightMessageWriter {
 public:
  virtual ~FlightMessageWriter() = default;
  /// Sends the schema; call once, before any batch.
  virtual Status Begin(const SchemaPtr& schema) = 0;
  /// Sends one batch; its schema must equal the one given to Begin.
  virtual Status WriteRecordBatch(const RecordBatch& batch) = 0;
  /// Sends one batch with application metadata attached.
  virtual Status WriteWithMetadata(const RecordBatch& batch, std::string_view app_metadata) = 0;
  /// Sends application metadata with no batch.
  virtual Status WriteMetadata(std::string_view app_metadata) = 0;
  /// Writes every batch of a table (no metadata). Begins the stream if needed.
  Status WriteTable(const Table& table, int64_t max_chunk_rows = -1);
};

/// Base of every Flight server. Each RPC's default answers NotImplemented
/// naming the RPC; ListActions' default answers an empty list (override it
/// to advertise actions, e.g. the ActionType constants of the well-known
/// actions a subclass serves). Call Shutdown before the subclass is
/// destroyed: the base's destructor cancels calls still running, but by then
/// the overrides are gone.
class ALKAID_EXPORT FlightServerBase {
 public:
  FlightServerBase();
  virtual ~FlightServerBase();
  FlightServerBase(const FlightServerBase&) = delete;
  FlightServerBase& operator=(const FlightServerBase&) = delete;

  /// Binds and starts listening. Errors when the location does not parse, the
  /// address cannot be bound, or TLS material is missing or invalid.
  Status Init(const ServerOptions& options);
  /// The bound port (the real one when Init asked for port 0); 0 for Unix sockets.
  int port() const;
  /// A URI clients can connect to (the bound port filled in).
  Location location() const;
  /// Blocks until Shutdown. Calls are served from Init on, Serve or not.
  Status Serve();
  /// Stops accepting calls, lets running calls finish until `deadline`, then
  /// cancels them. Safe from any thread; later calls do nothing.
  Status Shutdown(std::optional<std::chrono::system_clock::time_point> deadline = std::nullopt);

  // ---- RPCs; override the ones this server serves. ----
  /// Receives each FlightInfo a listing produces; an error stops the listing.
  using FlightInfoSink = std::function<Status(const FlightInfo&)>;
  /// Receives each result an action produces; an error stops the action.
  using ActionResultSink = std::function<Status(const ActionResult&)>;

  /// Calls `emit` once per flight; stop when it returns an error (client gone).
  virtual Status ListFlights(const ServerCallContext& context, const Criteria& criteria,
                             const FlightInfoSink& emit);
  /// Answers GetFlightInfo; the default is NotImplemented.
  virtual Result<FlightInfo> GetFlightInfo(const ServerCallContext& context,
                                           const FlightDescriptor& descriptor);
  /// Answers PollFlightInfo; the default is NotImplemented.
  virtual Result<PollInfo> PollFlightInfo(const ServerCallContext& context,
                                          const FlightDescriptor& descriptor);
  /// Answers GetSchema; the default is NotImplemented.
  virtual Result<SchemaResult> GetSchema(const ServerCallContext& context,
                                         const FlightDescriptor& descriptor);
  /// Answers DoGet with the stream to send; the default is NotImplemented.
  virtual Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext& context,
                                                          const Ticket& ticket);
  /// Receives a DoPut upload; the default is NotImplemented.
  virtual Status DoPut(const ServerCallContext& context, FlightMessageReader& reader,
                       FlightMetadataWriter& writer);
  /// Serves a DoExchange; the default is NotImplemented.
  virtual Status DoExchange(const ServerCallContext& context, FlightMessageReader& reader,
                            FlightMessageWriter& writer);
  /// Any action not handled below. Calls `emit` once per result.
  virtual Status DoAction(const ServerCallContext& context, const Action& action,
                          const ActionResultSink& emit);
  /// The actions DoAction accepts; the default lists none.
  virtual Result<std::vector<ActionType>> ListActions(const ServerCallContext& context);

  // Well-known actions: DoAction with these types decodes the body and calls these.
  /// Serves the CancelFlightInfo action; the default is NotImplemented.
  virtual Result<CancelFlightInfoResult> CancelFlightInfo(const ServerCallContext& context,
                                                          const CancelFlightInfoRequest& request);
  /// Serves the RenewFlightEndpoint action; the default is NotImplemented.
  virtual Result<FlightEndpoint> RenewFlightEndpoint(const ServerCallContext& context,
                                                     const RenewFlightEndpointRequest& request);
  /// Serves the SetSessionOptions action; the default is NotImplemented.
  virtual Result<SetSessionOptionsResult> SetSessionOptions(
      const ServerCallContext& context, const SetSessionOptionsRequest& request);
  /// Serves the GetSessionOptions action; the default is NotImplemented.
  virtual Result<GetSessionOptionsResult> GetSessionOptions(const ServerCallContext& context);
  /// Serves the CloseSession action; the default is NotImplemented.
  virtual Result<CloseSessionStatus> CloseSession(const ServerCallContext& context);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace alkaid::flight
