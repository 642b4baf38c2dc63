/// @file
/// The values Arrow Flight exchanges besides data: descriptors, tickets,
/// locations, endpoints, flight information, actions and their results,
/// session options. Plain C++ values mirroring the messages of
/// format/Flight.proto (same names and meaning); no gRPC or protobuf type
/// appears here.
///
/// Schemas travel as encapsulated IPC schema messages (FlightInfo::schema,
/// SchemaResult::schema); FlightInfo::GetSchema decodes one.
///
/// Threads: every type here is a value. Distinct objects may be used from
/// different threads; one object must not be modified while another thread
/// reads it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::flight {

/// Wall-clock instants on the wire (google.protobuf.Timestamp), to the nanosecond.
using Timestamp = std::chrono::time_point<std::chrono::system_clock, std::chrono::nanoseconds>;

/// Names a flight: a path of strings (kPath) or an opaque command (kCmd).
struct ALKAID_EXPORT FlightDescriptor {
  /// What kind of name the descriptor holds.
  enum class Type : int8_t {
    kUnknown = 0,  ///< not set; servers refuse it
    kPath = 1,     ///< `path` names a dataset
    kCmd = 2,      ///< `cmd` asks the server to produce one
  };
  /// Which of `cmd` and `path` is meaningful.
  Type type = Type::kUnknown;
  std::string cmd;                ///< bytes, meaningful when type == kCmd
  std::vector<std::string> path;  ///< meaningful when type == kPath

  /// A kPath descriptor for `path`.
  static FlightDescriptor Path(std::vector<std::string> path);
  /// A kCmd descriptor for the command bytes `cmd`.
  static FlightDescriptor Command(std::string cmd);
  /// "path a/b" or "cmd <first 64 bytes, escaped>", for messages and logs.
  std::string ToString() const;
  /// Memberwise equality.
  bool operator==(const FlightDescriptor&) const = default;
};

/// Redeems one stream of a flight with DoGet. Opaque bytes chosen by the server.
struct ALKAID_EXPORT Ticket {
  /// The opaque bytes the server gave out.
  std::string ticket;
  /// Memberwise equality.
  bool operator==(const Ticket&) const = default;
};

/// Where a ticket can be redeemed: a URI such as grpc://host:port,
/// grpc+tls://host:port, grpc+unix:///path, or the "same server" URI
/// arrow-flight-reuse-connection://? (an empty URI means the same).
struct ALKAID_EXPORT Location {
  /// The URI as given; Parse checks it.
  std::string uri;

  /// Checks the scheme and splits host and port (or the socket path). Errors
  /// name the URI and what is wrong with it.
  static Result<Location> Parse(std::string_view uri);
  /// grpc+tcp://host:port.
  static Location ForGrpcTcp(std::string_view host, int port);
  /// grpc+tls://host:port.
  static Location ForGrpcTls(std::string_view host, int port);
  /// grpc+unix://path, for a Unix domain socket.
  static Location ForGrpcUnix(std::string_view path);
  /// The URI that means "the server that answered", arrow-flight-reuse-connection://?.
  static Location ReuseConnection();

  std::string scheme() const;  ///< "grpc", "grpc+tcp", "grpc+tls", "grpc+unix", ... ("" if none)
  /// Memberwise equality.
  bool operator==(const Location&) const = default;
};

/// One stream of a flight: a ticket and where it can be redeemed.
struct ALKAID_EXPORT FlightEndpoint {
  /// Redeems the stream with DoGet.
  Ticket ticket;
  std::vector<Location> locations;  ///< empty: redeem on the server that answered
  std::optional<Timestamp> expiration_time;  ///< set: DoGet on this ticket may be retried until then
  /// Application-defined bytes; empty when unused.
  std::string app_metadata;
  /// Memberwise equality.
  bool operator==(const FlightEndpoint&) const = default;
};

