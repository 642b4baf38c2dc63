// JSON Lines parsing of a ~1 GiB file (int64, float64, short strings,
// timestamps as strings, a small array; 5% nulls) with 1 and 2 threads,
// against `wc -l` and a read+memchr line count on the same file in the same
// run. The file is /tmp/alkaid_bench.jsonl (see BenchPath), generated on first use;
// ALKAID_BENCH_BYTES shrinks it.
#include "alkaid/jsonl/api.h"
#include "text_bench_common.h"

namespace {

using namespace alkaid;  // NOLINT

const std::string& JsonlFile() {
  return bench::EnsureFile(
      bench::BenchPath(".jsonl"), "", [](int64_t i, std::mt19937_64& rng, std::string* out) {
        uint64_t r = rng();
        auto null = [&](int k) { return (r >> (8 * k) & 0xFF) < 13; };  // ~5%
        char buf[200];
        int n = std::snprintf(buf, sizeof(buf), "{\"id\":%lld,", static_cast<long long>(i * 7919 % 100000007));
        n += null(1) ? std::snprintf(buf + n, sizeof(buf) - n, "\"price\":null,")
                     : std::snprintf(buf + n, sizeof(buf) - n, "\"price\":%.3f,", static_cast<double>(r % 1000000) / 97.0);
        n += null(2) ? std::snprintf(buf + n, sizeof(buf) - n, "\"name\":null,")
                     : std::snprintf(buf + n, sizeof(buf) - n, "\"name\":\"n%u\",", static_cast<unsigned>(r >> 44 & 0xFFF));
        n += std::snprintf(buf + n, sizeof(buf) - n, "\"ts\":\"2024-%02u-%02uT%02u:%02u:%02u.%03u\",",
                           static_cast<unsigned>(r % 12 + 1), static_cast<unsigned>(r % 28 + 1),
                           static_cast<unsigned>(r % 24), static_cast<unsigned>(r % 60),
                           static_cast<unsigned>(r >> 7 & 31), static_cast<unsigned>(r % 1000));
        n += std::snprintf(buf + n, sizeof(buf) - n, "\"tags\":[%u,%u]}\n", static_cast<unsigned>(r >> 52),
                           static_cast<unsigned>(r >> 56));
        out->append(buf, static_cast<size_t>(n));
      });
}

void BM_WcL(benchmark::State& state) { bench::WcL(state, JsonlFile()); }
void BM_ReadMemchrLines(benchmark::State& state) { bench::MemchrLines(state, JsonlFile()); }

void BM_JsonlRead(benchmark::State& state) {
  const std::string& path = JsonlFile();
  int threads = static_cast<int>(state.range(0));
  // The timestamp strings are read as timestamps through a given schema.
  auto schema = alkaid::schema({field("id", int64()), field("price", float64()),
                                field("name", utf8()), field("ts", timestamp(TimeUnit::kMilli)),
                                field("tags", list(int64()))});
  bench::ReadAll(state, path, [&](MemoryPool* pool) {
    jsonl::ReadOptions o;
    o.num_threads = threads;
    o.pool = pool;
    o.schema = schema;
    return jsonl::OpenReader(path, o);
  }, threads);
}

BENCHMARK(BM_WcL)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadMemchrLines)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JsonlRead)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
