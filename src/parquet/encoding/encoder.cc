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

bool EncodingFits(PhysicalType type, Encoding encoding) {
  switch (encoding) {
    case Encoding::kPlain: return true;
    case Encoding::kRle: return type == PhysicalType::kBoolean;
    case Encoding::kDeltaBinaryPacked:
      return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
    case Encoding::kDeltaLengthByteArray: return type == PhysicalType::kByteArray;
    case Encoding::kDeltaByteArray:
      return type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return type == PhysicalType::kFloat || type == PhysicalType::kDouble ||
             type == PhysicalType::kInt32 || type == PhysicalType::kInt64 ||
             type == PhysicalType::kFixedLenByteArray;
    default: return false;
  }
}

Result<int> FactoryValueWidth(PhysicalType type, Encoding encoding, int32_t type_length) {
  ALKAID_RETURN_NOT_OK(CheckTypeLength(type, type_length));
  // The dictionary encodings and ALP are decided by the factories themselves.
  const bool decided_later = encoding == Encoding::kPlainDictionary ||
                             encoding == Encoding::kRleDictionary || encoding == Encoding::kAlp;
  if (!decided_later && !EncodingFits(type, encoding)) {
    return Status::Invalid("encoding ", EncodingName(encoding), " does not apply to physical type ",
                           PhysicalTypeName(type));
  }
  return FixedValueWidth(type, type_length);
}

Result<std::unique_ptr<ValueEncoder>> MakeEncoder(PhysicalType type, Encoding encoding,
                                                  int32_t type_length, MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(const int width, FactoryValueWidth(type, encoding, type_length));
  switch (encoding) {
    case Encoding::kPlain: return MakePlainEncoder(type, width, pool);
    case Encoding::kRle: return MakeRleBooleanEncoder(pool);
    case Encoding::kDeltaBinaryPacked: return MakeDeltaBinaryPackedEncoder(type, pool);
    case Encoding::kDeltaLengthByteArray: return MakeDeltaLengthByteArrayEncoder(pool);
    case Encoding::kDeltaByteArray: return MakeDeltaByteArrayEncoder(type, width, pool);
    case Encoding::kByteStreamSplit: return MakeByteStreamSplitEncoder(type, width, pool);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return Status::Invalid("dictionary encoders come from MakeDictionaryEncoder");
    case Encoding::kBitPacked:
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