/// How to fetch a flight.
struct ALKAID_EXPORT FlightInfo {
  /// Encapsulated IPC schema message (continuation marker, length, Message
  /// flatbuffer, padding); may be empty when the server does not say.
  std::string schema;
  /// The descriptor the flight was asked for with.
  FlightDescriptor descriptor;
  std::vector<FlightEndpoint> endpoints;  ///< together they hold the whole flight
  int64_t total_records = -1;             ///< -1: not known
  int64_t total_bytes = -1;               ///< -1: not known
  bool ordered = false;                   ///< endpoints hold the data in order
  /// Application-defined bytes; empty when unused.
  std::string app_metadata;

  /// Decodes `schema` (verified like any untrusted IPC message).
  Result<SchemaPtr> GetSchema() const;
  /// Encodes `schema` into the `schema` field.
  Status SetSchema(const Schema& schema);
  /// Memberwise equality.
  bool operator==(const FlightInfo&) const = default;
};

/// Answer of PollFlightInfo, for queries that run a while.
struct ALKAID_EXPORT PollInfo {
  std::optional<FlightInfo> info;  ///< everything available so far (not a delta)
  std::optional<FlightDescriptor> descriptor;  ///< poll again with this; unset when complete
  std::optional<double> progress;              ///< in [0, 1] when known
  /// Until when the query may be polled; unset: not said.
  std::optional<Timestamp> expiration_time;
  /// Memberwise equality.
  bool operator==(const PollInfo&) const = default;
};

/// Answer of GetSchema: an encapsulated IPC schema message.
struct ALKAID_EXPORT SchemaResult {
  /// The encapsulated IPC schema message; may be empty.
  std::string schema;
  /// Decodes `schema` (verified like any untrusted IPC message).
  Result<SchemaPtr> GetSchema() const;
  /// Memberwise equality.
  bool operator==(const SchemaResult&) const = default;
};

/// Filter of ListFlights; its meaning is the server's.
struct ALKAID_EXPORT Criteria {
  /// Opaque bytes; empty: list every flight.
  std::string expression;
  /// Memberwise equality.
  bool operator==(const Criteria&) const = default;
};

/// A named server operation with an opaque body (DoAction).
struct ALKAID_EXPORT Action {
  /// The action's name, e.g. "CancelFlightInfo".
  std::string type;
  /// Opaque bytes the action interprets; may be empty.
  std::string body;
  /// Memberwise equality.
  bool operator==(const Action&) const = default;
};

/// One result of DoAction. (The protocol calls it Result; the name is taken
/// in alkaid by Result<T>.)
struct ALKAID_EXPORT ActionResult {
  /// Opaque bytes.
  std::string body;
  /// Memberwise equality.
  bool operator==(const ActionResult&) const = default;
};

/// An action a server accepts, as ListActions describes it.
struct ALKAID_EXPORT ActionType {
  /// The name DoAction takes.
  std::string type;
  /// Human-readable description; may be empty.
  std::string description;
  /// Memberwise equality.
  bool operator==(const ActionType&) const = default;

  /// The well-known actions of the protocol, which FlightServerBase answers
  /// through its own virtuals (see server.h).
  static const ActionType kCancelFlightInfo;     ///< "CancelFlightInfo"
  static const ActionType kRenewFlightEndpoint;  ///< "RenewFlightEndpoint"
  static const ActionType kSetSessionOptions;    ///< "SetSessionOptions"
  static const ActionType kGetSessionOptions;    ///< "GetSessionOptions"
  static const ActionType kCloseSession;         ///< "CloseSession"
};

/// What a DoPut server sends back, any number of times during the upload.
struct ALKAID_EXPORT PutResult {
  /// Application-defined bytes; may be empty.
  std::string app_metadata;
  /// Memberwise equality.
  bool operator==(const PutResult&) const = default;
};

