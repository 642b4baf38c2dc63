// Basic-auth Handshake, bearer tokens on later calls, and the server middleware hook.
#include <gtest/gtest.h>

#include <mutex>

#include "alkaid/flight/api.h"
#include "auth.h"
#include "src/util/base64.h"

namespace alkaid::flight {
namespace {

class WhoAmIServer : public FlightServerBase {
 public:
  Result<FlightInfo> GetFlightInfo(const ServerCallContext& ctx, const FlightDescriptor&) override {
    FlightInfo info;
    info.app_metadata = ctx.peer_identity();
    if (auto* m = ctx.GetMiddleware("tracer")) info.app_metadata += "+" + m->name();
    return info;
  }
};

TEST(FlightAuth, Base64RoundTrips) {
  EXPECT_EQ(alkaid::internal::Base64Encode("user:pass"), "dXNlcjpwYXNz");
  EXPECT_EQ(alkaid::internal::Base64Encode("a"), "YQ==");
  EXPECT_EQ(*alkaid::internal::Base64Decode("YQ=="), "a");
  EXPECT_EQ(*alkaid::internal::Base64Decode("dXNlcjpwYXNz"), "user:pass");
  EXPECT_FALSE(alkaid::internal::Base64Decode("a*b").ok());
}

TEST(FlightAuth, BasicHandshakeThenBearerToken) {
  WhoAmIServer server;
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  options.auth_handler = MakeBasicAuthHandler(
      [](std::string_view user, std::string_view password) -> Result<std::string> {
        if (user == "alice" && password == "secret") return std::string("alice@test");
        return Status::Invalid("wrong password for ", user);
      });
  ASSERT_TRUE(server.Init(options).ok());
  auto client = FlightClient::Connect(server.location()).ValueOrDie();

  // Without a token every call is refused.
  auto refused = client->GetFlightInfo(FlightDescriptor::Command("x"));
  EXPECT_EQ(FlightStatusCodeOf(refused.status()), FlightStatusCode::kUnauthenticated)
      << refused.status().ToString();
  Status bad = client->AuthenticateBasic("alice", "guess");
  EXPECT_EQ(FlightStatusCodeOf(bad), FlightStatusCode::kUnauthenticated) << bad.ToString();
  EXPECT_NE(bad.message().find("wrong password for alice"), std::string::npos);

  Status good = client->AuthenticateBasic("alice", "secret");
  ASSERT_TRUE(good.ok()) << good.ToString();
  auto info = client->GetFlightInfo(FlightDescriptor::Command("x"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->app_metadata, "alice@test");

  // A forged token is refused.
  auto other = FlightClient::Connect(server.location()).ValueOrDie();
  CallOptions forged;
  forged.headers = {{"authorization", "Bearer 0123"}};
  auto forged_info = other->GetFlightInfo(FlightDescriptor::Command("x"), forged);
  EXPECT_EQ(FlightStatusCodeOf(forged_info.status()), FlightStatusCode::kUnauthenticated);
  ASSERT_TRUE(server.Shutdown().ok());
}

class Tracer final : public ServerMiddleware {
 public:
  Tracer(std::vector<std::string>* log, std::mutex* mu) : log_(log), mu_(mu) {}
  std::string name() const override { return "tracer"; }
  void SendingHeaders(OutgoingHeaders& headers) override { headers.Add("x-traced", "yes"); }
  void CallCompleted(const Status& status) override {
    std::lock_guard<std::mutex> lock(*mu_);
    log_->push_back(status.ok() ? "ok" : "error");
  }

 private:
  std::vector<std::string>* log_;
  std::mutex* mu_;
};

class TracerFactory final : public ServerMiddlewareFactory {
 public:
  Result<std::unique_ptr<ServerMiddleware>> StartCall(const CallInfo& info,
                                                      const CallHeaders& headers) override {
    std::lock_guard<std::mutex> lock(mu);
    log.push_back(std::string(FlightMethodName(info.method)) + " " +
                  std::string(headers.GetFirst("x-request").value_or("-")));
    if (headers.GetFirst("x-refuse")) return Status::Invalid("refused by middleware");
    return std::unique_ptr<ServerMiddleware>(new Tracer(&log, &mu));
  }
  std::mutex mu;
  std::vector<std::string> log;
};

TEST(FlightMiddleware, SeesEveryCallsHeadersAndOutcome) {
  WhoAmIServer server;
  auto factory = std::make_shared<TracerFactory>();
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  options.middleware = {{"tracer", factory}};
  ASSERT_TRUE(server.Init(options).ok());
  auto client = FlightClient::Connect(server.location()).ValueOrDie();
  CallOptions call;
  call.headers = {{"x-request", "r1"}};
  auto info = client->GetFlightInfo(FlightDescriptor::Command("x"), call);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->app_metadata, "+tracer");
  auto actions = client->ListActions();
  EXPECT_TRUE(actions.ok());
  CallOptions refuse;
  refuse.headers = {{"x-refuse", "1"}};
  auto refused = client->GetFlightInfo(FlightDescriptor::Command("x"), refuse);
  EXPECT_TRUE(refused.status().IsInvalid()) << refused.status().ToString();
  ASSERT_TRUE(server.Shutdown().ok());
  std::lock_guard<std::mutex> lock(factory->mu);
  EXPECT_EQ(factory->log, (std::vector<std::string>{"GetFlightInfo r1", "ok", "ListActions -", "ok",
                                                    "GetFlightInfo -"}));
}

}  // namespace
}  // namespace alkaid::flight
