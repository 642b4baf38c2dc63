// The Flight integration executables as archery runs them: our server and
// client over every gold integration JSON file, each named scenario, and the
// Node.js peer (test_util/flight_peer) in both directions.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "alkaid/extension.h"
#include "alkaid/integration_json/integration.h"
#include "default_scenario.h"
#include "scenario.h"
#include "test_util/child_process.h"
#include "test_util/test_data.h"

namespace alkaid::flight_integration {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;
using testing::ChildProcess;

fs::path BuildDir() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path(".") : self.parent_path();
}
std::string ServerExe() { return (BuildDir() / "alkaid-flight-integration-server").string(); }
std::string ClientExe() { return (BuildDir() / "alkaid-flight-integration-client").string(); }

// "<dir>/<version>/<name>" of every gold .json.gz file (without the
// extension), minus those in `excluded` ("<version>/<name>").
std::vector<std::string> GoldStems(const std::set<std::string>& excluded = {}) {
  std::vector<std::string> stems;
  const std::string root = testing::TestDataDir();
  for (const std::string& c : testing::GoldIntegrationCases(".gz")) {
    // GoldIntegrationCases(".gz") names "<version>/<name>.json".
    if (c.size() < 5 || c.compare(c.size() - 5, 5, ".json") != 0) continue;
    const std::string name = c.substr(0, c.size() - 5);
    if (excluded.count(name) == 0) stems.push_back(root + "/arrow-testing/integration/" + name);
  }
  return stems;
}

// A server child process on a free port.
struct Server {
  ChildProcess process;
  int port = 0;
};

// Starts `argv` and reads its port from "Server listening on localhost:PORT".
void StartServer(std::vector<std::string> argv, const std::map<std::string, std::string>& env,
                 Server* server) {
  ASSERT_TRUE(server->process.Start(std::move(argv), env));
  std::string port;
  ASSERT_TRUE(server->process.WaitForLine("Server listening on localhost:", seconds(60), &port))
      << "the server did not say where it listens; output: " << server->process.output();
  server->port = std::stoi(port);
}

// Runs our client against `port` over every stem's .json.gz; one process.
void RunOurClient(int port, const std::vector<std::string>& stems) {
  std::vector<std::string> argv = {ClientExe(), "-host", "localhost",
                                   "-port=" + std::to_string(port)};
  for (const auto& stem : stems) {
    argv.push_back("-path");
    argv.push_back(stem + ".json.gz");
  }
  ChildProcess client;
  ASSERT_TRUE(client.Start(argv));
  EXPECT_EQ(client.Wait(seconds(240)), 0) << client.output();
}

TEST(FlightIntegration, GoldFilesOursToOurs) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  // Nothing is skipped: archery skips no gold case for the C++ Flight peer,
  // and none for us.
  const auto stems = GoldStems();
  ASSERT_GE(stems.size(), 50u);
  Server server;
  ASSERT_NO_FATAL_FAILURE(StartServer({ServerExe(), "-port=0"}, {}, &server));
  RunOurClient(server.port, stems);
  // Archery stops the server with SIGTERM: a clean exit.
  EXPECT_EQ(server.process.Stop(SIGTERM), 0) << server.process.output();
}

TEST(FlightIntegration, FlagsAsGflagsSpellsThem) {
  // -port N and --port=N are both accepted; a bad flag or scenario says so.
  Server server;
  ASSERT_NO_FATAL_FAILURE(StartServer({ServerExe(), "--port", "0"}, {}, &server));
  ALKAID_REQUIRE_TEST_DATA(dir);
  const std::string file = GoldStems().front() + ".json.gz";
  ChildProcess ok;
  ASSERT_TRUE(ok.Start({ClientExe(), "--host=localhost", "-port", std::to_string(server.port),
                        "--path=" + file}));
  EXPECT_EQ(ok.Wait(seconds(60)), 0) << ok.output();
  EXPECT_EQ(server.process.Stop(SIGINT), 0);

  for (std::vector<std::string> argv :
       {std::vector<std::string>{ServerExe(), "-scenario", "no-such-scenario"},
        {ClientExe(), "-port=1", "-scenario", "no-such-scenario"},
        {ClientExe(), "-port=1"},
        {ClientExe(), "-port=99999", "-path", file},
        {ClientExe(), "-colour=blue"}}) {
    ChildProcess bad;
    ASSERT_TRUE(bad.Start(argv));
    EXPECT_EQ(bad.Wait(seconds(30)), 1) << argv.back();
    EXPECT_NE(bad.output().find("alkaid-flight-integration-"), std::string::npos) << bad.output();
  }
}

