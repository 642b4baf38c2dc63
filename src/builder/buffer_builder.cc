// Growth and hand-over of BufferBuilder, the byte area under every builder.
#include "alkaid/builder/buffer_builder.h"

namespace alkaid {

Status BufferBuilder::GrowTo(int64_t total_bytes) {
  if (buffer_ == nullptr) buffer_ = std::make_shared<ResizableBuffer>(pool_);
  ALKAID_RETURN_NOT_OK(buffer_->Reserve(total_bytes));
  data_ = buffer_->mutable_data();
  capacity_ = buffer_->capacity();
  return Status::OK();
}

Result<BufferPtr> BufferBuilder::FinishWithSize(int64_t size) {
  ALKAID_RETURN_NOT_OK(EnsureCapacity(size));
  // The pool buffer's own size is still 0, so this only records the size.
  ALKAID_RETURN_NOT_OK(buffer_->Resize(size));
  BufferPtr out = std::move(buffer_);
  Reset();
  return out;
}

void BufferBuilder::Reset() {
  buffer_.reset();
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

}  // namespace alkaid
