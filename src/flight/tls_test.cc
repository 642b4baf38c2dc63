// TLS and mutual TLS over loopback, with a CA, a server and a client certificate made by the
// `openssl` command in a temporary directory when the test runs (no key is committed).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "alkaid/flight/api.h"

namespace alkaid::flight {
namespace {

namespace fs = std::filesystem;

class EchoServer : public FlightServerBase {
 public:
  Result<FlightInfo> GetFlightInfo(const ServerCallContext& ctx,
                                   const FlightDescriptor& d) override {
    FlightInfo info;
    info.descriptor = d;
    info.app_metadata = ctx.peer();
    return info;
  }
};

std::string ReadText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Certs {
  std::string ca, server_cert, server_key, client_cert, client_key, other_ca;
};

// Makes the certificates once per test program; empty when openssl is missing.
const Certs* MakeCerts() {
  static const Certs* certs = []() -> const Certs* {
    fs::path dir = fs::temp_directory_path() / ("alkaid-flight-tls-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string d = dir.string();
    std::string script =
        "cd '" + d + "' && "
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 "
        "-subj /CN=alkaid-test-ca && "
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 2 "
        "-subj /CN=other-ca && "
        "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext && "
        "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr "
        "-subj /CN=localhost && "
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
        "-out server.pem -days 2 -extfile san.ext && "
        "openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr "
        "-subj /CN=alkaid-client && "
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
        "-out client.pem -days 2";
    std::string command = "(" + script + ") > '" + d + "/openssl.log' 2>&1";
    if (std::system(command.c_str()) != 0) return nullptr;
    auto* c = new Certs;
    c->ca = ReadText(dir / "ca.pem");
    c->other_ca = ReadText(dir / "other.pem");
    c->server_cert = ReadText(dir / "server.pem");
    c->server_key = ReadText(dir / "server.key");
    c->client_cert = ReadText(dir / "client.pem");
    c->client_key = ReadText(dir / "client.key");
    std::error_code ec;
    fs::remove_all(dir, ec);
    return c;
  }();
  return certs;
}

#define REQUIRE_CERTS(certs)                                                       \
  const Certs* certs = MakeCerts();                                                \
  if (!certs) GTEST_SKIP() << "the openssl command failed or is missing; TLS needs " \
                              "test certificates"

TEST(FlightTls, ServerCertificateCheckedAgainstTheClientsRoots) {
  REQUIRE_CERTS(certs);
  EchoServer server;
  ServerOptions options;
  options.location = "grpc+tls://127.0.0.1:0";
  options.tls_certificates = {{certs->server_cert, certs->server_key}};
  ASSERT_TRUE(server.Init(options).ok());
  EXPECT_EQ(server.location().scheme(), "grpc+tls");

  ClientOptions trusting;
  trusting.tls_root_certs = certs->ca;
  auto client = FlightClient::Connect(Location::ForGrpcTls("localhost", server.port()), trusting)
                    .ValueOrDie();
  auto info = client->GetFlightInfo(FlightDescriptor::Command("hi"));
  EXPECT_TRUE(info.ok()) << info.status().ToString();

  // Roots that did not sign the server's certificate: the handshake fails.
  ClientOptions wrong;
  wrong.tls_root_certs = certs->other_ca;
  auto stranger = FlightClient::Connect(Location::ForGrpcTls("localhost", server.port()), wrong)
                      .ValueOrDie();
  CallOptions call;
  call.timeout = std::chrono::seconds(10);
  auto refused = stranger->GetFlightInfo(FlightDescriptor::Command("hi"), call);
  EXPECT_EQ(FlightStatusCodeOf(refused.status()), FlightStatusCode::kUnavailable)
      << refused.status().ToString();
  ASSERT_TRUE(server.Shutdown().ok());
}

TEST(FlightTls, MutualTlsRefusesAClientWithoutACertificate) {
  REQUIRE_CERTS(certs);
  EchoServer server;
  ServerOptions options;
  options.location = "grpc+tls://127.0.0.1:0";
  options.tls_certificates = {{certs->server_cert, certs->server_key}};
  options.verify_client_roots = certs->ca;
  ASSERT_TRUE(server.Init(options).ok());

  ClientOptions with_cert;
  with_cert.tls_root_certs = certs->ca;
  with_cert.client_cert = CertKeyPair{certs->client_cert, certs->client_key};
  auto client =
      FlightClient::Connect(Location::ForGrpcTls("localhost", server.port()), with_cert)
          .ValueOrDie();
  auto info = client->GetFlightInfo(FlightDescriptor::Command("hi"));
  EXPECT_TRUE(info.ok()) << info.status().ToString();

  ClientOptions without_cert;
  without_cert.tls_root_certs = certs->ca;
  auto anonymous =
      FlightClient::Connect(Location::ForGrpcTls("localhost", server.port()), without_cert)
          .ValueOrDie();
  CallOptions call;
  call.timeout = std::chrono::seconds(10);
  auto refused = anonymous->GetFlightInfo(FlightDescriptor::Command("hi"), call);
  EXPECT_FALSE(refused.ok());
  ASSERT_TRUE(server.Shutdown().ok());
}

// Without server verification the client accepts a certificate no root signed, and still
// presents its own certificate to a mutual-TLS server.
TEST(FlightTls, DisabledServerVerificationStillSendsTheClientCertificate) {
  REQUIRE_CERTS(certs);
  EchoServer server;
  ServerOptions options;
  options.location = "grpc+tls://127.0.0.1:0";
  options.tls_certificates = {{certs->server_cert, certs->server_key}};
  options.verify_client_roots = certs->ca;
  ASSERT_TRUE(server.Init(options).ok());

  ClientOptions insecure;
  insecure.disable_server_verification = true;
  insecure.client_cert = CertKeyPair{certs->client_cert, certs->client_key};
  auto client = FlightClient::Connect(Location::ForGrpcTls("127.0.0.1", server.port()), insecure)
                    .ValueOrDie();
  CallOptions call;
  call.timeout = std::chrono::seconds(10);
  auto info = client->GetFlightInfo(FlightDescriptor::Command("hi"), call);
  EXPECT_TRUE(info.ok()) << info.status().ToString();

  ClientOptions no_cert;
  no_cert.disable_server_verification = true;
  auto anonymous = FlightClient::Connect(Location::ForGrpcTls("127.0.0.1", server.port()), no_cert)
                       .ValueOrDie();
  auto refused = anonymous->GetFlightInfo(FlightDescriptor::Command("hi"), call);
  EXPECT_FALSE(refused.ok());
  ASSERT_TRUE(server.Shutdown().ok());
}

}  // namespace
}  // namespace alkaid::flight
