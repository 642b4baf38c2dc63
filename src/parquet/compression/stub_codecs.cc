// Placeholders until each codec family has its own file.
#include "codecs_internal.h"

namespace alkaid::parquet::internal {

Result<std::unique_ptr<Codec>> MakeSnappyCodec() { return Status::NotImplemented("SNAPPY"); }
Result<std::unique_ptr<Codec>> MakeGzipCodec(int) { return Status::NotImplemented("GZIP"); }
Result<std::unique_ptr<Codec>> MakeBrotliCodec(int) { return Status::NotImplemented("BROTLI"); }
Result<std::unique_ptr<Codec>> MakeZstdCodec(int) { return Status::NotImplemented("ZSTD"); }
Result<std::unique_ptr<Codec>> MakeLz4Codec(bool, int) { return Status::NotImplemented("LZ4"); }

}  // namespace alkaid::parquet::internal
