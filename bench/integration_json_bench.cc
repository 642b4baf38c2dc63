// Integration JSON writing and reading throughput on batches of 64 Ki rows
// of int64, float64 (6% nulls), short strings and booleans: 128 batches,
// 8 Mi rows, about 250 MB of arrays and 1.7 GB of text (ALKAID_BENCH_ROWS
// shrinks it). Writing goes to a std::ostream that only counts (the API
// every version has, so the figures compare across versions); reading parses
// the text held in memory. Bytes per second count the JSON text.
#include <cstdlib>
#include <ostream>
#include <random>
#include <streambuf>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "alkaid/bitmap.h"
#include "alkaid/integration_json/integration.h"

namespace {

using namespace alkaid;  // NOLINT

constexpr int64_t kBatchRows = int64_t{64} << 10;

int64_t TotalRows() {
  const char* env = std::getenv("ALKAID_BENCH_ROWS");
  return env != nullptr ? std::max<int64_t>(kBatchRows, std::atoll(env)) : int64_t{8} << 20;
}

RecordBatchPtr MakeBatch(int64_t rows, std::mt19937_64* rng) {
  auto ids = AllocateBuffer(rows * 8).ValueOrDie();
  auto values = AllocateBuffer(rows * 8).ValueOrDie();
  auto valid = AllocateBitmap(rows, true).ValueOrDie();
  auto flags = AllocateBitmap(rows).ValueOrDie();
  auto offsets = AllocateBuffer((rows + 1) * 4).ValueOrDie();
  std::string chars;
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const uint64_t r = (*rng)();
    ids->mutable_data_as<int64_t>()[i] = static_cast<int64_t>(r % 100000007);
    values->mutable_data_as<double>()[i] = static_cast<double>(r % 1000000) / 97.0;
    if ((r >> 20) % 16 == 0) {
      bit_util::ClearBit(valid->mutable_data(), i);
      ++nulls;
    }
    if ((r >> 30) & 1) bit_util::SetBit(flags->mutable_data(), i);
    chars += "name" + std::to_string(r >> 44 & 0xFFFF);
    offsets->mutable_data_as<int32_t>()[i + 1] = static_cast<int32_t>(chars.size());
  }
  auto schema = alkaid::schema({field("id", int64()), field("value", float64()),
                                field("name", utf8()), field("flag", boolean())});
  return RecordBatch::Make(
      schema, rows,
      {ArrayData::Make(int64(), rows, {nullptr, ids}, 0),
       ArrayData::Make(float64(), rows, {valid, values}, nulls),
       ArrayData::Make(utf8(), rows, {nullptr, offsets, Buffer::FromString(chars)}, 0),
       ArrayData::Make(boolean(), rows, {nullptr, flags}, 0)});
}

const std::vector<RecordBatchPtr>& Batches() {
  static const std::vector<RecordBatchPtr> batches = [] {
    std::mt19937_64 rng(31);
    std::vector<RecordBatchPtr> out;
    for (int64_t done = 0; done < TotalRows(); done += kBatchRows) out.push_back(MakeBatch(kBatchRows, &rng));
    return out;
  }();
  return batches;
}

int64_t ArrayBytes() {
  int64_t total = 0;
  for (const auto& batch : Batches()) {
    for (int c = 0; c < batch->num_columns(); ++c) {
      for (const auto& b : batch->column_data(c)->buffers) total += b ? b->size() : 0;
    }
  }
  return total;
}

// Counts what is written and keeps none of it.
class CountingBuffer final : public std::streambuf {
 public:
  int64_t count = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    count += n;
    return n;
  }
  int_type overflow(int_type c) override {
    ++count;
    return traits_type::not_eof(c);
  }
};

void BM_WriteIntegrationJson(benchmark::State& state) {
  const auto& batches = Batches();
  int64_t text = 0;
  for (auto _ : state) {
    CountingBuffer counter;
    std::ostream sink(&counter);
    auto writer = integration_json::IntegrationJsonWriter::Open(&sink, batches[0]->schema(),
                                                                DictionaryIds(), {})
                      .ValueOrDie();
    for (const auto& batch : batches) {
      if (!writer->WriteRecordBatch(*batch).ok()) state.SkipWithError("write failed");
    }
    if (!writer->Close().ok()) state.SkipWithError("close failed");
    text = counter.count;
  }
  state.SetBytesProcessed(state.iterations() * text);
  state.counters["array_MBps"] = benchmark::Counter(static_cast<double>(ArrayBytes()) / 1e6,
                                                    benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ReadIntegrationJson(benchmark::State& state) {
  static const std::string text = *integration_json::WriteIntegrationJson(*Batches()[0]->schema(), Batches());
  for (auto _ : state) {
    auto file = integration_json::ParseIntegrationJson(text);
    if (!file.ok()) state.SkipWithError(file.status().ToString().c_str());
    benchmark::DoNotOptimize(file);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}

BENCHMARK(BM_WriteIntegrationJson)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadIntegrationJson)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
