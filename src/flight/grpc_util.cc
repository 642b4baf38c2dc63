#include "grpc_util.h"

#include <algorithm>
#include <climits>

#include "alkaid/flight/types.h"

namespace alkaid::flight::grpc_util {

const char* MethodPath(FlightMethod method) {
  switch (method) {
    case FlightMethod::kHandshake: return "/arrow.flight.protocol.FlightService/Handshake";
    case FlightMethod::kListFlights: return "/arrow.flight.protocol.FlightService/ListFlights";
    case FlightMethod::kGetFlightInfo:
      return "/arrow.flight.protocol.FlightService/GetFlightInfo";
    case FlightMethod::kPollFlightInfo:
      return "/arrow.flight.protocol.FlightService/PollFlightInfo";
    case FlightMethod::kGetSchema: return "/arrow.flight.protocol.FlightService/GetSchema";
    case FlightMethod::kDoGet: return "/arrow.flight.protocol.FlightService/DoGet";
    case FlightMethod::kDoPut: return "/arrow.flight.protocol.FlightService/DoPut";
    case FlightMethod::kDoExchange: return "/arrow.flight.protocol.FlightService/DoExchange";
    case FlightMethod::kDoAction: return "/arrow.flight.protocol.FlightService/DoAction";
    case FlightMethod::kListActions: return "/arrow.flight.protocol.FlightService/ListActions";
  }
  return "";
}

std::string CapText(std::string_view text, int64_t max_bytes) {
  auto limit = static_cast<size_t>(std::max<int64_t>(max_bytes, 64));
  if (text.size() <= limit) return std::string(text);
  std::string out(text.substr(0, limit));
  out += "...(" + std::to_string(text.size() - limit) + " more bytes cut)";
  return out;
}

std::vector<std::pair<std::string, int>> ChannelIntArgs(
    int64_t max_receive_bytes, int64_t max_send_bytes, int64_t window_bytes,
    const std::vector<std::pair<std::string, int64_t>>& extra) {
  auto size = [](int64_t bytes) { return bytes < 0 || bytes > INT_MAX ? -1 : int(bytes); };
  std::vector<std::pair<std::string, int>> args = {
      {GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, size(max_receive_bytes)},
      {GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, size(max_send_bytes)}};
  if (window_bytes > 0) {
    // gRPC 1.51 sizes the window from bandwidth-delay probes when these are on, and the probes'
    // round trips then pace the sender. A fixed window is the receiver's own lookahead.
    args.emplace_back(GRPC_ARG_HTTP2_BDP_PROBE, 0);
    args.emplace_back(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES,
                      static_cast<int>(std::min<int64_t>(window_bytes, INT_MAX)));
  }
  // gRPC keeps the first of two arguments of one name: a user's value replaces ours in place.
  auto set = [&args](const std::string& name, int value) {
    for (auto& arg : args) {
      if (arg.first == name) {
        arg.second = value;
        return;
      }
    }
    args.emplace_back(name, value);
  };
  for (const auto& [name, value] : extra) {
    set(name, static_cast<int>(std::clamp<int64_t>(value, INT_MIN, INT_MAX)));
  }
  set(GRPC_ARG_ENABLE_PER_MESSAGE_DECOMPRESSION, 0);
  return args;
}

grpc::Status ToGrpc(const Status& status, int64_t max_text_bytes) {
  if (status.ok()) return grpc::Status::OK;
  grpc::StatusCode code = grpc::StatusCode::UNKNOWN;
  std::string text(status.message());
  if (auto flight = FlightStatusCodeOf(status)) {
    switch (*flight) {
      case FlightStatusCode::kUnauthenticated: code = grpc::StatusCode::UNAUTHENTICATED; break;
      case FlightStatusCode::kUnauthorized: code = grpc::StatusCode::PERMISSION_DENIED; break;
      case FlightStatusCode::kUnavailable: code = grpc::StatusCode::UNAVAILABLE; break;
      case FlightStatusCode::kCancelled: code = grpc::StatusCode::CANCELLED; break;
      case FlightStatusCode::kTimedOut: code = grpc::StatusCode::DEADLINE_EXCEEDED; break;
      case FlightStatusCode::kResourceExhausted:
        code = grpc::StatusCode::RESOURCE_EXHAUSTED;
        break;
    }
    // The receiving side puts the "Flight <name>: " prefix back from the code.
    auto colon = text.find(": ");
    if (colon != std::string::npos) text = text.substr(colon + 2);
  } else if (status.IsInvalid() || status.IsSerializationError() || status.IsTypeError() ||
             status.IsIndexError()) {
    code = grpc::StatusCode::INVALID_ARGUMENT;
  } else if (status.IsKeyError()) {
    code = grpc::StatusCode::NOT_FOUND;
  } else if (status.IsNotImplemented()) {
    code = grpc::StatusCode::UNIMPLEMENTED;
  } else if (status.code() == StatusCode::kCapacityError || status.IsOutOfMemory()) {
    code = grpc::StatusCode::RESOURCE_EXHAUSTED;
  }
  return grpc::Status(code, CapText(text, max_text_bytes));
}

Status FromGrpc(const grpc::Status& status, const char* rpc, int64_t max_text_bytes) {
  if (status.ok()) return Status::OK();
  std::string text = std::string(rpc) + ": " + CapText(status.error_message(), max_text_bytes);
  switch (status.error_code()) {
    case grpc::StatusCode::INVALID_ARGUMENT: return Status::Invalid(text);
    case grpc::StatusCode::NOT_FOUND: return Status::KeyError(text);
    case grpc::StatusCode::UNIMPLEMENTED: return Status::NotImplemented(text);
    case grpc::StatusCode::ALREADY_EXISTS: return Status::Invalid(text);
    case grpc::StatusCode::UNAUTHENTICATED:
      return FlightError(FlightStatusCode::kUnauthenticated, text);
    case grpc::StatusCode::PERMISSION_DENIED:
      return FlightError(FlightStatusCode::kUnauthorized, text);
    case grpc::StatusCode::UNAVAILABLE: return FlightError(FlightStatusCode::kUnavailable, text);
    case grpc::StatusCode::CANCELLED: return FlightError(FlightStatusCode::kCancelled, text);
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return FlightError(FlightStatusCode::kTimedOut, text);
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return FlightError(FlightStatusCode::kResourceExhausted, text);
    default: return Status::IOError("Flight ", text);
  }
}

std::vector<std::string_view> ServerHeaders::Get(std::string_view key) const {
  std::vector<std::string_view> out;
  auto [lo, hi] = metadata_.equal_range(grpc::string_ref(key.data(), key.size()));
  for (auto it = lo; it != hi; ++it) out.emplace_back(it->second.data(), it->second.size());
  return out;
}

std::vector<std::string_view> MapHeaders::Get(std::string_view key) const {
  std::vector<std::string_view> out;
  auto [lo, hi] = values.equal_range(std::string(key));
  for (auto it = lo; it != hi; ++it) out.emplace_back(it->second);
  return out;
}

}  // namespace alkaid::flight::grpc_util
