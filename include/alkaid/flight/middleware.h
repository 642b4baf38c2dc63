/// @file
/// Hooks around calls. Server side: middleware (see every call's headers, add
/// headers to the answer, see how it ended) and authentication (the
/// Handshake RPC, then a token checked on every call). Client side:
/// middleware that adds headers to every call and sees the server's answer
/// headers and the call's outcome, and a cookie middleware built on it.
///
/// Threads: a factory's StartCall runs for many calls at once, on the
/// callers' and gRPC's threads; it must be thread-safe. One ServerMiddleware
/// or ClientMiddleware object belongs to one call and is never called from
/// two threads at once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::flight {

/// The RPCs of the Flight service.
enum class FlightMethod : int8_t {
  kHandshake,
  kListFlights,
  kGetFlightInfo,
  kPollFlightInfo,
  kGetSchema,
  kDoGet,
  kDoPut,
  kDoExchange,
  kDoAction,
  kListActions,
};

/// "Handshake", "DoGet", ... (the protocol's names).
ALKAID_EXPORT const char* FlightMethodName(FlightMethod method);

/// A call's incoming headers (gRPC metadata), read-only. Keys are lower case;
/// a key may repeat.
class ALKAID_EXPORT CallHeaders {
 public:
  virtual ~CallHeaders() = default;
  /// Every value of `key`, in arrival order.
  virtual std::vector<std::string_view> Get(std::string_view key) const = 0;
  /// The first value of `key`, if any.
  std::optional<std::string_view> GetFirst(std::string_view key) const;
};

/// Adds headers to a call's answer (initial metadata).
class ALKAID_EXPORT OutgoingHeaders {
 public:
  virtual ~OutgoingHeaders() = default;
  /// Adds one header; a key may be added more than once.
  virtual void Add(std::string_view key, std::string_view value) = 0;
};

/// What middleware learns about a call when it starts.
struct ALKAID_EXPORT CallInfo {
  /// The RPC being called.
  FlightMethod method;
  /// Server side: the client ("ipv4:127.0.0.1:5000", "unix:/path", ...).
  /// Client side: the gRPC target the client connected to ("127.0.0.1:5000", ...).
  std::string peer;
};

/// The per-call object a ServerMiddlewareFactory makes.
class ALKAID_EXPORT ServerMiddleware {
 public:
  virtual ~ServerMiddleware() = default;
  /// Name for lookups from handlers (ServerCallContext::GetMiddleware).
  virtual std::string name() const = 0;
  /// Before the answer's headers go out.
  virtual void SendingHeaders(OutgoingHeaders& /*headers*/) {}
  /// After the call ends, with the status the client sees.
  virtual void CallCompleted(const Status& /*status*/) {}
};

/// Makes one ServerMiddleware per call. Returning an error refuses the call
/// with that error (e.g. a missing credential) before the handler runs;
/// returning nullptr takes no part in the call.
class ALKAID_EXPORT ServerMiddlewareFactory {
 public:
  virtual ~ServerMiddlewareFactory() = default;
  /// Called when a call starts; see the class comment for the result.
  virtual Result<std::unique_ptr<ServerMiddleware>> StartCall(const CallInfo& info,
                                                              const CallHeaders& headers) = 0;
};

/// Server side of authentication. Handshake exchanges messages with the
/// client until the client is known and returns the token it will present;
/// IsValid checks that token on every later call ("authorization: Bearer
/// <token>" header) and names the peer.
class ALKAID_EXPORT ServerAuthHandler {
 public:
  virtual ~ServerAuthHandler() = default;

  /// Reads and writes the Handshake stream's payloads.
  class ALKAID_EXPORT Channel {
   public:
    virtual ~Channel() = default;
    /// The next payload; nullopt when the client has finished sending.
    virtual Result<std::optional<std::string>> Read() = 0;
    /// Sends one payload to the client.
    virtual Status Write(std::string_view payload) = 0;
  };

  /// Runs the handshake; an error refuses the client (Unauthenticated).
  virtual Status Handshake(const CallHeaders& headers, Channel& channel) = 0;
  /// The identity behind `token`, or an error that refuses the call.
  virtual Result<std::string> IsValid(const CallHeaders& headers, std::string_view token) = 0;
};

/// Username and password checked by a function, answered with a bearer token:
/// the scheme Arrow's basic-auth peers use (BasicAuth message in the
/// handshake, token in the "authorization" header). `check` returns the
/// identity for good credentials and an error otherwise. Tokens are random and
/// live as long as the handler.
ALKAID_EXPORT std::shared_ptr<ServerAuthHandler> MakeBasicAuthHandler(
    std::function<Result<std::string>(std::string_view user, std::string_view password)> check);

/// The per-call object a ClientMiddlewareFactory makes: adds headers to the
/// call, sees the headers the server answered and how the call ended.
class ALKAID_EXPORT ClientMiddleware {
 public:
  virtual ~ClientMiddleware() = default;
  /// Before the call goes out: add headers to it.
  virtual void SendingHeaders(OutgoingHeaders& /*headers*/) {}
  /// The server's answer headers (gRPC initial metadata), once per call. A
  /// server that fails a call before answering anything may send its headers
  /// as trailers only; they are then passed here when the call ends.
  virtual void ReceivedHeaders(const CallHeaders& /*headers*/) {}
  /// After the call ends, with the status the caller sees (the server's
  /// status, a cancellation, a deadline).
  virtual void CallCompleted(const Status& /*status*/) {}
};

/// Makes one ClientMiddleware per call of a client
/// (ClientOptions::middleware). Returning nullptr takes no part in the call.
class ALKAID_EXPORT ClientMiddlewareFactory {
 public:
  virtual ~ClientMiddlewareFactory() = default;
  /// Called when a call starts.
  virtual std::unique_ptr<ClientMiddleware> StartCall(const CallInfo& info) = 0;
};

/// Client middleware that keeps HTTP cookies the way a browser would for one
/// site: every "set-cookie" header a server answers stores (or, with
/// Max-Age <= 0 or an empty value, removes) a cookie by name, and every later
/// call of the client sends the stored ones in a "cookie" header. Servers use
/// this for sessions (Flight SQL's session options: the
/// "arrow_flight_session_id" cookie). Attributes other than Max-Age (Path,
/// Domain, Expires, Secure, ...) are ignored: the client talks to one server.
/// At most 64 cookies are kept (new names beyond are ignored). The factory is
/// thread-safe; its cookies are shared by all calls of every client given
/// this factory (give each client its own for separate sessions).
ALKAID_EXPORT std::shared_ptr<ClientMiddlewareFactory> MakeCookieMiddleware();

}  // namespace alkaid::flight
