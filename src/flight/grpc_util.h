// What the Flight server and client share about gRPC: status conversion (with the error text
// capped), the method paths of the service, and headers.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid::flight::grpc_util {

/// "/arrow.flight.protocol.FlightService/<name>", a static string (gRPC keeps the pointer).
ALKAID_EXPORT const char* MethodPath(FlightMethod method);

/// `text` cut to `max_bytes` (at least 64), marked with how much was cut.
ALKAID_EXPORT std::string CapText(std::string_view text, int64_t max_bytes);

/// An alkaid Status as the gRPC status a peer sees: FlightError codes become their gRPC
/// codes, Invalid/SerializationError INVALID_ARGUMENT, KeyError NOT_FOUND, NotImplemented
/// UNIMPLEMENTED, CapacityError and OutOfMemory RESOURCE_EXHAUSTED, the rest UNKNOWN. The
/// text is capped.
grpc::Status ToGrpc(const Status& status, int64_t max_text_bytes);

/// A received gRPC status as an alkaid Status, naming the RPC; the peer's text is capped.
Status FromGrpc(const grpc::Status& status, const char* rpc, int64_t max_text_bytes);

/// The integer gRPC channel arguments of a client or server, each name once: the message size
/// limits (negative or over INT_MAX: gRPC's own 2 GiB ceiling), HTTP/2 flow control from
/// `window_bytes` (a fixed window with gRPC's bandwidth probing off; 0 leaves gRPC's defaults),
/// then `extra`, whose values replace those above. gRPC's own inflation of compressed messages
/// is always off (wire::ReceiveFlightData inflates under the limit instead).
std::vector<std::pair<std::string, int>> ChannelIntArgs(
    int64_t max_receive_bytes, int64_t max_send_bytes, int64_t window_bytes,
    const std::vector<std::pair<std::string, int64_t>>& extra);

/// Incoming headers of a server call.
class ServerHeaders final : public CallHeaders {
 public:
  explicit ServerHeaders(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata)
      : metadata_(metadata) {}
  std::vector<std::string_view> Get(std::string_view key) const override;

 private:
  const std::multimap<grpc::string_ref, grpc::string_ref>& metadata_;
};

/// Headers from a map of strings (the client's answer headers, tests).
class MapHeaders final : public CallHeaders {
 public:
  std::multimap<std::string, std::string> values;
  std::vector<std::string_view> Get(std::string_view key) const override;
};

}  // namespace alkaid::flight::grpc_util