/// Outcome of the CancelFlightInfo action (wire values of CancelStatus).
enum class CancelStatus : int8_t {
  kUnspecified = 0,     ///< unknown; the client may retry
  kCancelled = 1,       ///< done
  kCancelling = 2,      ///< under way; the client may retry
  kNotCancellable = 3,  ///< the client should not retry
};

/// Body of the CancelFlightInfo action.
struct ALKAID_EXPORT CancelFlightInfoRequest {
  /// The flight whose query to cancel.
  FlightInfo info;
  /// Memberwise equality.
  bool operator==(const CancelFlightInfoRequest&) const = default;
};

/// Answer of the CancelFlightInfo action.
struct ALKAID_EXPORT CancelFlightInfoResult {
  /// How the cancellation went.
  CancelStatus status = CancelStatus::kUnspecified;
  /// Memberwise equality.
  bool operator==(const CancelFlightInfoResult&) const = default;
};

/// Body of the RenewFlightEndpoint action; the answer is the renewed endpoint.
struct ALKAID_EXPORT RenewFlightEndpointRequest {
  /// The endpoint whose expiration to extend.
  FlightEndpoint endpoint;
  /// Memberwise equality.
  bool operator==(const RenewFlightEndpointRequest&) const = default;
};

/// A session option's value (experimental in the protocol). std::monostate:
/// no value, which asks the server to clear the option.
using SessionOptionValue =
    std::variant<std::monostate, std::string, bool, int64_t, double, std::vector<std::string>>;

/// Body of the SetSessionOptions action.
struct ALKAID_EXPORT SetSessionOptionsRequest {
  /// The options to set, by name; a std::monostate value clears the option.
  std::map<std::string, SessionOptionValue> options;
  /// Memberwise equality.
  bool operator==(const SetSessionOptionsRequest&) const = default;
};

/// Why one option of SetSessionOptions was not set (wire values of ErrorValue).
enum class SetSessionOptionError : int8_t {
  kUnspecified = 0,
  kInvalidName = 1,
  kInvalidValue = 2,
  kError = 3,
};

/// Answer of the SetSessionOptions action.
struct ALKAID_EXPORT SetSessionOptionsResult {
  /// Only the options that were not set; an empty map means all were.
  std::map<std::string, SetSessionOptionError> errors;
  /// Memberwise equality.
  bool operator==(const SetSessionOptionsResult&) const = default;
};

/// Answer of the GetSessionOptions action.
struct ALKAID_EXPORT GetSessionOptionsResult {
  /// The session's options, by name.
  std::map<std::string, SessionOptionValue> options;
  /// Memberwise equality.
  bool operator==(const GetSessionOptionsResult&) const = default;
};

/// Outcome of CloseSession (wire values of CloseSessionResult.Status).
enum class CloseSessionStatus : int8_t {
  kUnspecified = 0,
  kClosed = 1,
  kClosing = 2,
  kNotCloseable = 3,
};

/// Flight outcomes that alkaid's StatusCode has no name for. A Status made by
/// FlightError has code kIOError and a message starting "Flight <name>: ";
/// FlightStatusCodeOf reads it back. Servers send these as the matching gRPC
/// status codes, and clients turn received gRPC codes into them.
enum class FlightStatusCode : int8_t {
  kUnauthenticated,   ///< no or bad credentials
  kUnauthorized,      ///< known peer, not allowed (gRPC PERMISSION_DENIED)
  kUnavailable,       ///< server unreachable or shutting down
  kCancelled,         ///< cancelled by either side
  kTimedOut,          ///< deadline exceeded
  kResourceExhausted, ///< a size limit or memory budget was hit
};
/// The code's name, e.g. "Unauthenticated".
ALKAID_EXPORT const char* FlightStatusCodeName(FlightStatusCode code);
/// An IOError Status carrying `code` and `message` (see above).
ALKAID_EXPORT Status FlightError(FlightStatusCode code, std::string_view message);
/// The code FlightError put in `status`; nullopt for any other status.
ALKAID_EXPORT std::optional<FlightStatusCode> FlightStatusCodeOf(const Status& status);

