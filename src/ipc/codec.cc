// Compression type names and Codec::Create, which picks a codec
// (lz4_frame_codec.cc, zstd_codec.cc).
#include "alkaid/ipc/compression.h"

#include "stepped_codec.h"

namespace alkaid::ipc {

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
    case CompressionType::kLz4Frame: return internal::MakeLz4FrameCodec(level);
    case CompressionType::kZstd: return internal::MakeZstdCodec(level);
  }
  return Status::Invalid("unknown compression type ", static_cast<int>(type));
}

}  // namespace alkaid::ipc