// A server that answers the default scenario wrongly in one way, to check
// that the client notices: PutResults, batch count, app_metadata, values.
class WrongServer : public flight::FlightServerBase {
 public:
  enum class Fault { kAck, kDropBatch, kMetadata, kValues };
  explicit WrongServer(Fault fault) : fault_(fault) {}

  Status DoPut(const flight::ServerCallContext&, flight::FlightMessageReader& reader,
               flight::FlightMetadataWriter& writer) override {
    ALKAID_ASSIGN_OR_RAISE(schema_, reader.GetSchema());
    while (true) {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
      if (!chunk) return Status::OK();
      batches_.push_back(chunk->batch);
      ALKAID_RETURN_NOT_OK(writer.WriteMetadata(fault_ == Fault::kAck ? "x" : Text(*chunk)));
    }
  }
  Result<flight::FlightInfo> GetFlightInfo(const flight::ServerCallContext&,
                                           const flight::FlightDescriptor& d) override {
    flight::FlightInfo info;
    ALKAID_RETURN_NOT_OK(info.SetSchema(*schema_));
    info.descriptor = d;
    info.endpoints.push_back({flight::Ticket{"t"}, {}, std::nullopt, ""});
    return info;
  }
  Result<std::unique_ptr<flight::FlightDataStream>> DoGet(const flight::ServerCallContext&,
                                                          const flight::Ticket&) override {
    auto batches = batches_;
    if (fault_ == Fault::kDropBatch) batches.pop_back();
    if (fault_ == Fault::kValues) batches.back() = batches.back()->Slice(1);
    ALKAID_ASSIGN_OR_RAISE(auto reader, RecordBatchReader::Make(batches, schema_));
    auto inner = flight::MakeRecordBatchStream(std::move(reader));
    return std::unique_ptr<flight::FlightDataStream>(
        std::make_unique<Numbered>(std::move(inner), fault_ == Fault::kMetadata));
  }

 private:
  static std::string Text(const flight::FlightStreamChunk& chunk) {
    return std::string(reinterpret_cast<const char*>(chunk.app_metadata->data()),
                       static_cast<size_t>(chunk.app_metadata->size()));
  }
  // Numbers the batches as the default scenario wants (off by one if `skew`).
  class Numbered : public flight::FlightDataStream {
   public:
    Numbered(std::unique_ptr<flight::FlightDataStream> inner, bool skew)
        : inner_(std::move(inner)), next_(skew ? 1 : 0) {}
    SchemaPtr schema() const override { return inner_->schema(); }
    Result<std::optional<flight::FlightStreamChunk>> Next() override {
      ALKAID_ASSIGN_OR_RAISE(auto chunk, inner_->Next());
      if (chunk) chunk->app_metadata = Buffer::FromString(std::to_string(next_++));
      return chunk;
    }

   private:
    std::unique_ptr<flight::FlightDataStream> inner_;
    int next_;
  };

  Fault fault_;
  SchemaPtr schema_;
  std::vector<RecordBatchPtr> batches_;
};

