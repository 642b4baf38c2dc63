// Parquet read throughput: alkaid's FileReader against DuckDB's read_parquet in the same run,
// on the same file: the mixed data set of bench/parquet_bench_data.h written once by alkaid
// (Snappy or ZSTD, 1M-row row groups). Each side reads the whole file into memory (alkaid: a
// Table; DuckDB: CREATE TABLE ... AS SELECT * FROM read_parquet, its "read into a table"),
// or one column of the eight, on 1 and 2 threads. The one-column cases also count the bytes
// the reader asks of the file (`read_MB`, footer included) against the bytes of that column's
// chunks (`chunk_MB`). The counter `peak_MB` of the streaming case is the reader pool's peak
// while batches are consumed one by one, and `row_group_MB` one row group decoded.
// `proc_cpu_s` is the CPU time of the whole process per read (pool threads included).
// AlkaidReadWide reads a 20-column file (bench::WideTable) whole, or its median-sized or
// largest column alone.
//
//   ALKAID_BENCH_ROWS=1000000 build/release/bench/parquet_read_bench
//
// DuckDB comes from $ALKAID_DUCKDB_LIB (or the build's default path); without it the DuckDB
// cases are skipped with a message.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "alkaid/io/input.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/writer.h"
#include "bench/parquet_bench_data.h"
#include "test_util/duckdb.h"

namespace alkaid {
namespace {

using bench::MixedTable;
using bench::Must;

// The file of each codec (0 Snappy, 1 ZSTD) and data set (the 8 mixed columns, or the 20 of
// WideTable), written once and removed at exit.
const std::string& FileOf(int64_t zstd, bool wide = false) {
  static std::map<std::pair<int64_t, bool>, std::string> paths;
  auto it = paths.find({zstd, wide});
  if (it != paths.end()) return it->second;
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("alkaid_read_bench_" + std::string(wide ? "wide_" : "") + std::to_string(zstd) + "_" +
        std::to_string(::getpid()) + ".parquet"))
          .string();
  parquet::WriterProperties props;
  props.compression = zstd != 0 ? parquet::Compression::kZstd : parquet::Compression::kSnappy;
  props.max_row_group_rows = 1'000'000;
  Must(parquet::WriteTable(wide ? *bench::WideTable() : *MixedTable(), path, props));
  static struct Cleanup {
    ~Cleanup() {
      for (const auto& [key, p] : paths) std::filesystem::remove(p);
    }
  } cleanup;
  return paths.emplace(std::make_pair(zstd, wide), path).first->second;
}

// Runs `read` once per iteration and reports the CPU time of the whole process per read
// (`proc_cpu_s`: every thread, the pool's included).
template <typename Read>
void TimedReads(benchmark::State& state, Read read) {
  const double cpu_before = bench::ProcessCpuSeconds();
  for (auto _ : state) read();
  state.counters["proc_cpu_s"] =
      (bench::ProcessCpuSeconds() - cpu_before) / static_cast<double>(state.iterations());
}

// alkaid's read of the file into a Table, timed by TimedReads.
void ReadTables(benchmark::State& state, const std::string& path,
                const parquet::ReaderOptions& options) {
  TimedReads(state, [&] {
    auto table = parquet::ReadTable(path, options);
    Must(table.status());
    benchmark::DoNotOptimize(table->get());
  });
}

// zstd 0/1, threads 1/2, one_column 0 (all eight) or 1 ("unique", the largest).
void Args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"zstd", "threads", "one_column"});
  for (int one : {0, 1}) {
    for (int threads : {1, 2}) {
      for (int zstd : {0, 1}) b->Args({zstd, threads, one});
    }
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void Report(benchmark::State& state, const std::string& path) {
  const auto rows = static_cast<double>(bench::Rows());
  state.counters["rows"] = rows;
  state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(rows));
}

// A file that counts the bytes read from it (ReadAt is all the Parquet reader uses).
class CountingFile final : public io::RandomAccessFile {
 public:
  explicit CountingFile(std::shared_ptr<io::RandomAccessFile> file) : file_(std::move(file)) {}
  int64_t bytes() const { return bytes_.load(); }

  Result<BufferPtr> Read(int64_t nbytes) override { return file_->Read(nbytes); }
  Result<int64_t> Read(int64_t nbytes, void* out) override { return file_->Read(nbytes, out); }
  Result<int64_t> Tell() const override { return file_->Tell(); }
  Status Close() override { return file_->Close(); }
  bool closed() const override { return file_->closed(); }
  bool supports_zero_copy() const override { return file_->supports_zero_copy(); }
  Result<int64_t> GetSize() override { return file_->GetSize(); }
  Result<BufferPtr> ReadAt(int64_t offset, int64_t nbytes) override {
    auto got = file_->ReadAt(offset, nbytes);
    if (got.ok()) bytes_ += (*got)->size();
    return got;
  }
  Result<int64_t> ReadAt(int64_t offset, int64_t nbytes, void* out) override {
    auto got = file_->ReadAt(offset, nbytes, out);
    if (got.ok()) bytes_ += *got;
    return got;
  }
  Status Seek(int64_t position) override { return file_->Seek(position); }

 private:
  std::shared_ptr<io::RandomAccessFile> file_;
  std::atomic<int64_t> bytes_{0};
};

