// libFuzzer target: arbitrary bytes through StreamDecoder, fed in pieces
// whose sizes come from the input itself.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "alkaid/ipc/reader.h"
#include "fuzz_options.h"

namespace {

struct Validating : alkaid::ipc::StreamDecoder::Listener {
  alkaid::Status OnRecordBatch(alkaid::RecordBatchPtr batch) override {
    if (!batch->ValidateFull().ok()) std::abort();
    return alkaid::Status::OK();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  if (size == 0) return 0;
  // The first byte picks the chunk size (1..256) so that every framing
  // boundary gets split in many ways.
  const int64_t chunk = static_cast<int64_t>(data[0]) + 1;
  ++data;
  --size;
  ipc::StreamDecoder decoder(std::make_shared<Validating>(), FuzzOptions());
  for (size_t pos = 0; pos < size;) {
    int64_t n = std::min<int64_t>(chunk, static_cast<int64_t>(size - pos));
    if (!decoder.Consume(data + pos, n).ok()) break;
    pos += static_cast<size_t>(n);
  }
  return 0;
}
