// Names and wire-number checks of the Parquet enumerations (alkaid/parquet/types.h).
#include "alkaid/parquet/types.h"

#include <iterator>

#include "src/parquet/enum_names.h"

namespace alkaid::parquet {

using internal::EnumFromWire;
using internal::EnumName;

namespace {

// Each enumeration's names indexed by wire number; nullptr where the format assigns none.
constexpr const char* kPhysicalTypeNames[] = {
    "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY",
};
constexpr const char* kEncodingNames[] = {
    "PLAIN",
    nullptr,  // 1 was GROUP_VAR_INT, never used
    "PLAIN_DICTIONARY",
    "RLE",
    "BIT_PACKED",
    "DELTA_BINARY_PACKED",
    "DELTA_LENGTH_BYTE_ARRAY",
    "DELTA_BYTE_ARRAY",
    "RLE_DICTIONARY",
    "BYTE_STREAM_SPLIT",
    "ALP",
};
constexpr const char* kCompressionNames[] = {
    "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW",
};

// Each table ends at the enumeration's last value.
static_assert(std::size(kPhysicalTypeNames) ==
              static_cast<size_t>(PhysicalType::kFixedLenByteArray) + 1);
static_assert(std::size(kEncodingNames) == static_cast<size_t>(Encoding::kAlp) + 1);
static_assert(std::size(kCompressionNames) == static_cast<size_t>(Compression::kLz4Raw) + 1);

}  // namespace

const char* PhysicalTypeName(PhysicalType type) {
  return EnumName(kPhysicalTypeNames, type, "UNKNOWN_TYPE");
}

const char* EncodingName(Encoding encoding) {
  return EnumName(kEncodingNames, encoding, "UNKNOWN_ENCODING");
}

const char* CompressionName(Compression codec) {
  return EnumName(kCompressionNames, codec, "UNKNOWN_CODEC");
}

std::optional<PhysicalType> PhysicalTypeFromWire(int32_t value) {
  return EnumFromWire<PhysicalType>(kPhysicalTypeNames, value);
}

std::optional<Encoding> EncodingFromWire(int32_t value) {
  return EnumFromWire<Encoding>(kEncodingNames, value);
}

std::optional<Compression> CompressionFromWire(int32_t value) {
  return EnumFromWire<Compression>(kCompressionNames, value);
}

}  // namespace alkaid::parquet
