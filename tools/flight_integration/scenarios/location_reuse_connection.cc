// location:reuse_connection: GetFlightInfo answers one endpoint (ticket "reuse") whose one
// location is arrow-flight-reuse-connection://?, the URI that means "this same server"; the
// client must receive that URI unchanged.
#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

constexpr char kReuseUri[] = "arrow-flight-reuse-connection://?";

class ReuseServer final : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& descriptor) override {
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*schema({})));
    flight::FlightEndpoint endpoint;
    endpoint.ticket.ticket = "reuse";
    endpoint.locations = {flight::Location::ReuseConnection()};
    info.endpoints = {endpoint};
    return info;
  }
};

class ReuseConnectionScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<ReuseServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto info,
                           client->GetFlightInfo(flight::FlightDescriptor::Command("reuse")));
    if (info.endpoints.size() != 1) {
      return Status::Invalid("expected 1 endpoint, got ", info.endpoints.size());
    }
    const auto& locations = info.endpoints[0].locations;
    if (locations.size() != 1) return Status::Invalid("expected 1 location, got ", locations.size());
    if (locations[0].uri != kReuseUri) {
      return Status::Invalid("expected location ", kReuseUri, ", got ", locations[0].uri);
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeLocationReuseConnectionScenario() {
  return std::make_unique<ReuseConnectionScenario>();
}

}  // namespace alkaid::flight_integration
