// libFuzzer target: arbitrary bytes through every Parquet value decoder, the
// level decoder and every codec's decompression. The first byte picks which
// (see src/parquet/encoding/fuzz_decoders.h for the input layout).
#include <cstddef>
#include <cstdint>

#include "src/parquet/encoding/fuzz_decoders.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  alkaid::parquet::internal::FuzzDecodersOnce(data, size);
  return 0;
}
