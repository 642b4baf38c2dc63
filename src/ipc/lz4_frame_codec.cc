// The LZ4 frame codec (lz4frame.h): one frame per body buffer.
#include <lz4frame.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "stepped_codec.h"

namespace alkaid::ipc::internal {

namespace {

// Highest LZ4 level (LZ4HC_CLEVEL_MAX in lz4hc.h); higher values act the same.
constexpr int kLz4MaxLevel = 12;

// Contexts are reused per thread: creating one per call would cost more than
// compressing a small buffer.
struct Lz4DctxDeleter {
  void operator()(LZ4F_dctx* ctx) const { LZ4F_freeDecompressionContext(ctx); }
};
struct Lz4CctxDeleter {
  void operator()(LZ4F_cctx* ctx) const { LZ4F_freeCompressionContext(ctx); }
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

// Output bytes decoded between two checks of whether another thread has
// already finished the same buffer. A multiple of LZ4's 64 KiB block so that
// blocks still decode in place.
constexpr int64_t kLz4Step = int64_t{256} << 10;
// Input bytes compressed between two such checks: one LZ4 block.
constexpr int64_t kLz4CompressStep = int64_t{64} << 10;

class Lz4FrameCodec final : public SteppedCodec {
 public:
  explicit Lz4FrameCodec(int level) : SteppedCodec(CompressionType::kLz4Frame, level) {}

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
                                int64_t output_capacity,
                                const std::function<bool()>& stop) const override {
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
                                  int64_t output_size,
                                  const std::function<bool()>* stop) const override {
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

};

}  // namespace

Result<std::unique_ptr<Codec>> MakeLz4FrameCodec(int level) {
  if (level == kDefaultCompressionLevel) level = 0;
  // Negative levels select LZ4's accelerated modes; above 12 is HC's maximum.
  if (level < -65536 || level > kLz4MaxLevel) {
    return Status::Invalid("LZ4 compression level must be in [-65536, 12], got ", level);
  }
  return std::unique_ptr<Codec>(new Lz4FrameCodec(level));
}

}  // namespace alkaid::ipc::internal
