/// @file
/// DictionaryBuilder: dictionary-encoded arrays built from values, with the
/// dictionary deduplicated as it grows.
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// dictionary<values: V, indices: I>. Append(value) looks the value up in a
/// memo table keyed by its bytes, adds it to the dictionary when new, and
/// appends its index. Works for every value type whose builder accepts
/// AppendValueBytes (fixed-width and binary-like). For other value types
/// append the dictionary values to value_builder() yourself and use
/// AppendIndex. Finish puts the dictionary in ArrayData::dictionary.
/// Indices are kept as int64 while building and narrowed to the index type at
/// Finish; a dictionary that outgrows the index type is a CapacityError.
class ALKAID_EXPORT DictionaryBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a dictionary type with an integer index type) that
  /// owns `value_builder`, which must build the value type.
  DictionaryBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                    MemoryPool* pool = default_memory_pool());

  /// The dictionary type being built.
  const DictionaryType& dictionary_type() const { return checked_cast<DictionaryType>(*type_); }
  /// Builder of the dictionary values (not of the indices).
  ArrayBuilder* value_builder() const { return children_[0].get(); }
  /// Distinct values in the dictionary so far.
  int64_t dictionary_length() const { return value_builder()->length(); }

  /// The value as raw bytes (see ArrayBuilder::AppendValueBytes); returns its index.
  /// TypeError from the value builder when it does not take raw bytes;
  /// CapacityError when a new value's index would not fit the index type.
  Result<int64_t> AppendBytes(std::string_view value_bytes);
  /// A binary or string value; returns its dictionary index.
  Result<int64_t> Append(std::string_view value) { return AppendBytes(value); }
  /// A NUL-terminated string value; returns its dictionary index.
  Result<int64_t> Append(const char* value) { return AppendBytes(value); }
  /// Scalars of the value type's C type (int32_t for int32, double, ...).
  /// Returns the dictionary index. The C type must match the value type
  /// exactly: its size decides the bytes, so an int for an int64 dictionary
  /// is an Invalid status from the value builder.
  template <typename V>
    requires(std::is_arithmetic_v<V> || std::is_same_v<V, DayTimeInterval> ||
             std::is_same_v<V, MonthDayNanoInterval>)
  Result<int64_t> Append(V value) {
    if constexpr (std::is_same_v<V, bool>) {
      char byte = value ? 1 : 0;
      return AppendBytes(std::string_view(&byte, 1));
    } else {
      return AppendBytes(std::string_view(reinterpret_cast<const char*>(&value), sizeof(V)));
    }
  }
  /// A raw index into the dictionary built so far (checked against its length).
  /// IndexError outside [0, dictionary_length()); CapacityError when the index
  /// type cannot hold it.
  Status AppendIndex(int64_t index);
  /// Appends `n` null slots (index 0 under each).
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots pointing at one new dictionary entry holding the value
  /// type's empty value. Each call adds an entry (no deduplication);
  /// CapacityError when the index type has no index left.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status UnsafeAppendIndex(int64_t index) {
    std::memcpy(indices_.mutable_data() + length_ * sizeof(int64_t), &index, sizeof(index));
    UnsafeAppendValid();
    return Status::OK();
  }

  // Hash and equality over bytes that take std::string and std::string_view
  // alike, so a lookup allocates nothing.
  struct BytesHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct BytesEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
  };

  int64_t max_index_;
  BufferBuilder indices_;  // int64 until Finish narrows them
  std::unordered_map<std::string, int64_t, BytesHash, BytesEqual> memo_;
};

}  // namespace alkaid
