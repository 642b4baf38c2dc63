// Encoding Arrow values into the value section of Parquet data pages, for the
// writer. Internal to the parquet module.
//
// An encoder accumulates the values of one page (Put*) and hands out the
// encoded bytes when the writer cuts the page (FlushValues). Output follows
// apache/parquet-format's Encodings.md to the letter so other readers accept
// it. Input is the writer's own Arrow data: fixed-width values as
// little-endian bytes of value_width() each, booleans as bitmaps, binary as
// Arrow offsets + data. A validity bitmap (may be null: all valid) selects
// the values to encode; null slots are skipped (their levels say they are null).
//
// An encoder is used by one thread at a time.
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

/// Accumulates the values of one page in one encoding.
class ValueEncoder : public ValueCoding {
 public:
  virtual ~ValueEncoder() = default;

  /// Appends the values of slots [0, n) of `values` (n * value_width() bytes)
  /// whose bit in `valid_bits` (from `valid_offset`) is set; all of them when
  /// `valid_bits` is null.
  virtual Status Put(const uint8_t* values, int64_t n, const uint8_t* valid_bits = nullptr,
                     int64_t valid_offset = 0);
  /// BOOLEAN: appends bits [bit_offset, bit_offset + n) of `bits`, filtered as in Put.
  virtual Status PutBits(const uint8_t* bits, int64_t bit_offset, int64_t n,
                         const uint8_t* valid_bits = nullptr, int64_t valid_offset = 0);
  /// BYTE_ARRAY: appends the `n` values described by Arrow offsets (n + 1 of
  /// them, int32) into `data`, filtered as in Put.
  Status PutBinary(const int32_t* offsets, const uint8_t* data, int64_t n,
                   const uint8_t* valid_bits = nullptr, int64_t valid_offset = 0) {
    return PutBinaryValues(BinaryValues{offsets, nullptr, data}, n, valid_bits, valid_offset);
  }
  /// Same with int64 offsets.
  Status PutBinary(const int64_t* offsets, const uint8_t* data, int64_t n,
                   const uint8_t* valid_bits = nullptr, int64_t valid_offset = 0) {
    return PutBinaryValues(BinaryValues{nullptr, offsets, data}, n, valid_bits, valid_offset);
  }

  /// Bytes FlushValues would return now (an estimate the writer compares with
  /// its page size; exact for PLAIN, an upper bound otherwise).
  virtual int64_t EstimatedSize() const = 0;
  /// Values appended since the last flush.
  int64_t num_values() const { return num_values_; }
  /// The encoded values of the page; the encoder starts the next page empty.
  Result<BufferPtr> FlushValues() {
    Result<BufferPtr> page = FinishPage();
    num_values_ = 0;
    return page;
  }

 protected:
  ValueEncoder(PhysicalType type, Encoding encoding, int value_width)
      : ValueCoding(type, encoding, value_width) {}
  Status Unsupported(const char* what) const;
  // The encoded values of the page, the encoder's own buffers reset for the
  // next page (FlushValues restarts the count).
  virtual Result<BufferPtr> FinishPage() = 0;

  // The binary input of either offset width; encoders of binary values derive
  // from BinaryEncoder (below), which overrides PutBinaryValues for them.
  struct BinaryValues {
    const int32_t* offsets32;
    const int64_t* offsets64;
    const uint8_t* data;
  };
  virtual Status PutBinaryValues(const BinaryValues& values, int64_t n, const uint8_t* valid_bits,
                                 int64_t valid_offset);

  int64_t num_values_ = 0;
};

/// Whether values of `type` can be stored in the value encoding `encoding`
/// (false for the dictionary encodings and those not implemented). The
/// decoder and encoder factories and the writer's settings all ask this.
bool EncodingFits(PhysicalType type, Encoding encoding);

/// The base of an encoder that takes binary input: passes PutBinary's values
/// to Derived::PutBinaryImpl(offsets, data, n, valid_bits, valid_offset), a
/// template over the offset type, so each encoder writes its loop once for
/// both offset widths; input of another physical type is refused here.
/// `Base` is ValueEncoder or DictionaryEncoder.
template <typename Derived, typename Base>
class BinaryEncoder : public Base {
 protected:
  using Base::Base;
  using BinaryValues = typename Base::BinaryValues;

  Status PutBinaryValues(const BinaryValues& values, int64_t n, const uint8_t* valid_bits,
                         int64_t valid_offset) final {
    if (this->type_ != PhysicalType::kByteArray) return this->Unsupported("binary input");
    Derived& self = static_cast<Derived&>(*this);
    if (values.offsets32 != nullptr) {
      return self.PutBinaryImpl(values.offsets32, values.data, n, valid_bits, valid_offset);
    }
    return self.PutBinaryImpl(values.offsets64, values.data, n, valid_bits, valid_offset);
  }
};

/// Dictionary encoding: a memo table of the distinct values of the column
/// chunk and, per page, their indices (RLE_DICTIONARY). The writer checks
/// ShouldFallback() after each batch: once the dictionary's PLAIN size passes
/// the limit it flushes the current page, writes the dictionary page, and
/// continues the chunk with a PLAIN encoder.
class DictionaryEncoder : public ValueEncoder {
 public:
  /// Bytes the dictionary page would have (PLAIN encoding of the entries).
  virtual int64_t dictionary_byte_size() const = 0;
  /// Distinct values so far.
  virtual int64_t num_entries() const = 0;
  /// True once dictionary_byte_size() exceeds the limit given at creation.
  bool ShouldFallback() const { return dictionary_byte_size() > byte_limit_; }
  /// The dictionary page body: the entries in PLAIN encoding, in index order.
  virtual Result<BufferPtr> FlushDictionary() = 0;


 protected:
  DictionaryEncoder(PhysicalType type, int value_width, int64_t byte_limit)
      : ValueEncoder(type, Encoding::kRleDictionary, value_width), byte_limit_(byte_limit) {}
  int64_t byte_limit_;
};

/// An encoder of `encoding` for values of `type` (`type_length`: the width of
/// FIXED_LEN_BYTE_ARRAY). Fails when the encoding does not apply to the type;
/// use MakeDictionaryEncoder for dictionary encoding.
ALKAID_EXPORT Result<std::unique_ptr<ValueEncoder>> MakeEncoder(
    PhysicalType type, Encoding encoding, int32_t type_length,
    MemoryPool* pool = default_memory_pool());
/// A dictionary encoder whose ShouldFallback() turns true once the dictionary
/// page would pass `dictionary_byte_limit` bytes.
ALKAID_EXPORT Result<std::unique_ptr<DictionaryEncoder>> MakeDictionaryEncoder(
    PhysicalType type, int32_t type_length, int64_t dictionary_byte_limit,
    MemoryPool* pool = default_memory_pool());

}  // namespace alkaid::parquet::internal
