// LZ4 frame and Zstandard codecs plus the per-buffer body encoding of IPC.
#include "alkaid/ipc/compression.h"

#include <lz4frame.h>
// For ZSTD_d_stableOutBuffer (a parameter value; no static-only function is used).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <numeric>
#include <cstring>
#include <mutex>

#include "alkaid/thread_pool.h"
#include "compression_internal.h"

namespace alkaid::ipc {

namespace {

// Highest LZ4 level (LZ4HC_CLEVEL_MAX in lz4hc.h); higher values act the same.
constexpr int kLz4MaxLevel = 12;

// A valid address for zero-length buffers (memcpy with a null pointer is UB
// even for zero bytes).
const uint8_t kEmptyBytes[8] = {};

BufferPtr EmptyBuffer() { return std::make_shared<Buffer>(kEmptyBytes, 0); }

// Contexts are reused per thread: creating one per call would cost more than
// compressing a small buffer.
struct Lz4DctxDeleter {
  void operator()(LZ4F_dctx* ctx) const { LZ4F_freeDecompressionContext(ctx); }
};
struct ZstdCctxDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};
struct ZstdDctxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};

thread_local std::unique_ptr<LZ4F_dctx, Lz4DctxDeleter> thread_lz4_dctx;

// A context that failed on corrupt input, or stopped in the middle of a
// frame, is thrown away: a reset alone has been seen to leave one that then
// refuses the next valid frame.
void DropThreadLz4Dctx() { thread_lz4_dctx.reset(); }

Result<LZ4F_dctx*> ThreadLz4Dctx() {
  std::unique_ptr<LZ4F_dctx, Lz4DctxDeleter>& ctx = thread_lz4_dctx;
  if (!ctx) {
    LZ4F_dctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) {
      return Status::OutOfMemory("cannot create an LZ4 decompression context");
    }
    ctx.reset(raw);
  } else {
    LZ4F_resetDecompressionContext(ctx.get());
  }
  return ctx.get();
}

// Streaming context for decompression in steps (see DecompressSteps); kept
// apart from the one-shot context so that its parameters never leak there.
Result<ZSTD_DCtx*> ThreadZstdStepDctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdDctxDeleter> ctx;
  if (!ctx) {
    ctx.reset(ZSTD_createDCtx());
    if (!ctx) return Status::OutOfMemory("cannot create a zstd decompression context");
    // The output is one flat buffer of the whole frame: decode straight into
    // it, and accept any window (the buffer, not a window, bounds memory).
    if (ZSTD_isError(ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_stableOutBuffer, 1)) ||
        ZSTD_isError(ZSTD_DCtx_setParameter(ctx.get(), ZSTD_d_windowLogMax, ZSTD_WINDOWLOG_MAX))) {
      ctx.reset();
      return Status::NotImplemented("this zstd library cannot decompress in steps");
    }
  } else {
    ZSTD_DCtx_reset(ctx.get(), ZSTD_reset_session_only);
  }
  return ctx.get();
}

// Output bytes (LZ4) or input bytes (zstd) decoded between two checks of
// whether another thread has already finished the same buffer. A multiple
// of LZ4's 64 KiB block so that blocks still decode in place.
constexpr int64_t kLz4Step = int64_t{256} << 10;
constexpr int64_t kZstdStep = int64_t{32} << 10;

struct Lz4CctxDeleter {
  void operator()(LZ4F_cctx* ctx) const { LZ4F_freeCompressionContext(ctx); }
};

Result<LZ4F_cctx*> ThreadLz4Cctx() {
  thread_local std::unique_ptr<LZ4F_cctx, Lz4CctxDeleter> ctx;
  if (!ctx) {
    LZ4F_cctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createCompressionContext(&raw, LZ4F_VERSION))) {
      return Status::OutOfMemory("cannot create an LZ4 compression context");
    }
    ctx.reset(raw);
  }
  return ctx.get();
}

// Input bytes compressed between two checks of whether another thread has
// already finished the same buffer: one LZ4 block, one zstd block.
constexpr int64_t kLz4CompressStep = int64_t{64} << 10;
constexpr int64_t kZstdCompressStep = int64_t{128} << 10;

// Streaming compression context for compression in steps, reading the input
// and writing the output in place (both are flat buffers of the whole frame).
Result<ZSTD_CCtx*> ThreadZstdStepCctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, ZstdCctxDeleter> ctx;
  if (!ctx) {
    ctx.reset(ZSTD_createCCtx());
    if (!ctx) return Status::OutOfMemory("cannot create a zstd compression context");
    if (ZSTD_isError(ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_stableInBuffer, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_stableOutBuffer, 1))) {
      ctx.reset();
      return Status::NotImplemented("this zstd library cannot compress in steps");
    }
  } else {
    ZSTD_CCtx_reset(ctx.get(), ZSTD_reset_session_only);
  }
  return ctx.get();
}

Result<ZSTD_CCtx*> ThreadZstdCctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, ZstdCctxDeleter> ctx;
  if (!ctx) ctx.reset(ZSTD_createCCtx());
  if (!ctx) return Status::OutOfMemory("cannot create a zstd compression context");
  return ctx.get();
}

Result<ZSTD_DCtx*> ThreadZstdDctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdDctxDeleter> ctx;
  if (!ctx) ctx.reset(ZSTD_createDCtx());
  if (!ctx) return Status::OutOfMemory("cannot create a zstd decompression context");
  return ctx.get();
}

