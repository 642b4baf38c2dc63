// C Data Interface benchmarks.
//
// ExportImport/<MB>: export + import of a set of 16 batches of (int64,
// float64 with a validity bitmap, utf8) whose buffers total about 100 MB or
// 1 GB. The buffers are the same in number, so the time should be the same:
// export and import touch no values (structural validation only; the
// full-validation variant shows the O(length) part separately).
//
// DuckDBSum: DuckDB's SELECT sum(id), sum(value) over an exported stream of
// the IPC issue's data set (10 million rows of int64, float64 with 10% nulls
// and utf8 of 0-32 bytes, 64Ki-row batches), with the time spent inside our
// stream callbacks (get_schema, get_next and the batches' release) reported
// as the counter callback_share. Needs libduckdb.so ($ALKAID_DUCKDB_LIB or
// .ci/install-duckdb); skipped without it. ALKAID_BENCH_ROWS shrinks the set.
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../src/c_data/duckdb_api.h"
#include "alkaid/bitmap.h"
#include "alkaid/c_data/bridge.h"
#include "alkaid/record_batch_reader.h"

namespace {

using namespace alkaid;  // NOLINT
using Clock = std::chrono::steady_clock;

void Must(const Status& st) {
  if (!st.ok()) st.Abort("benchmark");
}

SchemaPtr ThreeColumns() {
  return schema({field("id", int64(), false), field("value", float64()), field("name", utf8())});
}

// `rows` rows; when `fill` is false the buffers are zeroed (all strings
// empty), which is all the size benchmark needs.
RecordBatchPtr Batch(int64_t rows, uint64_t seed, bool fill) {
  auto id = AllocateBuffer(rows * 8).ValueOrDie();
  auto value = AllocateBuffer(rows * 8).ValueOrDie();
  auto valid = AllocateBitmap(rows, true).ValueOrDie();
  auto name_valid = AllocateBitmap(rows, true).ValueOrDie();
  auto offsets = AllocateBuffer((rows + 1) * 4).ValueOrDie();
  int64_t value_nulls = 0, name_nulls = 0, chars = 0;
  std::mt19937_64 rng(seed);
  if (fill) {
    auto* ids = id->mutable_data_as<int64_t>();
    auto* values = value->mutable_data_as<double>();
    auto* off = offsets->mutable_data_as<int32_t>();
    for (int64_t i = 0; i < rows; ++i) {
      ids[i] = static_cast<int64_t>(seed) * rows + i;
      values[i] = static_cast<double>(rng() % 1000) / 8.0;
      if (rng() % 10 == 0) bit_util::ClearBit(valid->mutable_data(), i), ++value_nulls;
      if (rng() % 10 == 0) bit_util::ClearBit(name_valid->mutable_data(), i), ++name_nulls;
      off[i + 1] = off[i] + static_cast<int32_t>(rng() % 33);
    }
    chars = off[rows];
  }
  auto data = AllocateBuffer(chars).ValueOrDie();
  std::memset(data->mutable_data(), 'x', static_cast<size_t>(chars));
  return RecordBatch::Make(ThreeColumns(), rows,
                           {ArrayData::Make(int64(), rows, {nullptr, id}, 0),
                            ArrayData::Make(float64(), rows, {valid, value}, value_nulls),
                            ArrayData::Make(utf8(), rows, {name_valid, offsets, data}, name_nulls)});
}

int64_t Bytes(const std::vector<RecordBatchPtr>& batches) {
  int64_t total = 0;
  for (const auto& b : batches)
    for (const auto& c : b->columns())
      for (const auto& buf : c->buffers) total += buf ? buf->size() : 0;
  return total;
}

// 16 batches of about 20.25 bytes per row.
const std::vector<RecordBatchPtr>& SizedSet(int64_t megabytes) {
  static std::vector<RecordBatchPtr> small, large;
  auto& set = megabytes >= 1000 ? large : small;
  if (set.empty()) {
    const int64_t rows = megabytes * 1'000'000 / 16 * 4 / 81;
    for (int i = 0; i < 16; ++i) set.push_back(Batch(rows, static_cast<uint64_t>(i), false));
  }
  return set;
}

void ExportImport(benchmark::State& state) {
  const auto& batches = SizedSet(state.range(0));
  c_data::ImportOptions options;
  options.validate_full = state.range(1) != 0;
  for (auto _ : state) {
    for (const auto& batch : batches) {
      ArrowArray array;
      Must(c_data::ExportRecordBatch(*batch, &array));
      auto back = c_data::ImportRecordBatch(&array, batch->schema(), options);
      Must(back.status());
      benchmark::DoNotOptimize(back);
    }
  }
  state.counters["MB"] = static_cast<double>(Bytes(batches)) / 1e6;
  state.counters["buffers"] = 16.0 * 7;
}
BENCHMARK(ExportImport)
    ->ArgNames({"MB", "full_validation"})
    ->Args({100, 0})
    ->Args({1000, 0})
    ->Args({100, 1})
    ->Args({1000, 1})
    ->Unit(benchmark::kMicrosecond);

// ---------------------------------------------------------------------------
// DuckDB

std::atomic<int64_t> g_callback_ns{0};

struct Timed {
  Clock::time_point start = Clock::now();
  ~Timed() {
    g_callback_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  }
};

// Wraps an exported stream so the time in each of our callbacks is counted,
// including the release of every batch DuckDB pulls.
struct TimedStream {
  ArrowArrayStream inner;

