// libFuzzer target: arbitrary bytes through the CSV reader. The first byte
// picks the options (delimiter, header, quoting, ragged rows, threads, a
// small block size so records straddle blocks, a small max_columns); an
// accepted table is validated, written back as CSV and read again with its
// schema, and must come back equal.
#include <cstdint>
#include <string_view>

#include "alkaid/csv/api.h"
#include "fuzz_text_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  csv::ReadOptions options;
  options.delimiter = "\t,;|"[mode & 3];
  options.header = (mode & 4) == 0;
  if (mode & 8) options.quote = '\0';
  if (mode & 16) options.ragged_rows = csv::RaggedRows::kFillNull;
  if ((mode & 16) && (mode & 64)) {  // small blocks: an allowance they can spend
    options.missing_nulls_floor = 0;
    options.missing_nulls_per_byte = 2;
  }
  options.num_threads = (mode & 32) ? 2 : 1;
  options.block_size = (mode & 64) ? 37 : 4096;
  options.inference_rows = (mode & 128) ? 3 : 10000;
  if ((mode & 8) && (mode & 128)) options.max_columns = 4;  // a cap small inputs reach
  auto table = csv::ReadString(text, options);
  if (!table.ok()) return 0;
  CheckValid(**table);
  auto written = csv::WriteToString(**table);
  if (!written.ok()) return 0;  // e.g. a column type CSV cannot hold
  csv::ReadOptions again;
  again.schema = (*table)->schema();
  again.num_threads = options.num_threads;
  again.block_size = options.block_size;
  auto back = csv::ReadString(*written, again);
  if (!back.ok()) std::abort();
  CheckSame(**table, **back);
  return 0;
}