class Lz4FrameCodec final : public Codec {
 public:
  explicit Lz4FrameCodec(int level) : level_(level) {}
  CompressionType type() const override { return CompressionType::kLz4Frame; }
  int level() const override { return level_; }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    LZ4F_preferences_t prefs = Preferences(input_size);
    return static_cast<int64_t>(LZ4F_compressFrameBound(static_cast<size_t>(input_size), &prefs));
  }

  Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                           int64_t output_capacity) const override {
    LZ4F_preferences_t prefs = Preferences(input_size);
    size_t n = LZ4F_compressFrame(output, static_cast<size_t>(output_capacity), input,
                                  static_cast<size_t>(input_size), &prefs);
    if (LZ4F_isError(n)) {
      return Status::CapacityError("LZ4 frame compression of ", input_size, " bytes failed: ",
                                   LZ4F_getErrorName(n));
    }
    return static_cast<int64_t>(n);
  }

  // The same frame as Compress (the same preferences LZ4F_compressFrame
  // settles on: 64 KiB blocks, flushed as they fill, one block standing
  // alone), compressed kLz4CompressStep input bytes per library call;
  // returns 0 without finishing as soon as stop() is true.
  Result<int64_t> CompressSteps(const uint8_t* input, int64_t input_size, uint8_t* output,
                                int64_t output_capacity, const std::function<bool()>& stop) const {
    ALKAID_ASSIGN_OR_RAISE(LZ4F_cctx * ctx, ThreadLz4Cctx());
    LZ4F_preferences_t prefs = Preferences(input_size);
    prefs.frameInfo.blockSizeID = LZ4F_max64KB;
    prefs.autoFlush = 1;
    if (input_size <= kLz4CompressStep) prefs.frameInfo.blockMode = LZ4F_blockIndependent;
    LZ4F_compressOptions_t options;
    std::memset(&options, 0, sizeof(options));
    options.stableSrc = 1;
    auto failed = [&](size_t code) {
      return Status::CapacityError("LZ4 frame compression of ", input_size, " bytes failed: ",
                                   LZ4F_getErrorName(code));
    };
    size_t n = LZ4F_compressBegin(ctx, output, static_cast<size_t>(output_capacity), &prefs);
    if (LZ4F_isError(n)) return failed(n);
    int64_t out_pos = static_cast<int64_t>(n);
    for (int64_t at = 0; at < input_size; at += kLz4CompressStep) {
      if (at > 0 && stop()) return 0;
      const int64_t len = std::min(kLz4CompressStep, input_size - at);
      n = LZ4F_compressUpdate(ctx, output + out_pos, static_cast<size_t>(output_capacity - out_pos),
                              input + at, static_cast<size_t>(len), &options);
      if (LZ4F_isError(n)) return failed(n);
      out_pos += static_cast<int64_t>(n);
    }
    n = LZ4F_compressEnd(ctx, output + out_pos, static_cast<size_t>(output_capacity - out_pos),
                         &options);
    if (LZ4F_isError(n)) return failed(n);
    return out_pos + static_cast<int64_t>(n);
  }

  Result<int64_t> Decompress(const uint8_t* input, int64_t input_size, uint8_t* output,
                             int64_t output_size) const override {
    return DecompressSteps(input, input_size, output, output_size, nullptr);
  }

  // Decompresses with at most kLz4Step output bytes per library call when
  // `stop` is given, returning 0 without finishing as soon as stop() is true.
  Result<int64_t> DecompressSteps(const uint8_t* input, int64_t input_size, uint8_t* output,
                                  int64_t output_size, const std::function<bool()>* stop) const {
    ALKAID_ASSIGN_OR_RAISE(LZ4F_dctx * ctx, ThreadLz4Dctx());
    const int64_t step = stop != nullptr ? kLz4Step : output_size;
    // The output is one flat buffer that stays put between steps: the
    // decoder can refer back into it instead of copying aside the last
    // 64 KiB after every step.
    LZ4F_decompressOptions_t options;
    std::memset(&options, 0, sizeof(options));
    options.stableDst = 1;
    int64_t in_pos = 0;
    int64_t out_pos = 0;
    while (true) {
      size_t out_avail = static_cast<size_t>(std::min(output_size - out_pos, step));
      size_t in_avail = static_cast<size_t>(input_size - in_pos);
      size_t hint = LZ4F_decompress(ctx, output + out_pos, &out_avail, input + in_pos, &in_avail,
                                    &options);
      if (LZ4F_isError(hint)) {
        DropThreadLz4Dctx();
        return Status::SerializationError("corrupt LZ4 frame at input byte ", in_pos, ": ",
                                          LZ4F_getErrorName(hint));
      }
      in_pos += static_cast<int64_t>(in_avail);
      out_pos += static_cast<int64_t>(out_avail);
      if (hint == 0) break;  // frame complete
      if (in_avail == 0 && out_avail == 0) {
        DropThreadLz4Dctx();
        if (in_pos == input_size) {
          return Status::SerializationError("LZ4 frame is truncated after ", input_size,
                                            " input bytes");
        }
        return Status::SerializationError("LZ4 frame holds more than the declared ",
                                          output_size, " bytes");
      }
      if (stop != nullptr && (*stop)()) {
        DropThreadLz4Dctx();
        return 0;
      }
    }
    if (out_pos != output_size) {
      return Status::SerializationError("LZ4 frame holds ", out_pos, " bytes, declared ",
                                        output_size);
    }
    if (in_pos != input_size) {
      return Status::SerializationError("LZ4 frame ends at byte ", in_pos, " of ", input_size,
                                        " (trailing data)");
    }
    return output_size;
  }

 private:
  LZ4F_preferences_t Preferences(int64_t input_size) const {
    LZ4F_preferences_t prefs;
    std::memset(&prefs, 0, sizeof(prefs));
    prefs.compressionLevel = level_;
    // Recording the size lets any reader check it before decompressing.
    prefs.frameInfo.contentSize = static_cast<unsigned long long>(input_size);
    return prefs;
  }

  int level_;
};

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : level_(level) {}
  CompressionType type() const override { return CompressionType::kZstd; }
  int level() const override { return level_; }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_size)));
  }

  Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                           int64_t output_capacity) const override {
    ALKAID_ASSIGN_OR_RAISE(ZSTD_CCtx * ctx, ThreadZstdCctx());
    size_t n = ZSTD_compressCCtx(ctx, output, static_cast<size_t>(output_capacity), input,
                                 static_cast<size_t>(input_size), level_);
    if (ZSTD_isError(n)) {
      return Status::CapacityError("zstd compression of ", input_size, " bytes failed: ",
                                   ZSTD_getErrorName(n));
    }
    return static_cast<int64_t>(n);
  }

  // The same frame as Compress, kZstdCompressStep input bytes per library
  // call; returns 0 without finishing as soon as stop() is true.
  Result<int64_t> CompressSteps(const uint8_t* input, int64_t input_size, uint8_t* output,
                                int64_t output_capacity, const std::function<bool()>& stop) const {
    ALKAID_ASSIGN_OR_RAISE(ZSTD_CCtx * ctx, ThreadZstdStepCctx());
    auto failed = [&](size_t code) {
      return Status::CapacityError("zstd compression of ", input_size, " bytes failed: ",
                                   ZSTD_getErrorName(code));
    };
    size_t r = ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, level_);
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setPledgedSrcSize(ctx, static_cast<unsigned long long>(input_size));
    if (ZSTD_isError(r)) return failed(r);
    ZSTD_outBuffer out{output, static_cast<size_t>(output_capacity), 0};
    ZSTD_inBuffer in{input, 0, 0};
    while (true) {
      in.size = static_cast<size_t>(std::min<int64_t>(input_size, static_cast<int64_t>(in.size) + kZstdCompressStep));
      const bool last = in.size == static_cast<size_t>(input_size);
      r = ZSTD_compressStream2(ctx, &out, &in, last ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(r)) return failed(r);
      if (last) {
        // Everything fits (the output holds the bound): one call ends the frame.
        if (r != 0) return Status::CapacityError("zstd compression of ", input_size,
                                                 " bytes did not fit ", output_capacity, " bytes");
        break;
      }
      if (stop()) return 0;
    }
    return static_cast<int64_t>(out.pos);
  }

  // The frame's declared content size (when it has one) must be the size the
  // body buffer declared.
  static Status CheckZstdFrameSize(const uint8_t* input, int64_t input_size, int64_t output_size) {
    unsigned long long declared = ZSTD_getFrameContentSize(input, static_cast<size_t>(input_size));
    if (declared == ZSTD_CONTENTSIZE_ERROR) {
      return Status::SerializationError("input of ", input_size, " bytes is not a zstd frame");
    }
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN &&
        declared != static_cast<unsigned long long>(output_size)) {
      return Status::SerializationError("zstd frame declares ", declared, " bytes, expected ",
                                        output_size);
    }
    return Status::OK();
  }

  Result<int64_t> Decompress(const uint8_t* input, int64_t input_size, uint8_t* output,
                             int64_t output_size) const override {
    ALKAID_RETURN_NOT_OK(CheckZstdFrameSize(input, input_size, output_size));
    ALKAID_ASSIGN_OR_RAISE(ZSTD_DCtx * ctx, ThreadZstdDctx());
    size_t n = ZSTD_decompressDCtx(ctx, output, static_cast<size_t>(output_size), input,
                                   static_cast<size_t>(input_size));
    if (ZSTD_isError(n)) {
      return Status::SerializationError("corrupt zstd frame: ", ZSTD_getErrorName(n));
    }
    if (static_cast<int64_t>(n) != output_size) {
      return Status::SerializationError("zstd frame holds ", n, " bytes, declared ", output_size);
    }
    return output_size;
  }

  // Like Decompress, feeding at most kZstdStep input bytes per library call
  // and returning 0 without finishing as soon as stop() is true.
  Result<int64_t> DecompressSteps(const uint8_t* input, int64_t input_size, uint8_t* output,
                                  int64_t output_size, const std::function<bool()>& stop) const {
    ALKAID_RETURN_NOT_OK(CheckZstdFrameSize(input, input_size, output_size));
    ALKAID_ASSIGN_OR_RAISE(ZSTD_DCtx * ctx, ThreadZstdStepDctx());
    ZSTD_outBuffer out{output, static_cast<size_t>(output_size), 0};
    ZSTD_inBuffer in{input, 0, 0};
    while (true) {
      in.size = static_cast<size_t>(std::min<int64_t>(input_size, static_cast<int64_t>(in.pos) + kZstdStep));
      const size_t before_in = in.pos;
      const size_t before_out = out.pos;
      size_t hint = ZSTD_decompressStream(ctx, &out, &in);
      if (ZSTD_isError(hint)) {
        return Status::SerializationError("corrupt zstd frame: ", ZSTD_getErrorName(hint));
      }
      if (hint == 0) break;  // frame complete
      if (in.pos == before_in && out.pos == before_out) {
        if (in.pos == static_cast<size_t>(input_size)) {
          return Status::SerializationError("zstd frame is truncated after ", input_size,
                                            " input bytes");
        }
        return Status::SerializationError("zstd frame holds more than the declared ",
                                          output_size, " bytes");
      }
      if (stop()) return 0;
    }
    if (static_cast<int64_t>(out.pos) != output_size) {
      return Status::SerializationError("zstd frame holds ", out.pos, " bytes, declared ",
                                        output_size);
    }
    if (static_cast<int64_t>(in.pos) != input_size) {
      return Status::SerializationError("zstd frame ends at byte ", in.pos, " of ", input_size,
                                        " (trailing data)");
    }
    return output_size;
  }

 private:
  int level_;
};

