/// @file
/// Options of Flight clients, servers and individual calls: deadlines,
/// headers, cancellation, TLS and mutual TLS, message size limits, flow
/// control and memory budgets.
///
/// Defaults are chosen for Arrow data, not for gRPC's 4 MiB messages: one
/// message may be up to 2 GiB - 1 (gRPC's own ceiling), and what a stream may
/// hold in memory is bounded by the IPC read options' memory budget.
///
/// Threads: the option structs are values. A CallOptions' StopSource may be
/// triggered from any thread while the call runs on another.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "alkaid/flight/middleware.h"
#include "alkaid/ipc/options.h"
#include "alkaid/visibility.h"

namespace alkaid::flight {

/// Largest message gRPC can carry (its lengths are int32): the default limit
/// of both directions.
inline constexpr int64_t kDefaultMaxMessageBytes = (int64_t{1} << 31) - 1;
/// Longest error text a server sends or a client keeps; longer text is cut
/// and marked, so a peer can never make us echo megabytes.
inline constexpr int64_t kDefaultMaxErrorTextBytes = 4096;
/// HTTP/2 flow-control window of each stream, in bytes: what a sender may have
/// in flight before the receiving application reads it. See
/// ClientOptions::flow_control_window_bytes.
inline constexpr int64_t kDefaultFlowControlWindowBytes = int64_t{8} << 20;

/// A header of a call (gRPC metadata). Keys are lower case; keys ending in
/// "-bin" carry binary values.
using Header = std::pair<std::string, std::string>;

/// Cancels calls from another thread: a call given a StopSource's token ends
/// with a Cancelled-like IOError soon after RequestStop(). Cheap to copy; all
/// copies share one flag.
class ALKAID_EXPORT StopSource {
 public:
  StopSource();
  /// Stops every call that holds this source. Safe from any thread, any number of times.
  void RequestStop();
  /// True once RequestStop() was called on any copy.
  bool stop_requested() const;

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

/// Per-call settings of a client call.
struct ALKAID_EXPORT CallOptions {
  /// Deadline relative to the start of the call; unset: no deadline.
  std::optional<std::chrono::nanoseconds> timeout;
  /// Extra headers sent with the call (e.g. an "authorization" bearer token
  /// that Authenticate does not manage).
  std::vector<Header> headers;
  /// Cancellation from another thread (see StopSource).
  std::optional<StopSource> stop_source;
  /// How record batches of this call are read and written. The read options'
  /// memory budget bounds what one stream may hold.
  ipc::IpcReadOptions read_options;
  /// How this call writes record batches.
  ipc::IpcWriteOptions write_options;
};

/// PEM-encoded certificate chain and private key (a server's, or a client's
/// for mutual TLS).
struct ALKAID_EXPORT CertKeyPair {
  /// PEM certificate chain.
  std::string pem_cert;
  /// PEM private key.
  std::string pem_key;
};

/// Settings of a FlightClient for its whole life.
struct ALKAID_EXPORT ClientOptions {
  /// PEM root certificates to trust for grpc+tls; empty: the system's roots.
  std::string tls_root_certs;
  /// Name to check the server certificate against instead of the URI's host.
  std::string override_hostname;
  /// Client certificate for mutual TLS; unset: none is presented.
  std::optional<CertKeyPair> client_cert;
  /// Skips server certificate verification (testing only; insecure).
  bool disable_server_verification = false;
  /// Largest message the client accepts / sends, in bytes (after gzip
  /// decompression for received messages).
  int64_t max_receive_message_bytes = kDefaultMaxMessageBytes;
  /// Largest message sent, in bytes.
  int64_t max_send_message_bytes = kDefaultMaxMessageBytes;
  /// Longest error text kept from a server's status.
  int64_t max_error_text_bytes = kDefaultMaxErrorTextBytes;
  /// Headers added to every call (after those of CallOptions).
  std::vector<Header> headers;
  /// HTTP/2 flow-control window of each stream this client receives (DoGet,
  /// DoExchange), in bytes; 0: gRPC's default, a window that gRPC sizes by
  /// probing the bandwidth-delay product. The fixed default keeps a sender
  /// from waiting on those probes (with them one loopback DoGet stream moved
  /// 3-4 times fewer bytes per second) and bounds what gRPC buffers per
  /// stream. It caps one stream at window / round-trip time (8 MiB at 10 ms:
  /// 800 MB/s; at 100 ms: 80 MB/s): on a long link raise it, or set 0.
  int64_t flow_control_window_bytes = kDefaultFlowControlWindowBytes;
  /// Extra gRPC channel arguments, integer-valued (name, value), for tuning
  /// that has no option of its own. Applied last: they override the options
  /// above (e.g. "grpc.http2.lookahead_bytes" the window).
  std::vector<std::pair<std::string, int64_t>> channel_int_args;
  /// Middleware of every call, called in this order when a call starts (and
  /// in reverse when it ends); e.g. MakeCookieMiddleware() for sessions.
  std::vector<std::shared_ptr<ClientMiddlewareFactory>> middleware;
};

/// Settings of a FlightServerBase, given to Init.
struct ALKAID_EXPORT ServerOptions {
  /// Where to listen: grpc://host:port (port 0 picks a free port; see
  /// FlightServerBase::port), grpc+tls://host:port or grpc+unix:///path.
  std::string location;
  /// Certificates for grpc+tls; at least one is required with TLS.
  std::vector<CertKeyPair> tls_certificates;
  /// PEM roots that client certificates must chain to. Set: mutual TLS, and a
  /// client without a valid certificate is refused.
  std::string verify_client_roots;
  /// Largest message accepted / sent, in bytes (after gzip decompression for
  /// received messages).
  int64_t max_receive_message_bytes = kDefaultMaxMessageBytes;
  /// Largest message sent, in bytes.
  int64_t max_send_message_bytes = kDefaultMaxMessageBytes;
  /// Longest error text sent to a client.
  int64_t max_error_text_bytes = kDefaultMaxErrorTextBytes;
  /// How uploaded data is read (memory budget per stream, validation) and how
  /// DoGet data is written.
  ipc::IpcReadOptions read_options;
  /// How DoGet data is written.
  ipc::IpcWriteOptions write_options;
  /// HTTP/2 flow-control window of each stream the server receives (DoPut,
  /// DoExchange), in bytes; 0: gRPC's probing. As
  /// ClientOptions::flow_control_window_bytes.
  int64_t flow_control_window_bytes = kDefaultFlowControlWindowBytes;
  /// Extra gRPC channel arguments of the server, integer-valued (name,
  /// value); applied last, as ClientOptions::channel_int_args.
  std::vector<std::pair<std::string, int64_t>> channel_int_args;
  /// Threads serving calls; 0: gRPC's default.
  int num_threads = 0;
  /// Authentication: unset, every call is accepted and Handshake answers
  /// nothing; set, Handshake runs the handler and every other call must
  /// carry a token it accepts.
  std::shared_ptr<ServerAuthHandler> auth_handler;
  /// Middleware, called in this order when a call starts (and in reverse when
  /// it ends). The name is what ServerCallContext::GetMiddleware looks up.
  std::vector<std::pair<std::string, std::shared_ptr<ServerMiddlewareFactory>>> middleware;
};

}  // namespace alkaid::flight