  struct ReleaseHook {
    void (*release)(ArrowArray*);
    void* private_data;
  };
  static void TimedRelease(ArrowArray* a) {
    Timed t;
    auto* hook = static_cast<ReleaseHook*>(a->private_data);
    a->private_data = hook->private_data;
    a->release = hook->release;
    delete hook;
    a->release(a);
  }
  static TimedStream* Of(ArrowArrayStream* s) { return static_cast<TimedStream*>(s->private_data); }
  static int GetSchema(ArrowArrayStream* s, ArrowSchema* out) {
    Timed t;
    return Of(s)->inner.get_schema(&Of(s)->inner, out);
  }
  static int GetNext(ArrowArrayStream* s, ArrowArray* out) {
    Timed t;
    int rc = Of(s)->inner.get_next(&Of(s)->inner, out);
    if (rc == 0 && out->release != nullptr) {
      out->private_data = new ReleaseHook{out->release, out->private_data};
      out->release = &TimedRelease;
    }
    return rc;
  }
  static const char* LastError(ArrowArrayStream* s) {
    return Of(s)->inner.get_last_error(&Of(s)->inner);
  }
  static void Release(ArrowArrayStream* s) {
    auto* self = Of(s);
    self->inner.release(&self->inner);
    delete self;
    s->release = nullptr;
  }
  static void Wrap(ArrowArrayStream* exported, ArrowArrayStream* out) {
    auto* self = new TimedStream{*exported};
    exported->release = nullptr;
    out->get_schema = &GetSchema;
    out->get_next = &GetNext;
    out->get_last_error = &LastError;
    out->release = &Release;
    out->private_data = self;
  }
};

const std::vector<RecordBatchPtr>& TenMillionRows() {
  static std::vector<RecordBatchPtr> batches = [] {
    const char* env = std::getenv("ALKAID_BENCH_ROWS");
    const int64_t total = env ? std::atoll(env) : 10'000'000;
    constexpr int64_t kBatch = 64 * 1024;
    std::vector<RecordBatchPtr> out;
    for (int64_t done = 0, i = 0; done < total; done += kBatch, ++i) {
      out.push_back(Batch(std::min(kBatch, total - done), static_cast<uint64_t>(i), true));
    }
    return out;
  }();
  return batches;
}

void DuckDBSum(benchmark::State& state) {
  // Relative to the repository root, where .ci/install-duckdb puts it.
  c_data::DuckApi* api = c_data::DuckApi::Get(
      "third_party/duckdb/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so");
  if (!api->error.empty()) {
    state.SkipWithError(("libduckdb.so not found: " + api->error).c_str());
    return;
  }
  const auto& batches = TenMillionRows();
  duckdb_database db = nullptr;
  duckdb_connection con = nullptr;
  if (api->duckdb_open(nullptr, &db) != DuckDBSuccess || api->duckdb_connect(db, &con) != DuckDBSuccess) {
    state.SkipWithError("could not open DuckDB");
    return;
  }
  int64_t callback_ns = 0, total_ns = 0;
  int n = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ArrowArrayStream exported, timed;
    Must(c_data::ExportRecordBatchReader(RecordBatchReader::Make(batches, ThreeColumns()).ValueOrDie(),
                                         &exported));
    TimedStream::Wrap(&exported, &timed);
    std::string view = "v" + std::to_string(n++);
    g_callback_ns = 0;
    state.ResumeTiming();
    auto start = Clock::now();
    if (api->duckdb_arrow_scan(con, view.c_str(), reinterpret_cast<duckdb_arrow_stream>(&timed)) !=
        DuckDBSuccess) {
      state.SkipWithError("duckdb_arrow_scan failed");
      break;
    }
    duckdb_result result;
    std::memset(&result, 0, sizeof(result));
    std::string sql = "SELECT sum(id), sum(value) FROM " + view;
    if (api->duckdb_query(con, sql.c_str(), &result) != DuckDBSuccess) {
      state.SkipWithError(api->duckdb_result_error(&result));
      api->duckdb_destroy_result(&result);
      break;
    }
    api->duckdb_destroy_result(&result);
    total_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    callback_ns += g_callback_ns.load();
    state.PauseTiming();
    timed.release(&timed);  // DuckDB never releases the stream: the producer does
    state.ResumeTiming();
  }
  api->duckdb_disconnect(&con);
  api->duckdb_close(&db);
  state.counters["callback_share"] = total_ns > 0 ? static_cast<double>(callback_ns) / total_ns : 0;
  state.counters["rows"] = 0;
  for (const auto& b : batches) state.counters["rows"] += static_cast<double>(b->num_rows());
}
BENCHMARK(DuckDBSum)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
