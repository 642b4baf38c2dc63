// Decoding the values of one Parquet data page into Arrow buffers, in every
// encoding the format has. Internal to the parquet module; the column readers
// are the users.
//
// A ValueDecoder is made once per column chunk (MakeDecoder) and given each
// page's value bytes with SetData. Calls work in batches: the one virtual call
// per batch is the only indirection, and each encoding's loop is a plain
// function over the batch (no per-value virtual calls, no per-value
// allocations). Output goes straight into the buffers the reader will hand
// out:
//   - fixed-width types (INT32, INT64, INT96, FLOAT, DOUBLE,
//     FIXED_LEN_BYTE_ARRAY) into a values area of n * value_width() bytes,
//     stored as the file has them (little-endian, INT96 as 12 bytes);
//   - BOOLEAN into a validity-style bitmap at a bit offset;
//   - BYTE_ARRAY into Arrow offsets (int32 or int64) + data builders.
// The *Spaced variants write values only into the slots whose validity bit is
// set, for nullable columns (null slots are zero, or zero-length for binary).
//
// Input is untrusted: every length, count, bit width, header varint and prefix
// length is checked before use. A bad page gives Status::Invalid naming the
// encoding and the byte offset within the page's value data. No method reads
// outside [data, data + size), and no method allocates more than the page's
// values justify (the output the caller asked for, or the dictionary).
//
// A decoder is used by one thread at a time; different decoders are independent.
#pragma once

#include <cstdint>
#include <memory>

#include "alkaid/builder.h"
#include "alkaid/memory.h"
#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"
#include "value_coding.h"

namespace alkaid::parquet::internal {

/// Where BYTE_ARRAY values go: the offsets and data of an Arrow binary/string
/// array under construction. `offsets` already holds length + 1 offsets (the
/// caller writes the first 0) of the width `large_offsets` says; decoders
/// append one offset and the value's bytes per value. With 32-bit offsets a
/// decoder stops before the data would pass INT32_MAX bytes (see DecodeBinary).
struct BinaryOutput {
  alkaid::BufferBuilder* offsets = nullptr;
  alkaid::BufferBuilder* data = nullptr;
  bool large_offsets = false;  ///< int64 offsets (large_binary/large_utf8)
};

/// The decoded values of a dictionary page, owned by shared buffers so that a
/// reader can also hand them out as an Arrow dictionary.
struct DecodedDictionary {
  int64_t length = 0;  ///< number of entries
  /// Fixed-width types: length * value_width bytes. BYTE_ARRAY: the bytes of
  /// every entry back to back. BOOLEAN: a bitmap of length bits.
  BufferPtr values;
  /// BYTE_ARRAY only: length + 1 int32 offsets into `values`.
  BufferPtr offsets;
};

/// Decodes the value section of data pages of one column chunk.
class ALKAID_EXPORT ValueDecoder : public ValueCoding {
 public:
  virtual ~ValueDecoder() = default;

  /// Starts a page: `data` (borrowed, alive until the next SetData) holds the
  /// encoded values, of which there are at most `num_values` (the page's count
  /// of non-null values when the caller knows it, otherwise its level count).
  virtual Status SetData(int64_t num_values, const uint8_t* data, int64_t size) = 0;

  /// Decodes the next `n` values of a fixed-width type into `out`
  /// (n * value_width() bytes). Fails when fewer than `n` are left.
  virtual Status Decode(int64_t n, uint8_t* out);
  /// Zero-copy form of Decode: the next `n` values as they sit in the page
  /// (`n * value_width()` bytes inside the data given to SetData), or null when
  /// this encoding has to transform them (then use Decode). Only PLAIN
  /// fixed-width values are returned in place; the caller keeps the page alive
  /// and checks the address's alignment before viewing it as T.
  virtual Result<const uint8_t*> DecodeInPlace(int64_t n);
  /// Decodes `n - null_count` values into the slots of `out` (n slots) whose
  /// bit in `valid_bits` (from bit `valid_offset`) is set; other slots are zeroed.
  virtual Status DecodeSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                              int64_t valid_offset, uint8_t* out);

