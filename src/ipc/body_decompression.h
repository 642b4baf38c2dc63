// Internal: decompression of the body buffers of one message as the IPC
// reader uses it, spread over the thread pool, each buffer also scanned for
// what full validation would read of it while its bytes are in cache.
// Not installed.
#pragma once

#include <cstdint>
#include <vector>

#include "alkaid/ipc/compression.h"
#include "../array/buffer_scan.h"

namespace alkaid::ipc::internal {

// DecompressBodyBuffers (same arguments, same results), which also runs
// alkaid::internal::ScanBuffer(scans[i], ...) over each buffer it decoded
// (not over raw or empty ones), on the thread that decoded it, right after.
// (*facts)[i] is what the scan found, 0 for buffers not scanned. `scans`
// has one entry per encoded buffer.
Status DecompressAndScanBodyBuffers(const Codec& codec, const std::vector<BufferPtr>& encoded,
                                    const std::vector<alkaid::internal::BufferScan>& scans,
                                    std::vector<BufferPtr>* out, std::vector<uint8_t>* facts,
                                    int64_t max_total_decompressed_size,
                                    const ParallelOptions& parallel, MemoryPool* pool,
                                    int64_t buffer_index_base);

}  // namespace alkaid::ipc::internal