void WriteInt64LE(uint8_t* out, int64_t value) { std::memcpy(out, &value, 8); }

// A buffer of exactly `size` bytes for a decompressor to fill: sized from
// the declared length up front, and not cleared first (the codec writes every
// byte, or the buffer is dropped).
Result<std::shared_ptr<ResizableBuffer>> OutputBuffer(int64_t size, MemoryPool* pool) {
  auto buffer = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(buffer->ResizeForOverwrite(size));
  return buffer;
}

int64_t ThreadsFor(const ParallelOptions& parallel, int64_t n) {
  const int64_t threads = parallel.num_threads > 0 ? parallel.num_threads : HardwareThreads();
  return std::min(threads, n);
}

// Indices by decreasing cost (stable).
std::vector<int64_t> CostliestFirst(std::span<const int64_t> costs) {
  std::vector<int64_t> order(costs.size());
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return costs[static_cast<size_t>(a)] > costs[static_cast<size_t>(b)];
  });
  return order;
}

}  // namespace

const char* CompressionTypeName(CompressionType type) {
  switch (type) {
    case CompressionType::kNone: return "none";
    case CompressionType::kLz4Frame: return "lz4_frame";
    case CompressionType::kZstd: return "zstd";
  }
  return "unknown";
}

Result<CompressionType> CompressionTypeFromName(std::string_view name) {
  if (name == "none" || name == "uncompressed") return CompressionType::kNone;
  if (name == "lz4_frame" || name == "lz4") return CompressionType::kLz4Frame;
  if (name == "zstd") return CompressionType::kZstd;
  return Status::Invalid("unknown compression '", name, "' (expected none, lz4 or zstd)");
}

