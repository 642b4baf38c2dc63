// IPC read/write benchmarks on the data set of the IPC issue: 10 million rows
// of (int64, float64 with 10% nulls, utf8 of 0-32 bytes with 10% nulls) in
// batches of 64Ki rows; plus the per-batch cost on 3-column batches of 8 rows
// and the machine's memcpy bandwidth measured in the same run.
//
// Set ALKAID_BENCH_ROWS to shrink the data set (e.g. for a quick smoke run).
// Set ALKAID_BENCH_SPIN=1 to run everything beside a child process that keeps
// one core busy for the whole run ("loaded" figures; labels say which).
#include <benchmark/benchmark.h>
#include <lz4frame.h>
#include <zstd.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/single_threaded.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "alkaid/bitmap.h"
#include "alkaid/io/input.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/table.h"
#include "alkaid/validate.h"
#include "mixed_data.h"
#include "page_cache.h"

namespace {

using namespace alkaid;  // NOLINT
using bench::EvictFile;
using bench::IoReadBytes;
using bench::MajorFaults;
using bench::ResidentBytes;

// Benchmarks stop at the first error rather than measure a failure path.
void Must(const Status& st) {
  if (!st.ok()) st.Abort("benchmark");
}

// A child process spinning on one core from before main() to exit. Forked
// from a static initializer, while the process is still single-threaded.
class Spinner {
 public:
  Spinner() {
    const char* env = std::getenv("ALKAID_BENCH_SPIN");
    if (env == nullptr || std::atoi(env) == 0) return;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(0);
      volatile uint64_t spin = 0;
      while (true) spin = spin + 1;
    }
    pid_ = pid;
  }
  ~Spinner() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool active() const { return pid_ > 0; }

 private:
  pid_t pid_ = 0;
};

Spinner spinner;

// Appended to the labels of the threaded cases.
std::string LoadLabel() { return spinner.active() ? ", loaded (1 core spinning)" : ", no spinner"; }

// The data set (TotalRows, BenchSchema, MakeBatch, BigDataSet, DataSetBytes): mixed_data.h.

ipc::IpcWriteOptions WriteOptions(int codec, int threads) {
  ipc::IpcWriteOptions o;
  o.compression = codec == 0 ? ipc::CompressionType::kNone
                  : codec == 1 ? ipc::CompressionType::kLz4Frame
                               : ipc::CompressionType::kZstd;
  o.use_threads = threads > 1;
  o.num_threads = threads;
  o.write_behind = threads > 1;
  return o;
}

const char* CodecName(int codec) { return codec == 0 ? "none" : codec == 1 ? "lz4" : "zstd"; }

// ---------------------------------------------------------------------------

void BM_Memcpy(benchmark::State& state) {
  int64_t n = DataSetBytes(BigDataSet());
  std::vector<uint8_t> src(static_cast<size_t>(n), 1), dst(static_cast<size_t>(n));
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n);
}

// Uncompressed stream into a buffer sized beforehand (no growth, no copy but
// the one into the destination).
void BM_WriteStreamPresized(benchmark::State& state) {
  const auto& batches = BigDataSet();
  auto schema = BenchSchema();
  auto sized = ipc::SerializeStream(schema, batches).ValueOrDie();
  auto dest = AllocateBuffer(sized->size()).ValueOrDie();
  // Large pool buffers are fresh zero pages; touch them first, as the
  // memcpy baseline's destination is, so both measure copying only.
  std::memset(dest->mutable_data(), 0, static_cast<size_t>(dest->size()));
  for (auto _ : state) {
    io::FixedSizeBufferWriter sink(dest);
    auto writer = ipc::MakeStreamWriter(&sink, schema).ValueOrDie();
    for (const auto& b : batches) Must(writer->WriteRecordBatch(*b));
    Must(writer->Close());
    benchmark::DoNotOptimize(dest->data());
  }
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
}

// A compressed stream written with 1 or 2 threads into one destination
// reused by every iteration and touched beforehand: the encoder and codec
// threads alone, without the page faults of a fresh output buffer (which on
// the VMs these figures come from cost more than LZ4 itself and are paid on
// the writing thread whatever the thread count; BM_WriteStream has them).
void BM_WriteStreamReusedSink(benchmark::State& state) {
  const int codec = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const auto& batches = BigDataSet();
  auto schema = BenchSchema();
  auto options = WriteOptions(codec, threads);
  // Room for the stream as the 1-thread writer lays it out, with slack for
  // buffers a codec happens to leave a little longer.
  auto sized = ipc::SerializeStream(schema, batches, WriteOptions(codec, 1)).ValueOrDie();
  auto dest = AllocateBuffer(sized->size() + sized->size() / 8 + (1 << 20)).ValueOrDie();
  std::memset(dest->mutable_data(), 0, static_cast<size_t>(dest->size()));
  int64_t out_size = 0;
  auto write = [&] {
    io::FixedSizeBufferWriter sink(dest);
    auto writer = ipc::MakeStreamWriter(&sink, schema, options).ValueOrDie();
    for (const auto& b : batches) Must(writer->WriteRecordBatch(*b));
    Must(writer->Close());
    out_size = sink.Tell().ValueOrDie();
  };
  write();  // untimed, as in BM_ReadStream
  for (auto _ : state) write();
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
  state.counters["ratio"] = static_cast<double>(DataSetBytes(batches)) / static_cast<double>(out_size);
  state.SetLabel(std::string(CodecName(codec)) + ", " + std::to_string(threads) + " thread(s)" +
                 LoadLabel());
}

