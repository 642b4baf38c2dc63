// ZSTD: one or more Zstandard frames.
#include <zstd.h>
#include <zstd_errors.h>

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

namespace {

struct DctxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};
struct CctxDeleter {
  void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
};

// Contexts are per thread: making one per page would cost more than a small page.
ZSTD_DCtx* ThreadDctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DctxDeleter> ctx(ZSTD_createDCtx());
  return ctx.get();
}
ZSTD_CCtx* ThreadCctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, CctxDeleter> ctx(ZSTD_createCCtx());
  return ctx.get();
}

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : Codec(Compression::kZstd), level_(level) {}

  Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                    int64_t out_size) const override {
    ZSTD_DCtx* ctx = ThreadDctx();
    if (ctx == nullptr) return Status::OutOfMemory("ZSTD: cannot create a decompression context");
    // One-shot decompression writes straight into `out` and never past it.
    const size_t n = ZSTD_decompressDCtx(ctx, out, static_cast<size_t>(out_size), in,
                                         static_cast<size_t>(in_size));
    if (ZSTD_isError(n)) {
      if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
        return SizeMismatch(compression_, out_size, -1);
      }
      return Status::Invalid("ZSTD: corrupt data (", ZSTD_getErrorName(n), ")");
    }
    if (n != static_cast<size_t>(out_size)) {
      return SizeMismatch(compression_, out_size, static_cast<int64_t>(n));
    }
    return Status::OK();
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                           alkaid::BufferBuilder* out) const override {
    ZSTD_CCtx* ctx = ThreadCctx();
    if (ctx == nullptr) return Status::OutOfMemory("ZSTD: cannot create a compression context");
    const int64_t bound = MaxCompressedSize(in_size);
    ALKAID_RETURN_NOT_OK(out->Reserve(bound));
    const size_t n = ZSTD_compressCCtx(ctx, out->mutable_data() + out->size(),
                                       static_cast<size_t>(bound), in,
                                       static_cast<size_t>(in_size), level_);
    if (ZSTD_isError(n)) return Status::UnknownError("ZSTD: ", ZSTD_getErrorName(n));
    out->UnsafeAdvance(static_cast<int64_t>(n));
    return static_cast<int64_t>(n);
  }

  int64_t MaxCompressedSize(int64_t in_size) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(in_size)));
  }

 private:
  int level_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeZstdCodec(int level) {
  if (level == kCodecDefaultLevel) level = ZSTD_CLEVEL_DEFAULT;
  if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
    return Status::Invalid("ZSTD compression level ", level, " is not in ", ZSTD_minCLevel(), "..",
                           ZSTD_maxCLevel());
  }
  return std::make_unique<ZstdCodec>(level);
}

}  // namespace alkaid::parquet::internal
