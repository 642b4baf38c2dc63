/// @file
/// Dispatch on the integer type of run ends and dictionary indices: the one
/// place where such a type (or a byte width) is turned into a C++ integer
/// type. The callable receives a value-initialized integer of that type and
/// learns the type from it:
///
/// @code
///   Status st = VisitRunEndType(*ree.run_end_type(), [&](auto zero) -> Status {
///     using RunEnd = decltype(zero);  // int16_t, int32_t or int64_t
///     return Walk(ends->data_as<RunEnd>());
///   });
/// @endcode
///
/// Every overload returns what the callable returns, which must be
/// constructible from a Status (Status or Result<T>): an unsupported type or
/// width becomes a TypeError saying what was found, never undefined behaviour.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid {

/// The result type of a width visitor for callable `Fn`: what `fn(int32_t{})` returns.
template <typename Fn>
using WidthVisitResult = std::invoke_result_t<Fn, int32_t>;

/// Calls `fn(T{})` with T the signed integer type of `byte_width` bytes
/// (int8_t, int16_t, int32_t, int64_t) and returns its result; TypeError for
/// any other width. Use where only a width is known (offsets, raw buffers).
template <typename Fn>
WidthVisitResult<Fn> VisitSignedWidth(int byte_width, Fn&& fn) {
  static_assert(std::is_constructible_v<WidthVisitResult<Fn>, Status>,
                "the callable must return Status or Result<T>");
  switch (byte_width) {
    case 1: return std::forward<Fn>(fn)(int8_t{});
    case 2: return std::forward<Fn>(fn)(int16_t{});
    case 4: return std::forward<Fn>(fn)(int32_t{});
    case 8: return std::forward<Fn>(fn)(int64_t{});
    default: break;
  }
  return Status::TypeError("no signed integer type is ", byte_width,
                           " bytes wide (1, 2, 4 or 8 expected)");
}

/// Calls `fn(T{})` with T the C++ type of the run-end type `type`
/// (int16_t, int32_t or int64_t) and returns its result; TypeError naming
/// the type for anything else.
template <typename Fn>
WidthVisitResult<Fn> VisitRunEndType(const DataType& type, Fn&& fn) {
  static_assert(std::is_constructible_v<WidthVisitResult<Fn>, Status>,
                "the callable must return Status or Result<T>");
  switch (type.id()) {
    case TypeId::kInt16: return std::forward<Fn>(fn)(int16_t{});
    case TypeId::kInt32: return std::forward<Fn>(fn)(int32_t{});
    case TypeId::kInt64: return std::forward<Fn>(fn)(int64_t{});
    default: break;
  }
  return Status::TypeError("run end type must be int16, int32 or int64, got ", type.ToString());
}

/// Calls `fn(T{})` with T the C++ type of the dictionary index type `type`
/// (int8_t ... int64_t, uint8_t ... uint64_t) and returns its result;
/// TypeError naming the type for anything that is not an integer type.
template <typename Fn>
WidthVisitResult<Fn> VisitIndexType(const DataType& type, Fn&& fn) {
  static_assert(std::is_constructible_v<WidthVisitResult<Fn>, Status>,
                "the callable must return Status or Result<T>");
  switch (type.id()) {
    case TypeId::kInt8: return std::forward<Fn>(fn)(int8_t{});
    case TypeId::kInt16: return std::forward<Fn>(fn)(int16_t{});
    case TypeId::kInt32: return std::forward<Fn>(fn)(int32_t{});
    case TypeId::kInt64: return std::forward<Fn>(fn)(int64_t{});
    case TypeId::kUInt8: return std::forward<Fn>(fn)(uint8_t{});
    case TypeId::kUInt16: return std::forward<Fn>(fn)(uint16_t{});
    case TypeId::kUInt32: return std::forward<Fn>(fn)(uint32_t{});
    case TypeId::kUInt64: return std::forward<Fn>(fn)(uint64_t{});
    default: break;
  }
  return Status::TypeError("dictionary indices must be an integer type, got ", type.ToString());
}

}  // namespace alkaid
