// app_metadata_flight_info_endpoint: GetFlightInfo of a command answers a FlightInfo whose
// app_metadata, and that of its single endpoint, are the command's bytes ("foobar").
#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

class AppMetadataServer final : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& descriptor) override {
    if (descriptor.type != flight::FlightDescriptor::Type::kCmd) {
      return Status::Invalid("the descriptor must be a command");
    }
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*IntegerSchema("number", uint32())));
    flight::FlightEndpoint endpoint;
    endpoint.app_metadata = descriptor.cmd;
    info.endpoints = {endpoint};
    info.app_metadata = descriptor.cmd;
    return info;
  }
};

class AppMetadataScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<AppMetadataServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto info,
                           client->GetFlightInfo(flight::FlightDescriptor::Command("foobar")));
    if (info.app_metadata != "foobar") {
      return Status::Invalid("FlightInfo.app_metadata must be 'foobar', got '", info.app_metadata,
                             "'");
    }
    if (info.endpoints.size() != 1) {
      return Status::Invalid("expected 1 endpoint, got ", info.endpoints.size());
    }
    if (info.endpoints[0].app_metadata != "foobar") {
      return Status::Invalid("FlightEndpoint.app_metadata must be 'foobar', got '",
                             info.endpoints[0].app_metadata, "'");
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeAppMetadataFlightInfoEndpointScenario() {
  return std::make_unique<AppMetadataScenario>();
}

}  // namespace alkaid::flight_integration
