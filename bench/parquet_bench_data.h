// The mixed data set of the Parquet benchmarks (parquet_write_bench, parquet_read_bench):
// ALKAID_BENCH_ROWS rows (default 10M) of an int64 id, a random int32, a double, a nullable
// int64 (10% null), a low-cardinality string (100 values), a unique string, a microsecond
// timestamp and a list<int32> column, in batches of 1M rows; and a 20-column set made of
// three seeds of those columns (WideTable).
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "alkaid/bitmap.h"
#include <benchmark/benchmark.h>

#include "alkaid/table.h"
#include "test_util/duckdb.h"

namespace alkaid::bench {

inline void Must(const Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "%s\n", st.ToString().c_str());
    std::abort();
  }
}

inline int64_t Rows() {
  const char* env = std::getenv("ALKAID_BENCH_ROWS");
  return env != nullptr ? std::atoll(env) : 10'000'000;
}

template <typename T>
inline BufferPtr Values(int64_t n) {
  return AllocateBuffer(n * static_cast<int64_t>(sizeof(T))).ValueOrDie();
}

// Strings from a generator into offsets + data.
template <typename Gen>
inline ArrayDataPtr Strings(int64_t n, Gen gen) {
  BufferPtr offsets = Values<int32_t>(n + 1);
  auto* off = reinterpret_cast<int32_t*>(offsets->mutable_data());
  std::string data;
  off[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    gen(i, &data);
    off[i + 1] = static_cast<int32_t>(data.size());
  }
  BufferPtr bytes = AllocateBuffer(static_cast<int64_t>(data.size())).ValueOrDie();
  std::memcpy(bytes->mutable_data(), data.data(), data.size());
  return ArrayData::Make(utf8(), n, {nullptr, offsets, bytes}, 0);
}

// A batch of `n` rows of the mixed set, rows starting at `first`.
inline RecordBatchPtr MixedBatch(int64_t first, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  BufferPtr id = Values<int64_t>(n), small = Values<int32_t>(n), real = Values<double>(n),
            maybe = Values<int64_t>(n), ts = Values<int64_t>(n);
  BufferPtr valid = AllocateBuffer(bit_util::BytesForBits(n)).ValueOrDie();
  std::memset(valid->mutable_data(), 0xff, static_cast<size_t>(valid->size()));
  int64_t nulls = 0;
  auto* pid = reinterpret_cast<int64_t*>(id->mutable_data());
  auto* psmall = reinterpret_cast<int32_t*>(small->mutable_data());
  auto* preal = reinterpret_cast<double*>(real->mutable_data());
  auto* pmaybe = reinterpret_cast<int64_t*>(maybe->mutable_data());
  auto* pts = reinterpret_cast<int64_t*>(ts->mutable_data());
  for (int64_t i = 0; i < n; ++i) {
    pid[i] = first + i;
    psmall[i] = static_cast<int32_t>(rng() % 100000);
    preal[i] = static_cast<double>(rng() % 1000000) / 100.0;
    pmaybe[i] = static_cast<int64_t>(rng());
    if (rng() % 10 == 0) {
      bit_util::ClearBit(valid->mutable_data(), i);
      pmaybe[i] = 0;
      ++nulls;
    }
    pts[i] = 1'600'000'000'000'000 + (first + i) * 1'000'003;
  }
  auto category = Strings(n, [&](int64_t, std::string* out) {
    *out += "category-";
    *out += std::to_string(rng() % 100);
  });
  auto unique = Strings(n, [&](int64_t i, std::string* out) {
    *out += "row ";
    *out += std::to_string(first + i);
    *out += " payload ";
    *out += std::to_string(rng() % 1000000007);
  });
  // list<int32>: 0..4 elements.
  BufferPtr list_offsets = Values<int32_t>(n + 1);
  auto* loff = reinterpret_cast<int32_t*>(list_offsets->mutable_data());
  loff[0] = 0;
  for (int64_t i = 0; i < n; ++i) loff[i + 1] = loff[i] + static_cast<int32_t>(rng() % 5);
  const int64_t elements = loff[n];
  BufferPtr items = Values<int32_t>(elements);
  auto* pitems = reinterpret_cast<int32_t*>(items->mutable_data());
  for (int64_t i = 0; i < elements; ++i) pitems[i] = static_cast<int32_t>(rng() % 1000);
  auto item_data = ArrayData::Make(int32(), elements, {nullptr, items}, 0);
  auto list_type = list(int32());
  auto lists = ArrayData::Make(list_type, n, {nullptr, list_offsets}, {item_data}, 0);

  auto schema = alkaid::schema({field("id", int64(), false), field("small", int32(), false),
                                field("real", float64(), false), field("maybe", int64()),
                                field("category", utf8(), false), field("unique", utf8(), false),
                                field("ts", timestamp(TimeUnit::kMicro), false),
                                field("list", list_type, false)});
  return RecordBatch::Make(
      schema, n,
      {ArrayData::Make(int64(), n, {nullptr, id}, 0),
       ArrayData::Make(int32(), n, {nullptr, small}, 0),
       ArrayData::Make(float64(), n, {nullptr, real}, 0),
       ArrayData::Make(int64(), n, {valid, maybe}, nulls), category, unique,
       ArrayData::Make(timestamp(TimeUnit::kMicro), n, {nullptr, ts}, 0), lists});
}

