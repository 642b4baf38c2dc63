// UTF-8 validation, which full validation runs over every utf8 column, on
// ASCII, on Chinese text (three bytes per character) and on a mix; over
// 16 MiB (from memory) and over 256 KiB (from the core's cache, which is
// where a reader validates what it has just decompressed).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "alkaid/utf8.h"

namespace {


void AppendCodePoint(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// kind 0: ASCII letters; 1: CJK ideographs; 2: one CJK ideograph in four
// characters, the rest ASCII (e.g. mixed-language identifiers).
std::string MakeText(int kind, size_t bytes) {
  std::mt19937 rng(11);
  std::string out;
  out.reserve(bytes + 4);
  while (out.size() < bytes) {
    const bool cjk = kind == 1 || (kind == 2 && rng() % 4 == 0);
    AppendCodePoint(&out, cjk ? 0x4E00 + rng() % 0x5000 : 'a' + rng() % 26);
  }
  return out;
}

void BM_ValidateUtf8(benchmark::State& state) {
  const std::string text =
      MakeText(static_cast<int>(state.range(0)), static_cast<size_t>(state.range(1)) << 10);
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  for (auto _ : state) {
    benchmark::DoNotOptimize(alkaid::FindInvalidUtf8(bytes, static_cast<int64_t>(text.size())));
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  const char* labels[] = {"ascii", "chinese", "mixed"};
  state.SetLabel(std::string(labels[state.range(0)]) + ", " + std::to_string(state.range(1)) +
                 " KiB");
}
// Args: kind, KiB.
BENCHMARK(BM_ValidateUtf8)->ArgsProduct({{0, 1, 2}, {16 << 10, 256}});

}  // namespace

BENCHMARK_MAIN();
