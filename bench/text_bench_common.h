// Shared by csv_bench.cc and jsonl_bench.cc: the generated input file, the
// I/O-and-scan limits measured on it in the same run (`wc -l` as a
// subprocess, and read(2) + memchr counting line feeds), and the reader
// benchmark with its peak memory figures.
//
// ALKAID_BENCH_BYTES sets the file size (default 1 GiB); other sizes get
// their own file (/tmp/alkaid_bench_<bytes>.csv), so a small run never picks
// up the big file.
//
// Besides Google Benchmark's figures each reader run prints (as counters)
// wall MB/s, pct_of_wc (its wall speed as a percentage of `wc -l`'s in the
// same run), speedup_vs_1 (wall speed over the 1-thread run's), CPU MB/s and
// peak RSS / pool memory.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "alkaid/memory.h"
#include "alkaid/record_batch_reader.h"

namespace alkaid::bench {

inline int64_t TargetBytes() {
  const char* env = std::getenv("ALKAID_BENCH_BYTES");
  return env ? std::atoll(env) : (int64_t{1} << 30);
}

// "/tmp/alkaid_bench" + ext for the default size, with the size otherwise.
inline std::string BenchPath(const std::string& ext) {
  if (TargetBytes() == (int64_t{1} << 30)) return "/tmp/alkaid_bench" + ext;
  return "/tmp/alkaid_bench_" + std::to_string(TargetBytes()) + ext;
}

// Wall-clock bytes per second of the reference runs, for the ratios.
inline double& WcBytesPerSecond() {
  static double v = 0;
  return v;
}
inline double& OneThreadBytesPerSecond() {
  static double v = 0;
  return v;
}

// Writes `path` (unless it already has at least the target size) from rows
// produced by `row(i, rng, out)`.
inline const std::string& EnsureFile(const std::string& path, const std::string& header,
                                     const std::function<void(int64_t, std::mt19937_64&, std::string*)>& row) {
  static std::string done;  // the path, kept (callers pass temporaries)
  if (done == path) return done;
  std::error_code ec;
  if (std::filesystem::file_size(path, ec) < static_cast<uintmax_t>(TargetBytes()) || ec) {
    std::string tmp = path + ".tmp";
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) std::abort();
    std::mt19937_64 rng(7);
    std::string chunk = header;
    int64_t written = 0;
    for (int64_t i = 0; written + static_cast<int64_t>(chunk.size()) < TargetBytes(); ++i) {
      row(i, rng, &chunk);
      if (chunk.size() > (1 << 20)) {
        std::fwrite(chunk.data(), 1, chunk.size(), f);
        written += static_cast<int64_t>(chunk.size());
        chunk.clear();
      }
    }
    std::fwrite(chunk.data(), 1, chunk.size(), f);
    std::fclose(f);
    std::filesystem::rename(tmp, path);
  }
  done = path;
  return done;
}

inline int64_t FileBytes(const std::string& path) {
  return static_cast<int64_t>(std::filesystem::file_size(path));
}

// CPU seconds (user + system) of every thread of the process so far.
inline double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

inline double PeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// `wc -l` on the file, as a subprocess (its own read and count).
inline void WcL(benchmark::State& state, const std::string& path) {
  auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    std::string cmd = "wc -l < '" + path + "' > /dev/null";
    if (std::system(cmd.c_str()) != 0) state.SkipWithError("wc -l failed");
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WcBytesPerSecond() = static_cast<double>(FileBytes(path)) * static_cast<double>(state.iterations()) / secs;
  state.SetBytesProcessed(state.iterations() * FileBytes(path));
}

// read(2) in 1 MiB chunks and memchr for line feeds: the scan limit in-process.
inline void MemchrLines(benchmark::State& state, const std::string& path) {
  std::vector<char> buf(1 << 20);
  int64_t lines = 0;
  for (auto _ : state) {
    int fd = ::open(path.c_str(), O_RDONLY);
    ssize_t n;
    while ((n = ::read(fd, buf.data(), buf.size())) > 0) {
      const char* p = buf.data();
      const char* end = p + n;
      while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p))))) {
        ++lines;
        ++p;
      }
    }
    ::close(fd);
  }
  benchmark::DoNotOptimize(lines);
  state.SetBytesProcessed(state.iterations() * FileBytes(path));
}

// Reads every batch of the reader `open(pool)` makes and drops it; reports
// rows, the reader's peak pool memory and the process's peak RSS.
inline void ReadAll(benchmark::State& state, const std::string& path,
                    const std::function<Result<std::unique_ptr<RecordBatchReader>>(MemoryPool*)>& open,
                    int threads) {
  int64_t rows = 0;
  SystemMemoryPool pool;
  double cpu0 = ProcessCpuSeconds();
  auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    auto reader = open(&pool);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    rows = 0;
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (*batch == nullptr) break;
      rows += (*batch)->num_rows();
    }
  }
  // Google Benchmark's CPU column counts the calling thread only; this counts
  // the pool's threads too (per iteration), so CPU throughput is comparable
  // across thread counts on a loaded machine.
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                static_cast<double>(state.iterations());
  double cpu = (ProcessCpuSeconds() - cpu0) / static_cast<double>(state.iterations());
  double rate = static_cast<double>(FileBytes(path)) / wall;
  if (threads == 1) OneThreadBytesPerSecond() = rate;
  state.counters["wall_MBps"] = rate / 1e6;
  if (WcBytesPerSecond() > 0) state.counters["pct_of_wc"] = 100.0 * rate / WcBytesPerSecond();
  if (threads > 1 && OneThreadBytesPerSecond() > 0) {
    state.counters["speedup_vs_1"] = rate / OneThreadBytesPerSecond();
  }
  state.SetBytesProcessed(state.iterations() * FileBytes(path));
  state.counters["proc_cpu_s"] = cpu;
  state.counters["cpu_MBps"] = static_cast<double>(FileBytes(path)) / cpu / 1e6;
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["pool_peak_MiB"] = static_cast<double>(pool.max_memory()) / (1 << 20);
  state.counters["peak_rss_MiB"] = PeakRssMiB();
}

}  // namespace alkaid::bench
