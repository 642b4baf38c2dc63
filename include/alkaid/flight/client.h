/// @file
/// Flight client: connect to a location, call the RPCs, read and write data
/// streams.
///
///   ALKAID_ASSIGN_OR_RAISE(auto client, FlightClient::Connect(
///       Location::ForGrpcTcp("127.0.0.1", port)));
///   ALKAID_ASSIGN_OR_RAISE(auto info, client->GetFlightInfo(FlightDescriptor::Path({"t"})));
///   ALKAID_ASSIGN_OR_RAISE(auto stream, client->DoGet(info.endpoints[0].ticket));
///   ALKAID_ASSIGN_OR_RAISE(auto table, stream->ToTable());
///
/// Everything a server sends is untrusted: data messages go through the IPC
/// verifier and validation, memory is bounded by the call's read options'
/// budget, message sizes by ClientOptions, error text by
/// ClientOptions::max_error_text_bytes.
///
/// Threads: a FlightClient may be used from several threads at once (calls are
/// independent). A stream reader or writer belongs to one thread, except that
/// Cancel() and a CallOptions StopSource may be used from any thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/flight/options.h"
#include "alkaid/flight/server.h"
#include "alkaid/flight/types.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::flight {

/// Reads a data stream from the server: DoGet's answer, DoExchange's answer.
class ALKAID_EXPORT FlightStreamReader {
 public:
  virtual ~FlightStreamReader() = default;
  /// The schema, waiting for the first message if needed.
  virtual Result<SchemaPtr> GetSchema() = 0;
  /// The next chunk; nullopt when the server ended the stream with OK. Errors:
  /// the server's status, a message that does not decode, a limit hit.
  virtual Result<std::optional<FlightStreamChunk>> Next() = 0;
  /// Reads every remaining batch (app metadata is dropped).
  Result<TablePtr> ToTable();
  /// Ends the call early from any thread; Next then returns an error.
  virtual void Cancel() = 0;
};

/// Reads the PutResult messages of a DoPut.
class ALKAID_EXPORT FlightMetadataReader {
 public:
  virtual ~FlightMetadataReader() = default;
  /// The next PutResult's metadata; nullopt when the server has finished.
  virtual Result<std::optional<std::string>> Read() = 0;
};

/// The client's side of a DoPut or DoExchange upload. Ends with DoneWriting
/// (half close: the server sees a clean end and may commit) and Close (waits
/// for the server's final status). Destroying it without DoneWriting cancels
/// the call, so the server keeps nothing.
class ALKAID_EXPORT FlightStreamWriter : public FlightMessageWriter {
 public:
  /// Half-closes the upload: the server sees a clean end of data.
  virtual Status DoneWriting() = 0;
  /// Waits for the server's final status and returns it.
  virtual Status Close() = 0;
  /// Cancels the call; the server keeps nothing.
  virtual void Cancel() = 0;
};

/// A DoPut call: write data, read the server's PutResults.
struct ALKAID_EXPORT DoPutCall {
  /// Sends the data.
  std::unique_ptr<FlightStreamWriter> writer;
  /// Reads the server's PutResult metadata.
  std::unique_ptr<FlightMetadataReader> reader;
};

/// A DoExchange call: data both ways.
struct ALKAID_EXPORT DoExchangeCall {
  /// Sends data to the server.
  std::unique_ptr<FlightStreamWriter> writer;
  /// Reads the server's data.
  std::unique_ptr<FlightStreamReader> reader;
};

/// A connection (gRPC channel) to one Flight server.
class ALKAID_EXPORT FlightClient {
 public:
  ~FlightClient();
  FlightClient(const FlightClient&) = delete;
  FlightClient& operator=(const FlightClient&) = delete;

  /// Opens a channel to `location` (grpc://, grpc+tcp://, grpc+tls://,
  /// grpc+unix://). Connection happens lazily: an unreachable server shows up
  /// as Unavailable on the first call.
  static Result<std::unique_ptr<FlightClient>> Connect(const Location& location,
                                                       const ClientOptions& options = {});

  /// Basic authentication: a Handshake with user and password; the bearer
  /// token the server answers is sent with every later call of this client.
  Status AuthenticateBasic(std::string_view user, std::string_view password,
                           const CallOptions& options = {});
  /// A custom Handshake: sends `payloads`, returns what the server answered.
  Result<std::vector<std::string>> Handshake(const std::vector<std::string>& payloads,
                                             const CallOptions& options = {});

  /// Flights the server lists for `criteria` (empty: all).
  Result<std::vector<FlightInfo>> ListFlights(const Criteria& criteria = {},
                                              const CallOptions& options = {});
  /// How to fetch the data `descriptor` names.
  Result<FlightInfo> GetFlightInfo(const FlightDescriptor& descriptor,
                                   const CallOptions& options = {});
  /// Starts or polls a long-running query for `descriptor`.
  Result<PollInfo> PollFlightInfo(const FlightDescriptor& descriptor,
                                  const CallOptions& options = {});
  /// The schema of the data `descriptor` names.
  Result<SchemaResult> GetSchema(const FlightDescriptor& descriptor,
                                 const CallOptions& options = {});
  /// Streams the data `ticket` names.
  Result<std::unique_ptr<FlightStreamReader>> DoGet(const Ticket& ticket,
                                                    const CallOptions& options = {});
  /// Starts an upload of `schema` under `descriptor` (sent with the first message).
  Result<DoPutCall> DoPut(const FlightDescriptor& descriptor, const SchemaPtr& schema,
                          const CallOptions& options = {});
  /// Starts a bidirectional data exchange under `descriptor`.
  Result<DoExchangeCall> DoExchange(const FlightDescriptor& descriptor,
                                    const CallOptions& options = {});
  /// Runs `action`; returns all its results.
  Result<std::vector<ActionResult>> DoAction(const Action& action,
                                             const CallOptions& options = {});
  /// The actions the server supports.
  Result<std::vector<ActionType>> ListActions(const CallOptions& options = {});

  // Well-known actions.
  /// Cancels a flight's running query.
  Result<CancelFlightInfoResult> CancelFlightInfo(const CancelFlightInfoRequest& request,
                                                  const CallOptions& options = {});
  /// Extends an endpoint's expiration time; returns the renewed endpoint.
  Result<FlightEndpoint> RenewFlightEndpoint(const RenewFlightEndpointRequest& request,
                                             const CallOptions& options = {});
  /// Sets session options; the result lists per-option errors.
  Result<SetSessionOptionsResult> SetSessionOptions(const SetSessionOptionsRequest& request,
                                                    const CallOptions& options = {});
  /// The session's current options.
  Result<GetSessionOptionsResult> GetSessionOptions(const CallOptions& options = {});
  /// Ends the session on the server.
  Result<CloseSessionStatus> CloseSession(const CallOptions& options = {});

  /// Closes the channel; calls still running fail. Called by the destructor.
  Status Close();

 private:
  class Impl;
  explicit FlightClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace alkaid::flight
