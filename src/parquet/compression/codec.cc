// MakeCodec, the uncompressed page path and the errors shared by the codecs.
#include "codec.h"

#include "codecs_internal.h"

namespace alkaid::parquet::internal {

Status SizeMismatch(Compression compression, int64_t expected, int64_t actual) {
  return Status::Invalid(CompressionName(compression), " page data decompressed to ",
                         actual < 0 ? "more than" : "", actual < 0 ? expected : actual,
                         " bytes, but the page header says ", expected);
}

Result<std::unique_ptr<Codec>> MakeCodec(Compression compression, int level) {
  switch (compression) {
    case Compression::kUncompressed:
      return Status::Invalid("MakeCodec: UNCOMPRESSED has no codec (pass no codec instead)");
    case Compression::kSnappy:
      if (level != kCodecDefaultLevel) return Status::Invalid("SNAPPY has no compression levels");
      return MakeSnappyCodec();
    case Compression::kGzip: return MakeGzipCodec(level);
    case Compression::kBrotli: return MakeBrotliCodec(level);
    case Compression::kZstd: return MakeZstdCodec(level);
    case Compression::kLz4: return MakeLz4Codec(true, level);
    case Compression::kLz4Raw: return MakeLz4Codec(false, level);
    case Compression::kLzo: break;
  }
  return Status::NotImplemented("Parquet compression codec ", CompressionName(compression),
                                " is not supported");
}

bool IsCodecAvailable(Compression compression) {
  return compression != Compression::kLzo && CompressionFromWire(static_cast<int32_t>(compression));
}

Result<BufferPtr> DecompressPage(const Codec* codec, const BufferPtr& compressed,
                                 int64_t uncompressed_size, MemoryPool* pool) {
  if (uncompressed_size < 0) {
    return Status::Invalid("page header states a negative uncompressed size ", uncompressed_size);
  }
  if (codec == nullptr) {
    if (compressed->size() != uncompressed_size) {
      return Status::Invalid("uncompressed page has ", compressed->size(),
                             " bytes, but the page header says ", uncompressed_size);
    }
    return compressed;
  }
  auto out = std::make_shared<ResizableBuffer>(pool);
  // An empty page (v2 pages of nulls only) may have no compressed bytes at all.
  if (uncompressed_size == 0 && compressed->size() == 0) return BufferPtr(std::move(out));
  ALKAID_RETURN_NOT_OK(out->ResizeForOverwrite(uncompressed_size));
  ALKAID_RETURN_NOT_OK(codec->Decompress(compressed->data(), compressed->size(),
                                         out->mutable_data(), uncompressed_size));
  return BufferPtr(std::move(out));
}

}  // namespace alkaid::parquet::internal
