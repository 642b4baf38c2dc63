// Sparse and dense union builders.
#include "alkaid/builder/union.h"

#include <limits>

#include "child_lengths.h"

namespace alkaid {

UnionBuilderBase::UnionBuilderBase(DataTypePtr type, std::vector<ArrayBuilderPtr> children,
                                   MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), types_(pool) {
  children_ = std::move(children);
}

void UnionBuilderBase::Reset() {
  ArrayBuilder::Reset();
  types_.Reset();
}

Status UnionBuilderBase::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(types_.EnsureCapacity(capacity));
  // No validity bitmap: skip the base's bitmap growth.
  capacity_ = capacity;
  return Status::OK();
}

Status UnionBuilderBase::CheckTypeCode(int8_t type_code) const {
  if (union_type().child_index(type_code) < 0) {
    return Status::Invalid(type_->ToString(), " builder: slot ", length_, " uses type code ",
                           static_cast<int>(type_code), " which the union does not declare");
  }
  return Status::OK();
}

Status SparseUnionBuilder::Append(int8_t type_code) {
  ALKAID_RETURN_NOT_OK(CheckTypeCode(type_code));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  int selected = union_type().child_index(type_code);
  for (int i = 0; i < num_children(); ++i) {
    if (i != selected) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValue());
  }
  UnsafeAppendTypeCode(type_code);
  return Status::OK();
}

Status SparseUnionBuilder::AppendNulls(int64_t n) {
  if (num_children() == 0) return Status::Invalid("a union without children cannot hold nulls");
  ALKAID_RETURN_NOT_OK(Reserve(n));
  ALKAID_RETURN_NOT_OK(child(0)->AppendNulls(n));
  for (int i = 1; i < num_children(); ++i) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValues(n));
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) UnsafeAppendTypeCode(code);
  return Status::OK();
}

Status SparseUnionBuilder::AppendEmptyValues(int64_t n) {
  if (num_children() == 0) return Status::Invalid("a union without children has no empty value");
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int i = 0; i < num_children(); ++i) ALKAID_RETURN_NOT_OK(child(i)->AppendEmptyValues(n));
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) UnsafeAppendTypeCode(code);
  return Status::OK();
}

Status SparseUnionBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(
      builder_internal::CheckOneValuePerSlot(*this, "child", "the sparse union"));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr types, types_.FinishWithSize(length_));
  out->buffers = {std::move(types)};
  out->null_count = 0;
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

Status DenseUnionBuilder::Append(int8_t type_code) {
  ALKAID_RETURN_NOT_OK(CheckTypeCode(type_code));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  int64_t offset = child_builder(type_code)->length();
  if (offset > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: child offset ", offset,
                                 " exceeds 32 bits");
  }
  auto offset32 = static_cast<int32_t>(offset);
  std::memcpy(offsets_.mutable_data() + length_ * sizeof(int32_t), &offset32, sizeof(offset32));
  UnsafeAppendTypeCode(type_code);
  return Status::OK();
}

Status DenseUnionBuilder::AppendToFirstChild(int64_t n, bool null) {
  if (num_children() == 0) return Status::Invalid("a union without children cannot hold values");
  int8_t code = union_type().type_codes()[0];
  for (int64_t i = 0; i < n; ++i) {
    ALKAID_RETURN_NOT_OK(Append(code));
    ALKAID_RETURN_NOT_OK(null ? child(0)->AppendNull() : child(0)->AppendEmptyValue());
  }
  return Status::OK();
}

Status DenseUnionBuilder::AppendNulls(int64_t n) { return AppendToFirstChild(n, true); }
Status DenseUnionBuilder::AppendEmptyValues(int64_t n) { return AppendToFirstChild(n, false); }

void DenseUnionBuilder::Reset() {
  UnionBuilderBase::Reset();
  offsets_.Reset();
}

Status DenseUnionBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(offsets_.EnsureCapacity(capacity * sizeof(int32_t)));
  return UnionBuilderBase::Resize(capacity);
}

Status DenseUnionBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr types, types_.FinishWithSize(length_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr offsets, offsets_.FinishWithSize(length_ * sizeof(int32_t)));
  out->buffers = {std::move(types), std::move(offsets)};
  out->null_count = 0;
  for (auto& c : children_) {
    ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr child_data, c->Finish());
    out->child_data.push_back(std::move(child_data));
  }
  return Status::OK();
}

}  // namespace alkaid
