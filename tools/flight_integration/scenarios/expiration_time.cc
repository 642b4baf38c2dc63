// expiration_time:*: GetFlightInfo answers three endpoints, tickets "0: ...", "1: ...",
// "2: ..." (the number before ':' indexes the server's state): one without expiration time,
// which DoGet may read once; one expiring in 5 s and one in 6 s, readable again and again until
// then. Endpoint i holds the single value i (column "number", uint32, not nullable). The
// well-known actions CancelFlightInfo (afterwards every DoGet of the flight fails) and
// RenewFlightEndpoint (ticket gets ": renewed (+ 10 seconds)", expiration now + 10 s) work on
// that state, and ListActions names exactly those two.
//   do_get: read every endpoint once, expect [0, 1, 2] and the expiration times as above.
//   list_actions: ListActions answers CancelFlightInfo and RenewFlightEndpoint.
//   cancel_flight_info: cancel answers CANCELLED; then every DoGet of the flight fails.
//   renew_flight_endpoint: each renewed endpoint expires later than before.
#include <algorithm>
#include <charconv>
#include <mutex>

#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

SchemaPtr NumberSchema() { return IntegerSchema("number", uint32()); }

class ExpirationTimeServer final : public flight::FlightServerBase {
 public:
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& descriptor) override {
    std::lock_guard<std::mutex> lock(mu_);
    endpoints_.clear();
    flight::FlightInfo info;
    info.descriptor = descriptor;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*NumberSchema()));
    auto now = std::chrono::system_clock::now();
    info.endpoints.push_back(Add("No expiration time", std::nullopt));
    info.endpoints.push_back(Add("5 seconds", now + std::chrono::seconds(5)));
    info.endpoints.push_back(Add("6 seconds", now + std::chrono::seconds(6)));
    return info;
  }

  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket& ticket) override {
    std::lock_guard<std::mutex> lock(mu_);
    ALKAID_ASSIGN_OR_RAISE(size_t index, IndexOf(ticket.ticket));
    State& state = endpoints_[index];
    if (state.cancelled) return Status::KeyError("flight cancelled: ", ticket.ticket);
    if (state.expiration_time) {
      if (*state.expiration_time < std::chrono::system_clock::now()) {
        return Status::KeyError("flight expired: ", ticket.ticket);
      }
    } else if (state.reads > 0) {
      return Status::KeyError("flight without expiration time read twice: ", ticket.ticket);
    }
    ++state.reads;
    return IntegerStream(NumberSchema(), {static_cast<int64_t>(index)});
  }

  Result<flight::CancelFlightInfoResult> CancelFlightInfo(
      const flight::ServerCallContext&, const flight::CancelFlightInfoRequest& request) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto status = flight::CancelStatus::kUnspecified;
    for (const auto& endpoint : request.info.endpoints) {
      auto index = IndexOf(endpoint.ticket.ticket);
      if (!index.ok() || endpoints_[*index].cancelled) {
        status = flight::CancelStatus::kNotCancellable;
        continue;
      }
      endpoints_[*index].cancelled = true;
      if (status == flight::CancelStatus::kUnspecified) status = flight::CancelStatus::kCancelled;
    }
    return flight::CancelFlightInfoResult{status};
  }

  Result<flight::FlightEndpoint> RenewFlightEndpoint(
      const flight::ServerCallContext&, const flight::RenewFlightEndpointRequest& request) override {
    std::lock_guard<std::mutex> lock(mu_);
    flight::FlightEndpoint endpoint = request.endpoint;
    ALKAID_ASSIGN_OR_RAISE(size_t index, IndexOf(endpoint.ticket.ticket));
    if (endpoints_[index].cancelled) {
      return Status::Invalid("flight cancelled: ", endpoint.ticket.ticket);
    }
    endpoint.ticket.ticket += ": renewed (+ 10 seconds)";
    endpoint.expiration_time = std::chrono::system_clock::now() + std::chrono::seconds(10);
    endpoints_[index].expiration_time = endpoint.expiration_time;
    return endpoint;
  }

  Result<std::vector<flight::ActionType>> ListActions(const flight::ServerCallContext&) override {
    return std::vector<flight::ActionType>{flight::ActionType::kCancelFlightInfo,
                                           flight::ActionType::kRenewFlightEndpoint};
  }

 private:
  struct State {
    std::optional<flight::Timestamp> expiration_time;
    int reads = 0;
    bool cancelled = false;
  };

  flight::FlightEndpoint Add(const std::string& label, std::optional<flight::Timestamp> expires) {
    flight::FlightEndpoint endpoint;
    endpoint.ticket.ticket = std::to_string(endpoints_.size()) + ": " + label;
    endpoint.expiration_time = expires;
    endpoints_.push_back(State{expires});
    return endpoint;
  }

  Result<size_t> IndexOf(std::string_view ticket) const {
    std::string_view digits = ticket.substr(0, ticket.find(':'));
    size_t index = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      return Status::KeyError("ticket without an index: '", ticket, "'");
    }
    if (index >= endpoints_.size()) {
      return Status::KeyError("ticket index out of range: '", ticket, "'");
    }
    return index;
  }

  std::mutex mu_;
  std::vector<State> endpoints_;
};

