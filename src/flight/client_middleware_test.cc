// Client middleware (ClientOptions::middleware): headers added to every call, the server's
// answer headers seen on successful and failing calls and on data streams, the outcome of each
// call; the cookie middleware; the "auth-token-bin" header of Arrow's older auth scheme.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "alkaid/flight/api.h"
#include "test_util/array_from_json.h"

namespace alkaid::flight {
namespace {

using ::alkaid::testing::ArrayFromJSON;

// Server middleware that answers every call with "x-echo" = the call's "x-request" header, and
// with "set-cookie" = the call's "x-set-cookie" header when there is one.
class Echo final : public ServerMiddleware {
 public:
  Echo(std::string echo, std::string set_cookie)
      : echo_(std::move(echo)), set_cookie_(std::move(set_cookie)) {}
  std::string name() const override { return "echo"; }
  void SendingHeaders(OutgoingHeaders& headers) override {
    headers.Add("x-echo", echo_);
    if (!set_cookie_.empty()) headers.Add("set-cookie", set_cookie_);
  }

 private:
  std::string echo_, set_cookie_;
};

class EchoFactory final : public ServerMiddlewareFactory {
 public:
  Result<std::unique_ptr<ServerMiddleware>> StartCall(const CallInfo&,
                                                      const CallHeaders& headers) override {
    return std::unique_ptr<ServerMiddleware>(
        new Echo(std::string(headers.GetFirst("x-request").value_or("")),
                 std::string(headers.GetFirst("x-set-cookie").value_or(""))));
  }
};

class Server final : public FlightServerBase {
 public:
  Result<FlightInfo> GetFlightInfo(const ServerCallContext& ctx,
                                   const FlightDescriptor& descriptor) override {
    if (descriptor.cmd == "fail") return Status::KeyError("no such flight");
    FlightInfo info;
    // What the client sent as cookies and auth-token-bin, for the tests to check.
    info.app_metadata = std::string(ctx.incoming_headers().GetFirst("cookie").value_or("-")) +
                        "|" +
                        std::string(ctx.incoming_headers().GetFirst("auth-token-bin").value_or("-"));
    return info;
  }
  Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext&,
                                                  const Ticket&) override {
    auto s = alkaid::schema({field("x", int32())});
    auto batch = RecordBatch::Make(s, 2, ArrayDataVector{ArrayFromJSON(int32(), "[1, 2]")});
    ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make({batch}, s));
    return MakeRecordBatchStream(std::move(reader));
  }
};

// Records what the client middleware sees, for every call of the client.
struct Log {
  std::mutex mu;
  std::vector<std::string> lines;
  void Add(std::string line) {
    std::lock_guard<std::mutex> lock(mu);
    lines.push_back(std::move(line));
  }
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mu);
    return std::exchange(lines, {});
  }
};

class Recorder final : public ClientMiddleware {
 public:
  Recorder(Log* log, FlightMethod method) : log_(log), method_(FlightMethodName(method)) {}
  void SendingHeaders(OutgoingHeaders& headers) override {
    headers.Add("x-request", std::string("from ") + method_);
  }
  void ReceivedHeaders(const CallHeaders& headers) override {
    log_->Add(method_ + std::string(" headers ") +
              std::string(headers.GetFirst("x-echo").value_or("(none)")));
  }
  void CallCompleted(const Status& status) override {
    log_->Add(method_ + std::string(status.ok() ? " ok" : " failed: " + status.ToString()));
  }

 private:
  Log* log_;
  const char* method_;
};

class RecorderFactory final : public ClientMiddlewareFactory {
 public:
  std::unique_ptr<ClientMiddleware> StartCall(const CallInfo& info) override {
    EXPECT_FALSE(info.peer.empty());
    return std::make_unique<Recorder>(&log, info.method);
  }
  Log log;
};

class ClientMiddlewareTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ServerOptions options;
    options.location = "grpc://127.0.0.1:0";
    options.middleware = {{"echo", std::make_shared<EchoFactory>()}};
    ASSERT_TRUE(server_.Init(options).ok());
  }
  void TearDown() override { ASSERT_TRUE(server_.Shutdown().ok()); }
  std::unique_ptr<FlightClient> Connect(std::vector<std::shared_ptr<ClientMiddlewareFactory>> m) {
    ClientOptions options;
    options.middleware = std::move(m);
    return FlightClient::Connect(server_.location(), options).ValueOrDie();
  }
  Server server_;
};

TEST_F(ClientMiddlewareTest, SeesAnswerHeadersOfSuccessfulAndFailingCalls) {
  auto recorder = std::make_shared<RecorderFactory>();
  auto client = Connect({recorder});
  ASSERT_TRUE(client->GetFlightInfo(FlightDescriptor::Command("ok")).ok());
  auto failed = client->GetFlightInfo(FlightDescriptor::Command("fail"));
  ASSERT_TRUE(failed.status().IsKeyError()) << failed.status().ToString();
  auto lines = recorder->log.Take();
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "GetFlightInfo headers from GetFlightInfo");
  EXPECT_EQ(lines[1], "GetFlightInfo ok");
  EXPECT_EQ(lines[2], "GetFlightInfo headers from GetFlightInfo");
  EXPECT_NE(lines[3].find("GetFlightInfo failed: Key error"), std::string::npos) << lines[3];
  EXPECT_NE(lines[3].find("no such flight"), std::string::npos) << lines[3];
}

