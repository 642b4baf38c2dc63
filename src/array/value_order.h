// Internal: whether a run of integers never decreases (or, strictly, always
// increases), checked without a branch per value so that compilers vectorize
// it, with an AVX2 copy for long runs. Used by the offsets checks of
// validation and by the IPC reader's buffer scan. Not installed.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../util/cpu_features.h"

namespace alkaid::internal {

// Buffers from files need not be aligned for their value type, so values are
// always loaded through memcpy (a plain load once compiled).
template <typename T>
inline T LoadAt(const uint8_t* base, int64_t index) {
  T value;
  std::memcpy(&value, base + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return value;
}

// Whether values[i] < values[i - 1] (<= when kStrict) for some i in [1, count).
// The flag is an integer as wide as the values because compilers vectorize
// OR-reductions of that shape but not reductions into a bool.
template <typename T, bool kStrict>
__attribute__((always_inline)) inline bool AnyOutOfOrderLoop(const uint8_t* values,
                                                             int64_t count) {
  using U = std::make_unsigned_t<T>;
  U bad = 0;
  for (int64_t i = 1; i < count; ++i) {
    const T prev = LoadAt<T>(values, i - 1);
    const T cur = LoadAt<T>(values, i);
    bad |= static_cast<U>(kStrict ? cur <= prev : cur < prev);
  }
  return bad != 0;
}

#if defined(__x86_64__)
// The same loop compiled for AVX2: twice the values per compare, and a
// 64-bit compare (SSE2 has none, so 64-bit offsets otherwise go one by one).
template <typename T, bool kStrict>
__attribute__((target("avx2"))) bool AnyOutOfOrderAvx2(const uint8_t* values, int64_t count) {
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}
#endif

// Below this the AVX2 copy's set-up costs more than it saves.
constexpr int64_t kWideOrderCheckMin = 64;

// Long runs of values, out of line so that the short ones (small batches)
// pay one compare for it.
template <typename T, bool kStrict>
__attribute__((noinline)) bool AnyOutOfOrderLong(const uint8_t* values, int64_t count) {
#if defined(__x86_64__)
  if (CpuHasAvx2()) return AnyOutOfOrderAvx2<T, kStrict>(values, count);
#endif
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}

template <typename T, bool kStrict>
inline bool AnyOutOfOrder(const uint8_t* values, int64_t count) {
  if (count >= kWideOrderCheckMin) return AnyOutOfOrderLong<T, kStrict>(values, count);
  return AnyOutOfOrderLoop<T, kStrict>(values, count);
}

}  // namespace alkaid::internal
