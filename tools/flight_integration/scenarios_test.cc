// The named scenarios in one process: each scenario's client must fail against a server that
// serves nothing (so a pass of the executables means something), and the scenario servers
// refuse what the reference's refuse (a second read of a ticket without expiration time, a
// cancelled flight, a forged session cookie, a wrong password, an unknown exchange command).
// The executables themselves run pairwise in integration_test.cc (NamedScenario).
#include <gtest/gtest.h>

#include "scenario.h"

namespace alkaid::flight_integration {
namespace {

using flight::FlightDescriptor;

// A scenario's server (or a bare one) listening on a free port of 127.0.0.1.
class RunningServer {
 public:
  explicit RunningServer(Scenario* scenario) {
    flight::ServerOptions options;
    if (scenario) {
      auto made = scenario->MakeServer(&options);
      EXPECT_TRUE(made.ok()) << made.status().ToString();
      if (made.ok()) server_ = std::move(*made);
    }
    if (!server_) server_ = std::make_unique<flight::FlightServerBase>();
    options.location = "grpc://127.0.0.1:0";
    Status st = server_->Init(options);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  ~RunningServer() { (void)server_->Shutdown(); }
  int port() const { return server_->port(); }
  std::unique_ptr<flight::FlightClient> Client(const flight::ClientOptions& options = {}) const {
    return flight::FlightClient::Connect(server_->location(), options).ValueOrDie();
  }

 private:
  std::unique_ptr<flight::FlightServerBase> server_;
};

class EveryScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryScenario, ClientFailsAgainstAServerThatServesNothing) {
  auto scenario = MakeScenario(GetParam());
  ASSERT_NE(scenario, nullptr);
  RunningServer bare(nullptr);
  Status st = scenario->RunClient("127.0.0.1", bare.port());
  EXPECT_FALSE(st.ok()) << GetParam() << " passed against a server without any RPC";
}

TEST_P(EveryScenario, ClientPassesAgainstItsServerInProcess) {
  auto scenario = MakeScenario(GetParam());
  ASSERT_NE(scenario, nullptr);
  RunningServer server(scenario.get());
  Status st = scenario->RunClient("127.0.0.1", server.port());
  EXPECT_TRUE(st.ok()) << st.ToString();
}

INSTANTIATE_TEST_SUITE_P(Named, EveryScenario, ::testing::ValuesIn(ScenarioNames()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(ScenarioRegistry, HasTheTwelveNamedScenariosOfArchery) {
  for (const char* name :
       {"auth:basic_proto", "middleware", "ordered", "expiration_time:do_get",
        "expiration_time:list_actions", "expiration_time:cancel_flight_info",
        "expiration_time:renew_flight_endpoint", "poll_flight_info",
        "app_metadata_flight_info_endpoint", "do_exchange:echo", "session_options",
        "location:reuse_connection"}) {
    EXPECT_NE(MakeScenario(name), nullptr) << name;
  }
}

TEST(ExpirationTimeServer, ReadOnceUnlessExpiringAndNothingAfterCancel) {
  auto scenario = MakeScenario("expiration_time:do_get");
  RunningServer server(scenario.get());
  auto client = server.Client();
  auto info = client->GetFlightInfo(FlightDescriptor::Command("expiration")).ValueOrDie();
  ASSERT_EQ(info.endpoints.size(), 3u);
  auto read = [&](const flight::FlightEndpoint& endpoint) {
    auto reader = client->DoGet(endpoint.ticket);
    return reader.ok() ? (*reader)->ToTable().status() : reader.status();
  };
  EXPECT_TRUE(read(info.endpoints[0]).ok());
  Status again = read(info.endpoints[0]);
  EXPECT_TRUE(again.IsKeyError()) << again.ToString();
  EXPECT_NE(again.message().find("read twice"), std::string::npos) << again.ToString();
  EXPECT_TRUE(read(info.endpoints[1]).ok());
  EXPECT_TRUE(read(info.endpoints[1]).ok());  // expires in 5 s: readable again

  auto cancelled = client->CancelFlightInfo({info}).ValueOrDie();
  EXPECT_EQ(cancelled.status, flight::CancelStatus::kCancelled);
  // Cancelling twice is refused as not cancellable.
  EXPECT_EQ(client->CancelFlightInfo({info}).ValueOrDie().status,
            flight::CancelStatus::kNotCancellable);
  EXPECT_FALSE(read(info.endpoints[2]).ok());
  EXPECT_FALSE(client->RenewFlightEndpoint({info.endpoints[2]}).ok());
  flight::FlightEndpoint bogus;
  bogus.ticket.ticket = "7: out of range";
  EXPECT_TRUE(client->DoGet(bogus.ticket).ValueOrDie()->ToTable().status().IsKeyError());
}

TEST(SessionOptionsServer, NeedsAnExistingSessionAndRefusesForgedCookies) {
  auto scenario = MakeScenario("session_options");
  RunningServer server(scenario.get());
  // Without the cookie middleware every call starts a new session.
  auto forgetful = server.Client();
  auto none = forgetful->GetSessionOptions();
  EXPECT_TRUE(none.status().IsInvalid()) << none.status().ToString();
  flight::CallOptions forged;
  forged.headers = {{"cookie", "arrow_flight_session_id=999999"}};
  auto refused = forgetful->GetSessionOptions(forged);
  EXPECT_NE(refused.status().message().find("unknown or expired"), std::string::npos)
      << refused.status().ToString();

  flight::ClientOptions with_cookies;
  with_cookies.middleware = {flight::MakeCookieMiddleware()};
  auto client = server.Client(with_cookies);
  flight::SetSessionOptionsRequest request;
  request.options = {{"x", std::string("y")}};
  ASSERT_TRUE(client->SetSessionOptions(request).ok());
  auto got = client->GetSessionOptions();
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got->options, (std::map<std::string, flight::SessionOptionValue>{{"x", "y"}}));
  // A client with its own cookie jar has its own session.
  flight::ClientOptions own_cookies;
  own_cookies.middleware = {flight::MakeCookieMiddleware()};
  auto other = server.Client(own_cookies);
  EXPECT_FALSE(other->GetSessionOptions().ok());
}

TEST(AuthBasicProtoServer, RefusesAWrongPassword) {
  auto scenario = MakeScenario("auth:basic_proto");
  RunningServer server(scenario.get());
  auto client = server.Client();
  Status st = client->AuthenticateBasic("arrow", "guess");
  EXPECT_EQ(flight::FlightStatusCodeOf(st), flight::FlightStatusCode::kUnauthenticated)
      << st.ToString();
  ASSERT_TRUE(client->AuthenticateBasic("arrow", "flight").ok());
  auto results = client->DoAction(flight::Action{}).ValueOrDie();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].body, "arrow");
}

TEST(DoExchangeEchoServer, RefusesOtherCommands) {
  auto scenario = MakeScenario("do_exchange:echo");
  RunningServer server(scenario.get());
  auto client = server.Client();
  auto call = client->DoExchange(FlightDescriptor::Command("reverse")).ValueOrDie();
  auto chunk = call.reader->Next();
  EXPECT_TRUE(chunk.status().IsNotImplemented()) << chunk.status().ToString();
}

}  // namespace
}  // namespace alkaid::flight_integration
