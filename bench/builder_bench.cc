// Builders one value at a time, the way readers of text formats and user code fill them:
// int64 with and without nulls, booleans, short strings (offsets and views), dictionary
// strings, and a list of int32. Every iteration builds and finishes one array of 64 Ki slots,
// so growth and Finish are part of the figure.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "alkaid/builder.h"

namespace {

using namespace alkaid;

constexpr int64_t kSlots = 64 * 1024;

// Every `every`-th slot null (0: none).
bool IsNull(int64_t i, int64_t every) { return every > 0 && i % every == 0; }

void BM_Int64Append(benchmark::State& state) {
  const int64_t null_every = state.range(0);
  Int64Builder builder;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlots; ++i) {
      Status st = IsNull(i, null_every) ? builder.AppendNull() : builder.Append(i * 7);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(state.iterations() * kSlots);
}
// Args: a null every N slots (0: no nulls).
BENCHMARK(BM_Int64Append)->Arg(0)->Arg(8);

void BM_Int64AppendValues(benchmark::State& state) {
  std::vector<int64_t> values(kSlots);
  for (int64_t i = 0; i < kSlots; ++i) values[static_cast<size_t>(i)] = i * 7;
  Int64Builder builder;
  for (auto _ : state) {
    Status st = builder.AppendValues(values);
    if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(state.iterations() * kSlots);
}
BENCHMARK(BM_Int64AppendValues);

void BM_BooleanAppend(benchmark::State& state) {
  BooleanBuilder builder;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlots; ++i) {
      Status st = builder.Append(i % 3 == 0);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(state.iterations() * kSlots);
}
BENCHMARK(BM_BooleanAppend);

// Words of 3 to 20 bytes, so views hold some inline and some out of line.
std::vector<std::string> Words() {
  std::vector<std::string> words;
  for (int i = 0; i < 256; ++i) {
    words.push_back(std::string(3 + i % 18, static_cast<char>('a' + i % 26)));
  }
  return words;
}

// BuilderT is StringBuilder or BinaryViewBuilder (made for utf8_view).
template <typename BuilderT>
void BM_StringAppend(benchmark::State& state) {
  const std::vector<std::string> words = Words();
  const int64_t null_every = state.range(0);
  BuilderT builder(std::is_same_v<BuilderT, StringBuilder> ? utf8() : utf8_view());
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlots; ++i) {
      Status st = IsNull(i, null_every) ? builder.AppendNull()
                                        : builder.Append(words[static_cast<size_t>(i % 256)]);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    auto data = builder.Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(state.iterations() * kSlots);
}

BENCHMARK(BM_StringAppend<StringBuilder>)->Arg(0)->Arg(8);
BENCHMARK(BM_StringAppend<BinaryViewBuilder>)->Arg(0)->Arg(8);

void BM_DictionaryAppend(benchmark::State& state) {
  const std::vector<std::string> words = Words();
  auto made = MakeBuilderAs<DictionaryBuilder>(dictionary(int32(), utf8()));
  if (!made.ok()) {
    state.SkipWithError(made.status().ToString().c_str());
    return;
  }
  auto builder = std::move(made).ValueOrDie();
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlots; ++i) {
      auto index = builder->Append(std::string_view(words[static_cast<size_t>(i % 256)]));
      if (!index.ok()) state.SkipWithError(index.status().ToString().c_str());
    }
    auto data = builder->Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(state.iterations() * kSlots);
}
BENCHMARK(BM_DictionaryAppend);

// Lists of 0 to 7 int32 values; items are the int32 values appended.
void BM_ListOfInt32Append(benchmark::State& state) {
  auto made = MakeBuilderAs<ListBuilder>(list(int32()));
  if (!made.ok()) {
    state.SkipWithError(made.status().ToString().c_str());
    return;
  }
  auto builder = std::move(made).ValueOrDie();
  auto* ints = static_cast<Int32Builder*>(builder->value_builder());
  int64_t items = 0;
  for (auto _ : state) {
    for (int64_t i = 0; i < kSlots / 4; ++i) {
      Status st = builder->Append();
      for (int32_t k = 0; k < i % 8 && st.ok(); ++k) st = ints->Append(k);
      if (!st.ok()) state.SkipWithError(st.ToString().c_str());
    }
    items += ints->length();
    auto data = builder->Finish();
    benchmark::DoNotOptimize(data);
  }
  state.SetItemsProcessed(items);
}
BENCHMARK(BM_ListOfInt32Append);

}  // namespace

BENCHMARK_MAIN();
