// Arrow Flight over loopback TCP.
//
// DoGet/<MB> and DoPut/<MB>: one stream of 64Ki-row batches of (int64, float64) totalling
// about <MB> megabytes between an alkaid server and client in this process; bytes_per_second
// is the batch bytes moved. body_bytes_referenced counts body bytes that left as gRPC slices
// over the batches' own memory (the send path copies none: it equals the batch bytes).
// ALKAID_BENCH_MB overrides the size.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>

#include "../src/flight/flight_data.h"
#include "alkaid/flight/api.h"
#include "flight_bench_server.h"

namespace {

using namespace alkaid;          // NOLINT
using namespace alkaid::flight;  // NOLINT

void Must(const Status& st) {
  if (!st.ok()) st.Abort("flight benchmark");
}

SchemaPtr TwoColumns() { return schema({field("id", int64(), false), field("v", float64(), false)}); }

std::vector<RecordBatchPtr> Batches(int64_t megabytes) {
  constexpr int64_t kRows = 64 * 1024;
  int64_t count = std::max<int64_t>(1, megabytes * (1 << 20) / (kRows * 16));
  std::vector<RecordBatchPtr> out;
  for (int64_t b = 0; b < count; ++b) {
    auto id = AllocateBuffer(kRows * 8).ValueOrDie();
    auto v = AllocateBuffer(kRows * 8).ValueOrDie();
    for (int64_t i = 0; i < kRows; ++i) {
      id->mutable_data_as<int64_t>()[i] = b * kRows + i;
      v->mutable_data_as<double>()[i] = static_cast<double>(i) / 3;
    }
    out.push_back(RecordBatch::Make(TwoColumns(), kRows,
                                    {ArrayData::Make(int64(), kRows, {nullptr, id}, 0),
                                     ArrayData::Make(float64(), kRows, {nullptr, v}, 0)}));
  }
  return out;
}

int64_t Megabytes(int64_t arg) {
  const char* env = std::getenv("ALKAID_BENCH_MB");
  return env ? std::atoll(env) : arg;
}

void BM_DoGet(benchmark::State& state) {
  alkaid::bench::BatchServer server(TwoColumns(), Batches(Megabytes(state.range(0))));
  Must(server.Init({.location = "grpc://127.0.0.1:0"}));
  auto client = FlightClient::Connect(server.location()).ValueOrDie();
  int64_t bytes = static_cast<int64_t>(server.batches().size()) * 64 * 1024 * 16;
  auto before = wire::GetCopyCounters();
  for (auto _ : state) {
    auto reader = client->DoGet(Ticket{"t"}).ValueOrDie();
    int64_t rows = 0;
    while (true) {
      auto chunk = reader->Next().ValueOrDie();
      if (!chunk) break;
      rows += chunk->batch->num_rows();
    }
    benchmark::DoNotOptimize(rows);
  }
  auto after = wire::GetCopyCounters();
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["body_bytes_referenced"] = static_cast<double>(
      after.body_bytes_referenced_on_send - before.body_bytes_referenced_on_send) /
      static_cast<double>(state.iterations());
  state.counters["body_bytes_copied_on_receive"] = static_cast<double>(
      after.body_bytes_copied_on_receive - before.body_bytes_copied_on_receive) /
      static_cast<double>(state.iterations());
  Must(server.Shutdown());
}
BENCHMARK(BM_DoGet)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DoPut(benchmark::State& state) {
  alkaid::bench::BatchServer server(TwoColumns(), {});
  auto batches = Batches(Megabytes(state.range(0)));
  Must(server.Init({.location = "grpc://127.0.0.1:0"}));
  auto client = FlightClient::Connect(server.location()).ValueOrDie();
  int64_t bytes = static_cast<int64_t>(batches.size()) * 64 * 1024 * 16;
  for (auto _ : state) {
    auto put = client->DoPut(FlightDescriptor::Path({"t"}), TwoColumns()).ValueOrDie();
    for (const auto& b : batches) Must(put.writer->WriteRecordBatch(*b));
    Must(put.writer->Close());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  Must(server.Shutdown());
}
BENCHMARK(BM_DoPut)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