void BM_WriteStream(benchmark::State& state) {
  int codec = static_cast<int>(state.range(0));
  int threads = static_cast<int>(state.range(1));
  const auto& batches = BigDataSet();
  auto options = WriteOptions(codec, threads);
  int64_t out_size = 0;
  (void)ipc::SerializeStream(BenchSchema(), batches, options).ValueOrDie();  // untimed, as in BM_ReadStream
  for (auto _ : state) {
    auto buf = ipc::SerializeStream(BenchSchema(), batches, options).ValueOrDie();
    out_size = buf->size();
  }
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
  state.counters["ratio"] = static_cast<double>(DataSetBytes(batches)) / static_cast<double>(out_size);
  state.SetLabel(std::string(CodecName(codec)) + ", " + std::to_string(threads) + " thread(s)" +
                 LoadLabel());
}

// Every batch of an in-memory stream, dropped as soon as it is read. Out of
// line so that callgrind reports it apart (BM_ReadVsCodecFloor).
__attribute__((noinline)) void ReadWholeStream(const BufferPtr& stream,
                                               const ipc::IpcReadOptions& options) {
  auto reader = ipc::StreamReader::Open(stream, options).ValueOrDie();
  int64_t rows = 0;
  while (true) {
    auto b = reader->Next().ValueOrDie();
    if (!b) break;
    rows += b->num_rows();
  }
  benchmark::DoNotOptimize(rows);
}

void BM_ReadStream(benchmark::State& state) {
  int codec = static_cast<int>(state.range(0));
  int threads = static_cast<int>(state.range(1));
  bool full = state.range(2) != 0;
  const auto& batches = BigDataSet();
  auto stream = ipc::SerializeStream(BenchSchema(), batches, WriteOptions(codec, 1)).ValueOrDie();
  ipc::IpcReadOptions options;
  options.use_threads = threads > 1;
  options.num_threads = threads;
  options.validate_full = full;
  auto read = [&] { ReadWholeStream(stream, options); };
  // One untimed pass first: on the VMs these figures come from, the first
  // pass over memory not touched for a while runs 4-5x slower in user time
  // (measured: 450 vs 100 ms for LZ4, with no page faults and no system
  // time), which would otherwise be the only iteration timed.
  read();
  for (auto _ : state) read();
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
  state.SetLabel(std::string(CodecName(codec)) + ", " + std::to_string(threads) + " thread(s), " +
                 (full ? "full validation" : "structural validation") + LoadLabel());
}

