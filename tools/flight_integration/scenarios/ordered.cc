// ordered: GetFlightInfo of command "ordered" answers ordered = true and three endpoints
// (tickets "1", "2", "3", no locations); reading them front to back must give
// 1, 2, 3, 10, 20, 30, 100, 200, 300 (column "number", int32, not nullable). Any other command
// lists the endpoints out of order with ordered = false.
#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

SchemaPtr NumberSchema() { return IntegerSchema("number", int32()); }

class OrderedServer final : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& descriptor) override {
    bool ordered =
        descriptor.type == flight::FlightDescriptor::Type::kCmd && descriptor.cmd == "ordered";
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*NumberSchema()));
    for (const char* ticket : ordered ? std::vector<const char*>{"1", "2", "3"}
                                      : std::vector<const char*>{"1", "3", "2"}) {
      flight::FlightEndpoint endpoint;
      endpoint.ticket.ticket = ticket;
      info.endpoints.push_back(endpoint);
    }
    info.ordered = ordered;
    return info;
  }

  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket& ticket) override {
    if (ticket.ticket == "1") return IntegerStream(NumberSchema(), {1, 2, 3});
    if (ticket.ticket == "2") return IntegerStream(NumberSchema(), {10, 20, 30});
    if (ticket.ticket == "3") return IntegerStream(NumberSchema(), {100, 200, 300});
    return Status::KeyError("no flight for ticket '", ticket.ticket, "'");
  }
};

class OrderedScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<OrderedServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto info,
                           client->GetFlightInfo(flight::FlightDescriptor::Command("ordered")));
    if (!info.ordered) return Status::Invalid("the server must answer FlightInfo.ordered = true");
    std::vector<int64_t> values;
    for (size_t i = 0; i < info.endpoints.size(); ++i) {
      ALKAID_RETURN_NOT_OK(ExpectNoLocations(info.endpoints[i], i));
      ALKAID_ASSIGN_OR_RAISE(auto reader, client->DoGet(info.endpoints[i].ticket));
      ALKAID_RETURN_NOT_OK(ReadIntegers(*reader, NumberSchema(), &values));
    }
    const std::vector<int64_t> expected = {1, 2, 3, 10, 20, 30, 100, 200, 300};
    if (values != expected) {
      return Status::Invalid("expected ", FormatIntegers(expected), ", read ",
                             FormatIntegers(values));
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeOrderedScenario() { return std::make_unique<OrderedScenario>(); }

}  // namespace alkaid::flight_integration
