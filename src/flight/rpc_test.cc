// Every RPC except the data streams, server and client over loopback TCP: values survive the
// trip, errors keep their code, call options work.
#include <gtest/gtest.h>

#include <thread>

#include "alkaid/flight/api.h"

namespace alkaid::flight {
namespace {

class TestServer : public FlightServerBase {
 public:
  Status ListFlights(const ServerCallContext&, const Criteria& criteria,
                     const FlightInfoSink& emit) override {
    for (int i = 0; i < 3; ++i) {
      FlightInfo info;
      info.descriptor = FlightDescriptor::Path({criteria.expression, std::to_string(i)});
      info.total_records = i;
      ALKAID_RETURN_NOT_OK(emit(info));
    }
    return Status::OK();
  }
  Result<FlightInfo> GetFlightInfo(const ServerCallContext& ctx,
                                   const FlightDescriptor& descriptor) override {
    if (descriptor.type == FlightDescriptor::Type::kCmd && descriptor.cmd == "missing") {
      return Status::KeyError("no flight called ", descriptor.ToString());
    }
    if (descriptor.cmd == "huge-error") return Status::Invalid(std::string(1 << 20, 'x'));
    if (descriptor.cmd == "unauthenticated") {
      return FlightError(FlightStatusCode::kUnauthenticated, "who are you");
    }
    if (descriptor.cmd == "slow") {
      while (!ctx.is_cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return FlightError(FlightStatusCode::kCancelled, "gave up");
    }
    if (descriptor.cmd == "headers") {
      FlightInfo info;
      info.app_metadata = std::string(ctx.incoming_headers().GetFirst("x-test").value_or("none"));
      return info;
    }
    FlightInfo info;
    info.descriptor = descriptor;
    auto schema = alkaid::schema({field("a", int32()), field("b", utf8())});
    ALKAID_RETURN_NOT_OK(info.SetSchema(*schema));
    FlightEndpoint endpoint;
    endpoint.ticket.ticket = "ticket-1";
    endpoint.locations = {Location::ForGrpcTcp("127.0.0.1", 1234), Location::ReuseConnection()};
    endpoint.expiration_time = Timestamp(std::chrono::nanoseconds(1'700'000'000'123'456'789));
    endpoint.app_metadata = std::string("end\0point", 9);
    info.endpoints = {endpoint};
    info.total_records = 42;
    info.total_bytes = 4242;
    info.ordered = true;
    info.app_metadata = "info-meta";
    return info;
  }
  Result<PollInfo> PollFlightInfo(const ServerCallContext& ctx,
                                  const FlightDescriptor& descriptor) override {
    PollInfo poll;
    ALKAID_ASSIGN_OR_RAISE(auto info, GetFlightInfo(ctx, descriptor));
    poll.info = info;
    poll.descriptor = FlightDescriptor::Command("again");
    poll.progress = 0.5;
    return poll;
  }
  Result<SchemaResult> GetSchema(const ServerCallContext& ctx,
                                 const FlightDescriptor& descriptor) override {
    ALKAID_ASSIGN_OR_RAISE(auto info, GetFlightInfo(ctx, descriptor));
    return SchemaResult{info.schema};
  }
  // A server that never answers: waits until the client gives up.
  Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext& ctx,
                                                  const Ticket& ticket) override {
    if (ticket.ticket != "stall") return Status::KeyError("no ticket ", ticket.ticket);
    while (!ctx.is_cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return FlightError(FlightStatusCode::kCancelled, "gave up");
  }
  Status DoAction(const ServerCallContext&, const Action& action,
                  const ActionResultSink& emit) override {
    if (action.type != "echo") return Status::NotImplemented("unknown action ", action.type);
    ALKAID_RETURN_NOT_OK(emit(ActionResult{action.body}));
    return emit(ActionResult{action.body + action.body});
  }
  Result<std::vector<ActionType>> ListActions(const ServerCallContext&) override {
    return std::vector<ActionType>{{"echo", "answers twice"}, ActionType::kCancelFlightInfo};
  }
  Result<CancelFlightInfoResult> CancelFlightInfo(const ServerCallContext&,
                                                  const CancelFlightInfoRequest& request) override {
    CancelFlightInfoResult r;
    r.status = request.info.app_metadata == "cancel-me" ? CancelStatus::kCancelled
                                                         : CancelStatus::kNotCancellable;
    return r;
  }
  Result<FlightEndpoint> RenewFlightEndpoint(const ServerCallContext&,
                                             const RenewFlightEndpointRequest& request) override {
    FlightEndpoint e = request.endpoint;
    e.expiration_time = Timestamp(std::chrono::seconds(2'000'000'000));
    return e;
  }
  Result<SetSessionOptionsResult> SetSessionOptions(
      const ServerCallContext&, const SetSessionOptionsRequest& request) override {
    SetSessionOptionsResult r;
    for (const auto& [k, v] : request.options) {
      if (k == "bad") r.errors[k] = SetSessionOptionError::kInvalidName;
    }
    return r;
  }
  Result<GetSessionOptionsResult> GetSessionOptions(const ServerCallContext&) override {
    GetSessionOptionsResult r;
    r.options["s"] = std::string("v");
    r.options["b"] = true;
    r.options["i"] = int64_t{-7};
    r.options["d"] = 2.5;
    r.options["l"] = std::vector<std::string>{"x", "y"};
    r.options["none"] = std::monostate{};
    return r;
  }
  Result<CloseSessionStatus> CloseSession(const ServerCallContext&) override {
    return CloseSessionStatus::kClosed;
  }
};

class FlightRpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Init({.location = "grpc://127.0.0.1:0"}).ok());
    ASSERT_GT(server_.port(), 0);
    auto client = FlightClient::Connect(server_.location());
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
  }
  void TearDown() override {
    client_.reset();
    ASSERT_TRUE(server_.Shutdown().ok());
  }
  TestServer server_;
  std::unique_ptr<FlightClient> client_;
};

TEST_F(FlightRpcTest, GetFlightInfoCarriesEveryField) {
  auto info = client_->GetFlightInfo(FlightDescriptor::Path({"a", "b"}));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->descriptor, FlightDescriptor::Path({"a", "b"}));
  ASSERT_EQ(info->endpoints.size(), 1u);
  EXPECT_EQ(info->endpoints[0].ticket.ticket, "ticket-1");
  EXPECT_EQ(info->endpoints[0].locations.size(), 2u);
  EXPECT_EQ(info->endpoints[0].expiration_time->time_since_epoch().count(),
            1'700'000'000'123'456'789);
  EXPECT_EQ(info->endpoints[0].app_metadata, std::string("end\0point", 9));
  EXPECT_EQ(info->total_records, 42);
  EXPECT_EQ(info->total_bytes, 4242);
  EXPECT_TRUE(info->ordered);
  EXPECT_EQ(info->app_metadata, "info-meta");
  auto schema = info->GetSchema();
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ((*schema)->num_fields(), 2);
  EXPECT_EQ((*schema)->field(1)->name(), "b");
}

TEST_F(FlightRpcTest, PollFlightInfoAndGetSchema) {
  auto poll = client_->PollFlightInfo(FlightDescriptor::Command("q"));
  ASSERT_TRUE(poll.ok()) << poll.status().ToString();
  ASSERT_TRUE(poll->info.has_value());
  EXPECT_EQ(poll->info->total_records, 42);
  EXPECT_EQ(poll->descriptor, FlightDescriptor::Command("again"));
  EXPECT_EQ(poll->progress, 0.5);
  EXPECT_FALSE(poll->expiration_time.has_value());
  auto schema = client_->GetSchema(FlightDescriptor::Command("q"));
  ASSERT_TRUE(schema.ok());
  auto decoded = schema->GetSchema();
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)->field(0)->name(), "a");
}

