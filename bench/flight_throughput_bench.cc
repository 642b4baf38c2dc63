// Arrow Flight throughput next to a Unix pipe and memcpy, on the mixed data set of
// mixed_data.h (10M rows; ALKAID_BENCH_ROWS shrinks it), all in the same run:
//
//   Memcpy            memcpy of the whole IPC stream's bytes into a second buffer;
//   Pipe              the IPC stream written by a writer thread into a Unix pipe (1 MiB pipe
//                     buffer) and read back into record batches by a reader thread;
//   DoGet/streams:N   N clients (one connection each) fetch the whole data set at once from an
//                     alkaid server in this process, over loopback TCP;
//   DoPut/streams:N   N clients upload it at once.
//
// bytes_per_second counts the IPC stream's bytes (times N), so the rows compare directly.
// Counters (per iteration, in MB): body_MB_referenced_on_send (body bytes that left as gRPC
// slices over the batches' memory: all of them, no copy), body_MB_copied_on_send (0: the send
// path has no copying branch), body_MB_copied_on_receive / body_MB_referenced_on_receive
// (bodies copied into aligned memory because gRPC handed them over in several slices, or used
// in place). cpu_ms, faults and ctx_switches: the benchmark process's CPU time (all threads),
// minor page faults and context switches per iteration (the client's alone with
// ALKAID_BENCH_SERVER_PROCESS=1); on a shared machine they move far less than MB/s.
//
// `flight_throughput_bench --rss` instead runs server and client as separate processes (both
// forked before either touches gRPC), streaming batches made on the fly (neither side holds the
// data set), for 1M and 10M rows (ALKAID_BENCH_RSS_ROWS="R1 R2 ..." overrides), and prints the
// peak RSS (VmHWM) of each side for DoGet and DoPut next to the size of one batch.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../src/flight/flight_data.h"
#include "alkaid/flight/api.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "flight_bench_server.h"
#include "mixed_data.h"

namespace {

using namespace alkaid::flight;  // NOLINT

void Must(const Status& st) {
  if (!st.ok()) st.Abort("flight throughput benchmark");
}

const BufferPtr& IpcStream() {
  static BufferPtr stream = ipc::SerializeStream(BenchSchema(), BigDataSet()).ValueOrDie();
  return stream;
}

constexpr double kMB = 1e6;

// "name=value ..." from the environment variable `var`: integer gRPC channel arguments, for
// experiments with gRPC's tuning (ALKAID_BENCH_GRPC_ARGS for the clients,
// ALKAID_BENCH_SERVER_GRPC_ARGS for the server).
std::vector<std::pair<std::string, int64_t>> GrpcArgsFromEnv(const char* var) {
  std::vector<std::pair<std::string, int64_t>> args;
  const char* env = std::getenv(var);
  std::istringstream in(env ? env : "");
  for (std::string arg; in >> arg;) {
    auto eq = arg.find('=');
    args.emplace_back(arg.substr(0, eq), std::atoll(arg.c_str() + eq + 1));
  }
  return args;
}

ServerOptions Loopback() {
  ServerOptions options;
  options.location = "grpc://127.0.0.1:0";
  options.channel_int_args = GrpcArgsFromEnv("ALKAID_BENCH_SERVER_GRPC_ARGS");
  return options;
}

// The whole process's CPU time and minor page faults, to report per iteration: unlike
// throughput, these hardly move with the load of a shared machine.
class ProcessCost {
 public:
  ProcessCost() : start_(Now()) {}
  void Report(benchmark::State& state) const {
    rusage end = Now();
    auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
    double cpu = ms(end.ru_utime) + ms(end.ru_stime) - ms(start_.ru_utime) - ms(start_.ru_stime);
    auto n = static_cast<double>(state.iterations());
    state.counters["cpu_ms"] = cpu / n;
    state.counters["faults"] = static_cast<double>(end.ru_minflt - start_.ru_minflt) / n;
    state.counters["ctx_switches"] =
        static_cast<double>(end.ru_nvcsw + end.ru_nivcsw - start_.ru_nvcsw - start_.ru_nivcsw) / n;
  }

