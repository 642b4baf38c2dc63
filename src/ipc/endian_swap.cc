// Byte-order conversion of loaded buffers (big-endian producers on a
// little-endian host, or the reverse). Only whole elements are rewritten: a
// trailing partial element is left for validation to reject.
#include "endian_swap.h"

#include <algorithm>
#include <cstring>

namespace alkaid::ipc::internal {

namespace {

template <typename UInt>
void SwapWords(uint8_t* data, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    UInt v;
    std::memcpy(&v, data + i * static_cast<int64_t>(sizeof(UInt)), sizeof(UInt));
    if constexpr (sizeof(UInt) == 2) v = __builtin_bswap16(v);
    if constexpr (sizeof(UInt) == 4) v = __builtin_bswap32(v);
    if constexpr (sizeof(UInt) == 8) v = __builtin_bswap64(v);
    std::memcpy(data + i * static_cast<int64_t>(sizeof(UInt)), &v, sizeof(UInt));
  }
}

void SwapGroups(uint8_t* data, int64_t size, int width) {
  int64_t count = size / width;
  switch (width) {
    case 2: return SwapWords<uint16_t>(data, count);
    case 4: return SwapWords<uint32_t>(data, count);
    case 8: return SwapWords<uint64_t>(data, count);
    default:
      // Wide integers (decimal128/256): reverse the whole group.
      for (int64_t i = 0; i < count; ++i) std::reverse(data + i * width, data + (i + 1) * width);
  }
}

void SwapMonthDayNano(uint8_t* data, int64_t size) {
  for (int64_t i = 0; i + 16 <= size; i += 16) {
    SwapWords<uint32_t>(data + i, 2);
    SwapWords<uint64_t>(data + i + 8, 1);
  }
}

void SwapViews(uint8_t* data, int64_t size) {
  for (int64_t i = 0; i + 16 <= size; i += 16) {
    uint8_t* view = data + i;
    SwapWords<uint32_t>(view, 1);
    int32_t length;
    std::memcpy(&length, view, 4);
    // Inline values keep their bytes; out-of-line ones have a raw 4-byte
    // prefix followed by two integers (buffer index, offset).
    if (length > BinaryViewValue::kInlineSize) SwapWords<uint32_t>(view + 8, 2);
  }
}

}  // namespace

// One case per swap kind of the layout table (BufferSpec::ByteSwap); which
// buffer gets which kind is stated by the types' layouts, not here.
void SwapBytesInPlace(uint8_t* data, int64_t size, ByteSwap swap) {
  switch (swap.kind) {
    case BufferSpec::kSwapNone:
      return;
    case BufferSpec::kSwapElement:
      if (swap.width > 1) SwapGroups(data, size, swap.width);
      return;
    case BufferSpec::kSwapInt32Pairs:
      return SwapGroups(data, size - size % (swap.width > 0 ? swap.width : 1), 4);
    case BufferSpec::kSwapMonthDayNano:
      return SwapMonthDayNano(data, size);
    case BufferSpec::kSwapViews:
      return SwapViews(data, size);
  }
}

}  // namespace alkaid::ipc::internal
