// BROTLI: one Brotli stream.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

namespace {

class BrotliCodec final : public Codec {
 public:
  explicit BrotliCodec(int quality) : Codec(Compression::kBrotli), quality_(quality) {}

  Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                    int64_t out_size) const override {
    BrotliDecoderState* state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
    if (state == nullptr) return Status::OutOfMemory("BROTLI: cannot create a decoder");
    size_t avail_in = static_cast<size_t>(in_size);
    const uint8_t* next_in = in;
    size_t avail_out = static_cast<size_t>(out_size);
    uint8_t* next_out = out;
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    BrotliDecoderDestroyInstance(state);
    const int64_t produced = out_size - static_cast<int64_t>(avail_out);
    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (avail_in != 0) return Status::Invalid("BROTLI: bytes after the end of the stream");
        if (produced != out_size) return SizeMismatch(compression_, out_size, produced);
        return Status::OK();
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        return SizeMismatch(compression_, out_size, -1);
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        return Status::Invalid("BROTLI: the compressed data is cut short");
      default:
        return Status::Invalid("BROTLI: corrupt data");
    }
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                           alkaid::BufferBuilder* out) const override {
    const int64_t bound = MaxCompressedSize(in_size);
    ALKAID_RETURN_NOT_OK(out->Reserve(bound));
    size_t n = static_cast<size_t>(bound);
    if (!BrotliEncoderCompress(quality_, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                               static_cast<size_t>(in_size), in, &n,
                               out->mutable_data() + out->size())) {
      return Status::UnknownError("BROTLI: compression failed");
    }
    out->UnsafeAdvance(static_cast<int64_t>(n));
    return static_cast<int64_t>(n);
  }

  int64_t MaxCompressedSize(int64_t in_size) const override {
    const size_t bound = BrotliEncoderMaxCompressedSize(static_cast<size_t>(in_size));
    // 0 means "too large to say"; such inputs are not pages.
    return bound == 0 ? in_size + (in_size >> 2) + 1024 : static_cast<int64_t>(bound);
  }

 private:
  int quality_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeBrotliCodec(int level) {
  // Quality 8 trades speed and size as Arrow C++ does for Parquet pages.
  if (level == kCodecDefaultLevel) level = 8;
  if (level < BROTLI_MIN_QUALITY || level > BROTLI_MAX_QUALITY) {
    return Status::Invalid("BROTLI compression level ", level, " is not in 0..11");
  }
  return std::make_unique<BrotliCodec>(level);
}

}  // namespace alkaid::parquet::internal
