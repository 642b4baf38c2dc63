// DictionaryBuilder: memoizes values by their bytes and collects int64 indices,
// narrowed to the index type at Finish.
#include "alkaid/builder/dictionary.h"

#include "integer_width.h"

namespace alkaid {

DictionaryBuilder::DictionaryBuilder(DataTypePtr type, ArrayBuilderPtr value_builder,
                                     MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), indices_(pool) {
  children_.push_back(std::move(value_builder));
  // DictionaryType::Make guarantees an integer index type; fall back to 0 so
  // that a hand-made bad type fails on the first append instead of crashing.
  max_index_ = builder_internal::IntegerMax(*dictionary_type().index_type()).ValueOr(-1);
}

Result<int64_t> DictionaryBuilder::AppendBytes(std::string_view value_bytes) {
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  auto found = memo_.find(value_bytes);
  if (found != memo_.end()) {
    ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(found->second));
    return found->second;
  }
  int64_t index = dictionary_length();
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: a new dictionary entry would get index ",
                                 index, ", beyond the index type's maximum ", max_index_);
  }
  ALKAID_RETURN_NOT_OK(value_builder()->AppendValueBytes(value_bytes));
  memo_.emplace(std::string(value_bytes), index);
  ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(index));
  return index;
}

Status DictionaryBuilder::AppendIndex(int64_t index) {
  if (index < 0 || index >= dictionary_length()) {
    return Status::IndexError(type_->ToString(), " builder: slot ", length_, " index ", index,
                              " is outside the dictionary of ", dictionary_length(), " values");
  }
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: index ", index,
                                 " exceeds the index type's maximum ", max_index_);
  }
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  return UnsafeAppendIndex(index);
}

// Index 0 under each null.
Status DictionaryBuilder::AppendNulls(int64_t n) { return AppendZeroedSlots(n, false); }

Status DictionaryBuilder::AppendEmptyValues(int64_t n) {
  // The empty value of a dictionary is the empty value of its value type.
  ALKAID_RETURN_NOT_OK(Reserve(n));
  int64_t index = dictionary_length();
  if (index > max_index_) {
    return Status::CapacityError(type_->ToString(), " builder: no index left for an empty value");
  }
  ALKAID_RETURN_NOT_OK(value_builder()->AppendEmptyValue());
  for (int64_t i = 0; i < n; ++i) ALKAID_RETURN_NOT_OK(UnsafeAppendIndex(index));
  return Status::OK();
}

void DictionaryBuilder::Reset() {
  ArrayBuilder::Reset();
  indices_.Reset();
  memo_.clear();
}

Status DictionaryBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(indices_.EnsureCapacity(capacity * static_cast<int64_t>(sizeof(int64_t))));
  return ArrayBuilder::Resize(capacity);
}

Status DictionaryBuilder::FinishInto(ArrayData* out) {
  ALKAID_RETURN_NOT_OK(indices_.EnsureCapacity(length_ * static_cast<int64_t>(sizeof(int64_t))));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr indices,
                         builder_internal::NarrowIntegers(indices_.data(), length_,
                                        *dictionary_type().index_type(), pool_));
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(out->dictionary, value_builder()->Finish());
  out->buffers = {std::move(validity), std::move(indices)};
  return Status::OK();
}

}  // namespace alkaid
