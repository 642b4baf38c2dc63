#include "auth.h"

#include <mutex>
#include <random>
#include <unordered_map>

#include "protobuf.h"
#include "../util/base64.h"

namespace alkaid::flight {

namespace {

class BasicAuthHandler final : public ServerAuthHandler {
 public:
  using Check = std::function<Result<std::string>(std::string_view, std::string_view)>;
  explicit BasicAuthHandler(Check check) : check_(std::move(check)) {}

  Status Handshake(const CallHeaders& headers, Channel& channel) override {
    std::string user, password;
    auto header = headers.GetFirst("authorization");
    constexpr std::string_view kBasic = "Basic ";
    if (header && header->substr(0, kBasic.size()) == kBasic) {
      ALKAID_ASSIGN_OR_RAISE(auto decoded,
                             alkaid::internal::Base64Decode(header->substr(kBasic.size())));
      auto colon = decoded.find(':');
      if (colon == std::string::npos) {
        return FlightError(FlightStatusCode::kUnauthenticated, "malformed Basic credentials");
      }
      user = decoded.substr(0, colon);
      password = decoded.substr(colon + 1);
    } else {
      ALKAID_ASSIGN_OR_RAISE(auto payload, channel.Read());
      if (!payload) {
        return FlightError(FlightStatusCode::kUnauthenticated, "the Handshake carried no credentials");
      }
      proto::pb::BasicAuth basic;
      if (!basic.ParseFromString(*payload)) {
        return FlightError(FlightStatusCode::kUnauthenticated,
                           "the Handshake payload is not a BasicAuth message");
      }
      user = basic.username();
      password = basic.password();
    }
    auto identity = check_(user, password);
    if (!identity.ok()) {
      return FlightError(FlightStatusCode::kUnauthenticated, identity.status().message());
    }
    std::string token = NewToken();
    {
      std::lock_guard<std::mutex> lock(mu_);
      tokens_[token] = *identity;
    }
    return channel.Write(token);
  }

  Result<std::string> IsValid(const CallHeaders&, std::string_view token) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = tokens_.find(std::string(token));
    if (it == tokens_.end()) {
      return FlightError(FlightStatusCode::kUnauthenticated, "unknown bearer token");
    }
    return it->second;
  }

 private:
  static std::string NewToken() {
    static constexpr char kHex[] = "0123456789abcdef";
    std::random_device device;
    std::string token;
    for (int i = 0; i < 8; ++i) {
      uint32_t word = device();
      for (int j = 0; j < 8; ++j) token += kHex[(word >> (4 * j)) & 15];
    }
    return token;
  }

  Check check_;
  std::mutex mu_;
  std::unordered_map<std::string, std::string> tokens_;
};

}  // namespace

bool auth::SendsBearerHeader(const ServerAuthHandler& handler) {
  return dynamic_cast<const BasicAuthHandler*>(&handler) != nullptr;
}

std::shared_ptr<ServerAuthHandler> MakeBasicAuthHandler(
    std::function<Result<std::string>(std::string_view user, std::string_view password)> check) {
  return std::make_shared<BasicAuthHandler>(std::move(check));
}

}  // namespace alkaid::flight
