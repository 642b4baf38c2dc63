// The default scenario of Arrow's Flight integration tests: the client
// uploads the batches of an integration JSON file with DoPut (descriptor
// path = [the file's path], app_metadata = the batch index as text, each
// echoed back by the server as a PutResult), asks GetFlightInfo for it, and
// reads every endpoint back with DoGet, comparing the schema, every batch and
// every batch's app_metadata (again its index) with the file's. The server
// keeps uploads in memory, keyed by the first path element.
#pragma once

#include <string>
#include <vector>

#include "scenario.h"

namespace alkaid::flight_integration {

class DefaultScenario : public Scenario {
 public:
  // `json_paths`: the files the client runs, one after the other (archery
  // passes one `-path`; more are accepted so a test can run many cases
  // against one server). The server side needs none.
  explicit DefaultScenario(std::vector<std::string> json_paths = {})
      : json_paths_(std::move(json_paths)) {}

  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(
      flight::ServerOptions* options) override;
  Status RunClient(const std::string& host, int port) override;

  // The client's run for one file; errors start with the file's path.
  static Status RunOne(flight::FlightClient& client, const std::string& json_path);

 private:
  std::vector<std::string> json_paths_;
};

}  // namespace alkaid::flight_integration
