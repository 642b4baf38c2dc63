// Parquet write throughput: alkaid's FileWriter against DuckDB's COPY ... TO (FORMAT parquet)
// in the same run, on the mixed data set: 10M rows of an int64 id, a random int32, a
// double, a nullable int64 (10% null), a low-cardinality string (100 values: dictionary
// encoded), a unique string, a microsecond timestamp and a list<int32> column. Snappy and
// ZSTD, 1 and 2 threads. DuckDB writes from its own table (loaded once from the same Arrow
// data), so its time is its writer alone.
//
//   ALKAID_BENCH_ROWS=1000000 build/release/bench/parquet_write_bench
//
// DuckDB comes from $ALKAID_DUCKDB_LIB (or the build's default path); without it the DuckDB
// cases are skipped with a message.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "alkaid/parquet/writer.h"
#include "alkaid/table.h"
#include "bench/parquet_bench_data.h"
#include "test_util/duckdb.h"

namespace alkaid {
namespace {

using bench::MixedBatches;
using bench::MixedTable;
using bench::Must;

std::string OutputPath(const char* who) {
  return (std::filesystem::temp_directory_path() /
          ("alkaid_write_bench_" + std::string(who) + "_" + std::to_string(::getpid()) +
           ".parquet"))
      .string();
}

parquet::Compression CodecOf(int64_t arg) {
  return arg == 0 ? parquet::Compression::kSnappy : parquet::Compression::kZstd;
}

// Both writers run on the same grid: Snappy (zstd=0) or ZSTD (zstd=1), on 1 or 2 threads.
void CodecAndThreadArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"zstd", "threads"});
  for (int threads : {1, 2}) {
    for (int zstd : {0, 1}) b->Args({zstd, threads});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

// Rows and the written file's size as counters, then the file is removed.
void ReportFileAndRemove(benchmark::State& state, const std::string& path, int64_t rows) {
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  state.SetItemsProcessed(state.iterations() * rows);
  std::filesystem::remove(path);
}

void AlkaidWrite(benchmark::State& state) {
  const auto& table = MixedTable();
  parquet::WriterProperties props;
  props.compression = CodecOf(state.range(0));
  props.use_threads = state.range(1) > 1;
  props.num_threads = static_cast<int>(state.range(1));
  props.max_row_group_rows = 1'000'000;
  const std::string path = OutputPath("alkaid");
  for (auto _ : state) Must(parquet::WriteTable(*table, path, props));
  ReportFileAndRemove(state, path, table->num_rows());
}
BENCHMARK(AlkaidWrite)->Apply(CodecAndThreadArgs);

void DuckDBCopyTo(benchmark::State& state) {
  c_data::DuckApi* api = bench::DuckOrSkip(state);
  if (api == nullptr) return;
  static c_data::Database* db = nullptr;
  if (db == nullptr) {
    // Loaded once into DuckDB's own storage, so that COPY times its writer only.
    db = new c_data::Database(api);
    Must(db->Register("mixed_arrow", MixedTable()->schema(), MixedBatches()));
    Must(db->Execute("CREATE TABLE mixed AS SELECT * FROM mixed_arrow"));
  }
  Must(db->Execute("SET threads = " + std::to_string(state.range(1))));
  const std::string path = OutputPath("duckdb");
  const std::string sql = "COPY mixed TO '" + path + "' (FORMAT parquet, COMPRESSION " +
                          (state.range(0) == 0 ? "snappy" : "zstd") +
                          ", ROW_GROUP_SIZE 1000000)";
  for (auto _ : state) Must(db->Execute(sql));
  ReportFileAndRemove(state, path, MixedTable()->num_rows());
}
BENCHMARK(DuckDBCopyTo)->Apply(CodecAndThreadArgs);

}  // namespace
}  // namespace alkaid

BENCHMARK_MAIN();
