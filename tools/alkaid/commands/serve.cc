// `alkaid serve DIR`: a Flight server over the data files under DIR (see
// dir_server.h for what each call does). Prints "Serving DIR on URL" once it
// listens (port 0 picks a free port, so scripts read the URL from that line),
// logs one line per call on stderr, and stops cleanly on SIGINT or SIGTERM.
#include <pthread.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

#include "command.h"
#include "dir_server.h"
#include "flight_client.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  ServeSettings* serve = &options->serve;
  AddOption(cmd, "DIR", &options->input, "Directory whose data files are served", kRequired);
  AddOption(cmd, "--host", &serve->host, "Address to listen on", kShowDefault);
  AddRangeOption(cmd, "--port", &serve->port, 0, 65535,
                 "Port to listen on; 0 picks a free one");
  AddOption(cmd, "--tls-cert", &serve->tls_cert, "PEM certificate chain: serve grpc+tls");
  AddOption(cmd, "--tls-key", &serve->tls_key, "PEM private key of --tls-cert");
  AddOption(cmd, "--auth", &serve->auth,
            "USER:PASSWORD: clients must authenticate (basic auth, then a bearer token)");
  AddFlag(cmd, "--allow-overwrite", &serve->allow_overwrite,
          "Let uploads (DoPut) replace existing files");
}

Result<flight::ServerOptions> MakeServerOptions(const ServeSettings& serve) {
  flight::ServerOptions options;
  const bool tls = !serve.tls_cert.empty();
  if (tls != !serve.tls_key.empty())
    return Status::KeyError("--tls-cert and --tls-key go together");
  const std::string host =
      serve.host.find(':') != std::string::npos ? "[" + serve.host + "]" : serve.host;
  options.location =
      std::string(tls ? "grpc+tls://" : "grpc://") + host + ":" + std::to_string(serve.port);
  if (tls) {
    flight::CertKeyPair pair;
    ALKAID_ASSIGN_OR_RAISE(pair.pem_cert, ReadSmallFile(serve.tls_cert, "certificate (--tls-cert)"));
    ALKAID_ASSIGN_OR_RAISE(pair.pem_key, ReadSmallFile(serve.tls_key, "private key (--tls-key)"));
    options.tls_certificates.push_back(std::move(pair));
  }
  if (!serve.auth.empty()) {
    const size_t colon = serve.auth.find(':');
    if (colon == std::string::npos || colon == 0)
      return Status::KeyError("--auth takes USER:PASSWORD");
    std::string user = serve.auth.substr(0, colon), password = serve.auth.substr(colon + 1);
    options.auth_handler = flight::MakeBasicAuthHandler(
        [user, password](std::string_view u, std::string_view p) -> Result<std::string> {
          if (u == user && p == password) return std::string(u);
          return flight::FlightError(flight::FlightStatusCode::kUnauthenticated,
                                     "wrong user name or password");
        });
  }
  return options;
}

int Run(const Options& options) {
  auto server_options = MakeServerOptions(options.serve);
  if (!server_options.ok()) return Report("serve", server_options.status(), kExitUsage);
  auto server = DirServer::Make(options.input, options.serve.allow_overwrite);
  if (!server.ok()) return Report("serve", server.status(), kExitUsage);
  // SIGINT and SIGTERM are taken by one thread (sigwait), blocked in every
  // other, so gRPC's threads never run a handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  Status st = (*server)->Init(*server_options);
  if (!st.ok()) return Report("serve", st, kExitUsage);
  std::string url = server_options->location;
  url = url.substr(0, url.rfind(':') + 1) + std::to_string((*server)->port());
  std::cout << "Serving " << options.input << " on " << url << std::endl;
  DirServer* running = server->get();
  std::thread stopper([running, stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    running->Log(std::string("stopping on ") + (signal == SIGINT ? "SIGINT" : "SIGTERM"));
    // Calls still running get a few seconds, then are cancelled.
    (void)running->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(3));
  });
  st = (*server)->Serve();
  stopper.join();
  (void)(*server)->Shutdown();
  if (!st.ok()) return Report("serve", st);
  running->Log("stopped");
  return kExitOk;
}

}  // namespace

extern const Command kServeCommand = {
    "serve",
    "Serve the data files under a directory over Arrow Flight (list, get, put)", AddOptions, Run};

}  // namespace alkaid::cli
