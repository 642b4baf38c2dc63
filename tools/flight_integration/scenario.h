// The scenarios of Arrow's cross-implementation Flight tests (the ones
// archery drives through `alkaid-flight-integration-server` and
// `alkaid-flight-integration-client`).
//
// A scenario is both halves of one test: the server to run, and the client's
// run against it. The default scenario (upload an integration JSON file,
// read it back, compare) is not in the name table: the client runs it when
// given `-path FILE.json[.gz]`, the server when given no `-scenario`
// (default_scenario.h). Named scenarios are listed in registry.cc, one
// line each, and live in scenarios/<name>.cc (built by a glob in
// tools/CMakeLists.txt, so adding one needs no CMake edit).
//
// Threads: MakeServer's server is called from gRPC threads (its overrides
// must be thread-safe); RunClient runs on the caller's thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/flight/api.h"
#include "alkaid/status.h"

namespace alkaid::flight_integration {

class Scenario {
 public:
  virtual ~Scenario() = default;
  // The server to run; may set options->auth_handler / middleware. The caller
  // sets options->location (where to listen) and calls Init.
  virtual Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(
      flight::ServerOptions* options) = 0;
  // The client's whole run against the server at host:port; OK = the
  // scenario passed, an error says what differed.
  virtual Status RunClient(const std::string& host, int port) = 0;
};

// The scenario registered under `name` (archery's spelling, e.g.
// "auth:basic_proto"); null when there is none.
std::unique_ptr<Scenario> MakeScenario(std::string_view name);

// MakeScenario, or an error listing the known names.
Result<std::unique_ptr<Scenario>> FindScenario(std::string_view name);

// Every registered name, in table order.
std::vector<std::string> ScenarioNames();

// One row of the table in registry.cc.
struct ScenarioEntry {
  const char* name;
  std::function<std::unique_ptr<Scenario>()> make;
};

}  // namespace alkaid::flight_integration
