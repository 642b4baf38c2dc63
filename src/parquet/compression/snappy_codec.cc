// SNAPPY: the raw Snappy format (no framing), as every Parquet writer uses it.
#include <snappy.h>

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

namespace {

class SnappyCodec final : public Codec {
 public:
  SnappyCodec() : Codec(Compression::kSnappy) {}

  Status Decompress(const uint8_t* in, int64_t in_size, uint8_t* out,
                    int64_t out_size) const override {
    const auto* src = reinterpret_cast<const char*>(in);
    size_t length = 0;
    // The stated length comes first; checking it bounds the output before decoding.
    if (!snappy::GetUncompressedLength(src, static_cast<size_t>(in_size), &length)) {
      return Status::Invalid("SNAPPY: corrupt data (no valid length header)");
    }
    if (length != static_cast<uint64_t>(out_size)) {
      return SizeMismatch(compression_, out_size, static_cast<int64_t>(length));
    }
    if (!snappy::RawUncompress(src, static_cast<size_t>(in_size), reinterpret_cast<char*>(out))) {
      return Status::Invalid("SNAPPY: corrupt data");
    }
    return Status::OK();
  }

  Result<int64_t> Compress(const uint8_t* in, int64_t in_size,
                           alkaid::BufferBuilder* out) const override {
    ALKAID_RETURN_NOT_OK(out->Reserve(MaxCompressedSize(in_size)));
    size_t written = 0;
    snappy::RawCompress(reinterpret_cast<const char*>(in), static_cast<size_t>(in_size),
                        reinterpret_cast<char*>(out->mutable_data() + out->size()), &written);
    out->UnsafeAdvance(static_cast<int64_t>(written));
    return static_cast<int64_t>(written);
  }

  int64_t MaxCompressedSize(int64_t in_size) const override {
    return static_cast<int64_t>(snappy::MaxCompressedLength(static_cast<size_t>(in_size)));
  }
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeSnappyCodec() { return std::make_unique<SnappyCodec>(); }

}  // namespace alkaid::parquet::internal
