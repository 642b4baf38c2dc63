// Full validation of offsets and run ends alone: binary arrays (whose bytes
// full validation does not read) with 32- and 64-bit offsets, and run-end
// encoded arrays with 16-, 32- and 64-bit run ends. 10M values come from
// memory; 60,000 (240 KiB of int32) stay in the core's cache, as a batch
// the reader has just decompressed does.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/type.h"
#include "alkaid/validate.h"

namespace {

using namespace alkaid;

// `count` values first, first + step, first + 2 step, ...
template <typename T>
BufferPtr Ascending(int64_t count, int64_t first, int64_t step) {
  auto buffer = AllocateBuffer(count * static_cast<int64_t>(sizeof(T))).ValueOrDie();
  auto* values = buffer->mutable_data_as<T>();
  for (int64_t i = 0; i < count; ++i) values[i] = static_cast<T>(first + i * step);
  return buffer;
}

void Run(benchmark::State& state, const ArrayData& array, int64_t values, int width) {
  if (!ValidateArrayFull(array).ok()) {
    state.SkipWithError("the array does not validate");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(ValidateArrayFull(array).ok());
  state.SetItemsProcessed(state.iterations() * values);
  state.SetBytesProcessed(state.iterations() * values * width);
}

// Args: offset width in bytes (4 or 8), number of slots.
void BM_ValidateOffsets(benchmark::State& state) {
  const bool large = state.range(0) == 8;
  const int64_t n = state.range(1);
  // Offsets 0, 1, ..., n over n bytes: one byte per slot.
  BufferPtr offsets = large ? Ascending<int64_t>(n + 1, 0, 1) : Ascending<int32_t>(n + 1, 0, 1);
  auto bytes = AllocateBuffer(n).ValueOrDie();
  std::memset(bytes->mutable_data(), 'a', static_cast<size_t>(n));
  auto array = ArrayData::Make(large ? large_binary() : binary(), n, {nullptr, offsets, bytes}, 0);
  Run(state, *array, n + 1, static_cast<int>(state.range(0)));
  state.SetLabel(std::string(large ? "large_binary" : "binary") + ", " + std::to_string(n) +
                 " slots");
}
BENCHMARK(BM_ValidateOffsets)->ArgsProduct({{4, 8}, {60000, 10000000}});

// Args: run-end width in bytes (2, 4 or 8), number of runs (each 2 slots).
void BM_ValidateRunEnds(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  const int64_t runs = state.range(1);
  DataTypePtr end_type = width == 2 ? int16() : width == 4 ? int32() : int64();
  BufferPtr ends = width == 2   ? Ascending<int16_t>(runs, 2, 2)
                   : width == 4 ? Ascending<int32_t>(runs, 2, 2)
                                : Ascending<int64_t>(runs, 2, 2);
  auto run_ends = ArrayData::Make(end_type, runs, {nullptr, ends}, 0);
  auto values = ArrayData::Make(int8(), runs, {nullptr, AllocateBuffer(runs).ValueOrDie()}, 0);
  auto array = ArrayData::Make(run_end_encoded(end_type, int8()), 2 * runs, BufferVector{},
                               ArrayDataVector{run_ends, values}, 0);
  Run(state, *array, runs, width);
  state.SetLabel("run ends of " + std::to_string(8 * width) + " bits, " + std::to_string(runs) +
                 " runs");
}
// int16 run ends reach 32,767: 16,000 runs of 2 slots.
BENCHMARK(BM_ValidateRunEnds)->Args({2, 16000})->Args({4, 60000})->Args({8, 60000});

}  // namespace

BENCHMARK_MAIN();
