// Statistics bounds as text: the stored bytes become a one-value Arrow array of the column's
// type (through the same conversions as the column reader) and are printed as such.
#include <cstring>

#include "alkaid/parquet/metadata.h"
#include "alkaid/pretty_print.h"
#include "src/parquet/convert.h"
#include "src/parquet/encoding/decoder.h"
#include "src/parquet/schema/arrow_schema.h"

namespace alkaid::parquet {

namespace {

std::string HexOf(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out = "0x";
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

Result<ArrayDataPtr> OneValue(const ColumnDescriptor& column, std::string_view bytes) {
  ALKAID_ASSIGN_OR_RAISE(auto type, internal::LeafArrowType(column, internal::BinaryLayout::kBinary,
                                                             TimeUnit::kNano, false));
  const auto* in = reinterpret_cast<const uint8_t*>(bytes.data());
  const int64_t size = static_cast<int64_t>(bytes.size());
  if (type->id() == TypeId::kNull) return Status::Invalid("null column");
  if (column.physical_type == PhysicalType::kBoolean) {
    if (size != 1) return Status::Invalid("boolean bound of ", size, " bytes");
    ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBuffer(1));
    bits->mutable_data()[0] = in[0] & 1;
    return ArrayData::Make(type, 1, {nullptr, bits}, 0);
  }
  ALKAID_ASSIGN_OR_RAISE(auto conversion, internal::ConversionFor(column.physical_type, *type));
  if (column.physical_type == PhysicalType::kByteArray &&
      conversion != internal::Conversion::kBinaryToDecimal) {
    ALKAID_ASSIGN_OR_RAISE(auto offsets, AllocateBuffer(8));
    int32_t bounds[2] = {0, static_cast<int32_t>(size)};
    std::memcpy(offsets->mutable_data(), bounds, 8);
    ALKAID_ASSIGN_OR_RAISE(auto data, Buffer::Copy(in, size));
    return ArrayData::Make(type, 1, {nullptr, offsets, data}, 0);
  }
  const int out_width = internal::ArrowValueWidth(*type);
  ALKAID_ASSIGN_OR_RAISE(auto values, AllocateBuffer(out_width));
  if (conversion == internal::Conversion::kBinaryToDecimal) {
    ALKAID_RETURN_NOT_OK(internal::BigEndianToDecimal(in, size, values->mutable_data(), out_width));
  } else {
    const int in_width = internal::FixedValueWidth(column.physical_type, column.type_length);
    if (size != in_width) return Status::Invalid("bound of ", size, " bytes");
    ALKAID_RETURN_NOT_OK(internal::ConvertFixed(conversion, in, in_width, 1,
                                                values->mutable_data(), out_width,
                                                TimeUnit::kNano));
  }
  return ArrayData::Make(type, 1, {nullptr, values}, 0);
}

}  // namespace

std::string FormatStatisticsValue(const ColumnDescriptor& column, std::string_view bytes) {
  auto value = OneValue(column, bytes);
  if (!value.ok()) return HexOf(bytes);
  return FormatValue(**value, 0);
}

}  // namespace alkaid::parquet
