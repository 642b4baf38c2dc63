/// @file
/// Builders of byte-string types: fixed_size_binary, binary and utf8 (32- and
/// 64-bit offsets), and binary_view / utf8_view. Decimals, which share the
/// fixed-size layout, are in alkaid/builder/decimal.h.
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// The AppendValues overloads of the binary-like builders (binary, utf8, their
/// large forms and the views), written once: a builder class Derived inherits
/// them by deriving from StringValuesAppender<Derived> and providing
///
///     template <typename S, typename IsValid>
///     Status AppendStrings(const S* values, int64_t n, IsValid is_valid);
///
/// for S = std::string and std::string_view, where is_valid(i) tells whether
/// slot i is valid. Each overload is one call per batch (no virtual call per
/// value), so the builder can reserve slots and bytes once.
/// @tparam Derived The builder class (BaseBinaryBuilder<T>, BinaryViewBuilder).
template <typename Derived>
class StringValuesAppender {
 public:
  /// Appends `values`; valid_bytes[i] == 0 marks slot i null, nullptr means all valid.
  Status AppendValues(const std::vector<std::string>& values, const uint8_t* valid_bytes = nullptr) {
    return self()->AppendStrings(values.data(), Size(values), ValidBytes{valid_bytes});
  }
  /// Appends `values` (copied); valid_bytes[i] == 0 marks slot i null, nullptr means all valid.
  Status AppendValues(const std::vector<std::string_view>& values,
                      const uint8_t* valid_bytes = nullptr) {
    return self()->AppendStrings(values.data(), Size(values), ValidBytes{valid_bytes});
  }
  /// Appends `values`; is_valid[i] == false marks slot i null. Invalid (and
  /// nothing appended) unless the sizes match.
  Status AppendValues(const std::vector<std::string>& values, const std::vector<bool>& is_valid) {
    ALKAID_RETURN_NOT_OK(ArrayBuilder::CheckValidityLength(values.size(), is_valid.size()));
    return self()->AppendStrings(values.data(), Size(values), ValidVector{is_valid});
  }
  /// Appends `values` (copied); is_valid[i] == false marks slot i null.
  /// Invalid (and nothing appended) unless the sizes match.
  Status AppendValues(const std::vector<std::string_view>& values,
                      const std::vector<bool>& is_valid) {
    ALKAID_RETURN_NOT_OK(ArrayBuilder::CheckValidityLength(values.size(), is_valid.size()));
    return self()->AppendStrings(values.data(), Size(values), ValidVector{is_valid});
  }
  /// A braced list of literals, all valid: AppendValues({"a", "b"}).
  Status AppendValues(std::initializer_list<std::string_view> values) {
    return self()->AppendStrings(values.begin(), static_cast<int64_t>(values.size()),
                                 ValidBytes{nullptr});
  }

 private:
  struct ValidBytes {
    const uint8_t* bytes;
    bool operator()(int64_t i) const { return bytes == nullptr || bytes[i] != 0; }
  };
  struct ValidVector {
    const std::vector<bool>& bits;
    bool operator()(int64_t i) const { return bits[static_cast<size_t>(i)]; }
  };
  template <typename V>
  static int64_t Size(const V& values) {
    return static_cast<int64_t>(values.size());
  }
  Derived* self() { return static_cast<Derived*>(this); }
};

/// fixed_size_binary[w]; also the base of the decimal builder.
class ALKAID_EXPORT FixedSizeBinaryBuilder : public ArrayBuilder {
 public:
  /// A builder of `type`, which must be fixed_size_binary or a decimal type.
  FixedSizeBinaryBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Bytes per value, from the type.
  int32_t byte_width() const { return width_; }
  /// Fails with Invalid unless value.size() == byte_width().
  Status Append(std::string_view value) {
    if (static_cast<int64_t>(value.size()) != width_) return WrongWidth(value.size());
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    UnsafeAppend(reinterpret_cast<const uint8_t*>(value.data()));
    return Status::OK();
  }
  /// An empty optional appends a null; a value must be byte_width() bytes.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Appends byte_width() bytes from `value`.
  /// No checks: capacity() must exceed length() (see Reserve()).
  void UnsafeAppend(const uint8_t* value) {
    std::memcpy(values_.mutable_data() + length_ * width_, value, static_cast<size_t>(width_));
    UnsafeAppendValid();
  }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  /// Same as Append(bytes): exactly byte_width() bytes.
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;
  /// The Invalid status for a value of `got` bytes, naming the slot.
  Status WrongWidth(size_t got) const;

