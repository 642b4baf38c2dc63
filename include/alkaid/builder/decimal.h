/// @file
/// DecimalBuilder (decimal32/64/128/256) and ParseDecimal(), the precision-checked
/// decimal text parser it uses, for readers of textual formats.
///
/// Threads: a builder is single-threaded; different builders are independent.
/// ParseDecimal is pure and may be called from any number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "alkaid/builder/binary.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// decimal32/64/128/256: values are little-endian two's complement integers
/// scaled by 10^scale.
class ALKAID_EXPORT DecimalBuilder final : public FixedSizeBinaryBuilder {
 public:
  /// A builder of `type`, which must be a decimal type.
  DecimalBuilder(DataTypePtr type, MemoryPool* pool = default_memory_pool());

  /// Appends an already-scaled integer (sign-extended to the width).
  /// The precision is not checked; Invalid when a decimal32 cannot hold the
  /// value.
  Status AppendUnscaled(int64_t unscaled);
  /// Parses decimal text such as "-12.34", "5", "1.5e3" at the type's scale.
  /// Fails when digits would be lost or the value exceeds the precision.
  Status AppendString(std::string_view text);
  /// Optional forms: an empty optional appends a null. (Append(optional), from
  /// FixedSizeBinaryBuilder, takes the raw little-endian bytes.)
  template <typename V>
    requires std::is_convertible_v<const V&, int64_t>
  Status AppendUnscaled(const std::optional<V>& unscaled) {
    return unscaled.has_value() ? AppendUnscaled(static_cast<int64_t>(*unscaled)) : AppendNull();
  }
  /// Optional form of AppendString(): an empty optional appends a null.
  template <typename V>
    requires std::is_convertible_v<const V&, std::string_view>
  Status AppendString(const std::optional<V>& text) {
    return text.has_value() ? AppendString(std::string_view(*text)) : AppendNull();
  }

  /// Maximum number of decimal digits, from the type.
  int32_t precision() const { return precision_; }
  /// Digits after the decimal point, from the type (may be negative).
  int32_t scale() const { return scale_; }

 private:
  int32_t precision_;
  int32_t scale_;
};

/// Parses decimal text into the little-endian two's complement integer of
/// `byte_width` bytes (4, 8, 16 or 32) scaled by 10^scale. Exposed for readers
/// of textual formats.
/// `out` must have room for `byte_width` bytes and is written only on
/// success. Invalid when the text is malformed, would lose digits at this
/// scale or needs more than `precision` digits.
ALKAID_EXPORT Status ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int32_t byte_width,
                    uint8_t* out);

}  // namespace alkaid
