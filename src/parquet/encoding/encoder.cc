// ValueEncoder's defaults and MakeEncoder.
#include "encoder.h"

#include "decoders_internal.h"

namespace alkaid::parquet::internal {

Status ValueEncoder::Unsupported(const char* what) const {
  return Status::NotImplemented(EncodingName(encoding_), " encoder of ", PhysicalTypeName(type_),
                                " does not take ", what);
}
Status ValueEncoder::Put(const uint8_t*, int64_t, const uint8_t*, int64_t) {
  return Unsupported("fixed-width values");
}
Status ValueEncoder::PutBits(const uint8_t*, int64_t, int64_t, const uint8_t*, int64_t) {
  return Unsupported("bits");
}
Status ValueEncoder::PutBinaryValues(const BinaryValues&, int64_t, const uint8_t*, int64_t) {
  return Unsupported("binary values");
}

namespace {

Status Mismatch(PhysicalType type, Encoding encoding) {
  return Status::Invalid("cannot encode ", PhysicalTypeName(type), " values as ",
                         EncodingName(encoding));
}

Status CheckTypeLength(PhysicalType type, int32_t type_length) {
  if (!PhysicalTypeFromWire(static_cast<int32_t>(type))) {
    return Status::Invalid("unknown physical type ", static_cast<int>(type));
  }
  if (type == PhysicalType::kFixedLenByteArray && type_length <= 0) {
    return Status::Invalid("FIXED_LEN_BYTE_ARRAY with type_length ", type_length);
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ValueEncoder>> MakeEncoder(PhysicalType type, Encoding encoding,
                                                  int32_t type_length, MemoryPool* pool) {
  ALKAID_RETURN_NOT_OK(CheckTypeLength(type, type_length));
  const int width = FixedValueWidth(type, type_length);
  switch (encoding) {
    case Encoding::kPlain: return MakePlainEncoder(type, width, pool);
    case Encoding::kRle:
      if (type != PhysicalType::kBoolean) return Mismatch(type, encoding);
      return MakeRleBooleanEncoder(pool);
    case Encoding::kDeltaBinaryPacked:
      if (type != PhysicalType::kInt32 && type != PhysicalType::kInt64) {
        return Mismatch(type, encoding);
      }
      return MakeDeltaBinaryPackedEncoder(type, pool);
    case Encoding::kDeltaLengthByteArray:
      if (type != PhysicalType::kByteArray) return Mismatch(type, encoding);
      return MakeDeltaLengthByteArrayEncoder(pool);
    case Encoding::kDeltaByteArray:
      if (type != PhysicalType::kByteArray && type != PhysicalType::kFixedLenByteArray) {
        return Mismatch(type, encoding);
      }
      return MakeDeltaByteArrayEncoder(type, width, pool);
    case Encoding::kByteStreamSplit:
      if (width == 0 || type == PhysicalType::kInt96) return Mismatch(type, encoding);
      return MakeByteStreamSplitEncoder(type, width, pool);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return Status::Invalid("dictionary encoders come from MakeDictionaryEncoder");
    case Encoding::kBitPacked: return Mismatch(type, encoding);
    case Encoding::kAlp: break;
  }
  return Status::NotImplemented("writing Parquet encoding ", EncodingName(encoding),
                                " is not supported");
}

Result<std::unique_ptr<DictionaryEncoder>> MakeDictionaryEncoder(PhysicalType type,
                                                                 int32_t type_length,
                                                                 int64_t dictionary_byte_limit,
                                                                 MemoryPool* pool) {
  ALKAID_RETURN_NOT_OK(CheckTypeLength(type, type_length));
  if (type == PhysicalType::kBoolean) {
    return Status::Invalid("BOOLEAN columns are not dictionary-encoded (use PLAIN or RLE)");
  }
  return MakeDictionaryEncoderImpl(type, FixedValueWidth(type, type_length),
                                   dictionary_byte_limit, pool);
}

}  // namespace alkaid::parquet::internal