TEST_F(FlightRpcTest, ListFlightsStreamsEveryInfo) {
  auto flights = client_->ListFlights(Criteria{"crit"});
  ASSERT_TRUE(flights.ok()) << flights.status().ToString();
  ASSERT_EQ(flights->size(), 3u);
  EXPECT_EQ((*flights)[2].descriptor, FlightDescriptor::Path({"crit", "2"}));
  EXPECT_EQ((*flights)[1].total_records, 1);
}

TEST_F(FlightRpcTest, ActionsAndWellKnownActions) {
  auto results = client_->DoAction(Action{"echo", "hi"});
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_EQ((*results)[1].body, "hihi");
  auto types = client_->ListActions();
  ASSERT_TRUE(types.ok());
  ASSERT_EQ(types->size(), 2u);
  EXPECT_EQ((*types)[1], ActionType::kCancelFlightInfo);

  CancelFlightInfoRequest cancel;
  cancel.info.app_metadata = "cancel-me";
  auto cancelled = client_->CancelFlightInfo(cancel);
  ASSERT_TRUE(cancelled.ok()) << cancelled.status().ToString();
  EXPECT_EQ(cancelled->status, CancelStatus::kCancelled);
  RenewFlightEndpointRequest renew;
  renew.endpoint.ticket.ticket = "t";
  auto renewed = client_->RenewFlightEndpoint(renew);
  ASSERT_TRUE(renewed.ok());
  EXPECT_EQ(renewed->ticket.ticket, "t");
  EXPECT_EQ(renewed->expiration_time, Timestamp(std::chrono::seconds(2'000'000'000)));

  SetSessionOptionsRequest set;
  set.options["good"] = int64_t{1};
  set.options["bad"] = std::string("x");
  auto set_result = client_->SetSessionOptions(set);
  ASSERT_TRUE(set_result.ok());
  ASSERT_EQ(set_result->errors.size(), 1u);
  EXPECT_EQ(set_result->errors.at("bad"), SetSessionOptionError::kInvalidName);
  auto get = client_->GetSessionOptions();
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->options.size(), 6u);
  EXPECT_EQ(std::get<std::vector<std::string>>(get->options.at("l"))[1], "y");
  EXPECT_EQ(std::get<int64_t>(get->options.at("i")), -7);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(get->options.at("none")));
  auto closed = client_->CloseSession();
  ASSERT_TRUE(closed.ok());
  EXPECT_EQ(*closed, CloseSessionStatus::kClosed);
}

TEST_F(FlightRpcTest, ErrorsKeepTheirCodeAndAreCapped) {
  auto missing = client_->GetFlightInfo(FlightDescriptor::Command("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsKeyError()) << missing.status().ToString();
  EXPECT_NE(missing.status().message().find("no flight called cmd missing"), std::string::npos);
  auto huge = client_->GetFlightInfo(FlightDescriptor::Command("huge-error"));
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(huge.status().IsInvalid());
  EXPECT_LT(huge.status().message().size(), 2 * kDefaultMaxErrorTextBytes);
  EXPECT_NE(huge.status().message().find("more bytes cut"), std::string::npos);
  auto unauth = client_->GetFlightInfo(FlightDescriptor::Command("unauthenticated"));
  EXPECT_EQ(FlightStatusCodeOf(unauth.status()), FlightStatusCode::kUnauthenticated);
  auto get = client_->DoGet(Ticket{"x"});
  ASSERT_TRUE(get.ok());
  auto schema = (*get)->GetSchema();
  ASSERT_FALSE(schema.ok());
  EXPECT_TRUE(schema.status().IsKeyError()) << schema.status().ToString();
  // RPCs the server does not override answer NotImplemented naming the RPC.
  auto put = client_->DoExchange(FlightDescriptor::Command("x"));
  ASSERT_TRUE(put.ok());
  auto exchanged = put->reader->GetSchema();
  ASSERT_FALSE(exchanged.ok());
  EXPECT_TRUE(exchanged.status().IsNotImplemented()) << exchanged.status().ToString();
  EXPECT_NE(exchanged.status().message().find("DoExchange"), std::string::npos);
  auto action = client_->DoAction(Action{"nope", ""});
  EXPECT_TRUE(action.status().IsNotImplemented());
}

TEST_F(FlightRpcTest, CallOptionsDeadlineHeadersAndStop) {
  CallOptions headers;
  headers.headers = {{"x-test", "hello"}};
  auto info = client_->GetFlightInfo(FlightDescriptor::Command("headers"), headers);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->app_metadata, "hello");

  CallOptions deadline;
  deadline.timeout = std::chrono::milliseconds(100);
  auto start = std::chrono::steady_clock::now();
  auto slow = client_->GetFlightInfo(FlightDescriptor::Command("slow"), deadline);
  EXPECT_EQ(FlightStatusCodeOf(slow.status()), FlightStatusCode::kTimedOut)
      << slow.status().ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));

  CallOptions stop;
  stop.stop_source = StopSource();
  std::thread stopper([source = *stop.stop_source]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    source.RequestStop();
  });
  auto stopped = client_->GetFlightInfo(FlightDescriptor::Command("slow"), stop);
  stopper.join();
  EXPECT_EQ(FlightStatusCodeOf(stopped.status()), FlightStatusCode::kCancelled)
      << stopped.status().ToString();
}

