// poll_flight_info: the first PollFlightInfo answers a running query (descriptor to poll again,
// command "poll"; progress 0.1; expiration in 10 s); polling with that descriptor answers the
// finished query (no descriptor, progress 1.0, no expiration time). Both carry a FlightInfo with
// one endpoint, ticket "long-running query".
#include <cmath>

#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

class PollServer final : public flight::FlightServerBase {
 public:
  Result<flight::PollInfo> PollFlightInfo(const flight::ServerCallContext&,
                                          const flight::FlightDescriptor& descriptor) override {
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*IntegerSchema("number", uint32())));
    flight::FlightEndpoint endpoint;
    endpoint.ticket.ticket = "long-running query";
    info.endpoints = {endpoint};
    flight::PollInfo poll;
    poll.info = std::move(info);
    if (descriptor == flight::FlightDescriptor::Command("poll")) {
      poll.progress = 1.0;
    } else {
      poll.descriptor = flight::FlightDescriptor::Command("poll");
      poll.progress = 0.1;
      poll.expiration_time = std::chrono::system_clock::now() + std::chrono::seconds(10);
    }
    return poll;
  }
};

class PollFlightInfoScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<PollServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(
        auto running, client->PollFlightInfo(flight::FlightDescriptor::Command("heavy query")));
    if (!running.descriptor) return Status::Invalid("a running query must name what to poll");
    if (!running.progress) return Status::Invalid("a running query must report progress");
    if (!(*running.progress >= 0.0 && *running.progress <= 1.0)) {
      return Status::Invalid("progress must be within [0, 1], got ", *running.progress);
    }
    if (!running.expiration_time) {
      return Status::Invalid("a running query must have an expiration time");
    }
    ALKAID_ASSIGN_OR_RAISE(auto done, client->PollFlightInfo(*running.descriptor));
    if (done.descriptor) {
      return Status::Invalid("the second poll must finish the query (no descriptor)");
    }
    if (!done.progress || std::fabs(*done.progress - 1.0) > 1e-5) {
      return Status::Invalid("a finished query must report progress 1.0");
    }
    if (done.expiration_time) {
      return Status::Invalid("a finished query must have no expiration time");
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakePollFlightInfoScenario() {
  return std::make_unique<PollFlightInfoScenario>();
}

}  // namespace alkaid::flight_integration
