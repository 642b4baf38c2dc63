// alkaid-flight-integration-client: the client half of Arrow's Flight
// integration tests, as archery runs it:
//
//   alkaid-flight-integration-client -host localhost -port=PORT -path FILE.json[.gz]
//   alkaid-flight-integration-client -host localhost -port=PORT -scenario NAME
//
// Exits 0 when the scenario passed; otherwise prints what differed and exits
// 1. `-path` may be given several times: the files are run one after the
// other on one connection (archery passes one; the CTest passes many).
#include <chrono>
#include <iostream>
#include <thread>

#include "alkaid/extension.h"
#include "default_scenario.h"
#include "flags.h"
#include "scenario.h"

namespace alkaid::flight_integration {
namespace {

Status Run(int argc, char** argv) {
  ALKAID_ASSIGN_OR_RAISE(Flags flags, ParseFlags(argc, argv, {"host", "port", "path", "scenario"}));
  ALKAID_ASSIGN_OR_RAISE(int port, flags.Port("port", 31337));
  const std::string host = flags.Get("host", "localhost");
  const std::string name = flags.Get("scenario");
  const auto paths = flags.All("path");
  if (name.empty() == paths.empty()) {
    return Status::Invalid("give either -path FILE.json or -scenario NAME");
  }
  std::unique_ptr<Scenario> scenario;
  if (name.empty()) {
    scenario = std::make_unique<DefaultScenario>(paths);
  } else {
    ALKAID_ASSIGN_OR_RAISE(scenario, FindScenario(name));
  }
  // A server that is still coming up answers Unavailable: try again a little
  // later (as the reference client does), but only for that.
  Status st;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    st = scenario->RunClient(host, port);
    if (st.ok() || flight::FlightStatusCodeOf(st) != flight::FlightStatusCode::kUnavailable) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500 * attempt));
  }
  return st;
}

}  // namespace
}  // namespace alkaid::flight_integration

int main(int argc, char** argv) {
  alkaid::RegisterCanonicalExtensionTypes();
  return alkaid::flight_integration::ExitCode("alkaid-flight-integration-client",
                                              alkaid::flight_integration::Run(argc, argv));
}
