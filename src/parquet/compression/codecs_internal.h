// The factory of each codec family, one per source file of this folder, for
// codec.cc's MakeCodec. Internal to the compression folder.
#pragma once

#include <memory>

#include "codec.h"

namespace alkaid::parquet::internal {

Result<std::unique_ptr<Codec>> MakeSnappyCodec();
Result<std::unique_ptr<Codec>> MakeGzipCodec(int level);
Result<std::unique_ptr<Codec>> MakeBrotliCodec(int level);
Result<std::unique_ptr<Codec>> MakeZstdCodec(int level);
// `hadoop_framing`: kLz4 (Hadoop blocks, falling back to a raw block for old
// files) when true, kLz4Raw when false.
Result<std::unique_ptr<Codec>> MakeLz4Codec(bool hadoop_framing, int level);

// The error of data that decompressed to a different size than the page header says.
Status SizeMismatch(Compression compression, int64_t expected, int64_t actual);

}  // namespace alkaid::parquet::internal
