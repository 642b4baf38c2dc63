// Internal: byte-order conversion of loaded IPC buffers (big-endian
// producers on a little-endian host, or the reverse). Not installed.
#pragma once

#include <cstdint>

#include "alkaid/type.h"

namespace alkaid::ipc::internal {

// How a buffer's bytes are reordered when the data is big-endian: the swap
// kind its layout states (BufferSpec::swap) for elements of `width` bytes.
struct ByteSwap {
  BufferSpec::ByteSwap kind = BufferSpec::kSwapNone;
  int width = 0;
};

// Rewrites `size` bytes of `data` from non-native to native byte order. Only
// whole elements are rewritten: a trailing partial element is left for
// validation to reject.
void SwapBytesInPlace(uint8_t* data, int64_t size, ByteSwap swap);

}  // namespace alkaid::ipc::internal
