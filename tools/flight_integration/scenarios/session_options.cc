// session_options: sessions kept by the server under the cookie "arrow_flight_session_id"
// (answered in "set-cookie", sent back by the client's cookie middleware). SetSessionOptions
// refuses the option name "lol_invalid" (INVALID_NAME) and the string value "lol_invalid"
// (INVALID_VALUE), clears an option given no value and sets the others; GetSessionOptions
// answers the session's options and fails for a caller without a session.
//
// alkaid's server middleware adds its headers when the call starts, before the handler runs,
// so a caller without the cookie gets its new session (and the cookie) right then; a handler
// that needs an existing session (GetSessionOptions) tells the two apart.
#include <atomic>
#include <map>
#include <mutex>

#include "../scenario.h"
#include "scenario_util.h"

namespace alkaid::flight_integration {

namespace {

constexpr char kCookie[] = "arrow_flight_session_id";
constexpr char kMiddleware[] = "session";
constexpr char kInvalid[] = "lol_invalid";

using Options = std::map<std::string, flight::SessionOptionValue>;

struct Session {
  std::mutex mu;
  Options options;
};

class SessionStore {
 public:
  // The session of `id`; null when there is none.
  std::shared_ptr<Session> Find(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = sessions_.find(id);
    return it == sessions_.end() ? nullptr : it->second;
  }
  std::pair<std::string, std::shared_ptr<Session>> Create() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string id = std::to_string(next_id_++);
    auto session = std::make_shared<Session>();
    sessions_[id] = session;
    return {id, session};
  }

 private:
  std::mutex mu_;
  int64_t next_id_ = 1000;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

// The value of the session cookie in "cookie" headers ("a=1; arrow_flight_session_id=7").
std::optional<std::string> SessionCookie(const flight::CallHeaders& headers) {
  for (std::string_view line : headers.Get("cookie")) {
    while (!line.empty()) {
      size_t end = line.find(';');
      std::string_view pair = line.substr(0, end);
      line = end == std::string_view::npos ? std::string_view() : line.substr(end + 1);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      auto eq = pair.find('=');
      if (eq != std::string_view::npos && pair.substr(0, eq) == kCookie) {
        std::string_view value = pair.substr(eq + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
          value = value.substr(1, value.size() - 2);
        }
        return std::string(value);
      }
    }
  }
  return std::nullopt;
}

class SessionMiddleware final : public flight::ServerMiddleware {
 public:
  SessionMiddleware(std::string id, std::shared_ptr<Session> session, bool existing)
      : id_(std::move(id)), session_(std::move(session)), existing_(existing) {}
  std::string name() const override { return kMiddleware; }
  void SendingHeaders(flight::OutgoingHeaders& headers) override {
    if (!existing_) headers.Add("set-cookie", std::string(kCookie) + "=" + id_);
  }
  Session& session() { return *session_; }
  // False when the session was made for this call (the caller sent no cookie).
  bool existing() const { return existing_; }

 private:
  std::string id_;
  std::shared_ptr<Session> session_;
  bool existing_;
};

class SessionMiddlewareFactory final : public flight::ServerMiddlewareFactory {
 public:
  Result<std::unique_ptr<flight::ServerMiddleware>> StartCall(
      const flight::CallInfo&, const flight::CallHeaders& headers) override {
    if (auto id = SessionCookie(headers)) {
      auto session = store_.Find(*id);
      if (!session) return Status::Invalid("unknown or expired ", kCookie, " cookie '", *id, "'");
      return std::unique_ptr<flight::ServerMiddleware>(
          new SessionMiddleware(*id, std::move(session), true));
    }
    auto [id, session] = store_.Create();
    return std::unique_ptr<flight::ServerMiddleware>(
        new SessionMiddleware(id, std::move(session), false));
  }

 private:
  SessionStore store_;
};

SessionMiddleware& SessionOf(const flight::ServerCallContext& context) {
  // Registered in MakeServer for every call, so always present.
  return *static_cast<SessionMiddleware*>(context.GetMiddleware(kMiddleware));
}

class SessionServer final : public flight::FlightServerBase {
 public:
  Result<flight::SetSessionOptionsResult> SetSessionOptions(
      const flight::ServerCallContext& context,
      const flight::SetSessionOptionsRequest& request) override {
    Session& session = SessionOf(context).session();
    std::lock_guard<std::mutex> lock(session.mu);
    flight::SetSessionOptionsResult result;
    for (const auto& [name, value] : request.options) {
      if (name == kInvalid) {
        result.errors[name] = flight::SetSessionOptionError::kInvalidName;
      } else if (value == flight::SessionOptionValue(std::string(kInvalid))) {
        result.errors[name] = flight::SetSessionOptionError::kInvalidValue;
      } else if (std::holds_alternative<std::monostate>(value)) {
        session.options.erase(name);
      } else {
        session.options[name] = value;
      }
    }
    return result;
  }

