// The client side of the tool's Flight commands (get, put, flights and the
// grpc:// source of every reading command): parsing a grpc:// URL, the
// connection options shared by those commands, and connecting with them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/flight/client.h"
#include "alkaid/status.h"

namespace alkaid::cli {

// --tls-roots, --insecure, --user/--password or --auth, --timeout.
struct FlightSettings {
  std::string tls_roots;  // PEM file of roots to trust; empty: the system's
  bool insecure = false;  // skip server certificate checks
  std::string user, password;
  std::string auth;      // USER:PASSWORD, another spelling of --user/--password
  double timeout = 0;    // seconds per call; 0: none
};

// grpc://, grpc+tcp:// or grpc+tls://: recognised before any file is opened.
bool IsFlightUrl(std::string_view text);

// grpc[+tcp|+tls]://HOST:PORT[/PATH]. `path` is the descriptor path (PATH
// split at '/'), `rel` PATH as written.
struct FlightUrl {
  flight::Location location;
  std::vector<std::string> path;
  std::string rel;
};
Result<FlightUrl> ParseFlightUrl(const std::string& url);

// A connected (and, with credentials, authenticated) client and the call
// options every call of the command uses.
struct FlightConnection {
  FlightUrl url;
  std::unique_ptr<flight::FlightClient> client;
  flight::CallOptions call;
};
// `need_path`: the URL must name a flight (true) or must not (false).
Result<std::unique_ptr<FlightConnection>> ConnectFlight(const std::string& url,
                                                       const FlightSettings& settings,
                                                       bool need_path);

// Reads a whole (small) file: certificates and keys.
Result<std::string> ReadSmallFile(const std::string& path, const char* what);

// "a: int64, b: utf8", cut to about `width` characters.
std::string SchemaSummary(const Schema& schema, size_t width);

}  // namespace alkaid::cli