Result<std::unique_ptr<Codec>> Codec::Create(CompressionType type, int level) {
  switch (type) {
    case CompressionType::kNone:
      return Status::Invalid("no codec exists for compression type 'none'");
    case CompressionType::kLz4Frame: {
      if (level == kDefaultCompressionLevel) level = 0;
      // Negative levels select LZ4's accelerated modes; above 12 is HC's maximum.
      if (level < -65536 || level > kLz4MaxLevel) {
        return Status::Invalid("LZ4 compression level must be in [-65536, 12], got ", level);
      }
      return std::unique_ptr<Codec>(new Lz4FrameCodec(level));
    }
    case CompressionType::kZstd: {
      if (level == kDefaultCompressionLevel) level = 1;
      if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
        return Status::Invalid("zstd compression level must be in [", ZSTD_minCLevel(), ", ",
                               ZSTD_maxCLevel(), "], got ", level);
      }
      return std::unique_ptr<Codec>(new ZstdCodec(level));
    }
  }
  return Status::Invalid("unknown compression type ", static_cast<int>(type));
}

Status ParallelFor(std::span<const int64_t> costs, const ParallelOptions& parallel,
                   const std::function<Status(int64_t)>& task) {
  const auto n = static_cast<int64_t>(costs.size());
  int64_t total = 0;
  for (int64_t c : costs) total += std::max<int64_t>(c, 0);
  const int64_t threads = ThreadsFor(parallel, n);
  if (!parallel.use_threads || threads <= 1 || total < parallel.min_parallel_bytes) {
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(task(i));
    return Status::OK();
  }
  const std::vector<int64_t> order = CostliestFirst(costs);
  std::vector<Status> results(static_cast<size_t>(n));
  RunParallel(n, static_cast<int>(threads), [&](int64_t k) {
    const int64_t i = order[static_cast<size_t>(k)];
    results[static_cast<size_t>(i)] = task(i);
  });
  for (const Status& st : results) ALKAID_RETURN_NOT_OK(st);
  return Status::OK();
}

// The body buffer encoding of `input` into `out`, the frame made by
// compress(input, size, output, capacity). With `may_stop`, 0 from compress
// means it stopped early, and then so does this, returning false.
template <typename CompressFn>
Result<bool> EncodeBodyBuffer(const Codec& codec, ByteRange input, ResizableBuffer* out,
                              const CompressFn& compress, bool may_stop = false) {
  if (input.size == 0) {
    ALKAID_RETURN_NOT_OK(out->Resize(0));
    return true;
  }
  const int64_t bound = codec.MaxCompressedLength(input.size);
  // Sized for the worst case first; the final Resize below zeroes whatever
  // the codec did not fill, so the bytes past size() stay zero.
  ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + std::max(bound, input.size)));
  uint8_t* dst = out->mutable_data();
  ALKAID_ASSIGN_OR_RAISE(int64_t compressed,
                         compress(input.data, input.size, dst + kBodyBufferPrefixSize, bound));
  if (may_stop && compressed == 0) return false;
  if (compressed >= input.size) {
    // No gain: store raw so readers skip decompression entirely.
    WriteInt64LE(dst, kBodyBufferUncompressed);
    std::memcpy(dst + kBodyBufferPrefixSize, input.data, static_cast<size_t>(input.size));
    ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + input.size));
    return true;
  }
  WriteInt64LE(dst, input.size);
  ALKAID_RETURN_NOT_OK(out->Resize(kBodyBufferPrefixSize + compressed));
  return true;
}

Status CompressBodyBufferInto(const Codec& codec, ByteRange input, ResizableBuffer* out) {
  return EncodeBodyBuffer(codec, input, out,
                          [&](const uint8_t* in, int64_t n, uint8_t* dst, int64_t cap) {
                            return codec.Compress(in, n, dst, cap);
                          })
      .status();
}

