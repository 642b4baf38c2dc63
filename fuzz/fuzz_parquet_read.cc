// libFuzzer target: arbitrary bytes as a Parquet file through FileReader. Byte 0 picks the
// reader options (dictionary arrays, string layout, ARROW:schema restoration, batch size);
// the rest is the file. The footer view is walked (statistics formatted as text), the whole
// table is read on one thread and fully validated, then read again as record batches with two
// threads: when the first read succeeds, the second must give the same rows.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "alkaid/compare.h"
#include "alkaid/parquet/reader.h"

namespace {

using namespace alkaid;

// Small enough that a file the reader accepts stays inside -rss_limit_mb=1024 under ASan
// with both reads' tables alive at once.
constexpr int64_t kBudget = int64_t{160} << 20;

parquet::ReaderOptions OptionsFor(uint8_t choice) {
  parquet::ReaderOptions options;
  options.memory_budget = kBudget;
  options.binary_type = static_cast<parquet::BinaryReadType>((choice >> 1) % 3);
  options.use_arrow_schema = (choice & 0x08) == 0;
  options.verify_checksums = (choice & 0x10) == 0;
  options.batch_size = 1 + (choice >> 5) * 97;
  return options;
}

void WalkMetadata(const parquet::FileMetaData& metadata) {
  std::string sink;
  for (int g = 0; g < metadata.num_row_groups(); ++g) {
    const auto row_group = metadata.row_group(g);
    for (int c = 0; c < row_group.num_columns(); ++c) {
      const auto chunk = row_group.column(c);
      sink += chunk.path();
      (void)chunk.encodings();
      (void)chunk.encoding_stats();
      if (!chunk.has_statistics()) continue;
      const parquet::Statistics stats = chunk.statistics();
      if (stats.has_min_max()) {
        sink += parquet::FormatStatisticsValue(chunk.descriptor(), *stats.min);
        sink += parquet::FormatStatisticsValue(chunk.descriptor(), *stats.max);
      }
    }
    sink.clear();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t choice = data[0];
  auto bytes = std::make_shared<Buffer>(data + 1, static_cast<int64_t>(size - 1));
  parquet::ReaderOptions options = OptionsFor(choice);
  auto reader = parquet::FileReader::Open(bytes, options);
  if (!reader.ok()) return 0;
  WalkMetadata((*reader)->metadata());
  if (choice & 0x01) {
    // Every top-level field as dictionary arrays (the reader ignores non-binary columns).
    for (const auto& field : (*reader)->schema()->fields()) {
      options.read_dictionary.push_back(field->name());
    }
    reader = parquet::FileReader::Open(bytes, options);
    if (!reader.ok()) return 0;
  }
  auto table = (*reader)->ReadTable();
  if (table.ok() && !(*table)->ValidateFull().ok()) std::abort();

  options.num_threads = 2;
  auto threaded = parquet::FileReader::Open(bytes, options);
  if (!threaded.ok()) std::abort();  // the same bytes opened a moment ago
  auto batches = (*threaded)->GetRecordBatchReader();
  if (!batches.ok()) {
    if (table.ok()) std::abort();
    return 0;
  }
  auto streamed = (*batches)->ToTable();
  // The batch reader charges its budget per row group, so it may accept what the
  // whole-table read refused, never the reverse.
  if (!table.ok()) return 0;
  if (!streamed.ok()) std::abort();
  if (!(*table)->Equals(**streamed, EqualOptions::Defaults().with_nans_equal())) std::abort();
  return 0;
}