  int32_t width_;  ///< Bytes per value (byte_width()).
  BufferBuilder values_;  ///< The values, back to back.
};

/// Builder of variable-length binary and UTF-8 string arrays: binary, utf8,
/// large_binary, large_utf8. Values are copied into one data buffer; the
/// builder does not check UTF-8 (ValidateFull() does). The AppendValues
/// overloads for vectors and braced lists of strings come from
/// StringValuesAppender and reserve slots and bytes once.
/// @tparam T BinaryType, StringType, LargeBinaryType or LargeStringType.
template <typename T>
class BaseBinaryBuilder final : public ArrayBuilder,
                                public StringValuesAppender<BaseBinaryBuilder<T>> {
 public:
  using StringValuesAppender<BaseBinaryBuilder<T>>::AppendValues;
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for the large types.
  /// Most value bytes the offsets can address.
  static constexpr int64_t kMaxDataSize = std::numeric_limits<offset_type>::max();

  /// A builder of `type`, which must be T.
  BaseBinaryBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool), data_(pool) {}
  /// A builder of T's singleton type (binary(), utf8(), ...).
  explicit BaseBinaryBuilder(MemoryPool* pool = default_memory_pool())
      : BaseBinaryBuilder(std::make_shared<T>(), pool) {}

  /// Appends one non-null value (copied); CapacityError when the data would
  /// exceed kMaxDataSize bytes.
  Status Append(std::string_view value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(ReserveData(static_cast<int64_t>(value.size())));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// Appends the `n` bytes at `value` as one non-null value.
  Status Append(const uint8_t* value, int64_t n) {
    return Append(std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(n)));
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Slot and data capacity must have been reserved.
  /// Appends one non-null value without growing anything (see Reserve() and ReserveData()).
  void UnsafeAppend(std::string_view value) {
    WriteOffset();
    data_.UnsafeAppend(value.data(), static_cast<int64_t>(value.size()));
    UnsafeAppendValid();
  }
  /// Makes room for `additional` value bytes; CapacityError if the offsets
  /// could no longer address them.
  Status ReserveData(int64_t additional) {
    if (data_.size() + additional > kMaxDataSize) return DataOverflow(additional);
    return data_.Reserve(additional);
  }
  /// Appends `n` null slots (empty values under them).
  Status AppendNulls(int64_t n) override { return AppendEmptySlots(n, false); }
  /// Appends `n` empty strings.
  Status AppendEmptyValues(int64_t n) override { return AppendEmptySlots(n, true); }
  /// Same as Append(bytes).
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  /// Value bytes appended so far (the offset the next value starts at).
  int64_t value_data_length() const { return data_.size(); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
    data_.Reset();
  }
  /// Used by the AppendValues overloads: n values, slot i null unless
  /// is_valid(i). Slots and value bytes are reserved once.
  template <typename S, typename IsValid>
  Status AppendStrings(const S* values, int64_t n, IsValid is_valid) {
    int64_t bytes = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (is_valid(i)) bytes += static_cast<int64_t>(std::string_view(values[i]).size());
    }
    ALKAID_RETURN_NOT_OK(Reserve(n));
    ALKAID_RETURN_NOT_OK(ReserveData(bytes));
    for (int64_t i = 0; i < n; ++i) {
      if (is_valid(i)) {
        UnsafeAppend(std::string_view(values[i]));
      } else {
        WriteOffset();
        ALKAID_RETURN_NOT_OK(AppendNullBits(1));
      }
    }
    return Status::OK();
  }

 protected:
  Status Resize(int64_t capacity) override {
    // One more offset than slots: the end of the last value.
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(offset_type)));
    WriteOffsetAt(length_);
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets,
                           offsets_.FinishWithSize((length_ + 1) * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr data, data_.Finish());
    out->buffers = {std::move(validity), std::move(offsets), std::move(data)};
    return Status::OK();
  }

 private:
  // n slots of zero bytes each, valid or null.
  Status AppendEmptySlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) WriteOffsetAt(length_ + i);
    return AppendValidity(n, valid);
  }
  void WriteOffset() { WriteOffsetAt(length_); }
  void WriteOffsetAt(int64_t slot) {
    auto offset = static_cast<offset_type>(data_.size());
    std::memcpy(offsets_.mutable_data() + slot * sizeof(offset_type), &offset, sizeof(offset));
  }
  Status DataOverflow(int64_t additional) const {
    return Status::CapacityError(type_->ToString(), " builder: appending ", additional,
                                 " bytes to ", data_.size(), " would exceed the largest offset ",
                                 kMaxDataSize);
  }

  BufferBuilder offsets_;
  BufferBuilder data_;
};

