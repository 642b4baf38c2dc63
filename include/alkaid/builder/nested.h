/// @file
/// Builders of nested types: list, large_list, list_view, large_list_view,
/// fixed_size_list, struct and map. Each owns its child builders; the caller
/// opens the parent slot and then appends the children's values.
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "alkaid/builder/base.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// list and large_list: Append() opens a slot, then the caller appends that
/// slot's elements to value_builder().
/// @tparam T ListType or LargeListType (32- or 64-bit offsets).
template <typename T>
class BaseListBuilder final : public ArrayBuilder {
 public:
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large lists.
  /// Largest child length the offsets can address.
  static constexpr int64_t kMaxOffset = std::numeric_limits<offset_type>::max();

  /// A builder of `type` (list or large_list) that owns `value_builder`,
  /// which must build the list's value type.
  BaseListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                  MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool) {
    children_.push_back(std::move(value_builder));
  }

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }

  /// Opens slot length(): the values appended to value_builder() from now until
  /// the next slot opens belong to it. A null slot (`valid` false) should get no
  /// values. CapacityError when the child is longer than kMaxOffset.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    return AppendValidity(valid);
  }
  /// Appends `n` null, empty slots.
  Status AppendNulls(int64_t n) override { return AppendSlots(n, false); }
  /// Appends `n` non-null empty lists.
  Status AppendEmptyValues(int64_t n) override { return AppendSlots(n, true); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
  }

 protected:
  Status Resize(int64_t capacity) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(offset_type)));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets,
                           offsets_.FinishWithSize((length_ + 1) * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
    out->buffers = {std::move(validity), std::move(offsets)};
    out->child_data = {std::move(values)};
    return Status::OK();
  }

 private:
  Status WriteOffsetAt(int64_t slot) {
    int64_t child_length = value_builder()->length();
    if (child_length > kMaxOffset) {
      return Status::CapacityError(type_->ToString(), " builder: child length ", child_length,
                                   " exceeds the largest offset ", kMaxOffset);
    }
    auto offset = static_cast<offset_type>(child_length);
    std::memcpy(offsets_.mutable_data() + slot * sizeof(offset_type), &offset, sizeof(offset));
    return Status::OK();
  }
  Status AppendSlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(Reserve(n));
    for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_ + i));
    return AppendValidity(n, valid);
  }

  BufferBuilder offsets_;
};

/// Builder of lists with 32-bit offsets.
using ListBuilder = BaseListBuilder<ListType>;
/// Builder of lists with 64-bit offsets.
using LargeListBuilder = BaseListBuilder<LargeListType>;

/// list_view and large_list_view built in list order: each slot's offset is
/// the child length when it was opened and its size is what the caller
/// appended to value_builder() before the next slot (or Finish).
/// @tparam T ListViewType or LargeListViewType (32- or 64-bit offsets and sizes).
template <typename T>
class BaseListViewBuilder final : public ArrayBuilder {
 public:
  using TypeClass = T;  ///< The DataType class being built.
  using offset_type = typename T::offset_type;  ///< int32_t, or int64_t for large list views.
  /// Largest child length the offsets and sizes can address.
  static constexpr int64_t kMaxOffset = std::numeric_limits<offset_type>::max();

  /// A builder of `type` (list_view or large_list_view) that owns
  /// `value_builder`, which must build the value type.
  BaseListViewBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                      MemoryPool* pool = default_memory_pool())
      : ArrayBuilder(std::move(type), pool), offsets_(pool), sizes_(pool) {
    children_.push_back(std::move(value_builder));
  }

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }

  /// Closes the previous slot (its size becomes what was appended since it
  /// opened) and opens slot length(). A null slot gets size 0 whatever follows.
  /// CapacityError when the child is longer than kMaxOffset.
  Status Append(bool valid = true) {
    ALKAID_RETURN_NOT_OK(AppendSlots(1, valid));
    open_slot_ = valid ? length_ - 1 : -1;
    return Status::OK();
  }
  /// Appends `n` null slots of size 0.
  Status AppendNulls(int64_t n) override { return AppendSlots(n, false); }
  /// Appends `n` non-null empty list views.
  Status AppendEmptyValues(int64_t n) override { return AppendSlots(n, true); }
  void Reset() override {
    ArrayBuilder::Reset();
    offsets_.Reset();
    sizes_.Reset();
    open_slot_ = -1;
  }

 protected:
  Status Resize(int64_t capacity) override {
    ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity(capacity * sizeof(offset_type)));
    ALKAID_RETURN_NOT_OK(sizes_.EnsureCapacity(capacity * sizeof(offset_type)));
    return ArrayBuilder::Resize(capacity);
  }
  Status FinishInto(ArrayData* out) override {
    ALKAID_RETURN_NOT_OK(CloseOpenSlot());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
    ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize(length_ * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(BufferPtr sizes, sizes_.FinishWithSize(length_ * sizeof(offset_type)));
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
    out->buffers = {std::move(validity), std::move(offsets), std::move(sizes)};
    out->child_data = {std::move(values)};
    return Status::OK();
  }

 private:
  Status CheckedChildLength(offset_type* out) const {
    int64_t child_length = value_builder()->length();
    if (child_length > kMaxOffset) {
      return Status::CapacityError(type_->ToString(), " builder: child length ", child_length,
                                   " exceeds the largest offset ", kMaxOffset);
    }
    *out = static_cast<offset_type>(child_length);
    return Status::OK();
  }
  // The size of the slot opened last is only known once the next one opens.
  Status CloseOpenSlot() {
    if (open_slot_ < 0) return Status::OK();
    offset_type end = 0;
    ALKAID_RETURN_NOT_OK(CheckedChildLength(&end));
    offset_type start = 0;
    std::memcpy(&start, offsets_.data() + open_slot_ * sizeof(offset_type), sizeof(start));
    offset_type size = end - start;
    std::memcpy(sizes_.mutable_data() + open_slot_ * sizeof(offset_type), &size, sizeof(size));
    open_slot_ = -1;
    return Status::OK();
  }
  // Slots with size zero at the current child end.
  Status AppendSlots(int64_t n, bool valid) {
    ALKAID_RETURN_NOT_OK(CloseOpenSlot());
    ALKAID_RETURN_NOT_OK(Reserve(n));
    offset_type start = 0;
    ALKAID_RETURN_NOT_OK(CheckedChildLength(&start));
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(offsets_.mutable_data() + (length_ + i) * sizeof(offset_type), &start,
                  sizeof(start));
    }
    return AppendValidity(n, valid);
  }

  BufferBuilder offsets_;
  BufferBuilder sizes_;
  int64_t open_slot_ = -1;
};

