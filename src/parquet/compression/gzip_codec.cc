// GZIP: gzip members (RFC 1952) through zlib. Reading also accepts a zlib
// stream, which some old writers produced, and several members back to back.
#include <zlib.h>

#include <limits>

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

namespace {

// zlib counts in uInt: feed it at most this much at a time.
constexpr int64_t kZlibChunk = std::numeric_limits<uInt>::max();

class GzipCodec final : public Codec {
 public:
  explicit GzipCodec(int level) : Codec(Compression::kGzip), level_(level) {}

  Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                    int64_t out_size) const override {
    z_stream z{};
    // 15 bits of window, +32: detect gzip or zlib headers.
    if (inflateInit2(&z, 15 + 32) != Z_OK) return Status::OutOfMemory("GZIP: inflateInit failed");
    int64_t in_pos = 0;
    int64_t out_pos = 0;
    Status status;
    while (true) {
      z.next_in = const_cast<Bytef*>(in + in_pos);
      z.avail_in = static_cast<uInt>(std::min(in_size - in_pos, kZlibChunk));
      z.next_out = out + out_pos;
      z.avail_out = static_cast<uInt>(std::min(out_size - out_pos, kZlibChunk));
      const int ret = inflate(&z, Z_NO_FLUSH);
      in_pos = static_cast<int64_t>(z.next_in - in);
      out_pos = static_cast<int64_t>(z.next_out - out);
      if (ret == Z_STREAM_END) {
        // Another member may follow; anything else is an error.
        if (in_pos == in_size) break;
        if (inflateReset(&z) != Z_OK) {
          status = Status::Invalid("GZIP: cannot start the next member");
          break;
        }
        continue;
      }
      if (ret == Z_BUF_ERROR && out_pos == out_size) {
        status = SizeMismatch(compression_, out_size, -1);
        break;
      }
      if (ret == Z_BUF_ERROR && in_pos == in_size) {
        status = Status::Invalid("GZIP: the compressed data is cut short");
        break;
      }
      if (ret != Z_OK && ret != Z_BUF_ERROR) {
        status = Status::Invalid("GZIP: corrupt data (", z.msg ? z.msg : "zlib error", ")");
        break;
      }
    }
    inflateEnd(&z);
    ALKAID_RETURN_NOT_OK(status);
    if (out_pos != out_size) return SizeMismatch(compression_, out_size, out_pos);
    return Status::OK();
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                           alkaid::BufferBuilder* out) const override {
    z_stream z{};
    // 15 bits of window, +16: write a gzip header and trailer.
    if (deflateInit2(&z, level_, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return Status::OutOfMemory("GZIP: deflateInit failed");
    }
    const int64_t bound = static_cast<int64_t>(deflateBound(&z, static_cast<uLong>(in_size)));
    Status status = out->Reserve(bound);
    int64_t written = 0;
    if (status.ok()) {
      int64_t in_pos = 0;
      uint8_t* dst = out->mutable_data() + out->size();
      while (true) {
        z.next_in = const_cast<Bytef*>(in + in_pos);
        z.avail_in = static_cast<uInt>(std::min(in_size - in_pos, kZlibChunk));
        z.next_out = dst + written;
        z.avail_out = static_cast<uInt>(std::min(bound - written, kZlibChunk));
        const bool last = in_pos + z.avail_in == in_size;
        const int ret = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
        in_pos = static_cast<int64_t>(z.next_in - in);
        written = static_cast<int64_t>(z.next_out - dst);
        if (ret == Z_STREAM_END) break;
        if (ret != Z_OK && ret != Z_BUF_ERROR) {
          status = Status::UnknownError("GZIP: deflate failed");
          break;
        }
      }
    }
    deflateEnd(&z);
    ALKAID_RETURN_NOT_OK(status);
    out->UnsafeAdvance(written);
    return written;
  }

  int64_t MaxCompressedSize(int64_t in_size) const override {
    // deflateBound's formula for the default settings, plus the gzip header and trailer.
    return in_size + (in_size >> 12) + (in_size >> 14) + (in_size >> 25) + 13 + 18;
  }

 private:
  int level_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeGzipCodec(int level) {
  if (level == kCodecDefaultLevel) level = Z_DEFAULT_COMPRESSION;
  if (level != Z_DEFAULT_COMPRESSION && (level < 0 || level > 9)) {
    return Status::Invalid("GZIP compression level ", level, " is not in 0..9");
  }
  return std::make_unique<GzipCodec>(level);
}

}  // namespace alkaid::parquet::internal