TEST(FlightIntegration, ClientNoticesEveryKindOfDifference) {
  ALKAID_REQUIRE_TEST_DATA(dir);
  const std::string file =
      dir + "/arrow-testing/integration/cpp-21.0.0/generated_primitive.json.gz";
  const std::pair<WrongServer::Fault, const char*> cases[] = {
      {WrongServer::Fault::kAck, "PutResult 'x' for batch 0"},
      {WrongServer::Fault::kDropBatch, "DoGet returned"},
      {WrongServer::Fault::kMetadata, "app_metadata '1', expected '0'"},
      {WrongServer::Fault::kValues, "rows"},
  };
  for (const auto& [fault, expected] : cases) {
    WrongServer server(fault);
    ASSERT_TRUE(server.Init({.location = "grpc://127.0.0.1:0"}).ok());
    auto client = flight::FlightClient::Connect(flight::Location::ForGrpcTcp("127.0.0.1",
                                                                             server.port()));
    ASSERT_TRUE(client.ok());
    Status st = DefaultScenario::RunOne(**client, file);
    EXPECT_FALSE(st.ok()) << expected;
    EXPECT_NE(st.message().find(expected), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find(file), std::string::npos) << st.ToString();
    (void)server.Shutdown();
  }
}

// Each named scenario (registry.cc): our server and our client.
std::vector<std::string> NamedScenarios() {
  auto names = ScenarioNames();
  if (names.empty()) names.push_back("none");
  return names;
}

class NamedScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(NamedScenario, OursToOurs) {
  if (ScenarioNames().empty()) GTEST_SKIP() << "SKIPPED: no named scenario is registered yet";
  Server server;
  ASSERT_NO_FATAL_FAILURE(StartServer({ServerExe(), "-port=0", "-scenario", GetParam()}, {},
                                      &server));
  ChildProcess client;
  ASSERT_TRUE(client.Start({ClientExe(), "-host", "localhost",
                            "-port=" + std::to_string(server.port), "-scenario", GetParam()}));
  EXPECT_EQ(client.Wait(seconds(120)), 0) << client.output();
  EXPECT_EQ(server.process.Stop(SIGTERM), 0) << server.process.output();
}

