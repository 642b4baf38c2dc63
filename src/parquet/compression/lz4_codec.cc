// LZ4_RAW (one LZ4 block) and LZ4 (Hadoop's framing of LZ4 blocks).
//
// Hadoop framing is a sequence of [uncompressed size, compressed size] as
// 4-byte big-endian numbers, each followed by one LZ4 block. Old parquet-cpp
// wrote raw LZ4 blocks under the same codec number, and some writers LZ4
// frames, so reading tries the Hadoop framing first and falls back to the
// other two, as common readers do.
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>

#include <limits>

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

namespace {

uint32_t LoadBigEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 |
         static_cast<uint32_t>(p[2]) << 8 | p[3];
}

bool DecompressBlock(const uint8_t* in, int64_t in_size, uint8_t* out, int64_t out_size) {
  if (in_size > std::numeric_limits<int>::max() || out_size > std::numeric_limits<int>::max()) {
    return false;
  }
  const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in),
                                    reinterpret_cast<char*>(out), static_cast<int>(in_size),
                                    static_cast<int>(out_size));
  return n == out_size;
}

bool DecompressHadoop(const uint8_t* in, int64_t in_size, uint8_t* out, int64_t out_size) {
  int64_t pos = 0;
  int64_t produced = 0;
  while (in_size - pos >= 8) {
    const int64_t plain = LoadBigEndian32(in + pos);
    const int64_t packed = LoadBigEndian32(in + pos + 4);
    pos += 8;
    if (packed > in_size - pos || plain > out_size - produced) return false;
    if (!DecompressBlock(in + pos, packed, out + produced, plain)) return false;
    pos += packed;
    produced += plain;
  }
  return pos == in_size && produced == out_size;
}

bool DecompressFrame(const uint8_t* in, int64_t in_size, uint8_t* out, int64_t out_size) {
  if (in_size < 4 || LoadBigEndian32(in) != 0x04224D18) return false;  // magic 0x184D2204, LE
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
  size_t src = static_cast<size_t>(in_size);
  size_t dst = static_cast<size_t>(out_size);
  const size_t ret = LZ4F_decompress(ctx, out, &dst, in, &src, nullptr);
  LZ4F_freeDecompressionContext(ctx);
  return ret == 0 && src == static_cast<size_t>(in_size) && dst == static_cast<size_t>(out_size);
}

class Lz4Codec final : public Codec {
 public:
  Lz4Codec(bool hadoop, int level)
      : Codec(hadoop ? Compression::kLz4 : Compression::kLz4Raw), hadoop_(hadoop), level_(level) {}

  Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                    int64_t out_size) const override {
    if (!hadoop_) {
      if (DecompressBlock(in, in_size, out, out_size)) return Status::OK();
      return Status::Invalid("LZ4_RAW: corrupt data, or it does not decompress to the ", out_size,
                             " bytes the page header says");
    }
    if (DecompressHadoop(in, in_size, out, out_size) || DecompressBlock(in, in_size, out, out_size) ||
        DecompressFrame(in, in_size, out, out_size)) {
      return Status::OK();
    }
    return Status::Invalid("LZ4: the data is neither Hadoop-framed LZ4 nor a raw LZ4 block nor an "
                           "LZ4 frame of the ", out_size, " bytes the page header says");
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                           alkaid::BufferBuilder* out) const override {
    if (in_size > LZ4_MAX_INPUT_SIZE) {
      return Status::CapacityError("LZ4: cannot compress more than ", LZ4_MAX_INPUT_SIZE, " bytes");
    }
    ALKAID_RETURN_NOT_OK(out->Reserve(MaxCompressedSize(in_size)));
    uint8_t* dst = out->mutable_data() + out->size();
    const int header = hadoop_ ? 8 : 0;
    const int bound = LZ4_compressBound(static_cast<int>(in_size));
    const auto* src = reinterpret_cast<const char*>(in);
    auto* block = reinterpret_cast<char*>(dst + header);
    const int n = level_ >= LZ4HC_CLEVEL_MIN
                      ? LZ4_compress_HC(src, block, static_cast<int>(in_size), bound, level_)
                      : LZ4_compress_default(src, block, static_cast<int>(in_size), bound);
    if (n <= 0 && in_size > 0) return Status::UnknownError("LZ4: compression failed");
    if (hadoop_) {
      const uint32_t sizes[2] = {static_cast<uint32_t>(in_size), static_cast<uint32_t>(n)};
      for (int i = 0; i < 2; ++i) {
        for (int b = 0; b < 4; ++b) dst[4 * i + b] = static_cast<uint8_t>(sizes[i] >> (24 - 8 * b));
      }
    }
    out->UnsafeAdvance(header + n);
    return static_cast<int64_t>(header + n);
  }

  int64_t MaxCompressedSize(int64_t in_size) const override {
    return (hadoop_ ? 8 : 0) + in_size + in_size / 255 + 16;
  }

 private:
  bool hadoop_;
  int level_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeLz4Codec(bool hadoop_framing, int level) {
  // Levels below LZ4HC_CLEVEL_MIN use the fast compressor, the others LZ4 HC.
  if (level == kCodecDefaultLevel) level = 1;
  if (level < 1 || level > LZ4HC_CLEVEL_MAX) {
    return Status::Invalid("LZ4 compression level ", level, " is not in 1..", LZ4HC_CLEVEL_MAX);
  }
  return std::make_unique<Lz4Codec>(hadoop_framing, level);
}

}  // namespace alkaid::parquet::internal
