// middleware: the client's middleware sends "x-middleware: expected value" with every call; the
// server's middleware answers the same header back, and the client must see it both for a
// GetFlightInfo that fails (where some gRPC servers send their headers as trailers only) and
// for one that succeeds (command "success").
#include <iostream>
#include <mutex>

#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

constexpr char kHeader[] = "x-middleware";
constexpr char kValue[] = "expected value";

class EchoMiddleware final : public flight::ServerMiddleware {
 public:
  explicit EchoMiddleware(std::string value) : value_(std::move(value)) {}
  std::string name() const override { return "echo"; }
  void SendingHeaders(flight::OutgoingHeaders& headers) override { headers.Add(kHeader, value_); }

 private:
  std::string value_;
};

class EchoFactory final : public flight::ServerMiddlewareFactory {
 public:
  Result<std::unique_ptr<flight::ServerMiddleware>> StartCall(
      const flight::CallInfo&, const flight::CallHeaders& headers) override {
    return std::unique_ptr<flight::ServerMiddleware>(
        new EchoMiddleware(std::string(headers.GetFirst(kHeader).value_or(""))));
  }
};

class MiddlewareServer final : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& descriptor) override {
    if (descriptor.type != flight::FlightDescriptor::Type::kCmd || descriptor.cmd != "success") {
      return Status::UnknownError("Unknown");
    }
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*schema({})));
    flight::FlightEndpoint endpoint;
    endpoint.ticket.ticket = "foo";
    // A location nobody reads: the scenario only checks headers.
    endpoint.locations = {flight::Location::ForGrpcTcp("localhost", 10010)};
    info.endpoints = {endpoint};
    return info;
  }
};

// What the client's middleware saw last, shared by the calls of one client.
struct Received {
  std::mutex mu;
  std::string value;
};

class SendAndRecord final : public flight::ClientMiddleware {
 public:
  explicit SendAndRecord(std::shared_ptr<Received> received) : received_(std::move(received)) {}
  void SendingHeaders(flight::OutgoingHeaders& headers) override { headers.Add(kHeader, kValue); }
  void ReceivedHeaders(const flight::CallHeaders& headers) override {
    if (auto value = headers.GetFirst(kHeader)) {
      std::lock_guard<std::mutex> lock(received_->mu);
      received_->value = std::string(*value);
    }
  }

 private:
  std::shared_ptr<Received> received_;
};

class SendAndRecordFactory final : public flight::ClientMiddlewareFactory {
 public:
  std::unique_ptr<flight::ClientMiddleware> StartCall(const flight::CallInfo&) override {
    return std::make_unique<SendAndRecord>(received);
  }
  std::string Take() {
    std::lock_guard<std::mutex> lock(received->mu);
    return std::exchange(received->value, "");
  }
  std::shared_ptr<Received> received = std::make_shared<Received>();
};

class MiddlewareScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(
      flight::ServerOptions* options) override {
    options->middleware.emplace_back("echo", std::make_shared<EchoFactory>());
    return std::make_unique<MiddlewareServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    auto recorder = std::make_shared<SendAndRecordFactory>();
    flight::ClientOptions options;
    options.middleware = {recorder};
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port, options));
    if (client->GetFlightInfo(flight::FlightDescriptor::Command("")).ok()) {
      return Status::Invalid("GetFlightInfo of command '' must fail");
    }
    if (auto got = recorder->Take(); got != kValue) {
      return Status::Invalid("failing call: expected header '", kHeader, ": ", kValue,
                             "', got '", got, "'");
    }
    std::cerr << "Headers received successfully on failing call." << std::endl;
    ALKAID_RETURN_NOT_OK(client->GetFlightInfo(flight::FlightDescriptor::Command("success")));
    if (auto got = recorder->Take(); got != kValue) {
      return Status::Invalid("successful call: expected header '", kHeader, ": ", kValue,
                             "', got '", got, "'");
    }
    std::cerr << "Headers received successfully on passing call." << std::endl;
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeMiddlewareScenario() {
  return std::make_unique<MiddlewareScenario>();
}

}  // namespace alkaid::flight_integration
