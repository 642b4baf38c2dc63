// Names of the Parquet enumerations kept as tables indexed by wire number, so that one table
// answers both "what is this value called" and "is this number a value". Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace alkaid::parquet::internal {

/// names[value], or nullptr when `value` is outside the table or has no name (unassigned).
template <size_t N>
const char* NameAt(const char* const (&names)[N], int32_t value) {
  return value >= 0 && static_cast<size_t>(value) < N ? names[value] : nullptr;
}

/// The name of `value`, or `unknown` when the table has none for it.
template <typename Enum, size_t N>
const char* EnumName(const char* const (&names)[N], Enum value, const char* unknown) {
  const char* name = NameAt(names, static_cast<int32_t>(value));
  return name != nullptr ? name : unknown;
}

/// The enumerator with wire number `value`, or nullopt when the table names none.
template <typename Enum, size_t N>
std::optional<Enum> EnumFromWire(const char* const (&names)[N], int32_t value) {
  if (NameAt(names, value) == nullptr) return std::nullopt;
  return static_cast<Enum>(value);
}

}  // namespace alkaid::parquet::internal
