#include "client_middleware.h"

#include <charconv>
#include <map>
#include <mutex>

#include "alkaid/flight/types.h"
#include "grpc_util.h"

namespace alkaid::flight {

namespace client_middleware {

namespace {

using grpc::experimental::InterceptionHookPoints;

FlightMethod MethodOf(const char* path) {
  std::string_view name(path ? path : "");
  name = name.substr(name.rfind('/') + 1);
  for (int m = 0; m <= static_cast<int>(FlightMethod::kListActions); ++m) {
    auto method = static_cast<FlightMethod>(m);
    if (name == FlightMethodName(method)) return method;
  }
  return FlightMethod::kDoAction;  // unreachable for this service's stubs
}

class SendMetadata final : public OutgoingHeaders {
 public:
  explicit SendMetadata(std::multimap<std::string, std::string>* metadata) : metadata_(metadata) {}
  void Add(std::string_view key, std::string_view value) override {
    metadata_->emplace(std::string(key), std::string(value));
  }

 private:
  std::multimap<std::string, std::string>* metadata_;
};

class Interceptor final : public grpc::experimental::Interceptor {
 public:
  Interceptor(std::vector<std::unique_ptr<ClientMiddleware>> middleware, const char* rpc,
              int64_t max_error_text_bytes)
      : middleware_(std::move(middleware)), rpc_(rpc), max_error_text_bytes_(max_error_text_bytes) {}

  ~Interceptor() override {
    // A stream dropped without reading its status (the caller gave up on it) still ends.
    if (!completed_) Complete(FlightError(FlightStatusCode::kCancelled,
                                          std::string(rpc_) + ": abandoned by the caller"));
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      SendMetadata headers(methods->GetSendInitialMetadata());
      for (auto& m : middleware_) m->SendingHeaders(headers);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      auto* metadata = methods->GetRecvInitialMetadata();
      // Empty initial metadata is what a trailers-only answer leaves: wait for the trailers.
      if (metadata && !metadata->empty()) Received(*metadata);
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_STATUS)) {
      if (auto* trailers = methods->GetRecvTrailingMetadata(); trailers && !received_) {
        Received(*trailers);
      }
      grpc::Status* status = methods->GetRecvStatus();
      Complete(status ? grpc_util::FromGrpc(*status, rpc_, max_error_text_bytes_)
                      : Status::OK());
    }
    methods->Proceed();
  }

 private:
  void Received(const std::multimap<grpc::string_ref, grpc::string_ref>& metadata) {
    received_ = true;
    grpc_util::ServerHeaders headers(metadata);
    for (auto& m : middleware_) m->ReceivedHeaders(headers);
  }
  void Complete(const Status& status) {
    completed_ = true;
    for (auto it = middleware_.rbegin(); it != middleware_.rend(); ++it) {
      (*it)->CallCompleted(status);
    }
  }

  std::vector<std::unique_ptr<ClientMiddleware>> middleware_;
  const char* rpc_;
  int64_t max_error_text_bytes_;
  bool received_ = false;
  bool completed_ = false;
};

class InterceptorFactory final : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  InterceptorFactory(std::vector<std::shared_ptr<ClientMiddlewareFactory>> factories,
                     std::string target, int64_t max_error_text_bytes)
      : factories_(std::move(factories)),
        target_(std::move(target)),
        max_error_text_bytes_(max_error_text_bytes) {}

  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    CallInfo call{MethodOf(info->method()), target_};
    std::vector<std::unique_ptr<ClientMiddleware>> middleware;
    for (const auto& factory : factories_) {
      if (auto m = factory->StartCall(call)) middleware.push_back(std::move(m));
    }
    if (middleware.empty()) return nullptr;
    return new Interceptor(std::move(middleware), FlightMethodName(call.method),
                           max_error_text_bytes_);
  }

 private:
  std::vector<std::shared_ptr<ClientMiddlewareFactory>> factories_;
  std::string target_;
  int64_t max_error_text_bytes_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface> MakeInterceptorFactory(
    const ClientOptions& options, std::string target) {
  if (options.middleware.empty()) return nullptr;
  return std::make_unique<InterceptorFactory>(options.middleware, std::move(target),
                                              options.max_error_text_bytes);
}

}  // namespace client_middleware

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The cookies of one client, shared by its calls.
class CookieJar {
 public:
  // A server cannot make the client hold (and send back) more than this many cookies; new
  // names beyond it are ignored, as browsers cap cookies per site.
  static constexpr size_t kMaxCookies = 64;

  // One "set-cookie" value: "name=value; Attr=...; ...". Malformed ones are ignored, as a
  // browser does.
  void Store(std::string_view line) {
    std::string_view pair = Trim(line.substr(0, line.find(';')));
    auto eq = pair.find('=');
    if (eq == std::string_view::npos) return;
    std::string_view name = Trim(pair.substr(0, eq));
    std::string_view value = Trim(pair.substr(eq + 1));
    if (name.empty()) return;
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    bool expired = value.empty();
    for (size_t pos = line.find(';'); pos != std::string_view::npos;) {
      size_t next = line.find(';', pos + 1);
      std::string_view attr = Trim(line.substr(pos + 1, next == std::string_view::npos
                                                            ? std::string_view::npos
                                                            : next - pos - 1));
      pos = next;
      auto attr_eq = attr.find('=');
      if (attr_eq == std::string_view::npos ||
          !EqualsIgnoreCase(Trim(attr.substr(0, attr_eq)), "max-age")) {
        continue;
      }
      std::string_view number = Trim(attr.substr(attr_eq + 1));
      int64_t seconds = 0;
      auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), seconds);
      if (ec == std::errc() && end == number.data() + number.size() && seconds <= 0) {
        expired = true;
      }
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (expired) {
      cookies_.erase(std::string(name));
    } else if (cookies_.size() < kMaxCookies || cookies_.count(std::string(name)) != 0) {
      cookies_[std::string(name)] = std::string(value);
    }
  }
  // The "cookie" header value; empty when there is no cookie.
  std::string Header() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::string out;
    for (const auto& [name, value] : cookies_) {
      if (!out.empty()) out += "; ";
      out += name + "=" + value;
    }
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> cookies_;
};

class CookieMiddleware final : public ClientMiddleware {
 public:
  explicit CookieMiddleware(std::shared_ptr<CookieJar> jar) : jar_(std::move(jar)) {}
  void SendingHeaders(OutgoingHeaders& headers) override {
    std::string cookie = jar_->Header();
    if (!cookie.empty()) headers.Add("cookie", cookie);
  }
  void ReceivedHeaders(const CallHeaders& headers) override {
    for (std::string_view line : headers.Get("set-cookie")) jar_->Store(line);
  }

 private:
  std::shared_ptr<CookieJar> jar_;
};

class CookieMiddlewareFactory final : public ClientMiddlewareFactory {
 public:
  std::unique_ptr<ClientMiddleware> StartCall(const CallInfo&) override {
    return std::make_unique<CookieMiddleware>(jar_);
  }

 private:
  std::shared_ptr<CookieJar> jar_ = std::make_shared<CookieJar>();
};

}  // namespace

std::shared_ptr<ClientMiddlewareFactory> MakeCookieMiddleware() {
  return std::make_shared<CookieMiddlewareFactory>();
}

}  // namespace alkaid::flight
