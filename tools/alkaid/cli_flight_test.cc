// `alkaid serve`, `get`, `put`, `flights` and grpc:// sources, run as a user
// would: a server child process on a free port and the tool against it.
#include "cli_flight_util.h"

namespace alkaid_cli_test {
namespace {

// Everything after the first line (which names the input) of `schema`.
std::string SchemaBody(const std::string& text) { return text.substr(text.find('\n') + 1); }

TEST_F(FlightCliTest, ServesEveryFormatToTheReadingCommands) {
  const std::string arrow = SampleFile();
  fs::copy_file(arrow, served_ / "cities.arrow");
  fs::create_directories(served_ / "sub");
  ASSERT_EQ(RunCli("convert " + arrow + " " + (served_ / "sub/cities.parquet").string() +
                   " --format parquet").exit_code, 0);
  std::ofstream(served_ / "t.csv") << "a,b\n1,x\n2,y\n";
  std::ofstream(served_ / "notes.txt") << "not data\n";
  StartServer();

  auto listing = RunCli("flights " + Url());
  ASSERT_EQ(listing.exit_code, 0) << listing.output;
  auto lines = Lines(listing.output);
  ASSERT_EQ(lines.size(), 4u) << listing.output;  // header, three data files, no notes.txt
  const std::string rows = RunCli("count " + arrow).output;
  EXPECT_NE(lines[1].find("cities.arrow"), std::string::npos) << listing.output;
  EXPECT_NE(lines[1].find(" " + rows.substr(0, rows.size() - 1) + " "), std::string::npos);
  EXPECT_NE(lines[2].find("sub/cities.parquet"), std::string::npos) << listing.output;
  EXPECT_NE(lines[3].find("t.csv"), std::string::npos) << listing.output;
  EXPECT_NE(lines[3].find("a: int64, b: string"), std::string::npos) << listing.output;

  for (const std::string& name : {"cities.arrow", "sub/cities.parquet"}) {
    SCOPED_TRACE(name);
    const std::string local = (served_ / name).string();
    EXPECT_EQ(RunCli("count " + Url(name)).output, rows);
    EXPECT_EQ(SchemaBody(RunCli("schema " + Url(name)).output),
              SchemaBody(RunCli("schema " + local).output));
    // count and schema answered from metadata: no data was fetched.
    EXPECT_EQ(server_.Log().find("DoGet"), std::string::npos) << server_.Log();
  }
  for (const std::string& name : {"cities.arrow", "sub/cities.parquet"}) {
    SCOPED_TRACE(name);
    const std::string local = (served_ / name).string();
    EXPECT_EQ(RunCli("cat " + Url(name)).output, RunCli("cat " + local).output);
    EXPECT_EQ(RunCli("head -n 3 " + Url(name)).output, RunCli("head -n 3 " + local).output);
    // tail reads a file's last batch directly; its summary line differs.
    const std::string tail = RunCli("tail -n 2 " + Url(name)).output;
    const std::string local_tail = RunCli("tail -n 2 " + local).output;
    EXPECT_EQ(tail.substr(0, tail.rfind("rows")), local_tail.substr(0, local_tail.rfind("rows")));
    EXPECT_EQ(RunCli("to-json " + Url(name)).output, RunCli("to-json " + local).output);
  }
  EXPECT_EQ(RunCli("count " + Url("t.csv")).output, "2\n");
  auto converted = RunCli("convert " + Url("t.csv") + " " + Path("t.parquet") + " --format parquet");
  ASSERT_EQ(converted.exit_code, 0) << converted.output;
  EXPECT_EQ(RunCli("cat " + Path("t.parquet")).output.substr(0, 60),
            RunCli("cat " + (served_ / "t.csv").string()).output.substr(0, 60));
  auto columns = RunCli("cat --columns b " + Url("t.csv"));
  EXPECT_EQ(columns.exit_code, 0) << columns.output;
  EXPECT_EQ(columns.output.find("int64"), std::string::npos) << columns.output;

  EXPECT_EQ(server_.Stop(SIGTERM), 0) << server_.Log();
  const std::string log = server_.Log();
  EXPECT_NE(log.find("GetFlightInfo"), std::string::npos) << log;
  EXPECT_NE(log.find("ListFlights"), std::string::npos) << log;
  EXPECT_NE(log.find("stopping on SIGTERM"), std::string::npos) << log;
  EXPECT_NE(log.find("DoGet ipv4:127.0.0.1:"), std::string::npos) << log;
  EXPECT_NE(log.find("stopped"), std::string::npos) << log;
}

TEST_F(FlightCliTest, PutAndGetRoundTrip) {
  const std::string arrow = SampleFile();
  StartServer();
  auto put = RunCli("put " + arrow + " " + Url("up.arrow"));
  ASSERT_EQ(put.exit_code, 0) << put.output << server_.Log();
  EXPECT_NE(put.output.find("stored up.arrow"), std::string::npos) << put.output;
  const std::string want = RunCli("to-json " + arrow).output;
  EXPECT_EQ(RunCli("to-json " + (served_ / "up.arrow").string()).output, want);

  auto get = RunCli("get " + Url("up.arrow") + " " + Path("back.arrow"));
  ASSERT_EQ(get.exit_code, 0) << get.output;
  EXPECT_EQ(RunCli("to-json " + Path("back.arrow")).output, want);
  // To standard output as a stream.
  auto piped = RunShell(CliPath() + " get " + Url("up.arrow") + " --format stream > " +
                        Path("back.arrows"));
  EXPECT_EQ(piped.exit_code, 0) << piped.output;
  EXPECT_EQ(RunCli("to-json " + Path("back.arrows")).output, want);

  // Any format in: a CSV upload is stored as an IPC file.
  std::ofstream(Path("t.csv")) << "a,b\n1,x\n2,y\n";
  ASSERT_EQ(RunCli("put " + Path("t.csv") + " " + Url("t.arrow")).exit_code, 0);
  EXPECT_EQ(RunCli("cat " + (served_ / "t.arrow").string()).output,
            RunCli("cat " + Path("t.csv")).output);
  EXPECT_EQ(ServedFiles(), (std::vector<std::string>{"t.arrow", "up.arrow"}));
}

TEST_F(FlightCliTest, OverwriteRefusedUnlessAllowed) {
  const std::string arrow = SampleFile();
  std::ofstream(Path("t.csv")) << "a,b\n1,x\n";
  StartServer();
  ASSERT_EQ(RunCli("put " + arrow + " " + Url("x.arrow")).exit_code, 0);
  const std::string before = ReadBytes(served_ / "x.arrow");
  auto again = RunCli("put " + Path("t.csv") + " " + Url("x.arrow"));
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.output.find("already exists"), std::string::npos) << again.output;
  EXPECT_NE(again.output.find("--allow-overwrite"), std::string::npos) << again.output;
  EXPECT_EQ(ReadBytes(served_ / "x.arrow"), before);
  EXPECT_EQ(server_.Stop(), 0);