// The compressed bytes of each top-level column's chunks, over all row groups.
std::map<std::string, int64_t> ChunkBytesByColumn(const parquet::FileMetaData& metadata) {
  std::map<std::string, int64_t> bytes;
  for (int g = 0; g < metadata.num_row_groups(); ++g) {
    const auto row_group = metadata.row_group(g);
    for (int c = 0; c < row_group.num_columns(); ++c) {
      const std::string& leaf = row_group.column(c).path();
      bytes[leaf.substr(0, leaf.find('.'))] += row_group.column(c).total_compressed_size();
    }
  }
  return bytes;
}

// Bytes a projected read asks of the file against the bytes of the projected column's chunks.
void CountProjectedBytes(benchmark::State& state, const std::string& path,
                         const parquet::ReaderOptions& options) {
  auto mapped = io::MemoryMappedFile::Open(path);
  Must(mapped.status());
  auto counting = std::make_shared<CountingFile>(*mapped);
  auto reader = parquet::FileReader::Open(counting, options);
  Must(reader.status());
  Must((*reader)->ReadTable().status());
  const int64_t chunk_bytes = ChunkBytesByColumn((*reader)->metadata())[options.columns[0]];
  state.counters["read_MB"] = static_cast<double>(counting->bytes()) / 1e6;
  state.counters["chunk_MB"] = static_cast<double>(chunk_bytes) / 1e6;
}

void AlkaidRead(benchmark::State& state) {
  const std::string& path = FileOf(state.range(0));
  parquet::ReaderOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  if (state.range(2) != 0) options.columns = {"unique"};
  ReadTables(state, path, options);
  Report(state, path);
  if (state.range(2) != 0) CountProjectedBytes(state, path, options);
}
BENCHMARK(AlkaidRead)->Apply(Args);

// Top-level column names of a file by the compressed bytes of their chunks, smallest first.
std::vector<std::pair<int64_t, std::string>> ColumnsBySize(const std::string& path) {
  auto reader = parquet::FileReader::Open(path);
  Must(reader.status());
  std::vector<std::pair<int64_t, std::string>> sorted;
  for (const auto& [name, size] : ChunkBytesByColumn((*reader)->metadata())) {
    sorted.emplace_back(size, name);
  }
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// The projection target on a 20-column file (bench::WideTable): all 20 columns
// (column 0), the median-sized column (1: the 10th of 20 by compressed bytes) or the largest
// (2), on one thread; the label names the column.
void AlkaidReadWide(benchmark::State& state) {
  const std::string& path = FileOf(state.range(0), /*wide=*/true);
  parquet::ReaderOptions options;
  if (state.range(1) != 0) {
    const auto sizes = ColumnsBySize(path);
    options.columns = {state.range(1) == 1 ? sizes[(sizes.size() - 1) / 2].second
                                           : sizes.back().second};
    state.SetLabel(options.columns[0]);
  }
  ReadTables(state, path, options);
  Report(state, path);
  if (state.range(1) != 0) CountProjectedBytes(state, path, options);
}
BENCHMARK(AlkaidReadWide)
    ->ArgNames({"zstd", "column"})
    ->ArgsProduct({{0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Batches consumed one at a time: the pool's peak against one row group's worth.
void AlkaidStream(benchmark::State& state) {
  const std::string& path = FileOf(state.range(0));
  SystemMemoryPool pool;
  parquet::ReaderOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  options.pool = &pool;
  for (auto _ : state) {
    auto reader = parquet::FileReader::Open(path, options);
    Must(reader.status());
    auto batches = (*reader)->GetRecordBatchReader();
    Must(batches.status());
    while (true) {
      auto batch = (*batches)->Next();
      Must(batch.status());
      if (*batch == nullptr) break;
    }
  }
  Report(state, path);
  state.counters["peak_MB"] = static_cast<double>(pool.max_memory()) / 1e6;
  // One row group decoded: the in-memory size of one of the data set's 1M-row batches.
  int64_t row_group_bytes = 0;
  std::vector<const ArrayData*> pending;
  for (const auto& column : bench::MixedBatches().front()->columns()) pending.push_back(column.get());
  while (!pending.empty()) {
    const ArrayData* data = pending.back();
    pending.pop_back();
    for (const auto& buffer : data->buffers) row_group_bytes += buffer ? buffer->size() : 0;
    for (const auto& child : data->child_data) pending.push_back(child.get());
  }
  state.counters["row_group_MB"] = static_cast<double>(row_group_bytes) / 1e6;
}
BENCHMARK(AlkaidStream)
    ->ArgNames({"zstd", "threads"})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void DuckDBRead(benchmark::State& state) {
  c_data::DuckApi* api = bench::DuckOrSkip(state);
  if (api == nullptr) return;
  static c_data::Database* db = new c_data::Database(api);
  const std::string& path = FileOf(state.range(0));
  Must(db->Execute("SET threads = " + std::to_string(state.range(1))));
  const std::string sql = std::string("CREATE OR REPLACE TABLE t AS SELECT ") +
                          (state.range(2) != 0 ? "\"unique\"" : "*") + " FROM read_parquet('" +
                          path + "')";
  TimedReads(state, [&] { Must(db->Execute(sql)); });
  Must(db->Execute("DROP TABLE t"));
  Report(state, path);
}
BENCHMARK(DuckDBRead)->Apply(Args);

}  // namespace
}  // namespace alkaid

BENCHMARK_MAIN();