 private:
  static rusage Now() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return usage;
  }
  rusage start_;
};

// ---- memcpy and pipe baselines ---------------------------------------------------------------

void BM_Memcpy(benchmark::State& state) {
  const BufferPtr& stream = IpcStream();
  auto dst = AllocateBuffer(stream->size()).ValueOrDie();
  // Fault the destination's pages in first: the copy, not the kernel, is measured.
  std::memset(dst->mutable_data(), 1, static_cast<size_t>(stream->size()));
  for (auto _ : state) {
    std::memcpy(dst->mutable_data(), stream->data(), static_cast<size_t>(stream->size()));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * stream->size());
}
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Pipe(benchmark::State& state) {
  const auto& batches = BigDataSet();
  IpcStream();
  ProcessCost cost;
  for (auto _ : state) {
    int fds[2];
    if (::pipe(fds) != 0) state.SkipWithError("pipe() failed");
    ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
    std::thread writer([&] {
      auto sink = io::FileOutputStream::FromDescriptor(fds[1], /*owns_fd=*/true).ValueOrDie();
      auto w = ipc::MakeStreamWriter(sink.get(), BenchSchema()).ValueOrDie();
      for (const auto& b : batches) Must(w->WriteRecordBatch(*b));
      Must(w->Close());
      Must(sink->Close());
    });
    auto source = std::make_shared<io::FdInputStream>(fds[0], /*owns_fd=*/true, "pipe");
    auto reader = ipc::StreamReader::Open(source).ValueOrDie();
    int64_t rows = 0;
    while (auto batch = reader->Next().ValueOrDie()) rows += batch->num_rows();
    writer.join();
    if (rows != TotalRows()) state.SkipWithError("the pipe lost rows");
  }
  cost.Report(state);
  state.SetBytesProcessed(state.iterations() * IpcStream()->size());
}
BENCHMARK(BM_Pipe)->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- Flight ----------------------------------------------------------------------------------

void ReportCopies(benchmark::State& state, const wire::CopyCounters& before) {
  auto after = wire::GetCopyCounters();
  auto per_iteration = [&](int64_t a, int64_t b) {
    return static_cast<double>(a - b) / kMB / static_cast<double>(state.iterations());
  };
  state.counters["body_MB_referenced_on_send"] =
      per_iteration(after.body_bytes_referenced_on_send, before.body_bytes_referenced_on_send);
  state.counters["body_MB_copied_on_send"] = 0;
  state.counters["body_MB_copied_on_receive"] =
      per_iteration(after.body_bytes_copied_on_receive, before.body_bytes_copied_on_receive);
  state.counters["body_MB_referenced_on_receive"] = per_iteration(
      after.body_bytes_referenced_on_receive, before.body_bytes_referenced_on_receive);
}

ClientOptions BenchClientOptions() {
  ClientOptions options;
  options.channel_int_args = GrpcArgsFromEnv("ALKAID_BENCH_GRPC_ARGS");
  return options;
}

// Runs `body(client)` on `streams` threads at once, one client (connection) each.
template <typename Body>
void Concurrently(const std::vector<std::unique_ptr<FlightClient>>& clients, Body body) {
  // One stream runs on the benchmark's own thread, as an application's reader would.
  if (clients.size() == 1) return body(*clients[0]);
  std::vector<std::thread> threads;
  for (const auto& c : clients) threads.emplace_back([&body, &c] { body(*c); });
  for (auto& t : threads) t.join();
}