Result<BufferPtr> CompressBodyBuffer(const Codec& codec, ByteRange input, MemoryPool* pool) {
  if (input.size == 0) return EmptyBuffer();
  auto out = std::make_shared<ResizableBuffer>(pool);
  ALKAID_RETURN_NOT_OK(CompressBodyBufferInto(codec, input, out.get()));
  return BufferPtr(std::move(out));
}

namespace {

// The buffers of one message compressed as a RacingTask: item k is buffer
// order[k] (largest first). The first attempt writes into the caller's output
// slot, a second attempt (the caller's, of an item a pool thread has in
// progress) into a buffer of its own that replaces the slot if it wins. A
// losing second attempt frees its buffer before it returns.
class CompressRace final : public RacingTask {
 public:
  CompressRace(const Lz4FrameCodec* lz4, const ZstdCodec* zstd, std::span<const ByteRange> inputs,
               std::vector<std::shared_ptr<ResizableBuffer>>* out, std::vector<int64_t> order,
               MemoryPool* pool)
      : RacingTask(static_cast<int64_t>(inputs.size())),
        lz4_(lz4),
        zstd_(zstd),
        inputs_(inputs),
        out_(out),
        order_(std::move(order)),
        pool_(pool),
        first_(out->begin(), out->end()),
        second_(inputs.size()),
        errors_(2 * inputs.size()) {}

  void Attempt(int64_t k, int attempt) override {
    const auto i = static_cast<size_t>(order_[static_cast<size_t>(k)]);
    // First attempts never read *out_: a pool thread may begin one (having
    // claimed the item, then been preempted) after the caller's second
    // attempt won and Collect rewrote the slot. The one first attempt of an
    // item takes the slot's buffer out of first_, so that a losing one frees
    // it as it returns rather than with the task.
    std::shared_ptr<ResizableBuffer> mine =
        attempt == 0 ? std::move(first_[i]) : std::make_shared<ResizableBuffer>(pool_);
    const std::function<bool()> stop = [this, k] { return Finished(k); };
    const Codec& codec = lz4_ != nullptr ? static_cast<const Codec&>(*lz4_) : *zstd_;
    // An attempt nobody races compresses in one library call, as the
    // one-thread path does.
    const bool raced = MayBeRaced(attempt);
    const auto started = std::chrono::steady_clock::now();
    Result<bool> done = EncodeBodyBuffer(
        codec, inputs_[i], mine.get(), [&](const uint8_t* in, int64_t n, uint8_t* dst, int64_t cap) {
          if (!raced) return codec.Compress(in, n, dst, cap);
          return lz4_ != nullptr ? lz4_->CompressSteps(in, n, dst, cap, stop)
                                 : zstd_->CompressSteps(in, n, dst, cap, stop);
        },
        /*may_stop=*/raced);
    if (done.ok() && !*done) return;  // gave up: the other attempt finished first
    const size_t slot = 2 * i + static_cast<size_t>(attempt);
    if (!done.ok()) errors_[slot] = done.status();
    nanos_[slot] = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - started).count();
    if (TryFinish(k, attempt) && attempt == 1) second_[i] = std::move(mine);
  }

  // Call after RunRacing returned: how long the standing attempt of each
  // buffer took (by buffer index).
  std::vector<int64_t> Nanos() const {
    std::vector<int64_t> nanos(second_.size());
    for (size_t k = 0; k < order_.size(); ++k) {
      const auto i = static_cast<size_t>(order_[k]);
      nanos[i] = nanos_[2 * i + static_cast<size_t>(Winner(static_cast<int64_t>(k)))];
    }
    return nanos;
  }

  // Call once, after RunRacing returned: winning second attempts replace
  // their slots; the first error by buffer index is returned.
  Status Collect() {
    std::vector<int64_t> position(order_.size());
    for (size_t k = 0; k < order_.size(); ++k) position[static_cast<size_t>(order_[k])] = static_cast<int64_t>(k);
    Status first_error;
    for (size_t i = 0; i < second_.size(); ++i) {
      const int winner = Winner(position[i]);
      const Status& st = errors_[2 * i + static_cast<size_t>(winner)];
      if (!st.ok() && first_error.ok()) first_error = st;
      if (winner == 1 && second_[i] != nullptr) (*out_)[i] = std::move(second_[i]);
    }
    return first_error;
  }

 private:
  const Lz4FrameCodec* const lz4_;
  const ZstdCodec* const zstd_;
  const std::span<const ByteRange> inputs_;
  std::vector<std::shared_ptr<ResizableBuffer>>* const out_;
  const std::vector<int64_t> order_;
  MemoryPool* const pool_;
  std::vector<std::shared_ptr<ResizableBuffer>> first_;  // the slots of *out_, until taken
  std::vector<std::shared_ptr<ResizableBuffer>> second_;  // winning second attempts
  std::vector<Status> errors_;                            // [2 * i + attempt]
  std::vector<int64_t> nanos_ = std::vector<int64_t>(errors_.size());  // [2 * i + attempt]
};

