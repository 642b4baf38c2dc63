// libFuzzer target: arbitrary bytes through the JSON Lines reader. The first
// byte picks threads, a small block size, the inference sample, the depth,
// unexpected keys, a small allowance of nulls for left-out keys, a small
// max_columns and whether dates and timestamps are inferred; the text read
// without the line scanner (the reader's first tier) must give the same table
// or the same error; an accepted table is validated, written back as JSON
// Lines and read again with its schema, and must come back equal.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "alkaid/jsonl/api.h"
#include "fuzz_text_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  jsonl::ReadOptions options;
  options.num_threads = (mode & 1) ? 2 : 1;
  options.block_size = (mode & 2) ? 41 : 4096;
  options.inference_rows = (mode & 4) ? 2 : 10000;
  if ((mode & 4) && (mode & 32)) options.max_columns = 6;  // a cap small inputs reach
  options.max_depth = (mode & 8) ? 4 : 64;
  if (mode & 16) options.unexpected_fields = jsonl::UnexpectedFields::kIgnore;
  if (mode & 64) options.infer_temporal = false;
  if (mode & 32) {  // an allowance small inputs can spend
    options.missing_nulls_floor = 0;
    options.missing_nulls_per_byte = 1;
  }
  auto table = jsonl::ReadString(text, options);
  ::setenv("ALKAID_JSONL_SCANNER", "0", 1);
  auto plain = jsonl::ReadString(text, options);
  ::unsetenv("ALKAID_JSONL_SCANNER");
  if (table.ok() != plain.ok()) std::abort();
  if (!table.ok()) {
    if (table.status().message() != plain.status().message()) std::abort();
    return 0;
  }
  CheckSame(**plain, **table);
  CheckValid(**table);
  auto written = jsonl::WriteToString(**table);
  if (!written.ok()) std::abort();  // the writer takes every type
  jsonl::ReadOptions again;
  again.schema = (*table)->schema();
  again.num_threads = options.num_threads;
  again.block_size = options.block_size;
  again.max_depth = options.max_depth;
  auto back = jsonl::ReadString(*written, again);
  if (!back.ok()) std::abort();
  CheckSame(**table, **back);
  return 0;
}
