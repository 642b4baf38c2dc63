// The Zstandard codec (zstd.h): one zstd frame per body buffer.
// For ZSTD_d_stableOutBuffer (a parameter value; no static-only function is used).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <memory>

#include "stepped_codec.h"

namespace alkaid::ipc::internal {

namespace {

// Contexts are reused per thread: creating one per call would cost more than
// compressing a small buffer.
struct ZstdCctxDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};
struct ZstdDctxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};

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

// Input bytes decoded, and compressed, between two checks of whether another
// thread has already finished the same buffer (the second: one zstd block).
constexpr int64_t kZstdStep = int64_t{32} << 10;
constexpr int64_t kZstdCompressStep = int64_t{128} << 10;

class ZstdCodec final : public SteppedCodec {
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
                                int64_t output_capacity,
                                const std::function<bool()>& stop) const override {
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
  // and returning 0 without finishing as soon as (*stop)() is true; without
  // `stop`, Decompress itself.
  Result<int64_t> DecompressSteps(const uint8_t* input, int64_t input_size, uint8_t* output,
                                  int64_t output_size,
                                  const std::function<bool()>* stop) const override {
    if (stop == nullptr) return Decompress(input, input_size, output, output_size);
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
      if ((*stop)()) return 0;
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

}  // namespace

Result<std::unique_ptr<Codec>> MakeZstdCodec(int level) {
  if (level == kDefaultCompressionLevel) level = 1;
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return Status::Invalid("zstd compression level must be in [", ZSTD_minCLevel(), ", ",
                           ZSTD_maxCLevel(), "], got ", level);
  }
  return std::unique_ptr<Codec>(new ZstdCodec(level));
}

}  // namespace alkaid::ipc::internal
