// Names and wire-number checks of the Parquet enumerations (alkaid/parquet/types.h).
#include "alkaid/parquet/types.h"

namespace alkaid::parquet {

const char* PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN_TYPE";
}

const char* EncodingName(Encoding encoding) {
  switch (encoding) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
    case Encoding::kAlp: return "ALP";
  }
  return "UNKNOWN_ENCODING";
}

const char* CompressionName(Compression codec) {
  switch (codec) {
    case Compression::kUncompressed: return "UNCOMPRESSED";
    case Compression::kSnappy: return "SNAPPY";
    case Compression::kGzip: return "GZIP";
    case Compression::kLzo: return "LZO";
    case Compression::kBrotli: return "BROTLI";
    case Compression::kLz4: return "LZ4";
    case Compression::kZstd: return "ZSTD";
    case Compression::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN_CODEC";
}

std::optional<PhysicalType> PhysicalTypeFromWire(int32_t value) {
  if (value < 0 || value > 7) return std::nullopt;
  return static_cast<PhysicalType>(value);
}

std::optional<Encoding> EncodingFromWire(int32_t value) {
  if (value < 0 || value > 10 || value == 1) return std::nullopt;
  return static_cast<Encoding>(value);
}

std::optional<Compression> CompressionFromWire(int32_t value) {
  if (value < 0 || value > 7) return std::nullopt;
  return static_cast<Compression>(value);
}

}  // namespace alkaid::parquet
