// The out-of-line parts of the fixed-size list, struct and map builders (the
// list and list view builders are templates, all in the header).
#include "alkaid/builder/nested.h"

#include <limits>

#include "child_lengths.h"

namespace alkaid {

FixedSizeListBuilder::FixedSizeListBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  list_size_ = checked_cast<FixedSizeListType>(*type_).list_size();
  children_.push_back(std::move(value_builder));
}

Status FixedSizeListBuilder::CheckChildLength() const {
  int64_t expected = length_ * list_size_;
  int64_t actual = value_builder()->length();
  if (actual != expected) {
    return Status::Invalid(type_->ToString(), " builder: after ", length_, " slots the child has ",
                           actual, " values, expected ", expected, " (", list_size_,
                           " per slot)");
  }
  return Status::OK();
}

Status FixedSizeListBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  // Child slots under a null parent are still physically present.
  ALKAID_RETURN_NOT_OK(value_builder()->AppendNulls(n * list_size_));
  return AppendNullBits(n);
}

Status FixedSizeListBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  ALKAID_RETURN_NOT_OK(value_builder()->AppendEmptyValues(n * list_size_));
  UnsafeAppendValid(n);
  return Status::OK();
}

Status FixedSizeListBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(CheckChildLength());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr values, value_builder()->Finish());
  out->buffers = {std::move(validity)};
  out->child_data = {std::move(values)};
  return Status::OK();
}

StructBuilder::StructBuilder(DataTypePtr type, std::vector<ArrayBuilderPtr> field_builders,
                             MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  children_ = std::move(field_builders);
}

Status StructBuilder::AppendValues(int64_t n, const uint8_t* valid_bytes) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  if (valid_bytes == nullptr) {
    UnsafeAppendValid(n);
    return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(AppendValidity(valid_bytes[i] != 0));
  return Status::OK();
}

Status StructBuilder::AppendNulls(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (auto& c : children_) ALKAID_RETURN_NOT_OK(c->AppendNulls(n));
  return AppendNullBits(n);
}

Status StructBuilder::AppendEmptyValues(int64_t n) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (auto& c : children_) ALKAID_RETURN_NOT_OK(c->AppendEmptyValues(n));
  UnsafeAppendValid(n);
  return Status::OK();
}

Status StructBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(builder_internal::CheckOneValuePerSlot(*this, "field", "the struct"));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  out->buffers = {std::move(validity)};
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

MapBuilder::MapBuilder(DataTypePtr type, ArrayBuilderPtr key_builder, ArrayBuilderPtr item_builder,
                       MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool) {
  std::vector<ArrayBuilderPtr> fields;
  fields.push_back(std::move(key_builder));
  fields.push_back(std::move(item_builder));
  const auto& map_type = checked_cast<MapType>(*type_);
  children_.push_back(
      std::make_unique<StructBuilder>(map_type.value_type(), std::move(fields), pool));
}

Status MapBuilder::SyncEntries() {
  int64_t missing = key_builder()->length() - entries()->length();
  if (missing < 0) {
    return Status::Invalid(type_->ToString(), " builder: entries outnumber keys");
  }
  return entries()->AppendValues(missing);
}

Status MapBuilder::WriteOffsetAt(int64_t slot) {
  int64_t keys = key_builder()->length();
  if (keys > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: ", keys,
                                 " entries exceed the largest 32-bit offset");
  }
  auto offset = static_cast<int32_t>(keys);
  std::memcpy(offsets_.mutable_data() + slot * sizeof(int32_t), &offset, sizeof(offset));
  return Status::OK();
}

Status MapBuilder::AppendSlots(int64_t n, bool valid) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_ + i));
  return AppendValidity(n, valid);
}

Status MapBuilder::AppendNulls(int64_t n) { return AppendSlots(n, false); }
Status MapBuilder::AppendEmptyValues(int64_t n) { return AppendSlots(n, true); }

void MapBuilder::Reset() {
  ArrayBuilder::Reset();
  offsets_.Reset();
}

Status MapBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((capacity + 1) * sizeof(int32_t)));
  return ArrayBuilder::Resize(capacity);
}

Status MapBuilder::FinishInto(ArrayData* out) {
  if (key_builder()->length() != item_builder()->length()) {
    return Status::Invalid(type_->ToString(), " builder: ", key_builder()->length(),
                           " keys but ", item_builder()->length(), " items");
  }
  ALKAID_RETURN_NOT_OK(SyncEntries());
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity((length_ + 1) * sizeof(int32_t)));
  ALKAID_RETURN_NOT_OK(WriteOffsetAt(length_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize((length_ + 1) * sizeof(int32_t)));
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr entries_data, entries()->Finish());
  out->buffers = {std::move(validity), std::move(offsets)};
  out->child_data = {std::move(entries_data)};
  return Status::OK();
}

}  // namespace alkaid
