/// @file
/// The Parquet format's own enumerations as alkaid names them: physical types,
/// value encodings and compression codecs. Every enumerator has the number the
/// format gives it on the wire (parquet.thrift), so a value read from a file
/// converts with a static_cast after a range check (the *FromWire functions).
///
/// Plain values and free functions: safe to use from any number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include "alkaid/visibility.h"

namespace alkaid::parquet {

/// How a column's values are stored (parquet.thrift `Type`).
enum class PhysicalType : int8_t {
  kBoolean = 0,            ///< one bit per value
  kInt32 = 1,              ///< 4-byte little-endian integer
  kInt64 = 2,              ///< 8-byte little-endian integer
  kInt96 = 3,              ///< 12 bytes (legacy timestamps: nanoseconds of day, Julian day)
  kFloat = 4,              ///< IEEE 754 binary32
  kDouble = 5,             ///< IEEE 754 binary64
  kByteArray = 6,          ///< variable-length bytes
  kFixedLenByteArray = 7,  ///< bytes of the column's type_length
};

/// How the values (or levels) of a page are encoded (parquet.thrift `Encoding`).
/// 1 (GROUP_VAR_INT) was never used by any writer and has no enumerator.
enum class Encoding : int8_t {
  kPlain = 0,                  ///< values back to back
  kPlainDictionary = 2,        ///< deprecated spelling of dictionary encoding
  kRle = 3,                    ///< RLE/bit-packed hybrid (levels, booleans)
  kBitPacked = 4,              ///< deprecated MSB-first bit packing (levels only)
  kDeltaBinaryPacked = 5,      ///< INT32/INT64 deltas in bit-packed miniblocks
  kDeltaLengthByteArray = 6,   ///< delta-encoded lengths, then the bytes
  kDeltaByteArray = 7,         ///< prefix lengths and suffixes (front compression)
  kRleDictionary = 8,          ///< dictionary indices in the RLE/bit-packed hybrid
  kByteStreamSplit = 9,        ///< byte i of every value in stream i
  kAlp = 10,                   ///< adaptive lossless floating point (preview; not supported)
};

/// Compression of page bodies (parquet.thrift `CompressionCodec`).
enum class Compression : int8_t {
  kUncompressed = 0,  ///< stored raw
  kSnappy = 1,        ///< Snappy raw format
  kGzip = 2,          ///< gzip member(s) (zlib)
  kLzo = 3,           ///< LZO (not supported)
  kBrotli = 4,        ///< Brotli
  kLz4 = 5,           ///< LZ4 in Hadoop's block framing (or raw LZ4 in some old files)
  kZstd = 6,          ///< Zstandard frame(s)
  kLz4Raw = 7,        ///< one LZ4 block, no framing
};

/// The format's name of a physical type ("BOOLEAN", "INT32", ..., "FIXED_LEN_BYTE_ARRAY").
ALKAID_EXPORT const char* PhysicalTypeName(PhysicalType type);
/// The format's name of an encoding ("PLAIN", "RLE_DICTIONARY", ...).
ALKAID_EXPORT const char* EncodingName(Encoding encoding);
/// The format's name of a codec ("UNCOMPRESSED", "SNAPPY", "GZIP", "LZ4_RAW", ...).
ALKAID_EXPORT const char* CompressionName(Compression codec);

/// The physical type with wire number `value`, or nothing when the number is not one.
ALKAID_EXPORT std::optional<PhysicalType> PhysicalTypeFromWire(int32_t value);
/// The encoding with wire number `value`, or nothing when the number is not one.
ALKAID_EXPORT std::optional<Encoding> EncodingFromWire(int32_t value);
/// The codec with wire number `value`, or nothing when the number is not one.
ALKAID_EXPORT std::optional<Compression> CompressionFromWire(int32_t value);

/// Writes PhysicalTypeName(type).
inline std::ostream& operator<<(std::ostream& os, PhysicalType type) {
  return os << PhysicalTypeName(type);
}
/// Writes EncodingName(encoding).
inline std::ostream& operator<<(std::ostream& os, Encoding encoding) {
  return os << EncodingName(encoding);
}
/// Writes CompressionName(codec).
inline std::ostream& operator<<(std::ostream& os, Compression codec) {
  return os << CompressionName(codec);
}

}  // namespace alkaid::parquet
