// DecimalBuilder and the precision-checked decimal text parsing it offers to
// readers of textual formats. The text <-> integer arithmetic lives in
// alkaid/decimal.h; this adds the type's precision on top.
#include "alkaid/builder/decimal.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "alkaid/decimal.h"

namespace alkaid {

Status ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int32_t byte_width,
                    uint8_t* out) {
  uint8_t bytes[32];
  ALKAID_RETURN_NOT_OK(DecimalFromString(text, byte_width, scale, bytes));
  int digits = DecimalDigitCount(bytes, byte_width);
  bool is_zero = true;
  for (int32_t i = 0; i < byte_width; ++i) is_zero = is_zero && bytes[i] == 0;
  if (!is_zero && digits > precision) {
    return Status::Invalid("decimal text '", text, "' needs ", digits,
                           " digits, more than precision ", precision);
  }
  std::memcpy(out, bytes, static_cast<size_t>(byte_width));
  return Status::OK();
}

DecimalBuilder::DecimalBuilder(DataTypePtr type, MemoryPool* pool)
    : FixedSizeBinaryBuilder(std::move(type), pool) {
  const auto& decimal_type = checked_cast<DecimalType>(*type_);
  precision_ = decimal_type.precision();
  scale_ = decimal_type.scale();
}

Status DecimalBuilder::AppendUnscaled(int64_t unscaled) {
  if (width_ == 4 && (unscaled < INT32_MIN || unscaled > INT32_MAX)) {
    return Status::Invalid(type_->ToString(), " builder: ", unscaled, " does not fit ", width_ * 8,
                           " bits");
  }
  // Sign-extend the 64-bit value over the whole width (little-endian host).
  uint8_t bytes[32];
  std::memset(bytes, unscaled < 0 ? 0xFF : 0x00, sizeof(bytes));
  std::memcpy(bytes, &unscaled, std::min<size_t>(8, static_cast<size_t>(width_)));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  UnsafeAppend(bytes);
  return Status::OK();
}

Status DecimalBuilder::AppendString(std::string_view text) {
  uint8_t bytes[32];
  Status st = ParseDecimal(text, precision_, scale_, width_, bytes);
  if (!st.ok()) return st.WithContext(type_->ToString() + " builder, slot " + std::to_string(length_));
  if (length_ >= capacity_) ALKAID_RETURN_NOT_OK(Reserve(1));
  UnsafeAppend(bytes);
  return Status::OK();
}

}  // namespace alkaid