  /// BOOLEAN: decodes `n` values into bits [bit_offset, bit_offset + n) of `bits`.
  virtual Status DecodeBits(int64_t n, uint8_t* bits, int64_t bit_offset);
  /// BOOLEAN, spaced as DecodeSpaced (null slots are 0 bits).
  virtual Status DecodeBitsSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                                  int64_t valid_offset, uint8_t* bits, int64_t bit_offset);

  /// BYTE_ARRAY (and FIXED_LEN_BYTE_ARRAY read as binary): appends up to `n`
  /// values to `out`; returns how many were appended, fewer than `n` only when
  /// 32-bit offsets would overflow (the caller starts a new chunk and calls
  /// again). Fails when fewer than `n` values are left.
  virtual Result<int64_t> DecodeBinary(int64_t n, BinaryOutput* out);
  /// BYTE_ARRAY, spaced: appends `n` entries, the null ones of length zero.
  /// Same return value as DecodeBinary (counting slots, nulls included).
  virtual Result<int64_t> DecodeBinarySpaced(int64_t n, int64_t null_count,
                                             const uint8_t* valid_bits, int64_t valid_offset,
                                             BinaryOutput* out);

  /// Skips the next `n` values.
  virtual Status Skip(int64_t n) = 0;

  /// Values not yet decoded in the current page.
  int64_t values_left() const { return values_left_; }

 protected:
  ValueDecoder(PhysicalType type, Encoding encoding, int value_width)
      : ValueCoding(type, encoding, value_width) {}
  // The error of a call the type or encoding does not support.
  Status Unsupported(const char* what) const;
  // Invalid unless 0 <= n <= values_left().
  Status CheckCount(int64_t n) const;

  int64_t values_left_ = 0;
};

/// Decodes dictionary-encoded pages (PLAIN_DICTIONARY / RLE_DICTIONARY): the
/// dictionary page is decoded once per column chunk, and data pages are index
/// streams that are gathered into the output, or handed out as indices for a
/// dictionary array.
class DictionaryDecoder : public ValueDecoder {
 public:
  /// Decodes a dictionary page of `num_values` PLAIN values; replaces any
  /// previous dictionary. The entry count is checked against the bytes.
  virtual Status SetDictionary(int64_t num_values, const uint8_t* data, int64_t size) = 0;
  /// The current dictionary (empty before SetDictionary).
  virtual const DecodedDictionary& dictionary() const = 0;
  /// Decodes the next `n` indices (each checked against the dictionary size).
  virtual Status DecodeIndices(int64_t n, int32_t* out) = 0;
  /// Indices of `n` slots, spaced (null slots get index 0).
  virtual Status DecodeIndicesSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                                     int64_t valid_offset, int32_t* out) = 0;

 protected:
  using ValueDecoder::ValueDecoder;
};

/// A decoder of `encoding` for values of `type`. `type_length` is the byte
/// width of FIXED_LEN_BYTE_ARRAY (ignored otherwise). Fails (NotImplemented or
/// Invalid, naming both) when the encoding does not apply to the type. For
/// PLAIN_DICTIONARY and RLE_DICTIONARY the result is a DictionaryDecoder.
ALKAID_EXPORT Result<std::unique_ptr<ValueDecoder>> MakeDecoder(
    PhysicalType type, Encoding encoding, int32_t type_length,
    MemoryPool* pool = default_memory_pool());
/// The dictionary decoder of a column of `type`.
ALKAID_EXPORT Result<std::unique_ptr<DictionaryDecoder>> MakeDictionaryDecoder(
    PhysicalType type, int32_t type_length, MemoryPool* pool = default_memory_pool());

/// The byte width of one value of `type` as decoders output it (INT96 12,
/// FIXED_LEN_BYTE_ARRAY its type_length, BOOLEAN and BYTE_ARRAY 0).
ALKAID_EXPORT int FixedValueWidth(PhysicalType type, int32_t type_length);

}  // namespace alkaid::parquet::internal
