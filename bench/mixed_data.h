// The mixed benchmark data set shared by the IPC and Flight benchmarks: 10 million rows
// (ALKAID_BENCH_ROWS overrides) of (int64, float64 with 10% nulls, utf8 of 0-32 bytes with
// 10% nulls) in batches of 64Ki rows, made by a seeded generator (batch i from seed i).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "alkaid/bitmap.h"
#include "alkaid/table.h"

namespace {

using namespace alkaid;  // NOLINT

int64_t TotalRows() {
  const char* env = std::getenv("ALKAID_BENCH_ROWS");
  return env ? std::atoll(env) : 10'000'000;
}
constexpr int64_t kBatchRows = 64 * 1024;

SchemaPtr BenchSchema() {
  return schema({field("id", int64(), false), field("value", float64()), field("name", utf8())});
}

BufferPtr NullBitmap(int64_t n, std::mt19937_64& rng, int64_t* null_count) {
  auto bits = AllocateBitmap(n, true).ValueOrDie();
  *null_count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (rng() % 10 == 0) {
      bit_util::ClearBit(bits->mutable_data(), i);
      ++*null_count;
    }
  }
  return bits;
}

RecordBatchPtr MakeBatch(int64_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto ids = AllocateBuffer(rows * 8).ValueOrDie();
  auto* id = ids->mutable_data_as<int64_t>();
  for (int64_t i = 0; i < rows; ++i) id[i] = static_cast<int64_t>(seed) * rows + i;

  int64_t value_nulls = 0;
  BufferPtr value_valid = NullBitmap(rows, rng, &value_nulls);
  auto values = AllocateBuffer(rows * 8).ValueOrDie();
  auto* v = values->mutable_data_as<double>();
  for (int64_t i = 0; i < rows; ++i) v[i] = static_cast<double>(rng() % 1000000) / 7.0;

  int64_t name_nulls = 0;
  BufferPtr name_valid = NullBitmap(rows, rng, &name_nulls);
  auto offsets = AllocateBuffer((rows + 1) * 4).ValueOrDie();
  auto* off = offsets->mutable_data_as<int32_t>();
  off[0] = 0;
  for (int64_t i = 0; i < rows; ++i) off[i + 1] = off[i] + static_cast<int32_t>(rng() % 33);
  auto data = AllocateBuffer(off[rows]).ValueOrDie();
  for (int64_t i = 0; i < off[rows]; ++i) data->mutable_data()[i] = static_cast<uint8_t>('a' + rng() % 26);

  return RecordBatch::Make(
      BenchSchema(), rows,
      {ArrayData::Make(int64(), rows, {nullptr, ids}, 0),
       ArrayData::Make(float64(), rows, {value_valid, values}, value_nulls),
       ArrayData::Make(utf8(), rows, {name_valid, offsets, data}, name_nulls)});
}

const std::vector<RecordBatchPtr>& BigDataSet() {
  static std::vector<RecordBatchPtr> batches = [] {
    std::vector<RecordBatchPtr> out;
    int64_t total = TotalRows();
    for (int64_t done = 0, i = 0; done < total; done += kBatchRows, ++i)
      out.push_back(MakeBatch(std::min(kBatchRows, total - done), static_cast<uint64_t>(i)));
    return out;
  }();
  return batches;
}

int64_t DataSetBytes(const std::vector<RecordBatchPtr>& batches) {
  int64_t bytes = 0;
  for (const auto& b : batches)
    for (const auto& col : b->columns())
      for (const auto& buf : col->buffers)
        if (buf) bytes += buf->size();
  return bytes;
}


}  // namespace
