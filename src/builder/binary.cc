// The out-of-line parts of the fixed-size binary and binary view builders
// (BaseBinaryBuilder is all inline, in the header).
#include "alkaid/builder/binary.h"

#include <algorithm>
#include <limits>

namespace alkaid {

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(DataTypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), values_(pool) {
  width_ = checked_cast<FixedSizeBinaryType>(*type_).byte_width();
}

Status FixedSizeBinaryBuilder::WrongWidth(size_t got) const {
  return Status::Invalid(type_->ToString(), " builder: slot ", length_, " value has ", got,
                         " bytes, the type's width is ", width_);
}

Status FixedSizeBinaryBuilder::AppendNulls(int64_t n) { return AppendZeroedSlots(n, false); }

Status FixedSizeBinaryBuilder::AppendEmptyValues(int64_t n) { return AppendZeroedSlots(n, true); }

void FixedSizeBinaryBuilder::Reset() {
  ArrayBuilder::Reset();
  values_.Reset();
}

Status FixedSizeBinaryBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(values_.EnsureCapacity(capacity * width_));
  return ArrayBuilder::Resize(capacity);
}

Status FixedSizeBinaryBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr values, values_.FinishWithSize(length_ * width_));
  out->buffers = {std::move(validity), std::move(values)};
  return Status::OK();
}

BinaryViewBuilder::BinaryViewBuilder(DataTypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), views_(pool), current_block_(pool) {}

Status BinaryViewBuilder::StoreOutOfLine(std::string_view value, BinaryViewValue* view) {
  auto size = static_cast<int64_t>(value.size());
  if (size > std::numeric_limits<int32_t>::max()) {
    return Status::CapacityError(type_->ToString(), " builder: a value of ", size,
                                 " bytes does not fit a view's 32-bit size");
  }
  bool fits = current_block_.allocated() && current_block_.size() + size <= current_block_.capacity();
  if (!fits) {
    if (current_block_.allocated()) {
      ALKAID_ASSIGN_OR_RAISE(BufferPtr full, current_block_.Finish());
      finished_blocks_.push_back(std::move(full));
    }
    // A value bigger than the usual block gets a block of its own size.
    ALKAID_RETURN_NOT_OK(current_block_.EnsureCapacity(std::max(next_block_size_, size)));
    next_block_size_ = std::min(next_block_size_ * 2, kMaxBlockSize);
  }
  if (finished_blocks_.size() >= static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::CapacityError(type_->ToString(), " builder: too many data blocks");
  }
  view->ref.size = static_cast<int32_t>(size);
  std::memcpy(view->ref.prefix, value.data(), BinaryViewValue::kPrefixSize);
  view->ref.buffer_index = static_cast<int32_t>(finished_blocks_.size());
  view->ref.offset = static_cast<int32_t>(current_block_.size());
  current_block_.UnsafeAppend(value.data(), size);
  return Status::OK();
}

// All-zero views: size 0.
Status BinaryViewBuilder::AppendNulls(int64_t n) { return AppendZeroedSlots(n, false); }

Status BinaryViewBuilder::AppendEmptyValues(int64_t n) { return AppendZeroedSlots(n, true); }

int64_t BinaryViewBuilder::num_data_blocks() const {
  return static_cast<int64_t>(finished_blocks_.size()) + (current_block_.allocated() ? 1 : 0);
}

void BinaryViewBuilder::Reset() {
  ArrayBuilder::Reset();
  views_.Reset();
  finished_blocks_.clear();
  current_block_.Reset();
  next_block_size_ = kInitialBlockSize;
}

Status BinaryViewBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(views_.EnsureCapacity(capacity * static_cast<int64_t>(sizeof(BinaryViewValue))));
  return ArrayBuilder::Resize(capacity);
}

Status BinaryViewBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(
      BufferPtr views,
      views_.FinishWithSize(length_ * static_cast<int64_t>(sizeof(BinaryViewValue))));
  out->buffers = {std::move(validity), std::move(views)};
  for (auto& block : finished_blocks_) out->buffers.push_back(std::move(block));
  finished_blocks_.clear();
  if (current_block_.allocated()) {
    ALKAID_ASSIGN_OR_RAISE(BufferPtr last, current_block_.Finish());
    out->buffers.push_back(std::move(last));
  }
  return Status::OK();
}

}  // namespace alkaid