// The compression time of each buffer in the last threaded call that wrote
// into the same output vector (a writer passes the same one batch after
// batch), for ordering the next call's buffers by their real cost: bytes
// predict it poorly (at zstd level 1, 512 KiB of sequential integers take
// longer than 1 MiB of text). Only an ordering hint: a stale or foreign
// entry (an address reused by another vector) changes which thread takes
// which buffer, never a result.
class CostMemory {
 public:
  // The times for `key` if its last call had `n` buffers, else empty.
  std::vector<int64_t> Get(const void* key, size_t n) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (Entry& e : entries_) {
      if (e.key == key && e.nanos.size() == n) {
        e.stamp = ++clock_;
        return e.nanos;
      }
    }
    return {};
  }

  void Put(const void* key, std::vector<int64_t> nanos) {
    std::lock_guard<std::mutex> lock(mutex_);
    Entry* slot = &entries_[0];
    for (Entry& e : entries_) {
      if (e.key == key) {
        slot = &e;
        break;
      }
      if (e.stamp < slot->stamp) slot = &e;  // least recently used
    }
    slot->key = key;
    slot->nanos = std::move(nanos);
    slot->stamp = ++clock_;
  }

 private:
  struct Entry {
    const void* key = nullptr;
    std::vector<int64_t> nanos;
    uint64_t stamp = 0;
  };
  std::mutex mutex_;
  Entry entries_[8];
  uint64_t clock_ = 0;
};

CostMemory& CompressionCosts() {
  static auto* memory = new CostMemory();  // never destroyed: used until exit
  return *memory;
}

}  // namespace

struct BodyCompression::State {
  const Codec* codec = nullptr;
  std::span<const ByteRange> inputs;
  std::vector<std::shared_ptr<ResizableBuffer>>* out = nullptr;
  ParallelOptions parallel;
  std::vector<int64_t> costs;
  std::shared_ptr<CompressRace> race;  // null: Finish compresses on its thread
  RacingRun run;                       // last: finished before the rest goes away
};

BodyCompression::BodyCompression() = default;
BodyCompression::~BodyCompression() = default;  // each State's RacingRun finishes its race

Status BodyCompression::Start(const Codec& codec, std::span<const ByteRange> inputs,
                              std::vector<std::shared_ptr<ResizableBuffer>>* out,
                              const ParallelOptions& parallel, MemoryPool* pool) {
  if (started()) return Status::Invalid("BodyCompression::Start called twice without Finish");
  Release();
  auto state = std::make_unique<State>();
  state->codec = &codec;
  state->inputs = inputs;
  state->out = out;
  state->parallel = parallel;
  out->resize(inputs.size());
  state->costs.resize(inputs.size());
  int64_t total = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    state->costs[i] = inputs[i].size;
    total += inputs[i].size;
    // A buffer still referenced elsewhere is left to its holder.
    std::shared_ptr<ResizableBuffer>& slot = (*out)[i];
    if (slot == nullptr || slot.use_count() > 1 || slot->pool() != pool) {
      slot = std::make_shared<ResizableBuffer>(pool);
    }
  }
  const int64_t threads = ThreadsFor(parallel, static_cast<int64_t>(inputs.size()));
  const auto* lz4 = codec.type() == CompressionType::kLz4Frame
                        ? dynamic_cast<const Lz4FrameCodec*>(&codec) : nullptr;
  const auto* zstd = codec.type() == CompressionType::kZstd
                         ? dynamic_cast<const ZstdCodec*>(&codec) : nullptr;
  if (parallel.use_threads && threads > 1 && total >= parallel.min_parallel_bytes &&
      (lz4 != nullptr || zstd != nullptr)) {
    // Pool threads claim buffers now; the caller joins in Finish, then
    // compresses again, into a buffer of its own, each one still in progress
    // on a pool thread (a thread the system may have preempted while a core
    // is busy elsewhere), so it never waits for more than the work it could
    // do alone. The slower attempt sees Finished between steps and gives up;
    // Finish returns after it did, so the inputs and `pool` are not touched
    // afterwards. Costliest first by the previous call's times when there is
    // one (so that the threads finish together), else by size.
    const std::vector<int64_t> nanos = CompressionCosts().Get(out, inputs.size());
    state->race = std::make_shared<CompressRace>(
        lz4, zstd, inputs, out,
        CostliestFirst(nanos.empty() ? std::span<const int64_t>(state->costs) : nanos), pool);
    state->run.Start(state->race, static_cast<int>(threads));
  }
  state_ = std::move(state);
  return Status::OK();
}

Status BodyCompression::Finish() {
  Status st = FinishResults();
  Release();
  return st;
}

Status BodyCompression::FinishResults() {
  if (!started()) return Status::OK();
  std::unique_ptr<State> state = std::move(state_);
  if (state->race == nullptr) {
    return ParallelFor(state->costs, state->parallel, [&](int64_t i) {
      const auto at = static_cast<size_t>(i);
      return CompressBodyBufferInto(*state->codec, state->inputs[at], (*state->out)[at].get());
    });
  }
  state->run.FinishResults();
  CompressionCosts().Put(state->out, state->race->Nanos());
  Status st = state->race->Collect();
  // A losing attempt keeps its own output buffer, never a slot of *out.
  if (state->run.lingering()) lingering_ = std::move(state);
  return st;
}

bool BodyCompression::lingering() const {
  return lingering_ != nullptr && lingering_->run.lingering();
}

void BodyCompression::Release() { lingering_.reset(); }  // the State's RacingRun waits

Status CompressBodyBuffers(const Codec& codec, std::span<const ByteRange> inputs,
                           std::vector<std::shared_ptr<ResizableBuffer>>* out,
                           const ParallelOptions& parallel, MemoryPool* pool) {
  BodyCompression compression;
  ALKAID_RETURN_NOT_OK(compression.Start(codec, inputs, out, parallel, pool));
  return compression.Finish();
}

Result<int64_t> ReadBodyBufferPrefix(ByteRange encoded) {
  if (encoded.size == 0) return 0;
  if (encoded.size < kBodyBufferPrefixSize) {
    return Status::SerializationError("compressed body buffer of ", encoded.size,
                                      " bytes is shorter than its 8-byte length prefix");
  }
  int64_t declared;
  std::memcpy(&declared, encoded.data, 8);
  if (declared < kBodyBufferUncompressed) {
    return Status::SerializationError("compressed body buffer declares a negative length (",
                                      declared, ")");
  }
  return declared;
}

