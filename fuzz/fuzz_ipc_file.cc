// libFuzzer target: arbitrary bytes through FileReader: each batch by
// index, then ReadAll through the threaded batch pipeline, which must give
// the same batches when every one of them reads.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/ipc/reader.h"
#include "fuzz_options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  auto bytes = std::make_shared<Buffer>(data, static_cast<int64_t>(size));
  auto reader = ipc::FileReader::Open(bytes, FuzzOptions());
  if (!reader.ok()) return 0;
  std::vector<RecordBatchPtr> batches;
  bool all = true;
  for (int i = 0; i < (*reader)->num_record_batches(); ++i) {
    auto batch = (*reader)->ReadRecordBatch(i);
    if (!batch.ok()) {
      all = false;
      continue;
    }
    if (!(*batch)->ValidateFull().ok()) std::abort();
    batches.push_back(std::move(*batch));
  }
  ipc::IpcReadOptions options = FuzzOptions();
  options.use_threads = true;
  options.num_threads = 2;
  auto threaded = ipc::FileReader::Open(bytes, options);
  if (!threaded.ok()) std::abort();  // the same bytes opened a moment ago
  auto piped = (*threaded)->ReadAll();
  if (piped.ok() != all) std::abort();
  if (!all) return 0;
  if (piped->size() != batches.size()) std::abort();
  const auto same = EqualOptions::Defaults().with_nans_equal();
  for (size_t i = 0; i < batches.size(); ++i) {
    if (!batches[i]->Equals(*(*piped)[i], same)) std::abort();
  }
  return 0;
}
