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
