// libFuzzer target: the Parquet writer's round trip. The bytes pick columns of any writable
// Arrow type, the writer's settings and random data (layout in
// src/parquet/writer/fuzz_roundtrip.h); the batch written and read back must be equal, and
// a difference aborts with what differed.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "src/parquet/writer/fuzz_roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string difference = alkaid::parquet::testing::RoundTripOnce(data, size);
  if (!difference.empty()) {
    std::fprintf(stderr, "Parquet round trip differs: %s\n", difference.c_str());
    std::abort();
  }
  return 0;
}
