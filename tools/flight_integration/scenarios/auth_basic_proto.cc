// auth:basic_proto: the Handshake carries a BasicAuth message (user "arrow", password
// "flight"); a call before it must be refused as Unauthenticated, a call after it is made as
// that user. The server answers DoAction with the caller's identity.
#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

constexpr char kUser[] = "arrow";
constexpr char kPassword[] = "flight";

class WhoAmIServer final : public flight::FlightServerBase {
 public:
  Status DoAction(const flight::ServerCallContext& context, const flight::Action&,
                  const ActionResultSink& emit) override {
    return emit(flight::ActionResult{context.peer_identity()});
  }
};

class AuthBasicProtoScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(
      flight::ServerOptions* options) override {
    options->auth_handler = flight::MakeBasicAuthHandler(
        [](std::string_view user, std::string_view password) -> Result<std::string> {
          if (user == kUser && password == kPassword) return std::string(user);
          return Status::Invalid("unknown user or wrong password for '", user, "'");
        });
    return std::make_unique<WhoAmIServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    auto refused = client->DoAction(flight::Action{});
    if (flight::FlightStatusCodeOf(refused.status()) !=
        flight::FlightStatusCode::kUnauthenticated) {
      return Status::Invalid("a call before the Handshake must fail as Unauthenticated, got ",
                             refused.ok() ? std::string("success") : refused.status().ToString());
    }
    ALKAID_RETURN_NOT_OK(client->AuthenticateBasic(kUser, kPassword));
    ALKAID_ASSIGN_OR_RAISE(auto results, client->DoAction(flight::Action{}));
    if (results.size() != 1 || results[0].body != kUser) {
      return Status::Invalid("DoAction after the Handshake must answer exactly '", kUser, "', got ",
                             results.size(), " results",
                             results.empty() ? std::string() : ", first '" + results[0].body + "'");
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeAuthBasicProtoScenario() {
  return std::make_unique<AuthBasicProtoScenario>();
}

}  // namespace alkaid::flight_integration
