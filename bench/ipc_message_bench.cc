// IPC messages one at a time (include/alkaid/ipc/message.h), as Arrow Flight
// sends and receives them: encoding shares the batch's memory instead of
// copying it, so its cost should not grow with the body; decoding an aligned
// body points into it, so it costs what validation costs.
//
//   build/release/bench/ipc_message_bench
#include <benchmark/benchmark.h>

#include <cstring>

#include "alkaid/ipc/message.h"
#include "alkaid/memory.h"

namespace alkaid {
namespace {

// A batch of `rows` rows: an int64 id, a float64 value and a short string.
RecordBatchPtr MakeBatch(int64_t rows) {
  auto ids = AllocateBuffer(rows * 8).ValueOrDie();
  auto values = AllocateBuffer(rows * 8).ValueOrDie();
  auto offsets = AllocateBuffer((rows + 1) * 4).ValueOrDie();
  int32_t* off = offsets->mutable_data_as<int32_t>();
  off[0] = 0;
  for (int64_t i = 0; i < rows; ++i) {
    ids->mutable_data_as<int64_t>()[i] = i;
    values->mutable_data_as<double>()[i] = static_cast<double>(i) / 3;
    off[i + 1] = off[i] + static_cast<int32_t>(i % 17);
  }
  auto chars = AllocateBuffer(off[rows]).ValueOrDie();
  std::memset(chars->mutable_data(), 'q', static_cast<size_t>(off[rows]));
  auto s = schema({field("id", int64(), false), field("value", float64(), false),
                   field("name", utf8(), false)});
  return RecordBatch::Make(s, rows,
                           {ArrayData::Make(int64(), rows, {nullptr, ids}, 0),
                            ArrayData::Make(float64(), rows, {nullptr, values}, 0),
                            ArrayData::Make(utf8(), rows, {nullptr, offsets, chars}, 0)});
}

int64_t BatchBytes(const RecordBatch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns()) {
    for (const auto& b : column->buffers) bytes += b ? b->size() : 0;
  }
  return bytes;
}

ipc::IpcWriteOptions Options(int codec) {
  ipc::IpcWriteOptions o;
  o.compression = codec == 0   ? ipc::CompressionType::kNone
                  : codec == 1 ? ipc::CompressionType::kLz4Frame
                               : ipc::CompressionType::kZstd;
  return o;
}

// Args: rows, codec (0 none, 1 lz4, 2 zstd).
void BM_EncodeBatch(benchmark::State& state) {
  RecordBatchPtr batch = MakeBatch(state.range(0));
  auto encoder = ipc::MessageEncoder::Make(batch->schema(), Options(state.range(1))).ValueOrDie();
  std::vector<ipc::EncodedMessage> messages;
  for (auto _ : state) {
    messages.clear();
    if (!encoder->EncodeBatch(*batch, &messages).ok()) state.SkipWithError("encode failed");
    benchmark::DoNotOptimize(messages.data());
  }
  state.SetBytesProcessed(state.iterations() * BatchBytes(*batch));
}

// Args: rows, codec.
void BM_DecodeBatch(benchmark::State& state) {
  RecordBatchPtr batch = MakeBatch(state.range(0));
  auto encoder = ipc::MessageEncoder::Make(batch->schema(), Options(state.range(1))).ValueOrDie();
  ipc::EncodedMessage schema_message = encoder->EncodeSchema().ValueOrDie();
  std::vector<ipc::EncodedMessage> messages;
  if (!encoder->EncodeBatch(*batch, &messages).ok()) state.SkipWithError("encode failed");
  // The body in one aligned buffer, as a transport would receive it.
  const ipc::EncodedMessage& m = messages.back();
  auto body = AllocateBuffer(m.body_length).ValueOrDie();
  int64_t at = 0;
  for (const BufferPtr& part : m.body) {
    std::memcpy(body->mutable_data() + at, part->data(), static_cast<size_t>(part->size()));
    at += part->size();
  }
  BufferPtr shared_body = body;
  for (auto _ : state) {
    state.PauseTiming();
    auto decoder = ipc::MessageDecoder::Make().ValueOrDie();
    if (!decoder->Consume(schema_message.metadata, nullptr).ok()) state.SkipWithError("schema");
    state.ResumeTiming();
    auto decoded = decoder->Consume(m.metadata, shared_body);
    if (!decoded.ok()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(decoded->batch);
  }
  state.SetBytesProcessed(state.iterations() * BatchBytes(*batch));
}

BENCHMARK(BM_EncodeBatch)->Args({64 * 1024, 0})->Args({1024 * 1024, 0})->Args({64 * 1024, 1});
BENCHMARK(BM_DecodeBatch)->Args({64 * 1024, 0})->Args({1024 * 1024, 0})->Args({64 * 1024, 1});

}  // namespace
}  // namespace alkaid

BENCHMARK_MAIN();
