// Read options shared by the IPC fuzz targets.
#pragma once

#include <cstdint>

#include "alkaid/ipc/options.h"

// Default options except smaller memory bounds, so that inputs the reader
// legitimately accepts stay inside libFuzzer's -rss_limit_mb=1024 under ASan
// (whose quarantine and shadow memory add to the reader's own use).
inline alkaid::ipc::IpcReadOptions FuzzOptions() {
  alkaid::ipc::IpcReadOptions options;
  options.max_decompressed_message_bytes = int64_t{128} << 20;
  options.memory_budget = int64_t{384} << 20;
  return options;
}
