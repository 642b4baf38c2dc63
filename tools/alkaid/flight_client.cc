#include "flight_client.h"

#include <chrono>
#include <fstream>
#include <sstream>

namespace alkaid::cli {

bool IsFlightUrl(std::string_view text) {
  for (std::string_view scheme : {"grpc://", "grpc+tcp://", "grpc+tls://"})
    if (text.substr(0, scheme.size()) == scheme) return true;
  return false;
}

Result<FlightUrl> ParseFlightUrl(const std::string& url) {
  if (!IsFlightUrl(url))
    return Status::Invalid("'", url, "' is not a Flight URL (grpc://HOST:PORT/PATH or grpc+tls://...)");
  const size_t scheme_end = url.find("://");
  const std::string scheme = url.substr(0, scheme_end);
  std::string rest = url.substr(scheme_end + 3);
  const size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  FlightUrl out;
  if (slash != std::string::npos) out.rel = rest.substr(slash + 1);
  // HOST:PORT, HOST in brackets when it is an IPv6 address.
  const size_t colon = authority.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == authority.size() ||
      authority.find(']', colon) != std::string::npos)
    return Status::Invalid("'", url, "': the server is HOST:PORT (e.g. grpc://127.0.0.1:8815)");
  std::string host = authority.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  int port = 0;
  for (char c : authority.substr(colon + 1)) {
    if (c < '0' || c > '9' || port > 65535)
      return Status::Invalid("'", url, "': the port must be a number from 1 to 65535");
    port = port * 10 + (c - '0');
  }
  if (port < 1 || port > 65535)
    return Status::Invalid("'", url, "': the port must be a number from 1 to 65535");
  out.location = scheme == "grpc+tls" ? flight::Location::ForGrpcTls(host, port)
                                      : flight::Location::ForGrpcTcp(host, port);
  if (!out.rel.empty()) {
    size_t start = 0;
    while (true) {
      size_t end = out.rel.find('/', start);
      std::string part = out.rel.substr(start, end == std::string::npos ? end : end - start);
      if (part.empty())
        return Status::Invalid("'", url, "': the flight path has an empty part");
      out.path.push_back(std::move(part));
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return out;
}

Result<std::string> ReadSmallFile(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path, ": cannot read the ", what);
  std::ostringstream all;
  all << in.rdbuf();
  if (in.bad()) return Status::IOError(path, ": cannot read the ", what);
  return all.str();
}

Result<std::unique_ptr<FlightConnection>> ConnectFlight(const std::string& url,
                                                       const FlightSettings& settings,
                                                       bool need_path) {
  auto conn = std::make_unique<FlightConnection>();
  ALKAID_ASSIGN_OR_RAISE(conn->url, ParseFlightUrl(url));
  if (need_path && conn->url.path.empty())
    return Status::Invalid("'", url, "' names no flight: add its path (grpc://HOST:PORT/PATH)");
  if (!need_path && !conn->url.path.empty())
    return Status::Invalid("'", url, "' names a flight; give the server alone (grpc://HOST:PORT)");
  flight::ClientOptions options;
  if (!settings.tls_roots.empty()) {
    ALKAID_ASSIGN_OR_RAISE(options.tls_root_certs,
                           ReadSmallFile(settings.tls_roots, "root certificates (--tls-roots)"));
  }
  options.disable_server_verification = settings.insecure;
  if (settings.timeout > 0) {
    conn->call.timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::duration<double>(settings.timeout));
  }
  ALKAID_ASSIGN_OR_RAISE(conn->client, flight::FlightClient::Connect(conn->url.location, options));
  std::string user = settings.user, password = settings.password;
  if (!settings.auth.empty()) {
    const size_t colon = settings.auth.find(':');
    if (colon == std::string::npos)
      return Status::KeyError("--auth takes USER:PASSWORD");
    user = settings.auth.substr(0, colon);
    password = settings.auth.substr(colon + 1);
  }
  if (!user.empty() || !password.empty()) {
    Status st = conn->client->AuthenticateBasic(user, password, conn->call);
    if (!st.ok())
      return st.WithContext("the server refused user '" + user + "'");
  }
  return conn;
}

std::string SchemaSummary(const Schema& schema, size_t width) {
  std::string out;
  for (const auto& field : schema.fields()) {
    if (!out.empty()) out += ", ";
    out += field->name() + ": " + field->type()->ToString();
    if (out.size() > width) return out.substr(0, width > 3 ? width - 3 : 0) + "...";
  }
  return out;
}

}  // namespace alkaid::cli
