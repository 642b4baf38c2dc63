// The Zstandard codec (zstd.h): one zstd frame per body buffer.
// For ZSTD_d_stableOutBuffer (a parameter value; no static-only function is used).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <memory>

#include "stepped_codec.h"

namespace alkaid::ipc::internal {

namespace {

// The calls that differ between the two kinds of zstd context, compression
// (ZSTD_CCtx) and decompression (ZSTD_DCtx), by overload.
ZSTD_CCtx* CreateContext(ZSTD_CCtx*) { return ZSTD_createCCtx(); }
ZSTD_DCtx* CreateContext(ZSTD_DCtx*) { return ZSTD_createDCtx(); }
void ResetSession(ZSTD_CCtx* ctx) { ZSTD_CCtx_reset(ctx, ZSTD_reset_session_only); }
void ResetSession(ZSTD_DCtx* ctx) { ZSTD_DCtx_reset(ctx, ZSTD_reset_session_only); }
const char* Work(ZSTD_CCtx*) { return "compress"; }
const char* Work(ZSTD_DCtx*) { return "decompress"; }
const char* Noun(ZSTD_CCtx*) { return "compression"; }
const char* Noun(ZSTD_DCtx*) { return "decompression"; }
// Compression in steps reads the input and writes the output in place (both
// are flat buffers of the whole frame).
bool SetStepParameters(ZSTD_CCtx* ctx) {
  return !ZSTD_isError(ZSTD_CCtx_setParameter(ctx, ZSTD_c_stableInBuffer, 1)) &&
         !ZSTD_isError(ZSTD_CCtx_setParameter(ctx, ZSTD_c_stableOutBuffer, 1));
}
// Decompression in steps decodes straight into the output, one flat buffer of
// the whole frame, and accepts any window (the buffer, not a window, bounds
// memory).
bool SetStepParameters(ZSTD_DCtx* ctx) {
  return !ZSTD_isError(ZSTD_DCtx_setParameter(ctx, ZSTD_d_stableOutBuffer, 1)) &&
         !ZSTD_isError(ZSTD_DCtx_setParameter(ctx, ZSTD_d_windowLogMax, ZSTD_WINDOWLOG_MAX));
}
struct ZstdContextDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};

// The calling thread's context: contexts are reused per thread, as creating
// one per call would cost more than compressing a small buffer. The contexts
// for work in steps (kSteps) are streaming ones kept apart from the one-shot
// ones, so that their parameters never leak there.
template <typename Ctx, bool kSteps>
Result<Ctx*> ThreadZstdContext() {
  thread_local std::unique_ptr<Ctx, ZstdContextDeleter> ctx;
  if (!ctx) {
    ctx.reset(CreateContext(static_cast<Ctx*>(nullptr)));
    if (!ctx) return Status::OutOfMemory("cannot create a zstd ", Noun(ctx.get()), " context");
    if (kSteps && !SetStepParameters(ctx.get())) {
      ctx.reset();
      return Status::NotImplemented("this zstd library cannot ", Work(ctx.get()), " in steps");
    }
  } else if (kSteps) {
    ResetSession(ctx.get());
  }
  return ctx.get();
}

// Input bytes decoded, and compressed, between two checks of whether another
// thread has already finished the same buffer (the second: one zstd block).
constexpr int64_t kZstdStep = int64_t{32} << 10;
constexpr int64_t kZstdCompressStep = int64_t{128} << 10;

class ZstdCodec final : public SteppedCodec {
 public:
  explicit ZstdCodec(int level) : SteppedCodec(CompressionType::kZstd, level) {}

  int64_t MaxCompressedLength(int64_t input_size) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_size)));
  }

  Result<int64_t> Compress(const uint8_t* input, int64_t input_size, uint8_t* output,
                           int64_t output_capacity) const override {
    ALKAID_ASSIGN_OR_RAISE(ZSTD_CCtx * ctx, (ThreadZstdContext<ZSTD_CCtx, false>()));
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
    ALKAID_ASSIGN_OR_RAISE(ZSTD_CCtx * ctx, (ThreadZstdContext<ZSTD_CCtx, true>()));
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
    ALKAID_ASSIGN_OR_RAISE(ZSTD_DCtx * ctx, (ThreadZstdContext<ZSTD_DCtx, false>()));
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
    ALKAID_ASSIGN_OR_RAISE(ZSTD_DCtx * ctx, (ThreadZstdContext<ZSTD_DCtx, true>()));
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
