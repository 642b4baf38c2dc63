// Bitmap kernels against the machine's memory bandwidth.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "alkaid/bitmap.h"

namespace {

std::vector<uint8_t> RandomBytes(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

constexpr int64_t kBits = int64_t{1} << 24;  // 2 MiB of bitmap

void BM_Memcpy(benchmark::State& state) {
  size_t n = static_cast<size_t>(state.range(0));
  auto src = RandomBytes(n);
  std::vector<uint8_t> dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_Memcpy)->Arg(1 << 21)->Arg(64 << 20);

void BM_CountSetBits(benchmark::State& state) {
  auto bits = RandomBytes(kBits / 8 + 8);
  int64_t offset = state.range(0);
  for (auto _ : state) {
    benchmark::DoNotOptimize(alkaid::bit_util::CountSetBits(bits.data(), offset, kBits - 64));
  }
  state.SetBytesProcessed(state.iterations() * kBits / 8);
}
BENCHMARK(BM_CountSetBits)->Arg(0)->Arg(3);

void BM_CopyBitmap(benchmark::State& state) {
  auto src = RandomBytes(kBits / 8 + 16);
  std::vector<uint8_t> dst(kBits / 8 + 16);
  int64_t src_offset = state.range(0);
  for (auto _ : state) {
    alkaid::bit_util::CopyBitmap(src.data(), src_offset, kBits - 64, dst.data(), 0);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBits / 8);
}
BENCHMARK(BM_CopyBitmap)->Arg(0)->Arg(5);

void BM_BitmapAnd(benchmark::State& state) {
  auto a = RandomBytes(kBits / 8 + 16);
  auto b = RandomBytes(kBits / 8 + 16);
  std::vector<uint8_t> out(kBits / 8 + 16);
  int64_t offset = state.range(0);
  for (auto _ : state) {
    alkaid::bit_util::BitmapAnd(a.data(), offset, b.data(), 0, kBits - 64, out.data(), 0);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBits / 8);
}
BENCHMARK(BM_BitmapAnd)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