Result<BufferPtr> DecompressBodyBuffer(const Codec& codec, const BufferPtr& encoded,
                                       int64_t max_decompressed_size, MemoryPool* pool) {
  if (encoded == nullptr || encoded->size() == 0) return encoded ? encoded : EmptyBuffer();
  ALKAID_ASSIGN_OR_RAISE(int64_t declared, ReadBodyBufferPrefix({encoded->data(), encoded->size()}));
  if (declared == kBodyBufferUncompressed) {
    return SliceBuffer(encoded, kBodyBufferPrefixSize, encoded->size() - kBodyBufferPrefixSize);
  }
  if (declared > max_decompressed_size) {
    return Status::OutOfMemory("compressed body buffer declares ", declared,
                               " bytes, above the allowed ", max_decompressed_size);
  }
  ALKAID_ASSIGN_OR_RAISE(auto out, OutputBuffer(declared, pool));
  ALKAID_RETURN_NOT_OK(codec.Decompress(encoded->data() + kBodyBufferPrefixSize,
                                        encoded->size() - kBodyBufferPrefixSize,
                                        out->mutable_data(), declared));
  return BufferPtr(std::move(out));
}

namespace {

// The facts scans[i] finds in buffer i, just decoded. Only writable buffers
// are scanned: fresh decompression output, hot in this core's cache. Raw
// buffers come back as slices of the body (read-only as a rule), which the
// data pass reads from memory either way.
uint8_t ScanDecoded(const std::vector<alkaid::internal::BufferScan>& scans, size_t i,
                    const BufferPtr& decoded) {
  if (scans.empty() || decoded == nullptr || !decoded->is_mutable()) return 0;
  return alkaid::internal::ScanBuffer(scans[i], decoded->data(), decoded->size());
}

// Decompressors of the racing path (DecodeRace), one per codec type for the
// whole process: decompression does not depend on the level.
const Lz4FrameCodec& ProcessLz4Decoder() {
  static const auto* codec = new Lz4FrameCodec(0);
  return *codec;
}
const ZstdCodec& ProcessZstdDecoder() {
  static const auto* codec = new ZstdCodec(1);
  return *codec;
}

// The buffers of one message decompressed as a RacingTask: item k is buffer
// order[k] (largest first). An attempt that finds its buffer finished by the
// other one (checked between codec steps) gives up and frees its output;
// RunRacing returns only after it did.
class DecodeRace final : public RacingTask {
 public:
  DecodeRace(CompressionType type, std::vector<BufferPtr> encoded,
             std::vector<alkaid::internal::BufferScan> scans, std::vector<int64_t> order,
             int64_t max_size, MemoryPool* pool, int64_t index_base)
      : RacingTask(static_cast<int64_t>(encoded.size())),
        type_(type),
        encoded_(std::move(encoded)),
        scans_(std::move(scans)),
        order_(std::move(order)),
        max_size_(max_size),
        pool_(pool),
        index_base_(index_base),
        values_(2 * encoded_.size()),
        errors_(2 * encoded_.size()),
        facts_(2 * encoded_.size(), 0) {}

  void Attempt(int64_t k, int attempt) override {
    const auto i = static_cast<size_t>(order_[static_cast<size_t>(k)]);
    // An attempt nobody races decodes in one library call, as the
    // one-thread path does.
    const bool raced = MayBeRaced(attempt);
    Result<BufferPtr> decoded = Decode(i, k, raced);
    if (decoded.ok() && *decoded == nullptr && encoded_[i] != nullptr) return;  // gave up
    const size_t slot = 2 * i + static_cast<size_t>(attempt);
    if (decoded.ok()) {
      values_[slot] = std::move(*decoded);
    } else {
      errors_[slot] = decoded.status();
    }
    if (!TryFinish(k, attempt)) {
      values_[slot] = nullptr;  // the other attempt was first
      return;
    }
    // Read only by Take, after RunRacing returned (and so after this).
    facts_[slot] = ScanDecoded(scans_, i, values_[slot]);
  }

  // The standing result of buffer i and its scan's facts (call once, after
  // RunRacing returned).
  Result<BufferPtr> Take(size_t i, int64_t k, uint8_t* facts) {
    const size_t slot = 2 * i + static_cast<size_t>(Winner(k));
    *facts = facts_[slot];
    if (!errors_[slot].ok()) return errors_[slot];
    return std::move(values_[slot]);
  }

 private:
  // Null when it gave up because the other attempt finished first.
  Result<BufferPtr> Decode(size_t i, int64_t k, bool raced) {
    const BufferPtr& in = encoded_[i];
    if (in == nullptr) return BufferPtr();
    const std::function<bool()> stop = [this, k] { return Finished(k); };
    Result<BufferPtr> out = DecodeOne(in, raced ? &stop : nullptr);
    if (!out.ok()) {
      return out.status().WithContext("body buffer " +
                                      std::to_string(index_base_ + static_cast<int64_t>(i)));
    }
    return out;
  }

