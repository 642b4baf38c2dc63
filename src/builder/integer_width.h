// Dictionary indices and run ends are collected as int64 while building and written at the
// type's declared width on Finish: the largest value that width holds, and the narrowing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visit_width.h"

namespace alkaid::builder_internal {

// Largest value of an integer type (capped at INT64_MAX).
inline Result<int64_t> IntegerMax(const DataType& type) {
  return VisitIndexType(type, [](auto zero) -> Result<int64_t> {
    using C = decltype(zero);
    return static_cast<int64_t>(
        std::min<uint64_t>(std::numeric_limits<C>::max(), std::numeric_limits<int64_t>::max()));
  });
}

// A buffer of `length` values of `type`'s width; the values were range-checked when appended.
inline Result<BufferPtr> NarrowIntegers(const uint8_t* int64_values, int64_t length,
                                        const DataType& type, MemoryPool* pool) {
  const auto* values = reinterpret_cast<const int64_t*>(int64_values);
  return VisitIndexType(type, [&](auto zero) -> Result<BufferPtr> {
    using C = decltype(zero);
    ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(length * static_cast<int64_t>(sizeof(C)), pool));
    C* dst = buffer->template mutable_data_as<C>();
    for (int64_t i = 0; i < length; ++i) dst[i] = static_cast<C>(values[i]);
    return BufferPtr(std::move(buffer));
  });
}

}  // namespace alkaid::builder_internal
