// Placeholders of the encoding API until each encoding has its source file.
#include "decoder.h"
#include "encoder.h"

namespace alkaid::parquet::internal {

Status ValueDecoder::Unsupported(const char* what) const {
  return Status::NotImplemented(EncodingName(encoding_), " decoder of ", PhysicalTypeName(type_),
                                " does not support ", what);
}
Status ValueDecoder::Decode(int64_t, uint8_t*) { return Unsupported("fixed-width output"); }
Status ValueDecoder::DecodeSpaced(int64_t, int64_t, const uint8_t*, int64_t, uint8_t*) {
  return Unsupported("fixed-width output");
}
Status ValueDecoder::DecodeBits(int64_t, uint8_t*, int64_t) { return Unsupported("bit output"); }
Status ValueDecoder::DecodeBitsSpaced(int64_t, int64_t, const uint8_t*, int64_t, uint8_t*,
                                      int64_t) {
  return Unsupported("bit output");
}
Result<int64_t> ValueDecoder::DecodeBinary(int64_t, BinaryOutput*) {
  return Unsupported("binary output");
}
Result<int64_t> ValueDecoder::DecodeBinarySpaced(int64_t, int64_t, const uint8_t*, int64_t,
                                                 BinaryOutput*) {
  return Unsupported("binary output");
}

Result<std::unique_ptr<ValueDecoder>> MakeDecoder(PhysicalType type, Encoding encoding, int32_t,
                                                  MemoryPool*) {
  return Status::NotImplemented("decoder of ", EncodingName(encoding), " for ",
                                PhysicalTypeName(type));
}
Result<std::unique_ptr<DictionaryDecoder>> MakeDictionaryDecoder(PhysicalType type, int32_t,
                                                                 MemoryPool*) {
  return Status::NotImplemented("dictionary decoder for ", PhysicalTypeName(type));
}

int FixedValueWidth(PhysicalType type, int32_t type_length) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return type_length;
    case PhysicalType::kBoolean:
    case PhysicalType::kByteArray: return 0;
  }
  return 0;
}

Status ValueEncoder::Unsupported(const char* what) const {
  return Status::NotImplemented(EncodingName(encoding_), " encoder of ", PhysicalTypeName(type_),
                                " does not support ", what);
}
Status ValueEncoder::Put(const uint8_t*, int64_t, const uint8_t*, int64_t) {
  return Unsupported("fixed-width input");
}
Status ValueEncoder::PutBits(const uint8_t*, int64_t, int64_t, const uint8_t*, int64_t) {
  return Unsupported("bit input");
}
Status ValueEncoder::PutBinary(const int32_t*, const uint8_t*, int64_t, const uint8_t*, int64_t) {
  return Unsupported("binary input");
}
Status ValueEncoder::PutBinary(const int64_t*, const uint8_t*, int64_t, const uint8_t*, int64_t) {
  return Unsupported("binary input");
}

Result<std::unique_ptr<ValueEncoder>> MakeEncoder(PhysicalType type, Encoding encoding, int32_t,
                                                  MemoryPool*) {
  return Status::NotImplemented("encoder of ", EncodingName(encoding), " for ",
                                PhysicalTypeName(type));
}
Result<std::unique_ptr<DictionaryEncoder>> MakeDictionaryEncoder(PhysicalType type, int32_t,
                                                                 int64_t, MemoryPool*) {
  return Status::NotImplemented("dictionary encoder for ", PhysicalTypeName(type));
}

}  // namespace alkaid::parquet::internal