  // Without `stop`, in one library call that cannot give up.
  Result<BufferPtr> DecodeOne(const BufferPtr& in, const std::function<bool()>* stop) {
    if (in->size() == 0) return EmptyBuffer();
    ALKAID_ASSIGN_OR_RAISE(int64_t declared, ReadBodyBufferPrefix({in->data(), in->size()}));
    if (declared == kBodyBufferUncompressed) {
      return SliceBuffer(in, kBodyBufferPrefixSize, in->size() - kBodyBufferPrefixSize);
    }
    if (declared > max_size_) {
      return Status::OutOfMemory("compressed body buffer declares ", declared,
                                 " bytes, above the allowed ", max_size_);
    }
    ALKAID_ASSIGN_OR_RAISE(auto out, OutputBuffer(declared, pool_));
    const uint8_t* src = in->data() + kBodyBufferPrefixSize;
    const int64_t src_size = in->size() - kBodyBufferPrefixSize;
    Result<int64_t> n =
        type_ == CompressionType::kLz4Frame
            ? ProcessLz4Decoder().DecompressSteps(src, src_size, out->mutable_data(), declared, stop)
        : stop == nullptr
            ? ProcessZstdDecoder().Decompress(src, src_size, out->mutable_data(), declared)
            : ProcessZstdDecoder().DecompressSteps(src, src_size, out->mutable_data(), declared, *stop);
    ALKAID_RETURN_NOT_OK(n.status());
    if (*n != declared) return BufferPtr();  // stopped early
    return BufferPtr(std::move(out));
  }

  const CompressionType type_;
  const std::vector<BufferPtr> encoded_;
  const std::vector<alkaid::internal::BufferScan> scans_;  // empty: scan nothing
  const std::vector<int64_t> order_;
  const int64_t max_size_;
  MemoryPool* const pool_;
  const int64_t index_base_;
  // Two per buffer, [2 * i + attempt]: the buffer, or the error.
  std::vector<BufferPtr> values_;
  std::vector<Status> errors_;
  std::vector<uint8_t> facts_;  // [2 * i + attempt], as values_
};

}  // namespace

Status DecompressBodyBuffers(const Codec& codec, const std::vector<BufferPtr>& encoded,
                             std::vector<BufferPtr>* out, int64_t max_total_decompressed_size,
                             const ParallelOptions& parallel, MemoryPool* pool,
                             int64_t buffer_index_base) {
  std::vector<uint8_t> facts;
  return internal::DecompressAndScanBodyBuffers(codec, encoded, {}, out, &facts,
                                                max_total_decompressed_size, parallel, pool,
                                                buffer_index_base);
}

Status internal::DecompressAndScanBodyBuffers(
    const Codec& codec, const std::vector<BufferPtr>& encoded,
    const std::vector<alkaid::internal::BufferScan>& scans, std::vector<BufferPtr>* out,
    std::vector<uint8_t>* facts, int64_t max_total_decompressed_size,
    const ParallelOptions& parallel, MemoryPool* pool, int64_t buffer_index_base) {
  if (!scans.empty() && scans.size() != encoded.size()) {
    return Status::Invalid("one scan per body buffer expected");
  }
  // Check every declared size first so corrupt input never allocates.
  int64_t total = 0;
  std::vector<int64_t> costs(encoded.size(), 0);
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == nullptr) continue;
    auto declared = ReadBodyBufferPrefix({encoded[i]->data(), encoded[i]->size()});
    if (!declared.ok()) {
      return declared.status().WithContext("body buffer " +
                                           std::to_string(buffer_index_base + int64_t(i)));
    }
    if (*declared > 0) {
      if (*declared > max_total_decompressed_size - total) {
        return Status::OutOfMemory("body buffer ", buffer_index_base + int64_t(i),
                                   " declares ", *declared, " bytes; the buffers of this message "
                                   "would need more than the allowed ",
                                   max_total_decompressed_size);
      }
      total += *declared;
      costs[i] = *declared;
    }
  }
  out->assign(encoded.size(), nullptr);
  facts->assign(encoded.size(), 0);
  const auto n = static_cast<int64_t>(encoded.size());
  const int64_t threads = ThreadsFor(parallel, n);
  const bool ours = (codec.type() == CompressionType::kLz4Frame &&
                     dynamic_cast<const Lz4FrameCodec*>(&codec) != nullptr) ||
                    (codec.type() == CompressionType::kZstd &&
                     dynamic_cast<const ZstdCodec*>(&codec) != nullptr);
  if (parallel.use_threads && threads > 1 && total >= parallel.min_parallel_bytes && ours) {
    const std::vector<int64_t> order = CostliestFirst(costs);
    auto race = std::make_shared<DecodeRace>(codec.type(), encoded, scans, order,
                                             max_total_decompressed_size, pool, buffer_index_base);
    // The caller claims unstarted buffers like any pool thread, then decodes
    // a second time each buffer still in progress on a pool thread (one the
    // system may have preempted). The slower attempt sees Finished between
    // steps, gives up and frees its output before RunRacing returns, so no
    // allocation of a losing attempt outlives this call (or `pool`).
    RunRacing(race, static_cast<int>(threads));
    std::vector<int64_t> position(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) position[static_cast<size_t>(order[static_cast<size_t>(k)])] = k;
    Status first_error;
    for (size_t i = 0; i < encoded.size(); ++i) {
      Result<BufferPtr> r = race->Take(i, position[i], &(*facts)[i]);
      if (!r.ok()) {
        if (first_error.ok()) first_error = r.status();
        continue;
      }
      (*out)[i] = std::move(*r);
    }
    return first_error;
  }
  return ParallelFor(costs, parallel, [&](int64_t i) {
    const BufferPtr& in = encoded[static_cast<size_t>(i)];
    if (in == nullptr) return Status::OK();
    auto decoded = DecompressBodyBuffer(codec, in, max_total_decompressed_size, pool);
    if (!decoded.ok()) {
      return decoded.status().WithContext("body buffer " + std::to_string(buffer_index_base + i));
    }
    (*facts)[static_cast<size_t>(i)] = ScanDecoded(scans, static_cast<size_t>(i), *decoded);
    (*out)[static_cast<size_t>(i)] = std::move(*decoded);
    return Status::OK();
  });
}

}  // namespace alkaid::ipc
