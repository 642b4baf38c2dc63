// The named scenarios, one row each. To add one: write
// scenarios/<name>.cc defining a factory, declare it below, add its row.
#include "scenario.h"

namespace alkaid::flight_integration {

// Factories defined in scenarios/*.cc.
std::unique_ptr<Scenario> MakeAuthBasicProtoScenario();
std::unique_ptr<Scenario> MakeMiddlewareScenario();
std::unique_ptr<Scenario> MakeOrderedScenario();
std::unique_ptr<Scenario> MakeExpirationTimeDoGetScenario();
std::unique_ptr<Scenario> MakeExpirationTimeListActionsScenario();
std::unique_ptr<Scenario> MakeExpirationTimeCancelFlightInfoScenario();
std::unique_ptr<Scenario> MakeExpirationTimeRenewFlightEndpointScenario();
std::unique_ptr<Scenario> MakePollFlightInfoScenario();
std::unique_ptr<Scenario> MakeAppMetadataFlightInfoEndpointScenario();
std::unique_ptr<Scenario> MakeDoExchangeEchoScenario();
std::unique_ptr<Scenario> MakeSessionOptionsScenario();
std::unique_ptr<Scenario> MakeLocationReuseConnectionScenario();

namespace {

const std::vector<ScenarioEntry>& Table() {
  static const std::vector<ScenarioEntry> table = {
      {"auth:basic_proto", MakeAuthBasicProtoScenario},
      {"middleware", MakeMiddlewareScenario},
      {"ordered", MakeOrderedScenario},
      {"expiration_time:do_get", MakeExpirationTimeDoGetScenario},
      {"expiration_time:list_actions", MakeExpirationTimeListActionsScenario},
      {"expiration_time:cancel_flight_info", MakeExpirationTimeCancelFlightInfoScenario},
      {"expiration_time:renew_flight_endpoint", MakeExpirationTimeRenewFlightEndpointScenario},
      {"poll_flight_info", MakePollFlightInfoScenario},
      {"app_metadata_flight_info_endpoint", MakeAppMetadataFlightInfoEndpointScenario},
      {"do_exchange:echo", MakeDoExchangeEchoScenario},
      {"session_options", MakeSessionOptionsScenario},
      {"location:reuse_connection", MakeLocationReuseConnectionScenario},
  };
  return table;
}

}  // namespace

std::unique_ptr<Scenario> MakeScenario(std::string_view name) {
  for (const auto& entry : Table()) {
    if (name == entry.name) return entry.make();
  }
  return nullptr;
}

Result<std::unique_ptr<Scenario>> FindScenario(std::string_view name) {
  if (auto scenario = MakeScenario(name)) return scenario;
  std::string known;
  for (const auto& entry : Table()) known += std::string(" ") + entry.name;
  return Status::Invalid("unknown scenario '", name, "'; known:", known.empty() ? " (none)" : known);
}

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  for (const auto& entry : Table()) names.emplace_back(entry.name);
  return names;
}

}  // namespace alkaid::flight_integration
