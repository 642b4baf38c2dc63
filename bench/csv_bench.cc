// CSV parsing of a ~1 GiB file of mixed columns (int64, float64, short
// strings, timestamps with milliseconds; 5% of fields empty) with 1 and 2
// threads, against `wc -l` and a read+memchr line count on the same file in
// the same run (the I/O-and-scan limit). The file is /tmp/alkaid_bench.csv (see BenchPath),
// generated on first use; ALKAID_BENCH_BYTES shrinks it. ALKAID_BENCH_BLOCK sets
// the reader's block_size (default: the reader's).
#include "alkaid/csv/api.h"
#include "text_bench_common.h"

namespace {

using namespace alkaid;  // NOLINT

const std::string& CsvFile() {
  return bench::EnsureFile(
      bench::BenchPath(".csv"), "id,price,name,ts,qty\n",
      [](int64_t i, std::mt19937_64& rng, std::string* out) {
        static const char* kNames[] = {"alpha", "beta", "gamma", "delta", "eps", "zeta", "eta",
                                       "theta"};
        uint64_t r = rng();
        auto empty = [&](int k) { return (r >> (8 * k) & 0xFF) < 13; };  // ~5%
        char buf[160];
        int n = 0;
        n += empty(0) ? 0 : std::snprintf(buf + n, sizeof(buf) - n, "%lld", static_cast<long long>(i * 7919 % 100000007));
        buf[n++] = ',';
        n += empty(1) ? 0 : std::snprintf(buf + n, sizeof(buf) - n, "%.3f", static_cast<double>(r % 1000000) / 97.0);
        buf[n++] = ',';
        n += empty(2) ? 0 : std::snprintf(buf + n, sizeof(buf) - n, "%s%u", kNames[r >> 40 & 7], static_cast<unsigned>(r >> 44 & 0xFF));
        buf[n++] = ',';
        int64_t s = 1'600'000'000 + static_cast<int64_t>(r >> 20 & 0xFFFFFFF);
        time_t t = static_cast<time_t>(s);
        tm tmv;
        gmtime_r(&t, &tmv);
        n += empty(3) ? 0 : static_cast<int>(std::strftime(buf + n, sizeof(buf) - n, "%Y-%m-%dT%H:%M:%S", &tmv));
        if (!empty(3)) n += std::snprintf(buf + n, sizeof(buf) - n, ".%03u", static_cast<unsigned>(r % 1000));
        buf[n++] = ',';
        n += empty(4) ? 0 : std::snprintf(buf + n, sizeof(buf) - n, "%u", static_cast<unsigned>(r >> 50));
        buf[n++] = '\n';
        out->append(buf, static_cast<size_t>(n));
      });
}

void BM_WcL(benchmark::State& state) { bench::WcL(state, CsvFile()); }
void BM_ReadMemchrLines(benchmark::State& state) { bench::MemchrLines(state, CsvFile()); }

void BM_CsvRead(benchmark::State& state) {
  const std::string& path = CsvFile();
  int threads = static_cast<int>(state.range(0));
  bench::ReadAll(state, path, [&](MemoryPool* pool) {
    csv::ReadOptions o;
    o.num_threads = threads;
    o.pool = pool;
    if (const char* b = std::getenv("ALKAID_BENCH_BLOCK")) o.block_size = std::atoll(b);
    return csv::OpenReader(path, o);
  }, threads);
}

BENCHMARK(BM_WcL)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadMemchrLines)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CsvRead)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