/// Builder of binary values with 32-bit offsets (at most 2 GiB of data per array).
using BinaryBuilder = BaseBinaryBuilder<BinaryType>;
/// Builder of UTF-8 strings with 32-bit offsets (at most 2 GiB of data per array).
using StringBuilder = BaseBinaryBuilder<StringType>;
/// Builder of binary values with 64-bit offsets.
using LargeBinaryBuilder = BaseBinaryBuilder<LargeBinaryType>;
/// Builder of UTF-8 strings with 64-bit offsets.
using LargeStringBuilder = BaseBinaryBuilder<LargeStringType>;

/// binary_view and utf8_view. Values of up to 12 bytes live inside their view;
/// longer ones are copied into data blocks that start at 32 KiB and double
/// (up to 2 MiB) each time a block fills up.
/// The type decides binary_view or utf8_view; UTF-8 is not checked. Finish
/// hands the data blocks out without copying (a block's unused capacity stays
/// allocated with it).
class ALKAID_EXPORT BinaryViewBuilder final : public ArrayBuilder,
                                public StringValuesAppender<BinaryViewBuilder> {
 public:
  using StringValuesAppender<BinaryViewBuilder>::AppendValues;
  static constexpr int64_t kInitialBlockSize = 32 * 1024;  ///< Bytes of the first data block.
  /// Bytes beyond which blocks stop doubling (a longer value gets a block of its own size).
  static constexpr int64_t kMaxBlockSize = 2 * 1024 * 1024;

  /// A builder of `type`, which must be binary_view or utf8_view.
  BinaryViewBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Appends one non-null value (copied: into the view when short, else into
  /// the current data block); CapacityError for a value over 2^31 - 1 bytes.
  Status Append(std::string_view value) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    BinaryViewValue view;
    if (static_cast<int64_t>(value.size()) <= BinaryViewValue::kInlineSize) {
      std::memset(&view, 0, sizeof(view));
      view.inlined.size = static_cast<int32_t>(value.size());
      if (!value.empty()) std::memcpy(view.inlined.data, value.data(), value.size());
    } else {
      ALKAID_RETURN_NOT_OK(StoreOutOfLine(value, &view));
    }
    std::memcpy(views_.mutable_data() + length_ * sizeof(BinaryViewValue), &view, sizeof(view));
    UnsafeAppendValid();
    return Status::OK();
  }
  /// An empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status Append(const std::optional<V>& value) {
    return value.has_value() ? Append(std::string_view(*value)) : AppendNull();
  }
  /// Appends a null, so that `Append(std::nullopt)` reads naturally.
  Status Append(std::nullopt_t) { return AppendNull(); }
  /// Used by the AppendValues overloads: n values, slot i null unless is_valid(i).
  template <typename S, typename IsValid>
  Status AppendStrings(const S* values, int64_t n, IsValid is_valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) {
      ALKAID_RETURN_NOT_OK(is_valid(i) ? Append(std::string_view(values[i])) : AppendNull());
    }
    return Status::OK();
  }
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  /// Same as Append(bytes).
  Status AppendValueBytes(std::string_view bytes) override { return Append(bytes); }
  /// Data blocks started so far (including the one being filled).
  int64_t num_data_blocks() const;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  // Copies a value longer than 12 bytes into the current block and fills
  // size, prefix, buffer index and offset of `view`.
  Status StoreOutOfLine(std::string_view value, BinaryViewValue* view);

  BufferBuilder views_;
  std::vector<BufferPtr> finished_blocks_;
  BufferBuilder current_block_;
  int64_t next_block_size_ = kInitialBlockSize;
};

}  // namespace alkaid
