// libFuzzer target: arbitrary bytes through StreamReader.
#include <cstdint>
#include <cstdlib>

#include "alkaid/ipc/reader.h"

namespace {

// Default options except smaller memory bounds, so that inputs the reader
// legitimately accepts stay inside libFuzzer's -rss_limit_mb=1024 under ASan.
alkaid::ipc::IpcReadOptions FuzzOptions() {
  alkaid::ipc::IpcReadOptions options;
  options.max_decompressed_message_bytes = int64_t{128} << 20;
  options.memory_budget = int64_t{384} << 20;
  return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  auto bytes = std::make_shared<Buffer>(data, static_cast<int64_t>(size));
  auto reader = ipc::StreamReader::Open(bytes, FuzzOptions());
  if (!reader.ok()) return 0;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || *batch == nullptr) break;
    // The reader validated the batch already; a failure here means it
    // handed out data it should have refused.
    if (!(*batch)->ValidateFull().ok()) std::abort();
  }
  return 0;
}
