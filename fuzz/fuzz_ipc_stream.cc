// libFuzzer target: arbitrary bytes through StreamReader, read once on the
// caller's thread and once through the threaded batch pipeline; both reads
// must hand out the same batches and stop at the same place.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/ipc/reader.h"
#include "fuzz_options.h"

namespace {

struct Outcome {
  bool opened = false;
  std::vector<alkaid::RecordBatchPtr> batches;
  bool failed = false;  // a batch was refused (not the end of the stream)
};

Outcome ReadAll(const alkaid::BufferPtr& bytes, bool threads) {
  using namespace alkaid;
  Outcome out;
  ipc::IpcReadOptions options = FuzzOptions();
  options.use_threads = threads;
  options.num_threads = 2;
  auto reader = ipc::StreamReader::Open(bytes, options);
  if (!reader.ok()) return out;
  out.opened = true;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      out.failed = true;
      break;
    }
    if (*batch == nullptr) break;
    // The reader validated the batch already; a failure here means it
    // handed out data it should have refused.
    if (!(*batch)->ValidateFull().ok()) std::abort();
    out.batches.push_back(std::move(*batch));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  auto bytes = std::make_shared<Buffer>(data, static_cast<int64_t>(size));
  Outcome serial = ReadAll(bytes, false);
  if (!serial.opened) return 0;
  Outcome piped = ReadAll(bytes, true);
  if (!piped.opened || piped.failed != serial.failed ||
      piped.batches.size() != serial.batches.size()) {
    std::abort();
  }
  const auto same = EqualOptions::Defaults().with_nans_equal();
  for (size_t i = 0; i < serial.batches.size(); ++i) {
    if (!serial.batches[i]->Equals(*piped.batches[i], same)) std::abort();
  }
  return 0;
}