// A stream read with 1 or 2 threads (arg 1) by a caller that does work of
// its own on each batch (sums the id column and the string lengths, `work`
// passes over them): with threads, later batches are decoded while the
// caller uses the current one.
void BM_ReadStreamWithWork(benchmark::State& state) {
  const int codec = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const int work = static_cast<int>(state.range(2));
  const auto& batches = BigDataSet();
  auto stream = ipc::SerializeStream(BenchSchema(), batches, WriteOptions(codec, 1)).ValueOrDie();
  ipc::IpcReadOptions options;
  options.use_threads = threads > 1;
  options.num_threads = threads;
  for (auto _ : state) {
    auto reader = ipc::StreamReader::Open(stream, options).ValueOrDie();
    int64_t sum = 0;
    while (true) {
      auto b = reader->Next().ValueOrDie();
      if (!b) break;
      const auto& ids = b->column_data(0);
      const auto* id = ids->buffers[1]->data_as<int64_t>() + ids->offset;
      const auto& names = b->column_data(2);
      const auto* off = names->buffers[1]->data_as<int32_t>() + names->offset;
      for (int pass = 0; pass < work; ++pass) {
        for (int64_t i = 0; i < b->num_rows(); ++i) sum += (id[i] ^ pass) + (off[i + 1] - off[i]);
        benchmark::ClobberMemory();
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
  state.SetLabel(std::string(CodecName(codec)) + ", " + std::to_string(threads) +
                 " thread(s), caller work x" + std::to_string(work) + LoadLabel());
}

// The body buffers of the data set, each encoded as the writer encodes it
// (8-byte length prefix + one frame, or -1 + raw bytes).
struct EncodedBuffers {
  std::vector<BufferPtr> encoded;
  std::vector<size_t> batch_ends;  // one past each batch's last buffer in `encoded`
  int64_t max_decoded = 0;
};

const EncodedBuffers& EncodedDataSet(int codec) {
  static EncodedBuffers sets[3];
  EncodedBuffers& set = sets[codec];
  if (!set.encoded.empty()) return set;
  auto c = ipc::Codec::Create(WriteOptions(codec, 1).compression).ValueOrDie();
  for (const auto& b : BigDataSet())
    for (const auto& col : b->columns())
      for (const auto& buf : col->buffers) {
        if (!buf || buf->size() == 0) continue;
        set.encoded.push_back(
            ipc::CompressBodyBuffer(*c, {buf->data(), buf->size()}).ValueOrDie());
        set.max_decoded = std::max(set.max_decoded, buf->size());
      }
  for (const auto& b : BigDataSet()) {
    size_t end = set.batch_ends.empty() ? 0 : set.batch_ends.back();
    for (const auto& col : b->columns())
      for (const auto& buf : col->buffers) end += (buf && buf->size() != 0) ? 1 : 0;
    set.batch_ends.push_back(end);
  }
  return set;
}

// One context of each codec library, created once per pass.
struct CodecContexts {
  LZ4F_dctx* lz4 = nullptr;
  ZSTD_DCtx* zstd = ZSTD_createDCtx();
  CodecContexts() {
    if (LZ4F_isError(LZ4F_createDecompressionContext(&lz4, LZ4F_VERSION)) || zstd == nullptr)
      std::abort();
  }
  ~CodecContexts() {
    LZ4F_freeDecompressionContext(lz4);
    ZSTD_freeDCtx(zstd);
  }
  CodecContexts(const CodecContexts&) = delete;
  CodecContexts& operator=(const CodecContexts&) = delete;
};

// The codec alone on one encoded body buffer (8-byte length prefix + one
// frame): LZ4F_decompress / ZSTD_decompressDCtx into `out`, which holds
// `declared` bytes.
void DecompressOne(int codec, CodecContexts& ctx, const Buffer& encoded, int64_t declared,
                   uint8_t* out) {
  const uint8_t* in = encoded.data() + 8;
  const auto in_size = static_cast<size_t>(encoded.size() - 8);
  if (codec == 1) {
    size_t in_pos = 0, out_pos = 0, hint = 1;
    while (hint != 0) {
      size_t out_avail = static_cast<size_t>(declared) - out_pos, in_avail = in_size - in_pos;
      hint = LZ4F_decompress(ctx.lz4, out + out_pos, &out_avail, in + in_pos, &in_avail, nullptr);
      if (LZ4F_isError(hint)) std::abort();
      in_pos += in_avail;
      out_pos += out_avail;
    }
  } else {
    size_t n = ZSTD_decompressDCtx(ctx.zstd, out, static_cast<size_t>(declared), in, in_size);
    if (ZSTD_isError(n)) std::abort();
  }
  benchmark::DoNotOptimize(out);
}

int64_t DeclaredLength(const Buffer& encoded) {
  int64_t declared;
  std::memcpy(&declared, encoded.data(), 8);
  return declared;  // -1: stored raw, the reader slices it
}

// A new unzeroed buffer, as the reader allocates what it decompresses into.
std::shared_ptr<ResizableBuffer> FreshOutput(int64_t size) {
  auto out = std::make_shared<ResizableBuffer>(default_memory_pool());
  Must(out->ResizeForOverwrite(size));
  return out;
}

// Decompresses buffers [begin, end) of `set`; `output(k, size)` says where
// buffer k goes.
template <typename Output>
void DecompressRange(int codec, const EncodedBuffers& set, size_t begin, size_t end,
                     Output&& output) {
  CodecContexts ctx;
  for (size_t k = begin; k < end; ++k) {
    const int64_t declared = DeclaredLength(*set.encoded[k]);
    if (declared >= 0) DecompressOne(codec, ctx, *set.encoded[k], declared, output(k, declared));
  }
}

// Into one reused output area (which stays in the core's cache between
// buffers): the strictest floor.
void DecompressRangeReused(int codec, const EncodedBuffers& set, size_t begin, size_t end) {
  std::vector<uint8_t> out(static_cast<size_t>(set.max_decoded));
  std::memset(out.data(), 0, out.size());
  DecompressRange(codec, set, begin, end, [&](size_t, int64_t) { return out.data(); });
}

// The codec library alone on the data set's buffers: with 1 thread, the
// floor of a 1-thread read; with 2 plain threads taking half of the buffers
// each, the most 2 threads can gain on this machine at this moment (the
// ceiling the reader's 2-thread figures are judged against).
void BM_CodecDecompressLoop(benchmark::State& state) {
  const int codec = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const EncodedBuffers& set = EncodedDataSet(codec);
  auto pass = [&] {
    const size_t n = set.encoded.size();
    const auto t_count = static_cast<size_t>(std::max(threads, 1));
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < t_count; ++t) {
      helpers.emplace_back(DecompressRangeReused, codec, std::cref(set), t * n / t_count,
                           (t + 1) * n / t_count);
    }
    DecompressRangeReused(codec, set, 0, n / t_count);
    for (auto& h : helpers) h.join();
  };
  pass();  // untimed, as in BM_ReadStream
  for (auto _ : state) pass();
  state.SetBytesProcessed(state.iterations() * DataSetBytes(BigDataSet()));
  state.SetLabel(std::string(CodecName(codec)) + ", " + std::to_string(set.encoded.size()) +
                 " buffers, " + std::to_string(threads) + " plain thread(s)" + LoadLabel());
}

// The parts BM_ReadVsCodecFloor times, kept out of line so that callgrind
// reports each one's instructions (callgrind_annotate --inclusive=yes).
__attribute__((noinline)) void FloorCodecReused(int codec, const EncodedBuffers& set) {
  DecompressRangeReused(codec, set, 0, set.encoded.size());
}
// The codec loop into fresh outputs, each batch's kept until its last
// buffer is decoded (as a reader returns them), with no validation.
__attribute__((noinline)) void FloorCodecFresh(int codec, const EncodedBuffers& set) {
  CodecContexts ctx;
  std::vector<BufferPtr> decoded;
  size_t k = 0;
  for (size_t end : set.batch_ends) {
    decoded.clear();
    for (; k < end; ++k) {
      const int64_t declared = DeclaredLength(*set.encoded[k]);
      if (declared < 0) continue;
      auto out = FreshOutput(declared);
      DecompressOne(codec, ctx, *set.encoded[k], declared, out->mutable_data());
      decoded.push_back(std::move(out));
    }
  }
}
__attribute__((noinline)) void FloorValidate(const std::vector<RecordBatchPtr>& batches) {
  for (const auto& b : batches)
    for (const auto& col : b->columns()) Must(ValidateArrayFull(*col));
}
// Decodes each batch's buffers into fresh outputs and validates that batch's
// arrays before going on to the next: the read's order of work, by hand.
__attribute__((noinline)) void FloorByHand(int codec, const EncodedBuffers& set) {
  const auto& batches = BigDataSet();
  CodecContexts ctx;
  std::vector<BufferPtr> decoded;
  size_t k = 0;
  for (size_t b = 0; b < batches.size(); ++b) {
    decoded.clear();
    for (; k < set.batch_ends[b]; ++k) {
      const Buffer& e = *set.encoded[k];
      const int64_t declared = DeclaredLength(e);
      if (declared < 0) {
        decoded.push_back(std::make_shared<Buffer>(e.data() + 8, e.size() - 8));
        continue;
      }
      auto out = FreshOutput(declared);
      DecompressOne(codec, ctx, e, declared, out->mutable_data());
      decoded.push_back(std::move(out));
    }
    size_t next = 0;
    for (const auto& col : batches[b]->columns()) {
      BufferVector bufs;
      for (const auto& buf : col->buffers) bufs.push_back(buf && buf->size() != 0 ? decoded[next++] : buf);
      Must(ValidateArrayFull(*ArrayData::Make(col->type, col->length, std::move(bufs), col->null_count)));
    }
  }
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Target 7 of the IPC performance issue, timed within one benchmark so that
// drift between processes (5-10% on the VMs these figures come from) cannot
// decide it. Each round times five parts, in an order that rotates from
// round to round:
//   read         a 1-thread read of the compressed stream, full validation;
//   codec        the codec loop into one reused output area (which stays in
//                the core's cache: the strictest floor);
//   codec fresh  the codec loop into fresh outputs, a batch's kept until
//                its last buffer is decoded (as any reader must return them);
//   validate     full validation of the data set;
//   by hand      codec fresh, validating each batch before decoding the next
//                (the read's work, without the reader).
// The reported time is the read's. The counters are medians over rounds of
// each part and of the read's excess over codec+validate, codec
// fresh+validate and by hand in the same round: medians, because a burst of
// load on a neighbouring VM lands in one round (+50 ms seen) and would skew
// a sum.
void BM_ReadVsCodecFloor(benchmark::State& state) {
  const int codec = static_cast<int>(state.range(0));
  const auto& batches = BigDataSet();
  const EncodedBuffers& set = EncodedDataSet(codec);
  auto stream = ipc::SerializeStream(BenchSchema(), batches, WriteOptions(codec, 1)).ValueOrDie();
  ipc::IpcReadOptions options;
  options.validate_full = true;
  enum Part { kRead, kCodec, kCodecFresh, kValidate, kByHand, kParts };
  const char* names[kParts] = {"read", "codec", "codec_fresh", "validate", "by_hand"};
  const std::function<void()> parts[kParts] = {
      [&] { ReadWholeStream(stream, options); }, [&] { FloorCodecReused(codec, set); },
      [&] { FloorCodecFresh(codec, set); }, [&] { FloorValidate(batches); },
      [&] { FloorByHand(codec, set); }};
  for (const auto& part : parts) part();  // untimed, as in BM_ReadStream
  std::vector<double> seconds[kParts], over_floor, over_fresh_floor, over_by_hand;
  // Minor page faults per round of each part: none on 2026-11-27, so no part
  // pays the kernel for fresh pages.
  double faults[kParts] = {};
  int64_t round = 0;
  for (auto _ : state) {
    double t[kParts];
    for (int i = 0; i < kParts; ++i) {
      const int k = static_cast<int>((round + i) % kParts);
      struct rusage before, after;
      getrusage(RUSAGE_SELF, &before);
      const auto start = std::chrono::steady_clock::now();
      parts[k]();
      t[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      getrusage(RUSAGE_SELF, &after);
      faults[k] += static_cast<double>(after.ru_minflt - before.ru_minflt);
    }
    ++round;
    for (int k = 0; k < kParts; ++k) seconds[k].push_back(t[k]);
    over_floor.push_back((t[kRead] / (t[kCodec] + t[kValidate]) - 1) * 100);
    over_fresh_floor.push_back((t[kRead] / (t[kCodecFresh] + t[kValidate]) - 1) * 100);
    over_by_hand.push_back((t[kRead] / t[kByHand] - 1) * 100);
    state.SetIterationTime(t[kRead]);
  }
  for (int k = 0; k < kParts; ++k) {
    state.counters[std::string(names[k]) + "_ms"] = Median(seconds[k]) * 1e3;
    state.counters[std::string(names[k]) + "_faults"] = faults[k] / static_cast<double>(round);
  }
  state.counters["over_floor_pct"] = Median(over_floor);
  state.counters["over_fresh_floor_pct"] = Median(over_fresh_floor);
  state.counters["over_by_hand_pct"] = Median(over_by_hand);
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
  state.SetLabel(std::string(CodecName(codec)) + ", 1 thread, full validation");
}

std::string TempFile(const char* tag) {
  return (std::filesystem::temp_directory_path() /
          ("alkaid_bench_" + std::to_string(::getpid()) + "_" + tag + ".arrow"))
      .string();
}

void BM_WriteFile(benchmark::State& state) {
  const auto& batches = BigDataSet();
  std::string path = TempFile("write");
  for (auto _ : state) {
    auto sink = io::FileOutputStream::Open(path).ValueOrDie();
    auto writer = ipc::MakeFileWriter(sink.get(), BenchSchema()).ValueOrDie();
    for (const auto& b : batches) Must(writer->WriteRecordBatch(*b));
    Must(writer->Close());
    Must(sink->Close());
  }
  std::filesystem::remove(path);
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
}

struct MappedFileFixture {
  std::string path;
  // With `aligned`, written as the alkaid tool writes its files (aligned
  // writes): the page cache then holds it in 2 MiB folios, which map far
  // faster than the small folios plain unaligned writes leave.
  explicit MappedFileFixture(bool aligned) : path(TempFile(aligned ? "read" : "read_unaligned")) {
    auto sink = io::FileOutputStream::Open(path, /*append=*/false, aligned).ValueOrDie();
    auto writer = ipc::MakeFileWriter(sink.get(), BenchSchema()).ValueOrDie();
    for (const auto& b : BigDataSet()) Must(writer->WriteRecordBatch(*b));
    Must(writer->Close());
    Must(sink->Close());
  }
  ~MappedFileFixture() { std::filesystem::remove(path); }
};

const MappedFileFixture& MappedFile(bool aligned = true) {
  if (aligned) {
    static MappedFileFixture f(true);
    return f;
  }
  static MappedFileFixture f(false);
  return f;
}

void BM_OpenMappedFile(benchmark::State& state) {
  const auto& f = MappedFile();
  for (auto _ : state) {
    auto reader = ipc::FileReader::OpenMapped(f.path).ValueOrDie();
    benchmark::DoNotOptimize(reader->num_record_batches());
  }
}

void BM_ReadMappedFile(benchmark::State& state) {
  const auto& f = MappedFile();
  bool full = state.range(0) != 0;
  ipc::IpcReadOptions options;
  options.validate_full = full;
  for (auto _ : state) {
    auto reader = ipc::FileReader::OpenMapped(f.path, options).ValueOrDie();
    int64_t rows = 0;
    for (int i = 0; i < reader->num_record_batches(); ++i)
      rows += reader->ReadRecordBatch(i).ValueOrDie()->num_rows();
    benchmark::DoNotOptimize(rows);
  }
  state.SetBytesProcessed(state.iterations() * DataSetBytes(BigDataSet()));
  state.SetLabel(full ? "full validation" : "structural validation");
}

// Reading cost must follow the number of buffers, not bytes: the same number
// of batches with 10x the rows each must read in about the same time.
void BM_ReadScaling(benchmark::State& state) {
  int64_t rows_per_batch = state.range(0);
  std::vector<RecordBatchPtr> batches;
  for (int i = 0; i < 16; ++i) batches.push_back(MakeBatch(rows_per_batch, static_cast<uint64_t>(i)));
  auto stream = ipc::SerializeStream(BenchSchema(), batches).ValueOrDie();
  ipc::IpcReadOptions options;
  options.validate_full = false;
  for (auto _ : state) {
    auto reader = ipc::StreamReader::Open(stream, options).ValueOrDie();
    while (reader->Next().ValueOrDie()) {
    }
  }
  state.counters["MB"] = static_cast<double>(stream->size()) / 1e6;
}

void BM_ValidateFull(benchmark::State& state) {
  const auto& batches = BigDataSet();
  for (auto _ : state) {
    for (const auto& b : batches)
      for (const auto& col : b->columns()) Must(ValidateArrayFull(*col));
  }
  state.SetBytesProcessed(state.iterations() * DataSetBytes(batches));
}

// 200,000 batches of 8 rows: the fixed cost per batch.
constexpr int kSmallBatches = 200000;

const std::vector<RecordBatchPtr>& SmallBatches() {
  static std::vector<RecordBatchPtr> batches = [] {
    auto one = MakeBatch(8, 1);
    return std::vector<RecordBatchPtr>(kSmallBatches, one);
  }();
  return batches;
}

// Reference counts of std::shared_ptr are plain increments while a process
// has only ever had one thread and atomic read-modify-writes once it has
// started any (glibc's __libc_single_threaded). The per-batch figures depend
// on that, so they are measured in both states: arg 0 requires a process
// that is still single-threaded (these run first), arg 1 starts a thread.
bool PrepareProcessThreading(benchmark::State& state, int64_t multi_threaded) {
  if (multi_threaded != 0) {
    std::thread([] {}).join();
  } else if (__libc_single_threaded == 0) {
    state.SkipWithError("the process already started threads");
    return false;
  }
  return true;
}

std::string ThreadingLabel() {
  return __libc_single_threaded != 0 ? "single-threaded process" : "multi-threaded process";
}

void SetPerBatchCounter(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * kSmallBatches);
  state.counters["us_per_batch"] = benchmark::Counter(
      static_cast<double>(kSmallBatches) * 1e-6,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_WriteSmallBatches(benchmark::State& state) {
  if (!PrepareProcessThreading(state, state.range(0))) return;
  const auto& batches = SmallBatches();
  auto schema = BenchSchema();
  auto sized = ipc::SerializeStream(schema, batches).ValueOrDie();
  auto dest = AllocateBuffer(sized->size()).ValueOrDie();
  std::memset(dest->mutable_data(), 0, static_cast<size_t>(dest->size()));  // fault pages in now
  for (auto _ : state) {
    io::FixedSizeBufferWriter sink(dest);
    auto writer = ipc::MakeStreamWriter(&sink, schema).ValueOrDie();
    for (const auto& b : batches) Must(writer->WriteRecordBatch(*b));
    Must(writer->Close());
  }
  SetPerBatchCounter(state);
  state.SetLabel(ThreadingLabel());
}

void BM_ReadSmallBatches(benchmark::State& state) {
  const bool full = state.range(0) != 0;
  if (!PrepareProcessThreading(state, state.range(1))) return;
  auto stream = ipc::SerializeStream(BenchSchema(), SmallBatches()).ValueOrDie();
  ipc::IpcReadOptions options;
  options.validate_full = full;
  for (auto _ : state) {
    auto reader = ipc::StreamReader::Open(stream, options).ValueOrDie();
    while (reader->Next().ValueOrDie()) {
    }
  }
  SetPerBatchCounter(state);
  state.SetLabel(std::string(full ? "full validation, " : "structural validation, ") +
                 ThreadingLabel());
}

// ---------------------------------------------------------------------------
// Projection and page faults (issue 14, items 4 and 5).
//
// A 100-column x 1M-row int64 file (800 MB, batches of 64Ki rows) kept in
// the temporary directory between runs (ALKAID_BENCH_WIDE_FILE names another
// place). Before every iteration the file's pages are evicted from the page
// cache with posix_fadvise(POSIX_FADV_DONTNEED) (which drops clean pages of
// this file only; no other process's cache is touched), and the counters say
// what the read brought back in: mincore() over the file after the read
// (paged_in_MB), /proc/self/io read_bytes (io_read_MB) and major faults. Each
// read sums the selected columns, as a consumer would.

constexpr int kWideColumns = 100;
constexpr int64_t kWideRows = 1'000'000;

std::string WideFilePath() {
  const char* env = std::getenv("ALKAID_BENCH_WIDE_FILE");
  if (env && *env) return env;
  return (std::filesystem::temp_directory_path() / "alkaid_bench_wide_100x1M_int64.arrow").string();
}

SchemaPtr WideSchema() {
  FieldVector fields;
  for (int c = 0; c < kWideColumns; ++c) {
    // Appended rather than "c" + to_string(c): GCC 12 warns falsely (-Wrestrict) on that.
    std::string name = "c";
    name += std::to_string(c);
    fields.push_back(field(std::move(name), int64(), false));
  }
  return schema(fields);
}

const std::string& WideFile() {
  static std::string path = [] {
    std::string p = WideFilePath();
    std::error_code ec;
    // Reuse a complete file from an earlier run (the footer is written last).
    if (std::filesystem::exists(p, ec)) {
      auto reader = ipc::FileReader::OpenMapped(p);
      if (reader.ok() && (*reader)->schema()->Equals(*WideSchema())) return p;
    }
    std::string tmp = p + ".partial";
    auto sink = io::FileOutputStream::Open(tmp).ValueOrDie();
    auto writer = ipc::MakeFileWriter(sink.get(), WideSchema()).ValueOrDie();
    for (int64_t done = 0; done < kWideRows; done += kBatchRows) {
      const int64_t rows = std::min(kBatchRows, kWideRows - done);
      ArrayDataVector columns;
      for (int c = 0; c < kWideColumns; ++c) {
        auto values = AllocateBuffer(rows * 8).ValueOrDie();
        auto* v = values->mutable_data_as<int64_t>();
        for (int64_t r = 0; r < rows; ++r) v[r] = c * kWideRows + done + r;
        columns.push_back(ArrayData::Make(int64(), rows, {nullptr, values}, 0));
      }
      Must(writer->WriteRecordBatch(*RecordBatch::Make(WideSchema(), rows, columns)));
    }
    Must(writer->Close());
    ::fdatasync(sink->fd());  // dirty pages cannot be evicted
    Must(sink->Close());
    std::filesystem::rename(tmp, p);
    return p;
  }();
  return path;
}

// Reads the selected columns of every batch and sums them.
int64_t ReadAndSum(ipc::FileReader* reader) {
  int64_t sum = 0;
  for (int i = 0; i < reader->num_record_batches(); ++i) {
    auto batch = reader->ReadRecordBatch(i).ValueOrDie();
    for (const auto& col : batch->columns()) {
      const auto* v = col->buffers[1]->data_as<int64_t>();
      for (int64_t r = 0; r < col->length; ++r) sum += v[r];
    }
  }
  return sum;
}

// Args: {mmap (1) or pread (0), number of columns read (1 or 100)}.
void BM_ProjectionColdCache(benchmark::State& state) {
  const bool mmap = state.range(0) != 0;
  const int columns = static_cast<int>(state.range(1));
  const std::string& path = WideFile();
  ipc::IpcReadOptions options;
  for (int c = 0; c < columns && columns < kWideColumns; ++c) {
    options.included_fields.push_back((kWideColumns / 2 + c) % kWideColumns);
  }
  int64_t paged_in = 0, io_read = 0, majflt = 0, left_resident = 0;
  for (auto _ : state) {
    state.PauseTiming();
    left_resident += EvictFile(path);
    const int64_t io_before = IoReadBytes();
    const int64_t faults_before = MajorFaults();
    state.ResumeTiming();
    std::unique_ptr<ipc::FileReader> reader;
    if (mmap) {
      reader = ipc::FileReader::OpenMapped(path, options).ValueOrDie();
    } else {
      auto file = io::ReadableFile::Open(path).ValueOrDie();
      reader = ipc::FileReader::Open(std::move(file), options).ValueOrDie();
    }
    benchmark::DoNotOptimize(ReadAndSum(reader.get()));
    reader.reset();
    state.PauseTiming();
    io_read += IoReadBytes() - io_before;
    majflt += MajorFaults() - faults_before;
    paged_in += ResidentBytes(path);
    state.ResumeTiming();
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["paged_in_MB"] = static_cast<double>(paged_in) / n / 1e6;
  state.counters["io_read_MB"] = static_cast<double>(io_read) / n / 1e6;
  state.counters["majflt"] = static_cast<double>(majflt) / n;
  state.counters["resident_before_MB"] = static_cast<double>(left_resident) / n / 1e6;
  state.counters["column_MB"] = static_cast<double>(columns * kWideRows * 8) / 1e6;
  state.SetLabel(std::string(mmap ? "mmap" : "pread") + ", " + std::to_string(columns) +
                 " of 100 columns, page cache dropped");
}

// The 10M-row data set read whole with full validation, page cache warm:
// through a memory map (arg 1) and from the same bytes already in memory
// (arg 0). The target is mmap <= 1.25x memory. Arg 2: mmap of the same
// data written without aligned writes (small page-cache folios).
void BM_WholeFileMappedVsMemory(benchmark::State& state) {
  const bool mmap = state.range(0) != 0;
  const auto& f = MappedFile(state.range(0) != 2);
  BufferPtr in_memory;
  if (!mmap) {
    auto file = io::ReadableFile::Open(f.path).ValueOrDie();
    in_memory = file->ReadAt(0, file->GetSize().ValueOrDie()).ValueOrDie();
  } else {
    // Warm the page cache (not this process's page tables).
    auto file = io::ReadableFile::Open(f.path).ValueOrDie();
    benchmark::DoNotOptimize(file->ReadAt(0, file->GetSize().ValueOrDie()).ValueOrDie());
  }
  ipc::IpcReadOptions options;
  options.validate_full = true;
  struct rusage before, after;
  ::getrusage(RUSAGE_SELF, &before);
  for (auto _ : state) {
    auto reader = mmap ? ipc::FileReader::OpenMapped(f.path, options).ValueOrDie()
                       : ipc::FileReader::Open(in_memory, options).ValueOrDie();
    int64_t rows = 0;
    for (int i = 0; i < reader->num_record_batches(); ++i)
      rows += reader->ReadRecordBatch(i).ValueOrDie()->num_rows();
    benchmark::DoNotOptimize(rows);
  }
  ::getrusage(RUSAGE_SELF, &after);
  state.counters["minflt"] = static_cast<double>(after.ru_minflt - before.ru_minflt) /
                             static_cast<double>(state.iterations());
  state.SetBytesProcessed(state.iterations() * DataSetBytes(BigDataSet()));
  state.SetLabel(!mmap ? "same bytes in memory, full validation"
                : state.range(0) == 1
                    ? "mmap, full validation, page cache warm"
                    : "mmap, full validation, page cache warm, file written unaligned");
}

// BM_WholeFileMappedVsMemory's mmap case with the mapping populated ahead of
// the reader (arg 1, the default of MemoryMappedFile) or not (arg 0), to see
// what populating ahead buys. The "CPU" column is the reading thread's alone.
void BM_WholeFileMappedPopulateAhead(benchmark::State& state) {
  const bool ahead = state.range(0) != 0;
  const auto& f = MappedFile();
  {
    auto file = io::ReadableFile::Open(f.path).ValueOrDie();
    benchmark::DoNotOptimize(file->ReadAt(0, file->GetSize().ValueOrDie()).ValueOrDie());
  }
  ipc::IpcReadOptions options;
  options.validate_full = true;
  struct rusage before, after;
  ::getrusage(RUSAGE_THREAD, &before);
  for (auto _ : state) {
    auto mapped = io::MemoryMappedFile::Open(f.path).ValueOrDie();
    mapped->set_populate_ahead(ahead);
    auto reader = ipc::FileReader::Open(std::shared_ptr<io::RandomAccessFile>(mapped), options)
                      .ValueOrDie();
    int64_t rows = 0;
    for (int i = 0; i < reader->num_record_batches(); ++i)
      rows += reader->ReadRecordBatch(i).ValueOrDie()->num_rows();
    benchmark::DoNotOptimize(rows);
  }
  ::getrusage(RUSAGE_THREAD, &after);
  state.counters["reader_minflt"] = static_cast<double>(after.ru_minflt - before.ru_minflt) /
                                    static_cast<double>(state.iterations());
  state.SetBytesProcessed(state.iterations() * DataSetBytes(BigDataSet()));
  state.SetLabel(ahead ? "mmap, populated ahead" : "mmap, page faults only");
}

double Min(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}

// Registration order is run order: the single-threaded per-batch figures
// must come before anything that starts a thread.
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WriteSmallBatches)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->ComputeStatistics("min", Min);
BENCHMARK(BM_ReadSmallBatches)->Args({0, 0})->Args({1, 0})->Unit(benchmark::kMillisecond)
    ->UseRealTime()->ComputeStatistics("min", Min);
BENCHMARK(BM_WriteStreamPresized)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WriteStreamReusedSink)->Args({1, 1})->Args({1, 2})->Args({2, 1})->Args({2, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WriteStream)
    ->Args({0, 1})->Args({1, 1})->Args({1, 2})->Args({2, 1})->Args({2, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadStream)
    ->Args({0, 1, 0})->Args({0, 1, 1})->Args({1, 1, 1})->Args({1, 2, 1})->Args({2, 1, 1})->Args({2, 2, 1})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_CodecDecompressLoop)->Args({1, 1})->Args({1, 2})->Args({2, 1})->Args({2, 2})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadVsCodecFloor)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseManualTime()
    ->MinTime(3);
BENCHMARK(BM_WriteFile)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OpenMappedFile)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_ReadMappedFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReadScaling)->Arg(64 * 1024)->Arg(640 * 1024)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(BM_ValidateFull)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WriteSmallBatches)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime()
    ->ComputeStatistics("min", Min);
BENCHMARK(BM_ReadSmallBatches)->Args({0, 1})->Args({1, 1})->Unit(benchmark::kMillisecond)
    ->UseRealTime()->ComputeStatistics("min", Min);
BENCHMARK(BM_WholeFileMappedVsMemory)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->Repetitions(5)->ComputeStatistics("min", Min);
BENCHMARK(BM_WholeFileMappedPopulateAhead)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)
    ->UseRealTime()->Repetitions(5)->ComputeStatistics("min", Min);
BENCHMARK(BM_ReadStreamWithWork)
    ->Args({2, 1, 4})->Args({2, 2, 4})->Args({1, 1, 4})->Args({1, 2, 4})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Repetitions(3)->ComputeStatistics("min", Min);
BENCHMARK(BM_ProjectionColdCache)
    ->Args({1, 1})->Args({1, 100})->Args({0, 1})->Args({0, 100})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
