// What a value decoder and a value encoder both are: the coding of one physical type in one
// encoding, with the byte width of fixed-width values. Internal to the Parquet module.
#pragma once

#include "alkaid/parquet/types.h"

namespace alkaid::parquet::internal {

class ValueCoding {
 public:
  PhysicalType physical_type() const { return type_; }
  Encoding encoding() const { return encoding_; }
  /// Bytes of one value for fixed-width types (0 for BOOLEAN and BYTE_ARRAY).
  int value_width() const { return value_width_; }

 protected:
  ValueCoding(PhysicalType type, Encoding encoding, int value_width)
      : type_(type), encoding_(encoding), value_width_(value_width) {}
  ~ValueCoding() = default;

  PhysicalType type_;
  Encoding encoding_;
  int value_width_;
};

}  // namespace alkaid::parquet::internal