  Result<flight::GetSessionOptionsResult> GetSessionOptions(
      const flight::ServerCallContext& context) override {
    SessionMiddleware& middleware = SessionOf(context);
    if (!middleware.existing()) return Status::Invalid("no session to get options from");
    std::lock_guard<std::mutex> lock(middleware.session().mu);
    return flight::GetSessionOptionsResult{middleware.session().options};
  }
};

std::string Describe(const Options& options) {
  std::string out = "{";
  for (const auto& [name, value] : options) {
    if (out.size() > 1) out += ", ";
    out += name + ": ";
    std::visit(
        [&out](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::monostate>) {
            out += "(none)";
          } else if constexpr (std::is_same_v<V, std::string>) {
            out.append(1, '\'').append(v).append(1, '\'');
          } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
            // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + to_string.
            out.append(1, '[').append(std::to_string(v.size())).append(" strings]");
          } else {
            out += std::to_string(v);
          }
        },
        value);
  }
  return out + "}";
}

class SessionOptionsScenario final : public Scenario {
 public:
  Result<std::unique_ptr<flight::FlightServerBase>> MakeServer(
      flight::ServerOptions* options) override {
    options->middleware.emplace_back(kMiddleware, std::make_shared<SessionMiddlewareFactory>());
    return std::make_unique<SessionServer>();
  }

  Status RunClient(const std::string& host, int port) override {
    flight::ClientOptions options;
    options.middleware = {flight::MakeCookieMiddleware()};
    ALKAID_ASSIGN_OR_RAISE(auto client, ConnectTo(host, port, options));
    const std::vector<std::string> list = {"a", "b", "sea", "dee", " ", "  ", "geee",
                                           "(づ｡◕‿‿◕｡)づ"};
    flight::SetSessionOptionsRequest first;
    first.options = {{"foolong", int64_t{123}},
                     {"bardouble", 456.0},
                     {kInvalid, std::string("this won't get set")},
                     {"key_with_invalid_value", std::string(kInvalid)},
                     {"big_ol_string_list", list}};
    ALKAID_ASSIGN_OR_RAISE(auto set1, client->SetSessionOptions(first));
    const std::map<std::string, flight::SetSessionOptionError> errors = {
        {kInvalid, flight::SetSessionOptionError::kInvalidName},
        {"key_with_invalid_value", flight::SetSessionOptionError::kInvalidValue}};
    if (set1.errors != errors) {
      return Status::Invalid("SetSessionOptions must refuse exactly '", kInvalid,
                             "' (INVALID_NAME) and 'key_with_invalid_value' (INVALID_VALUE); got ",
                             set1.errors.size(), " errors");
    }
    ALKAID_RETURN_NOT_OK(Expect(*client, {{"foolong", int64_t{123}},
                                          {"bardouble", 456.0},
                                          {"big_ol_string_list", list}}));
    const std::string joined = "a,b,sea,dee, ,  ,geee,(づ｡◕‿‿◕｡)づ";
    flight::SetSessionOptionsRequest second;
    second.options = {{"foolong", std::monostate{}}, {"big_ol_string_list", joined}};
    ALKAID_ASSIGN_OR_RAISE(auto set2, client->SetSessionOptions(second));
    if (!set2.errors.empty()) return Status::Invalid("the second SetSessionOptions must succeed");
    return Expect(*client, {{"bardouble", 456.0}, {"big_ol_string_list", joined}});
  }

 private:
  static Status Expect(flight::FlightClient& client, const Options& expected) {
    ALKAID_ASSIGN_OR_RAISE(auto got, client.GetSessionOptions());
    if (got.options != expected) {
      return Status::Invalid("GetSessionOptions: expected ", Describe(expected), ", got ",
                             Describe(got.options));
    }
    return Status::OK();
  }
};

}  // namespace

std::unique_ptr<Scenario> MakeSessionOptionsScenario() {
  return std::make_unique<SessionOptionsScenario>();
}

}  // namespace alkaid::flight_integration
