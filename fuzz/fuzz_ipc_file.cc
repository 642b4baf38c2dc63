// libFuzzer target: arbitrary bytes through FileReader.
#include <cstdint>
#include <cstdlib>

#include "alkaid/ipc/reader.h"
#include "fuzz_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  auto bytes = std::make_shared<Buffer>(data, static_cast<int64_t>(size));
  auto reader = ipc::FileReader::Open(bytes, FuzzOptions());
  if (!reader.ok()) return 0;
  for (int i = 0; i < (*reader)->num_record_batches(); ++i) {
    auto batch = (*reader)->ReadRecordBatch(i);
    if (!batch.ok()) continue;
    if (!(*batch)->ValidateFull().ok()) std::abort();
  }
  return 0;
}
