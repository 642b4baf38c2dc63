// libFuzzer target: arbitrary bytes through StreamReader.
#include <cstdint>
#include <cstdlib>

#include "alkaid/ipc/reader.h"
#include "fuzz_options.h"

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
