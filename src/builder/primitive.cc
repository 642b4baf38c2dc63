// The out-of-line parts of the null and boolean builders (NumericBuilder is
// all inline, in the header).
#include "alkaid/builder/primitive.h"

namespace alkaid {

NullBuilder::NullBuilder(MemoryPool* pool) : ArrayBuilder(null(), pool) {}

Status NullBuilder::AppendNulls(int64_t n) {
  if (n < 0) return Status::Invalid("cannot append ", n, " nulls");
  length_ += n;
  null_count_ += n;
  return Status::OK();
}

Status NullBuilder::FinishInto(ArrayData* out) {
  out->buffers.clear();  // the null layout has no buffers at all
  return Status::OK();
}

BooleanBuilder::BooleanBuilder(MemoryPool* pool) : BooleanBuilder(boolean(), pool) {}

Status BooleanBuilder::AppendValues(const bool* values, int64_t n, const uint8_t* valid_bytes) {
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) {
    if (values[i]) bit_util::SetBit(values_.mutable_data(), length_);
    ALKAID_RETURN_NOT_OK(AppendValidity(valid_bytes == nullptr || valid_bytes[i] != 0));
  }
  return Status::OK();
}

Status BooleanBuilder::AppendValues(const std::vector<bool>& values) {
  const auto n = static_cast<int64_t>(values.size());
  ALKAID_RETURN_NOT_OK(Reserve(n));
  for (int64_t i = 0; i < n; ++i) UnsafeAppend(values[static_cast<size_t>(i)]);
  return Status::OK();
}

Status BooleanBuilder::AppendValues(const std::vector<bool>& values,
                                    const std::vector<bool>& is_valid) {
  ALKAID_RETURN_NOT_OK(CheckValidityLength(values.size(), is_valid.size()));
  ALKAID_RETURN_NOT_OK(Reserve(static_cast<int64_t>(values.size())));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i]) bit_util::SetBit(values_.mutable_data(), length_);
    ALKAID_RETURN_NOT_OK(AppendValidity(is_valid[i]));
  }
  return Status::OK();
}

Status BooleanBuilder::AppendNulls(int64_t n) { return AppendZeroedSlots(n, false); }

Status BooleanBuilder::AppendEmptyValues(int64_t n) { return AppendZeroedSlots(n, true); }

Status BooleanBuilder::AppendValueBytes(std::string_view bytes) {
  if (bytes.size() != 1) {
    return Status::Invalid("a bool value takes 1 byte, got ", bytes.size());
  }
  return Append(bytes[0] != 0);
}

void BooleanBuilder::Reset() {
  ArrayBuilder::Reset();
  values_.Reset();
}

Status BooleanBuilder::Resize(int64_t capacity) {
  ALKAID_RETURN_NOT_OK(values_.EnsureCapacity(bit_util::BytesForBits(capacity)));
  return ArrayBuilder::Resize(capacity);
}

Status BooleanBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, FinishValidity());
  ALKAID_ASSIGN_OR_RAISE(BufferPtr values, values_.FinishWithSize(bit_util::BytesForBits(length_)));
  out->buffers = {std::move(validity), std::move(values)};
  return Status::OK();
}

}  // namespace alkaid
