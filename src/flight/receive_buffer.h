// Memory for received message bodies that arrive in pieces and must be copied into one aligned
// buffer. Large blocks are kept for reuse once the batches using them are gone: a fresh block of
// a few megabytes costs a page fault per 4 KiB page on first touch (the allocator hands freed
// large blocks back to the kernel), which made the copy, not the network, the limit of a stream.
#pragma once

#include <cstdint>

#include "alkaid/memory.h"
#include "alkaid/visibility.h"

namespace alkaid::flight::wire {

/// Blocks of at least this many bytes are kept for reuse; smaller ones come from the default
/// pool each time (the allocator recycles those itself).
inline constexpr int64_t kReusedBlockMin = int64_t{256} << 10;
/// Blocks over this size are returned to the system at once, never kept.
inline constexpr int64_t kReusedBlockMax = int64_t{16} << 20;
/// At most this many bytes of free blocks are kept, process-wide (the oldest go first).
inline constexpr int64_t kReusedBytesMax = int64_t{32} << 20;

/// A buffer of `size` bytes whose contents are unspecified, 64-byte aligned, the padding up to
/// the next multiple of 64 zeroed; `*data` is where the caller writes all `size` bytes before
/// handing the buffer on. Safe from any thread; the buffer may outlive everything else.
ALKAID_EXPORT Result<BufferPtr> AllocateReceiveBuffer(int64_t size, uint8_t** data);

/// What the block cache holds and has done since the process started (for tests and benchmarks).
struct ReceiveBlockStats {
  int64_t cached_bytes = 0;
  int64_t reused = 0;
  int64_t allocated = 0;
};
ALKAID_EXPORT ReceiveBlockStats GetReceiveBlockStats();

}  // namespace alkaid::flight::wire