TEST_F(FlightRpcTest, AStalledDoGetEndsByDeadlineStopSourceOrCancel) {
  CallOptions deadline;
  deadline.timeout = std::chrono::milliseconds(100);
  auto timed = client_->DoGet(Ticket{"stall"}, deadline).ValueOrDie()->GetSchema();
  EXPECT_EQ(FlightStatusCodeOf(timed.status()), FlightStatusCode::kTimedOut)
      << timed.status().ToString();

  CallOptions stop;
  stop.stop_source = StopSource();
  auto stopped_reader = client_->DoGet(Ticket{"stall"}, stop).ValueOrDie();
  std::thread stopper([source = *stop.stop_source]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    source.RequestStop();
  });
  auto stopped = stopped_reader->GetSchema();
  stopper.join();
  EXPECT_EQ(FlightStatusCodeOf(stopped.status()), FlightStatusCode::kCancelled)
      << stopped.status().ToString();

  auto reader = client_->DoGet(Ticket{"stall"}).ValueOrDie();
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    reader->Cancel();
  });
  auto cancelled = reader->GetSchema();
  canceller.join();
  EXPECT_EQ(FlightStatusCodeOf(cancelled.status()), FlightStatusCode::kCancelled)
      << cancelled.status().ToString();
}

TEST(FlightServer, RefusesBadLocationsAndUnreachableServersAreUnavailable) {
  TestServer server;
  EXPECT_FALSE(server.Init({.location = "http://127.0.0.1:0"}).ok());
  TestServer tls;
  EXPECT_FALSE(tls.Init({.location = "grpc+tls://127.0.0.1:0"}).ok());
  auto client = FlightClient::Connect(Location::ForGrpcTcp("127.0.0.1", 1));
  ASSERT_TRUE(client.ok());
  CallOptions options;
  options.timeout = std::chrono::seconds(5);
  auto info = (*client)->GetFlightInfo(FlightDescriptor::Command("x"), options);
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(FlightStatusCodeOf(info.status()), FlightStatusCode::kUnavailable)
      << info.status().ToString();
}

}  // namespace
}  // namespace alkaid::flight