INSTANTIATE_TEST_SUITE_P(Scenarios, NamedScenario, ::testing::ValuesIn(NamedScenarios()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// ---- The Node.js peer (test_util/flight_peer; .ci/install-flight-peers) ----

// Gold cases the Node peer cannot carry, "<version>/<name>" -> why. Arrow JS
// 21.2.0 finds columns by name, so a schema with two top-level fields of the
// same name ('ints' twice; 'sparse' and 'dense' twice in the 1.0.0 union
// file) is re-encoded with one field's data for both.
const char kSameNames[] = "two top-level fields share a name; Arrow JS finds columns by name";
// Our client uploads to the Node server, which re-encodes with Arrow JS:
const std::map<std::string, std::string> kNodeServerCannot = {
    {"1.0.0-littleendian/generated_duplicate_fieldnames", kSameNames},
    {"cpp-21.0.0/generated_duplicate_fieldnames", kSameNames},
    {"1.0.0-littleendian/generated_union", kSameNames},
    {"cpp-21.0.0/generated_list_view", "Arrow JS has no ListView type"},
    {"cpp-21.0.0/generated_run_end_encoded", "Arrow JS has no RunEndEncoded type"},
};
// The Node client reads the gold .stream with Arrow JS and uploads it to our
// server (for the union file our server refuses the upload: 13 field nodes
// for 14 fields):
const std::map<std::string, std::string> kNodeClientCannot = {
    {"1.0.0-littleendian/generated_duplicate_fieldnames", kSameNames},
    {"cpp-21.0.0/generated_duplicate_fieldnames", kSameNames},
    {"1.0.0-littleendian/generated_union", kSameNames},
    {"2.0.0-compression/generated_lz4", "Arrow JS has no LZ4 codec to read the gold stream"},
    {"2.0.0-compression/generated_uncompressible_lz4", "Arrow JS has no LZ4 codec"},
    {"2.0.0-compression/generated_zstd", "Arrow JS has no ZSTD codec to read the gold stream"},
    {"2.0.0-compression/generated_uncompressible_zstd", "Arrow JS has no ZSTD codec"},
    {"cpp-21.0.0/generated_list_view", "Arrow JS has no ListView type"},
    {"cpp-21.0.0/generated_run_end_encoded", "Arrow JS has no RunEndEncoded type"},
};

// NODE_PATH for the peer, or "" (and *why) when Node or its packages are missing.
std::string NodeModules(std::string* why) {
  const fs::path modules = fs::path(ALKAID_SOURCE_DIR) / "third_party" / "node-flight" /
                           "node_modules";
  ChildProcess node;
  if (!node.Start({"node", "--version"}) || node.Wait(seconds(30)) != 0) {
    *why = "node is not on PATH";
    return "";
  }
  for (const char* package : {"@grpc/grpc-js", "@grpc/proto-loader", "apache-arrow"}) {
    if (!fs::exists(modules / package / "package.json")) {
      *why = std::string(package) + " is not in " + modules.string() +
             " (run .ci/install-flight-peers)";
      return "";
    }
  }
  return modules.string();
}

// Skips without the gold files or the Node peer (fails instead when
// ALKAID_REQUIRE_NODE_FLIGHT=1, as CI sets it).
class FlightIntegrationNode : public ::testing::Test {
 protected:
  void SetUp() override {
    ALKAID_REQUIRE_TEST_DATA(dir);
    std::string why;
    modules_ = NodeModules(&why);
    if (modules_.empty()) {
      const char* require = std::getenv("ALKAID_REQUIRE_NODE_FLIGHT");
      if (require != nullptr && std::string(require) == "1") {
        FAIL() << "ALKAID_REQUIRE_NODE_FLIGHT=1 but " << why;
      }
      GTEST_SKIP() << "SKIPPED: the Node Flight peer is not installed: " << why;
    }
  }

  // The gold stems minus `cannot`, which are listed on stdout with the reason.
  static std::vector<std::string> Carried(const std::map<std::string, std::string>& cannot) {
    std::set<std::string> excluded;
    for (const auto& [name, why] : cannot) {
      std::cout << "  not carried: " << name << ": " << why << "\n";
      excluded.insert(name);
    }
    return GoldStems(excluded);
  }

  static std::string PeerScript(const char* name) {
    return std::string(ALKAID_SOURCE_DIR) + "/test_util/flight_peer/" + name;
  }

  std::string modules_;
};

TEST_F(FlightIntegrationNode, OurClientNodeServer) {
  const auto stems = Carried(kNodeServerCannot);
  ASSERT_GE(stems.size(), 50u);
  Server server;
  ASSERT_NO_FATAL_FAILURE(StartServer({"node", PeerScript("server.js"), "--port", "0"},
                                      {{"NODE_PATH", modules_}}, &server));
  RunOurClient(server.port, stems);
  EXPECT_EQ(server.process.Stop(SIGTERM), 0) << server.process.output();
}

TEST_F(FlightIntegrationNode, NodeClientOurServer) {
  const auto stems = Carried(kNodeClientCannot);
  ASSERT_GE(stems.size(), 45u);
  Server server;
  ASSERT_NO_FATAL_FAILURE(StartServer({ServerExe(), "-port=0"}, {}, &server));
  std::vector<std::string> argv = {"node", PeerScript("client.js"), "--port",
                                   std::to_string(server.port)};
  for (const auto& stem : stems) {
    argv.push_back("--stream");
    argv.push_back(stem + ".stream");
  }
  ChildProcess client;
  ASSERT_TRUE(client.Start(argv, {{"NODE_PATH", modules_}}));
  EXPECT_EQ(client.Wait(seconds(240)), 0) << client.output();
  // One "ok FILE" line per file: nothing was passed over silently.
  size_t oks = 0;
  for (size_t at = 0; (at = client.output().find("ok /", at)) != std::string::npos; ++at) ++oks;
  EXPECT_EQ(oks, stems.size()) << client.output();
  EXPECT_EQ(server.process.Stop(SIGTERM), 0) << server.process.output();
}

}  // namespace
}  // namespace alkaid::flight_integration

int main(int argc, char** argv) {
  alkaid::RegisterCanonicalExtensionTypes();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