/// Builder of list views with 32-bit offsets and sizes.
using ListViewBuilder = BaseListViewBuilder<ListViewType>;
/// Builder of list views with 64-bit offsets and sizes.
using LargeListViewBuilder = BaseListViewBuilder<LargeListViewType>;

/// fixed_size_list<T>[n]: after Append(valid) the caller appends exactly n
/// values to value_builder(); the count is checked at the next append and at
/// Finish. Nulls and empty values append n child nulls / empty values.
class ALKAID_EXPORT FixedSizeListBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a fixed-size list) that owns `value_builder`, which
  /// must build the value type.
  FixedSizeListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                       MemoryPool* pool = default_memory_pool());

  /// Builder of the child values; owned by this builder.
  ArrayBuilder* value_builder() const { return children_[0].get(); }
  /// Child values per slot, from the type.
  int32_t list_size() const { return list_size_; }

  /// Appends a slot whose list_size() values the caller appends next (also for
  /// a null slot). Invalid when the child does not hold exactly list_size()
  /// values for every earlier slot.
  Status Append(bool valid = true) {
    ALKAID_RETURN_NOT_OK(CheckChildLength());
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    return AppendValidity(valid);
  }
  /// Appends `n` null slots and n * list_size() child nulls.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` slots of n * list_size() child empty values.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;

 private:
  // The child must hold list_size values per slot appended so far.
  Status CheckChildLength() const;

  int32_t list_size_;
};

/// struct: Append(valid) adds the parent slot only; the caller appends one
/// value to every field_builder(i). AppendNull(s)/AppendEmptyValue(s) append
/// to the children as well.
/// Finish checks that every child has exactly length() values (Invalid
/// otherwise).
class ALKAID_EXPORT StructBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a struct) that owns `field_builders`, one per field
  /// in field order, each building that field's type.
  StructBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> field_builders,
                MemoryPool* pool = default_memory_pool());

  /// Builder of field `i`; owned by this builder (unchecked: 0 <= i < num_fields()).
  ArrayBuilder* field_builder(int i) const { return child(i); }
  /// Number of fields (child builders).
  int num_fields() const { return num_children(); }

  /// Appends the parent slot only; the caller appends one value to every field
  /// builder, even for a null slot.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    return AppendValidity(valid);
  }
  /// n parent slots (valid_bytes[i] == 0 marks null) without touching children.
  Status AppendValues(int64_t n, const uint8_t* valid_bytes = nullptr);
  /// Appends `n` null slots and `n` nulls to every field.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` valid slots and `n` empty values to every field.
  Status AppendEmptyValues(int64_t n) override;

 protected:
  Status FinishInto(ArrayData* out) override;
};

/// map<K, V>: Append() opens a map slot, then the caller appends each entry's
/// key to key_builder() and its value to item_builder().
/// Finish fails with Invalid when the key and item builders hold different
/// numbers of values.
class ALKAID_EXPORT MapBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (a map) that owns the key and item builders, which
  /// must build the key and item types.
  MapBuilder(DataTypePtr type, ArrayBuilderPtr key_builder, ArrayBuilderPtr item_builder,
             MemoryPool* pool = default_memory_pool());

  /// Builder of the keys of all entries; keys must not be null.
  ArrayBuilder* key_builder() const { return entries()->field_builder(0); }
  /// Builder of the values of all entries.
  ArrayBuilder* item_builder() const { return entries()->field_builder(1); }
  /// The struct<key, value> builder holding both; its slots are appended for
  /// you as keys arrive, so callers rarely need it.
  StructBuilder* entries() const { return static_cast<StructBuilder*>(children_[0].get()); }

  /// Opens slot length(): the entries appended from now until the next slot
  /// opens belong to it. CapacityError when there are more than 2^31 - 1 keys.
  Status Append(bool valid = true) {
    if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
    ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
    return AppendValidity(valid);
  }
  /// Appends `n` null slots with no entries.
  Status AppendNulls(int64_t n) override;
  /// Appends `n` empty maps.
  Status AppendEmptyValues(int64_t n) override;
  void Reset() override;

 protected:
  Status Resize(int64_t capacity) override;
  Status FinishInto(ArrayData* out) override;

 private:
  Status WriteOffsetAt(int64_t slot);
  // n slots without entries, valid or null.
  Status AppendSlots(int64_t n, bool valid);
  // Entry structs are never null; they are appended as keys arrive.
  Status SyncEntries();

  BufferBuilder offsets_;
};

}  // namespace alkaid