// ALKAID_BENCH_SERVER_PROCESS=1: the server runs in a child process, forked (with the data set
// already made) before this process starts gRPC, and serves every Flight benchmark of the run;
// client and server then have their own allocators and gRPC threads, as on two machines.
class ChildServer {
 public:
  static ChildServer* Get() {
    static ChildServer* child = std::getenv("ALKAID_BENCH_SERVER_PROCESS") ? new ChildServer() : nullptr;
    return child;
  }
  Location location() const { return Location::ForGrpcTcp("127.0.0.1", port_); }
  ~ChildServer() = delete;

 private:
  ChildServer() {
    const auto& batches = BigDataSet();
    int fds[2];
    if (::pipe(fds) != 0) std::abort();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::close(fds[0]);
      alkaid::bench::BatchServer server(BenchSchema(), batches);
      Must(server.Init(Loopback()));
      int port = server.port();
      if (::write(fds[1], &port, sizeof port) != sizeof port) std::_Exit(2);
      Must(server.Serve());
      std::_Exit(0);
    }
    ::close(fds[1]);
    if (::read(fds[0], &port_, sizeof port_) != sizeof port_) std::abort();
    ::close(fds[0]);
    std::atexit([] { ::kill(Get()->pid_, SIGKILL); });
  }
  pid_t pid_ = -1;
  int port_ = 0;
};

void RunFlight(benchmark::State& state, bool get) {
  const int streams = static_cast<int>(state.range(0));
  const auto& batches = BigDataSet();
  IpcStream();
  ChildServer* child = ChildServer::Get();
  alkaid::bench::BatchServer server(BenchSchema(), child ? std::vector<RecordBatchPtr>{} : batches);
  if (!child) Must(server.Init(Loopback()));
  std::vector<std::unique_ptr<FlightClient>> clients;
  for (int i = 0; i < streams; ++i) {
    Location where = child ? child->location() : server.location();
    clients.push_back(FlightClient::Connect(where, BenchClientOptions()).ValueOrDie());
  }
  auto before = wire::GetCopyCounters();
  ProcessCost cost;
  for (auto _ : state) {
    Concurrently(clients, [&](FlightClient& client) {
      if (get) {
        auto reader = client.DoGet(Ticket{"all"}).ValueOrDie();
        int64_t rows = 0;
        while (auto chunk = reader->Next().ValueOrDie()) rows += chunk->batch->num_rows();
        if (rows != TotalRows()) Must(Status::Invalid("DoGet lost rows"));
      } else {
        auto put = client.DoPut(FlightDescriptor::Path({"all"}), BenchSchema()).ValueOrDie();
        for (const auto& b : batches) Must(put.writer->WriteRecordBatch(*b));
        Must(put.writer->Close());
      }
    });
  }
  ReportCopies(state, before);
  cost.Report(state);
  state.SetBytesProcessed(state.iterations() * streams * IpcStream()->size());
  if (!child) Must(server.Shutdown());
}

void BM_DoGet(benchmark::State& state) { RunFlight(state, true); }
void BM_DoPut(benchmark::State& state) { RunFlight(state, false); }
BENCHMARK(BM_DoGet)->ArgName("streams")->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_DoPut)->ArgName("streams")->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// ---- --rss: server and client in separate processes ------------------------------------------

int64_t PeakRssKiB() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  int64_t kib = -1;
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atoll(line + 6);
  }
  std::fclose(f);
  return kib;
}

// Batch i of a data set of `rows` rows, made when asked for.
RecordBatchPtr GeneratedBatch(int64_t rows, int64_t i) {
  return MakeBatch(std::min(kBatchRows, rows - i * kBatchRows), static_cast<uint64_t>(i));
}

class GeneratedStream final : public FlightDataStream {
 public:
  explicit GeneratedStream(int64_t rows) : rows_(rows) {}
  SchemaPtr schema() const override { return BenchSchema(); }
  Result<std::optional<FlightStreamChunk>> Next() override {
    if (next_ * kBatchRows >= rows_) return std::optional<FlightStreamChunk>();
    return std::optional<FlightStreamChunk>(FlightStreamChunk{GeneratedBatch(rows_, next_++), nullptr});
  }