// The server of every expiration_time scenario; the client's run differs.
class ExpirationTimeScenario : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(flight::ServerOptions*) override {
    return std::make_unique<ExpirationTimeServer>();
  }
};

class DoGetScenario final : public ExpirationTimeScenario {
 public:
  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(
        auto info, client->GetFlightInfo(flight::FlightDescriptor::Command("expiration_time")));
    std::vector<int64_t> values;
    for (size_t i = 0; i < info.endpoints.size(); ++i) {
      bool has = info.endpoints[i].expiration_time.has_value();
      if (i == 0 && has) return Status::Invalid("endpoint 0 must have no expiration time");
      if (i > 0 && !has) return Status::Invalid("endpoint ", i, " must have an expiration time");
      ALKAID_ASSIGN_OR_RAISE(auto reader, client->DoGet(info.endpoints[i].ticket));
      ALKAID_RETURN_NOT_OK(ReadIntegers(*reader, NumberSchema(), &values));
    }
    if (values != std::vector<int64_t>{0, 1, 2}) {
      return Status::Invalid("expected [0, 1, 2], read ", FormatIntegers(values));
    }
    return Status::OK();
  }
};

class ListActionsScenario final : public ExpirationTimeScenario {
 public:
  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto actions, client->ListActions());
    std::vector<std::string> types;
    for (const auto& action : actions) types.push_back(action.type);
    std::sort(types.begin(), types.end());
    if (types != std::vector<std::string>{"CancelFlightInfo", "RenewFlightEndpoint"}) {
      std::string got;
      for (const auto& t : types) got += (got.empty() ? "" : ", ") + t;
      return Status::Invalid("ListActions must answer [CancelFlightInfo, RenewFlightEndpoint], got [",
                             got, "]");
    }
    return Status::OK();
  }
};

class CancelFlightInfoScenario final : public ExpirationTimeScenario {
 public:
  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto info,
                           client->GetFlightInfo(flight::FlightDescriptor::Command("expiration")));
    ALKAID_ASSIGN_OR_RAISE(auto result, client->CancelFlightInfo({info}));
    if (result.status != flight::CancelStatus::kCancelled) {
      return Status::Invalid("CancelFlightInfo must answer CANCELLED (1), got ",
                             static_cast<int>(result.status));
    }
    for (size_t i = 0; i < info.endpoints.size(); ++i) {
      // A DoGet's error may come with the call or with its first message.
      auto reader = client->DoGet(info.endpoints[i].ticket);
      if (reader.ok() && (*reader)->ToTable().ok()) {
        return Status::Invalid("DoGet of endpoint ", i, " must fail after CancelFlightInfo");
      }
    }
    return Status::OK();
  }
};

class RenewFlightEndpointScenario final : public ExpirationTimeScenario {
 public:
  Status RunClient(const std::string& host, int port) override {
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port));
    ALKAID_ASSIGN_OR_RAISE(auto info,
                           client->GetFlightInfo(flight::FlightDescriptor::Command("expiration")));
    for (const auto& endpoint : info.endpoints) {
      if (!endpoint.expiration_time) continue;
      ALKAID_ASSIGN_OR_RAISE(auto renewed, client->RenewFlightEndpoint({endpoint}));
      if (!renewed.expiration_time) {
        return Status::Invalid("the renewed endpoint of ticket '", endpoint.ticket.ticket,
                               "' has no expiration time");
      }
      if (*renewed.expiration_time <= *endpoint.expiration_time) {
        return Status::Invalid("the renewed endpoint of ticket '", endpoint.ticket.ticket,
                               "' must expire later than before");
      }
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeExpirationTimeDoGetScenario() {
  return std::make_unique<DoGetScenario>();
}
std::unique_ptr<Scenario> MakeExpirationTimeListActionsScenario() {
  return std::make_unique<ListActionsScenario>();
}
std::unique_ptr<Scenario> MakeExpirationTimeCancelFlightInfoScenario() {
  return std::make_unique<CancelFlightInfoScenario>();
}
std::unique_ptr<Scenario> MakeExpirationTimeRenewFlightEndpointScenario() {
  return std::make_unique<RenewFlightEndpointScenario>();
}

}  // namespace alkaid::flight_integration
