// The Flight commands when something goes wrong or is locked down: TLS,
// basic authentication, a server killed mid-download, uploads that fail.
#include "cli_flight_util.h"

namespace alkaid_cli_test {
namespace {

// A self-signed certificate for localhost / 127.0.0.1 in `dir`; false when
// openssl is missing.
bool MakeCertificate(const fs::path& dir) {
  auto r = RunShell("cd " + dir.string() +
                    " && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out "
                    "cert.pem -days 2 -subj /CN=localhost "
                    "-addext subjectAltName=DNS:localhost,IP:127.0.0.1");
  return r.exit_code == 0 && fs::exists(dir / "cert.pem");
}

TEST_F(FlightCliTest, TlsServerAndClient) {
  if (!MakeCertificate(dir_)) GTEST_SKIP() << "openssl is not installed: no certificate to serve";
  const std::string arrow = SampleFile();
  fs::copy_file(arrow, served_ / "c.arrow");
  StartServer({"--tls-cert", Path("cert.pem"), "--tls-key", Path("key.pem")});
  ASSERT_EQ(Url().rfind("grpc+tls://", 0), 0u) << Url();
  const std::string rows = RunCli("count " + arrow).output;
  auto trusted = RunCli("count " + Url("c.arrow") + " --tls-roots " + Path("cert.pem"));
  EXPECT_EQ(trusted.exit_code, 0) << trusted.output;
  EXPECT_EQ(trusted.output, rows);
  auto untrusted = RunCli("count " + Url("c.arrow"));
  EXPECT_NE(untrusted.exit_code, 0);
  EXPECT_NE(untrusted.output.find("certificate"), std::string::npos) << untrusted.output;
  auto insecure = RunCli("get " + Url("c.arrow") + " " + Path("back.arrow") + " --insecure");
  ASSERT_EQ(insecure.exit_code, 0) << insecure.output;
  EXPECT_EQ(RunCli("to-json " + Path("back.arrow")).output, RunCli("to-json " + arrow).output);
  // A plain client against the TLS server fails rather than hangs.
  std::string plain = Url("c.arrow");
  plain.replace(0, std::string("grpc+tls").size(), "grpc");
  EXPECT_NE(RunCli("count " + plain + " --timeout 10").exit_code, 0);
}

TEST_F(FlightCliTest, BasicAuthentication) {
  const std::string arrow = SampleFile();
  fs::copy_file(arrow, served_ / "c.arrow");
  StartServer({"--auth", "ann:s3cret"});
  auto wrong = RunCli("count " + Url("c.arrow") + " --auth ann:guess");
  EXPECT_NE(wrong.exit_code, 0);
  EXPECT_NE(wrong.output.find("refused user 'ann'"), std::string::npos) << wrong.output;
  EXPECT_NE(wrong.output.find("wrong user name or password"), std::string::npos) << wrong.output;
  auto none = RunCli("flights " + Url());
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.output.find("Unauthenticated"), std::string::npos) << none.output;
  auto put = RunCli("put " + arrow + " " + Url("up.arrow") + " --user ann --password guess");
  EXPECT_NE(put.exit_code, 0);
  EXPECT_FALSE(fs::exists(served_ / "up.arrow"));
  EXPECT_EQ(RunCli("count " + Url("c.arrow") + " --auth ann:s3cret").output,
            RunCli("count " + arrow).output);
  EXPECT_EQ(RunCli("put " + arrow + " " + Url("up.arrow") + " --user ann --password s3cret")
                .exit_code,
            0);
  EXPECT_TRUE(fs::exists(served_ / "up.arrow"));
}

TEST_F(FlightCliTest, ServerKilledMidGetLeavesNoOutput) {
  {
    // Enough rows that the stream is still running when the server stops.
    std::ofstream big(served_ / "big.csv");
    big << "i,s\n";
    for (int i = 0; i < 3000000; ++i) big << i << ",value" << i % 1000 << "\n";
  }
  StartServer();
  const std::string out = Path("big.arrow");
  pid_t client = ::fork();
  if (client == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    int err = ::open(Path("client.err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(null, 1);
    ::dup2(err, 2);
    std::string exe = CliPath(), get = "get", url = Url("big.csv"), target = out;
    char* argv[] = {exe.data(), get.data(), url.data(), target.data(), nullptr};
    ::execv(exe.c_str(), argv);
    ::_exit(127);
  }
  // Freeze the server the moment the client asks for the data (its log line
  // for GetFlightInfo comes just before DoGet), then kill it.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (server_.Log().find("GetFlightInfo") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    ::usleep(500);
  ::kill(server_.pid(), SIGSTOP);
  ::usleep(200000);
  server_.Stop(SIGKILL);
  int status = 0;
  ::waitpid(client, &status, 0);
  const std::string err = ReadBytes(Path("client.err"));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_NE(WEXITSTATUS(status), 0) << err;
  EXPECT_NE(err.find("alkaid: "), std::string::npos) << err;
  EXPECT_NE(err.find("Flight"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& name : FilesIn(dir_))
    EXPECT_EQ(name.find("alkaid-tmp"), std::string::npos) << name;
}

TEST_F(FlightCliTest, FailedUploadsLeaveNothingOnTheServer) {
  StartServer();
  std::ofstream(Path("garbage.bin")) << std::string("\x01\x02\x03garbage\xff", 11);
  auto unreadable = RunCli("put " + Path("garbage.bin") + " " + Url("g.arrow"));
  EXPECT_NE(unreadable.exit_code, 0);
  EXPECT_NE(unreadable.output.find("garbage.bin"), std::string::npos) << unreadable.output;
  auto missing = RunCli("put " + Path("missing.csv") + " " + Url("m.arrow"));
  EXPECT_NE(missing.exit_code, 0);
  {
    // Reads fine for many batches, then a row with a field too many: the
    // upload is cancelled part way.
    std::ofstream csv(Path("late_error.csv"));
    csv << "a,b\n";
    for (int i = 0; i < 400000; ++i) csv << i << ",x\n";
    csv << "1,2,3\n";
  }
  auto late = RunCli("put " + Path("late_error.csv") + " " + Url("late.arrow"));
  EXPECT_NE(late.exit_code, 0);
  EXPECT_NE(late.output.find("late_error.csv"), std::string::npos) << late.output;
  // The server sees the cancel a moment after the client exits; it logs the
  // call once the upload's temporary file is gone.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (server_.Log().find(" late.arrow ") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    ::usleep(10000);
  // Nothing was kept, not even a temporary file.
  EXPECT_TRUE(ServedFiles().empty()) << ::testing::PrintToString(ServedFiles());
  EXPECT_EQ(server_.Stop(), 0);
  const std::string log = server_.Log();
  EXPECT_NE(log.find("DoPut"), std::string::npos) << log;
  EXPECT_EQ(log.find("DoPut ipv4:127.0.0.1:0 g.arrow"), std::string::npos);
}

}  // namespace
}  // namespace alkaid_cli_test
