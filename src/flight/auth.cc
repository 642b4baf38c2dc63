#include "auth.h"

#include <mutex>
#include <random>
#include <unordered_map>

#include "protobuf.h"

namespace alkaid::flight {

namespace auth {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::string Base64(std::string_view bytes) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(acc >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63];
  while (out.size() % 4 != 0) out += '=';
  return out;
}

Result<std::string> FromBase64(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    int v = Sextet(text[i]);
    if (v < 0) return Status::Invalid("base64: unexpected character at offset ", i);
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  return out;
}

}  // namespace auth

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
      ALKAID_ASSIGN_OR_RAISE(auto decoded, auth::FromBase64(header->substr(kBasic.size())));
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