  StartServer({"--allow-overwrite"});
  auto allowed = RunCli("put " + Path("t.csv") + " " + Url("x.arrow"));
  ASSERT_EQ(allowed.exit_code, 0) << allowed.output;
  EXPECT_EQ(RunCli("count " + (served_ / "x.arrow").string()).output, "1\n");
  EXPECT_EQ(ServedFiles(), std::vector<std::string>{"x.arrow"});
}

TEST_F(FlightCliTest, PathsStayInsideTheServedDirectory) {
  const std::string arrow = SampleFile();  // outside served/
  fs::create_symlink(arrow, served_ / "link.arrow");
  fs::create_directories(dir_ / "elsewhere");
  fs::create_directory_symlink(dir_ / "elsewhere", served_ / "out");
  fs::copy_file(arrow, served_ / "in.arrow");
  fs::create_symlink(served_ / "in.arrow", served_ / "inside_link.arrow");
  StartServer();
  for (const std::string& name : {"link.arrow", "../cities.arrow", "sub/../../cities.arrow",
                                  "out/../in.arrow"}) {
    auto r = RunCli("count " + Url(name));
    EXPECT_NE(r.exit_code, 0) << name;
    EXPECT_NE(r.output.find("outside the served directory"), std::string::npos) << r.output;
  }
  auto absolute = RunCli("count " + Url("/etc/passwd"));
  EXPECT_NE(absolute.exit_code, 0);
  for (const std::string& name : {"../put.arrow", "out/put.arrow"}) {
    auto r = RunCli("put " + arrow + " " + Url(name));
    EXPECT_NE(r.exit_code, 0) << name;
    EXPECT_NE(r.output.find("outside the served directory"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(fs::exists(dir_ / "put.arrow"));
  EXPECT_TRUE(fs::is_empty(dir_ / "elsewhere"));
  // A link that stays inside is served; the listing shows no escaping file.
  EXPECT_EQ(RunCli("count " + Url("inside_link.arrow")).output,
            RunCli("count " + arrow).output);
  auto listing = RunCli("flights " + Url());
  EXPECT_EQ(listing.output.find("\nlink.arrow "), std::string::npos) << listing.output;
  EXPECT_NE(listing.output.find("in.arrow"), std::string::npos) << listing.output;
}

TEST_F(FlightCliTest, UrlMistakesAreUsageErrors) {
  auto not_url = RunCli("get " + SampleFile() + " " + Path("x.arrow"));
  EXPECT_EQ(not_url.exit_code, 2);
  EXPECT_NE(not_url.output.find("not a Flight URL"), std::string::npos) << not_url.output;
  auto no_port = RunCli("flights grpc://127.0.0.1");
  EXPECT_NE(no_port.exit_code, 0);
  EXPECT_NE(no_port.output.find("HOST:PORT"), std::string::npos) << no_port.output;
  auto no_path = RunCli("count grpc://127.0.0.1:1");
  EXPECT_NE(no_path.exit_code, 0);
  EXPECT_NE(no_path.output.find("names no flight"), std::string::npos) << no_path.output;
  auto nobody = RunCli("count grpc://127.0.0.1:1/x --timeout 5");
  EXPECT_NE(nobody.exit_code, 0);
  EXPECT_NE(nobody.output.find("Unavailable"), std::string::npos) << nobody.output;
  EXPECT_FALSE(fs::exists(Path("x.arrow")));
}

}  // namespace
}  // namespace alkaid_cli_test
