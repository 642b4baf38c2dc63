// Value helpers of alkaid/flight/types.h, middleware.h and options.h that need no gRPC:
// descriptors, locations, well-known action names, Flight status codes, StopSource.
#include "alkaid/flight/types.h"

#include <array>
#include <charconv>

#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"

namespace alkaid::flight {

FlightDescriptor FlightDescriptor::Path(std::vector<std::string> path) {
  FlightDescriptor d;
  d.type = Type::kPath;
  d.path = std::move(path);
  return d;
}

FlightDescriptor FlightDescriptor::Command(std::string cmd) {
  FlightDescriptor d;
  d.type = Type::kCmd;
  d.cmd = std::move(cmd);
  return d;
}

namespace {

// Printable form of untrusted bytes, cut at `limit` bytes so a descriptor can go into an error
// message without echoing megabytes of client input.
std::string Escaped(std::string_view bytes, size_t limit) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < limit; ++i) {
    auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  if (bytes.size() > limit) out += "...(" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

}  // namespace

std::string FlightDescriptor::ToString() const {
  constexpr size_t kShown = 64;
  switch (type) {
    case Type::kPath: {
      std::string out = "path ";
      for (size_t i = 0; i < path.size() && i < 16; ++i) {
        if (i > 0) out += '/';
        out += Escaped(path[i], kShown);
      }
      if (path.size() > 16) out += "/...(" + std::to_string(path.size()) + " parts)";
      return out;
    }
    case Type::kCmd:
      return "cmd " + Escaped(cmd, kShown);
    case Type::kUnknown:
      break;
  }
  return "descriptor of unknown type";
}

namespace {

constexpr std::string_view kReuseUri = "arrow-flight-reuse-connection://?";

// The schemes a Flight client can connect to, and whether the authority needs host:port.
bool IsGrpcScheme(std::string_view scheme) {
  return scheme == "grpc" || scheme == "grpc+tcp" || scheme == "grpc+tls" || scheme == "grpc+unix";
}

}  // namespace

std::string Location::scheme() const {
  auto colon = uri.find("://");
  if (colon == std::string::npos) return "";
  return uri.substr(0, colon);
}

Result<Location> Location::Parse(std::string_view uri) {
  Location loc{std::string(uri)};
  if (uri.empty() || uri == kReuseUri) return loc;
  auto sep = uri.find("://");
  if (sep == std::string_view::npos || sep == 0) {
    return Status::Invalid("Flight location '", Escaped(uri, 256),
                           "' has no scheme (expected e.g. grpc://host:port)");
  }
  std::string_view scheme = uri.substr(0, sep);
  std::string_view rest = uri.substr(sep + 3);
  if (!IsGrpcScheme(scheme)) return loc;  // http(s):// and others: passed on as they are
  if (scheme == "grpc+unix") {
    if (rest.empty() || rest[0] != '/') {
      return Status::Invalid("Flight location '", Escaped(uri, 256),
                             "' needs an absolute socket path (grpc+unix:///path)");
    }
    return loc;
  }
  auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  auto colon = authority.rfind(':');
  if (colon == std::string_view::npos || colon == 0 ||
      (authority.front() == '[' && authority[colon - 1] != ']')) {
    return Status::Invalid("Flight location '", Escaped(uri, 256),
                           "' needs host:port after the scheme");
  }
  std::string_view port_text = authority.substr(colon + 1);
  int port = -1;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port < 0 ||
      port > 65535) {
    return Status::Invalid("Flight location '", Escaped(uri, 256), "' has port '",
                           Escaped(port_text, 16), "', not a number in 0-65535");
  }
  return loc;
}

static std::string HostPort(std::string_view host, int port) {
  std::string h(host);
  // IPv6 literals need brackets in a URI.
  if (h.find(':') != std::string::npos && h.front() != '[') h = "[" + h + "]";
  return h + ":" + std::to_string(port);
}

Location Location::ForGrpcTcp(std::string_view host, int port) {
  return Location{"grpc+tcp://" + HostPort(host, port)};
}

Location Location::ForGrpcTls(std::string_view host, int port) {
  return Location{"grpc+tls://" + HostPort(host, port)};
}

Location Location::ForGrpcUnix(std::string_view path) {
  return Location{"grpc+unix://" + std::string(path)};
}

Location Location::ReuseConnection() { return Location{std::string(kReuseUri)}; }

const ActionType ActionType::kCancelFlightInfo{"CancelFlightInfo",
                                               "Cancel the query behind a FlightInfo"};
const ActionType ActionType::kRenewFlightEndpoint{"RenewFlightEndpoint",
                                                  "Extend the expiration time of an endpoint"};
const ActionType ActionType::kSetSessionOptions{"SetSessionOptions",
                                                "Set options of the caller's session"};
const ActionType ActionType::kGetSessionOptions{"GetSessionOptions",
                                                "Get the options of the caller's session"};
const ActionType ActionType::kCloseSession{"CloseSession", "Close the caller's session"};

namespace {
constexpr std::array<const char*, 6> kFlightCodeNames = {
    "Unauthenticated", "Unauthorized", "Unavailable", "Cancelled", "TimedOut", "ResourceExhausted"};
}  // namespace

const char* FlightStatusCodeName(FlightStatusCode code) {
  auto i = static_cast<size_t>(code);
  return i < kFlightCodeNames.size() ? kFlightCodeNames[i] : "Unknown";
}

Status FlightError(FlightStatusCode code, std::string_view message) {
  return Status::IOError("Flight ", FlightStatusCodeName(code), ": ", message);
}

std::optional<FlightStatusCode> FlightStatusCodeOf(const Status& status) {
  if (!status.IsIOError()) return std::nullopt;
  std::string_view msg = status.message();
  constexpr std::string_view kPrefix = "Flight ";
  if (msg.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  msg.remove_prefix(kPrefix.size());
  for (size_t i = 0; i < kFlightCodeNames.size(); ++i) {
    std::string_view name = kFlightCodeNames[i];
    if (msg.substr(0, name.size()) == name && msg.substr(name.size(), 1) == ":") {
      return static_cast<FlightStatusCode>(i);
    }
  }
  return std::nullopt;
}

const char* FlightMethodName(FlightMethod method) {
  switch (method) {
    case FlightMethod::kHandshake: return "Handshake";
    case FlightMethod::kListFlights: return "ListFlights";
    case FlightMethod::kGetFlightInfo: return "GetFlightInfo";
    case FlightMethod::kPollFlightInfo: return "PollFlightInfo";
    case FlightMethod::kGetSchema: return "GetSchema";
    case FlightMethod::kDoGet: return "DoGet";
    case FlightMethod::kDoPut: return "DoPut";
    case FlightMethod::kDoExchange: return "DoExchange";
    case FlightMethod::kDoAction: return "DoAction";
    case FlightMethod::kListActions: return "ListActions";
  }
  return "Unknown";
}

std::optional<std::string_view> CallHeaders::GetFirst(std::string_view key) const {
  auto values = Get(key);
  if (values.empty()) return std::nullopt;
  return values.front();
}

StopSource::StopSource() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
void StopSource::RequestStop() { flag_->store(true, std::memory_order_release); }
bool StopSource::stop_requested() const { return flag_->load(std::memory_order_acquire); }

}  // namespace alkaid::flight