// The data set, built once: batches of 1M rows (the row group size both writers use).
inline const std::vector<RecordBatchPtr>& MixedBatches() {
  static std::vector<RecordBatchPtr> batches = [] {
    const int64_t rows = Rows();
    std::vector<RecordBatchPtr> out;
    for (int64_t at = 0; at < rows; at += 1'000'000) {
      out.push_back(MixedBatch(at, std::min<int64_t>(1'000'000, rows - at),
                               static_cast<uint64_t>(at)));
    }
    return out;
  }();
  return batches;
}

inline const std::shared_ptr<Table>& MixedTable() {
  static std::shared_ptr<Table> table = Table::FromRecordBatches(MixedBatches()).ValueOrDie();
  return table;
}

// The 20-column data set of the projection benchmark: the mixed columns of three generator
// seeds side by side (all eight of the first two, the first four of the third), the copies
// named with a suffix: id .. list, id_1 .. list_1, id_2, small_2, real_2, maybe_2.
inline RecordBatchPtr WideBatch(int64_t first, int64_t n) {
  FieldVector fields;
  ArrayDataVector columns;
  for (int copy = 0; copy < 3; ++copy) {
    const auto batch = MixedBatch(first, n, static_cast<uint64_t>(first + copy * 7919));
    for (int c = 0; c < (copy < 2 ? 8 : 4); ++c) {
      const FieldPtr& f = batch->schema()->field(c);
      const char* suffix = copy == 0 ? "" : copy == 1 ? "_1" : "_2";
      fields.push_back(field(f->name() + suffix, f->type(), f->nullable()));
      columns.push_back(batch->column_data(c));
    }
  }
  return RecordBatch::Make(schema(std::move(fields)), n, std::move(columns));
}

inline const std::shared_ptr<Table>& WideTable() {
  static std::shared_ptr<Table> table = [] {
    std::vector<RecordBatchPtr> batches;
    for (int64_t at = 0, rows = Rows(); at < rows; at += 1'000'000) {
      batches.push_back(WideBatch(at, std::min<int64_t>(1'000'000, rows - at)));
    }
    return Table::FromRecordBatches(batches).ValueOrDie();
  }();
  return table;
}

// CPU time of the whole process (every thread, user + system), in seconds: the benchmark's
// own CPU time counts the calling thread only, which misses the pool threads of a 2-thread
// read (alkaid's and DuckDB's alike).
inline double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// DuckDB's API from $ALKAID_DUCKDB_LIB (or the build's default path), or null after
/// skipping the benchmark with the reason.
inline c_data::DuckApi* DuckOrSkip(benchmark::State& state) {
  const char* fallback =
#ifdef ALKAID_DUCKDB_LIB
      ALKAID_DUCKDB_LIB;
#else
      "";
#endif
  c_data::DuckApi* api = c_data::DuckApi::Get(fallback);
  if (!api->error.empty()) {
    state.SkipWithError(
        ("libduckdb.so not loaded (" + api->error + "): set ALKAID_DUCKDB_LIB").c_str());
    return nullptr;
  }
  return api;
}

}  // namespace alkaid::bench