 private:
  int64_t rows_;
  int64_t next_ = 0;
};

// Serves generated batches, drains uploads (as BatchServer), and answers the action "peak-rss" with its VmHWM.
class RssServer final : public alkaid::bench::BatchServer {
 public:
  explicit RssServer(int64_t rows) : BatchServer(BenchSchema(), {}), rows_(rows) {}
  Result<std::unique_ptr<FlightDataStream>> DoGet(const ServerCallContext&,
                                                  const Ticket&) override {
    return std::unique_ptr<FlightDataStream>(std::make_unique<GeneratedStream>(rows_));
  }
  Status DoAction(const ServerCallContext&, const Action&,
                  const ActionResultSink& emit) override {
    ALKAID_RETURN_NOT_OK(emit(ActionResult{std::to_string(PeakRssKiB())}));
    return Shutdown();
  }

 private:
  int64_t rows_;
};

// One measurement: a fresh server process and a fresh client process. Prints one line.
void MeasureRss(int64_t rows, bool get) {
  int port_pipe[2];
  if (::pipe(port_pipe) != 0) std::abort();
  pid_t server_pid = ::fork();
  if (server_pid == 0) {
    ::close(port_pipe[0]);
    RssServer server(rows);
    Must(server.Init(Loopback()));
    int port = server.port();
    if (::write(port_pipe[1], &port, sizeof port) != sizeof port) std::_Exit(2);
    Must(server.Serve());
    std::_Exit(0);
  }
  ::close(port_pipe[1]);
  int port = 0;
  if (::read(port_pipe[0], &port, sizeof port) != sizeof port) std::abort();
  ::close(port_pipe[0]);
  pid_t client_pid = ::fork();
  if (client_pid == 0) {
    auto client = FlightClient::Connect(Location::ForGrpcTcp("127.0.0.1", port)).ValueOrDie();
    int64_t moved = 0;
    if (get) {
      auto reader = client->DoGet(Ticket{"all"}).ValueOrDie();
      while (auto chunk = reader->Next().ValueOrDie()) moved += chunk->batch->num_rows();
    } else {
      auto put = client->DoPut(FlightDescriptor::Path({"all"}), BenchSchema()).ValueOrDie();
      for (int64_t i = 0; i * kBatchRows < rows; ++i) {
        auto batch = GeneratedBatch(rows, i);
        moved += batch->num_rows();
        Must(put.writer->WriteRecordBatch(*batch));
      }
      Must(put.writer->Close());
    }
    int64_t client_kib = PeakRssKiB();
    auto answer = client->DoAction(Action{"peak-rss", ""}).ValueOrDie();
    int64_t server_kib = std::atoll(answer.at(0).body.c_str());
    int64_t batch_bytes = DataSetBytes({GeneratedBatch(rows, 0)});
    std::printf("| %-5s | %10lld | %8.1f | %14.1f | %14.1f |\n", get ? "DoGet" : "DoPut",
                static_cast<long long>(moved), static_cast<double>(batch_bytes) / kMB,
                static_cast<double>(server_kib) * 1024 / kMB,
                static_cast<double>(client_kib) * 1024 / kMB);
    std::fflush(stdout);
    std::_Exit(0);
  }
  int status = 0;
  ::waitpid(client_pid, &status, 0);
  ::waitpid(server_pid, nullptr, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::fprintf(stderr, "client failed\n");
}

int RssMain() {
  const char* env = std::getenv("ALKAID_BENCH_RSS_ROWS");
  std::istringstream in(env ? env : "1000000 10000000");
  std::printf("| RPC   |       rows | batch MB | server peak MB | client peak MB |\n");
  std::printf("|-------|-----------:|---------:|---------------:|---------------:|\n");
  std::fflush(stdout);
  for (int64_t rows; in >> rows;) {
    MeasureRss(rows, true);
    MeasureRss(rows, false);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--rss") == 0) return RssMain();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