TEST_F(ClientMiddlewareTest, SeesDataStreamsAndStreamingRpcs) {
  auto recorder = std::make_shared<RecorderFactory>();
  auto client = Connect({recorder});
  auto reader = client->DoGet(Ticket{"t"}).ValueOrDie();
  auto table = reader->ToTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 2);
  reader.reset();
  ASSERT_TRUE(client->ListActions().ok());
  EXPECT_EQ(recorder->log.Take(),
            (std::vector<std::string>{"DoGet headers from DoGet", "DoGet ok",
                                      "ListActions headers from ListActions", "ListActions ok"}));
}

TEST_F(ClientMiddlewareTest, AbandonedStreamStillCompletes) {
  auto recorder = std::make_shared<RecorderFactory>();
  auto client = Connect({recorder});
  auto reader = client->DoGet(Ticket{"t"}).ValueOrDie();
  ASSERT_TRUE(reader->GetSchema().ok());
  reader.reset();  // dropped before the end of the stream
  auto lines = recorder->log.Take();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "DoGet headers from DoGet");
  EXPECT_NE(lines[1].find("DoGet failed"), std::string::npos) << lines[1];
}

TEST_F(ClientMiddlewareTest, CookiesAreKeptAndSentBack) {
  auto client = Connect({MakeCookieMiddleware()});
  auto cookies_sent = [&](std::vector<Header> headers) {
    CallOptions call;
    call.headers = std::move(headers);
    auto info = client->GetFlightInfo(FlightDescriptor::Command("x"), call);
    EXPECT_TRUE(info.ok()) << info.status().ToString();
    std::string sent = info.ok() ? info->app_metadata : "";
    return sent.substr(0, sent.find('|'));
  };
  EXPECT_EQ(cookies_sent({{"x-set-cookie", "session=\"abc\"; Path=/; HttpOnly"}}), "-");
  EXPECT_EQ(cookies_sent({{"x-set-cookie", "other=1"}}), "session=abc");
  EXPECT_EQ(cookies_sent({{"x-set-cookie", "session=def; max-age=100"}}), "other=1; session=abc");
  EXPECT_EQ(cookies_sent({{"x-set-cookie", "session=gone; Max-Age=0"}}), "other=1; session=def");
  EXPECT_EQ(cookies_sent({{"x-set-cookie", "malformed"}}), "other=1");
  EXPECT_EQ(cookies_sent({}), "other=1");
  // A server cannot make the client keep more than 64 cookies.
  for (int i = 0; i < 100; ++i) cookies_sent({{"x-set-cookie", "c" + std::to_string(i) + "=v"}});
  std::string sent = cookies_sent({});
  EXPECT_EQ(std::count(sent.begin(), sent.end(), '='), 64) << sent;
  EXPECT_NE(sent.find("other=1"), std::string::npos);
}

// An auth handler of Arrow's older scheme: the token is the Handshake's payload only (no
// bearer header), and later calls present it in "auth-token-bin".
class PayloadTokenAuth final : public ServerAuthHandler {
 public:
  Status Handshake(const CallHeaders&, Channel& channel) override {
    ALKAID_ASSIGN_OR_RAISE(auto payload, channel.Read());
    return channel.Write("token-of-alice");
  }
  Result<std::string> IsValid(const CallHeaders&, std::string_view token) override {
    if (token == "token-of-alice") return std::string("alice");
    return FlightError(FlightStatusCode::kUnauthenticated, "bad token");
  }
};

TEST(FlightAuthTokenBin, ServerAcceptsItAndClientSendsItForPayloadTokens) {
  Server server;
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  options.auth_handler = std::make_shared<PayloadTokenAuth>();
  ASSERT_TRUE(server.Init(options).ok());
  auto client = FlightClient::Connect(server.location()).ValueOrDie();
  CallOptions token_bin;
  token_bin.headers = {{"auth-token-bin", "token-of-alice"}};
  auto info = client->GetFlightInfo(FlightDescriptor::Command("x"), token_bin);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  CallOptions wrong;
  wrong.headers = {{"auth-token-bin", "forged"}};
  EXPECT_EQ(FlightStatusCodeOf(client->GetFlightInfo(FlightDescriptor::Command("x"), wrong).status()),
            FlightStatusCode::kUnauthenticated);

  ASSERT_TRUE(client->AuthenticateBasic("alice", "pw").ok());
  info = client->GetFlightInfo(FlightDescriptor::Command("x"));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->app_metadata, "-|token-of-alice");
  ASSERT_TRUE(server.Shutdown().ok());
}

}  // namespace
}  // namespace alkaid::flight