/// Protobuf encoding of the values above, for action bodies and for peers that
/// want the wire form (e.g. a ticket that embeds a descriptor). Deserialize
/// treats its input as untrusted: malformed bytes give SerializationError.
ALKAID_EXPORT Result<std::string> Serialize(const FlightDescriptor& value);
/// Encodes a FlightInfo.
ALKAID_EXPORT Result<std::string> Serialize(const FlightInfo& value);
/// Encodes a FlightEndpoint.
ALKAID_EXPORT Result<std::string> Serialize(const FlightEndpoint& value);
/// Encodes a PollInfo.
ALKAID_EXPORT Result<std::string> Serialize(const PollInfo& value);
/// Encodes a CancelFlightInfoRequest.
ALKAID_EXPORT Result<std::string> Serialize(const CancelFlightInfoRequest& value);
/// Encodes a CancelFlightInfoResult.
ALKAID_EXPORT Result<std::string> Serialize(const CancelFlightInfoResult& value);
/// Encodes a RenewFlightEndpointRequest.
ALKAID_EXPORT Result<std::string> Serialize(const RenewFlightEndpointRequest& value);
/// Encodes a SetSessionOptionsRequest.
ALKAID_EXPORT Result<std::string> Serialize(const SetSessionOptionsRequest& value);
/// Encodes a SetSessionOptionsResult.
ALKAID_EXPORT Result<std::string> Serialize(const SetSessionOptionsResult& value);
/// Encodes a GetSessionOptionsResult.
ALKAID_EXPORT Result<std::string> Serialize(const GetSessionOptionsResult& value);

/// Decodes what Serialize wrote, e.g. Deserialize<FlightInfo>(bytes). Defined
/// for each type Serialize takes.
template <typename T>
Result<T> Deserialize(std::string_view bytes);
/// Decodes a FlightDescriptor.
template <>
ALKAID_EXPORT Result<FlightDescriptor> Deserialize<FlightDescriptor>(std::string_view bytes);
/// Decodes a FlightInfo.
template <>
ALKAID_EXPORT Result<FlightInfo> Deserialize<FlightInfo>(std::string_view bytes);
/// Decodes a FlightEndpoint.
template <>
ALKAID_EXPORT Result<FlightEndpoint> Deserialize<FlightEndpoint>(std::string_view bytes);
/// Decodes a PollInfo.
template <>
ALKAID_EXPORT Result<PollInfo> Deserialize<PollInfo>(std::string_view bytes);
/// Decodes a CancelFlightInfoRequest.
template <>
ALKAID_EXPORT Result<CancelFlightInfoRequest> Deserialize<CancelFlightInfoRequest>(
    std::string_view bytes);
/// Decodes a CancelFlightInfoResult.
template <>
ALKAID_EXPORT Result<CancelFlightInfoResult> Deserialize<CancelFlightInfoResult>(
    std::string_view bytes);
/// Decodes a RenewFlightEndpointRequest.
template <>
ALKAID_EXPORT Result<RenewFlightEndpointRequest> Deserialize<RenewFlightEndpointRequest>(
    std::string_view bytes);
/// Decodes a SetSessionOptionsRequest.
template <>
ALKAID_EXPORT Result<SetSessionOptionsRequest> Deserialize<SetSessionOptionsRequest>(
    std::string_view bytes);
/// Decodes a SetSessionOptionsResult.
template <>
ALKAID_EXPORT Result<SetSessionOptionsResult> Deserialize<SetSessionOptionsResult>(
    std::string_view bytes);
/// Decodes a GetSessionOptionsResult.
template <>
ALKAID_EXPORT Result<GetSessionOptionsResult> Deserialize<GetSessionOptionsResult>(
    std::string_view bytes);

}  // namespace alkaid::flight
