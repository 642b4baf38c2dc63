// alkaid-flight-integration-server: the server half of Arrow's Flight
// integration tests, as archery runs it:
//
//   alkaid-flight-integration-server -port=0 [-scenario NAME]
//
// Listens on every IPv4 address, prints "Server listening on localhost:PORT"
// (PORT is the bound one; archery reads it from this line), then serves until
// SIGTERM or SIGINT, and exits 0. Without -scenario it serves the default
// scenario (default_scenario.h).
#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "alkaid/extension.h"
#include "default_scenario.h"
#include "flags.h"
#include "scenario.h"

namespace alkaid::flight_integration {
namespace {

Result<std::unique_ptr<Scenario>> ChooseScenario(const std::string& name) {
  if (name.empty()) return std::unique_ptr<Scenario>(std::make_unique<DefaultScenario>());
  return FindScenario(name);
}

Status Run(int argc, char** argv) {
  ALKAID_ASSIGN_OR_RAISE(Flags flags, ParseFlags(argc, argv, {"port", "scenario"}));
  ALKAID_ASSIGN_OR_RAISE(int port, flags.Port("port", 31337));
  ALKAID_ASSIGN_OR_RAISE(auto scenario, ChooseScenario(flags.Get("scenario")));

  // Termination signals are taken by one thread (sigwait) that shuts the
  // server down; every other thread, gRPC's included, inherits the block.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  flight::ServerOptions options;
  ALKAID_ASSIGN_OR_RAISE(auto server, scenario->MakeServer(&options));
  options.location = "grpc://0.0.0.0:" + std::to_string(port);
  ALKAID_RETURN_NOT_OK(server->Init(options));
  std::cout << "Server listening on localhost:" << server->port() << std::endl;

  flight::FlightServerBase* raw = server.get();
  std::thread([stop_signals, raw] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    (void)raw->Shutdown();
  }).detach();
  return server->Serve();
  // The server is destroyed after Serve returned: Shutdown ran to its end.
}

}  // namespace
}  // namespace alkaid::flight_integration

int main(int argc, char** argv) {
  alkaid::RegisterCanonicalExtensionTypes();
  return alkaid::flight_integration::ExitCode("alkaid-flight-integration-server",
                                              alkaid::flight_integration::Run(argc, argv));
}
