// ValueDecoder's shared parts: the spaced variants (decode densely, then move
// each value to its slot), MakeDecoder, and error text.
#include "decoder.h"

#include <algorithm>

#include "alkaid/bitmap.h"
#include "decoders_internal.h"

namespace alkaid::parquet::internal {

Status DecodeError(Encoding encoding, PhysicalType type, const std::string& what, int64_t offset) {
  return Status::Invalid(EncodingName(encoding), " ", PhysicalTypeName(type), ": ", what,
                         " at byte ", offset, " of the page's values");
}

Status NotEnoughValues(Encoding encoding, PhysicalType type, int64_t wanted, int64_t left) {
  return Status::Invalid(EncodingName(encoding), " ", PhysicalTypeName(type), ": asked for ",
                         wanted, " values, but the page has ", left, " left");
}

Status ValueDecoder::Unsupported(const char* what) const {
  return Status::NotImplemented(EncodingName(encoding_), " decoder of ", PhysicalTypeName(type_),
                                " does not give ", what);
}

Status ValueDecoder::CheckCount(int64_t n) const {
  if (n < 0 || n > values_left_) return NotEnoughValues(encoding_, type_, n, values_left_);
  return Status::OK();
}

Status ValueDecoder::Decode(int64_t, uint8_t*) { return Unsupported("fixed-width values"); }
Result<const uint8_t*> ValueDecoder::DecodeInPlace(int64_t) { return nullptr; }
Status ValueDecoder::DecodeBits(int64_t, uint8_t*, int64_t) { return Unsupported("bits"); }
Result<int64_t> ValueDecoder::DecodeBinary(int64_t, BinaryOutput*) {
  return Unsupported("binary values");
}

namespace {

// Back to front, in place: slot i takes dense value src when its bit is set
// (src moves down), else zero; no branch on the bit. Slot i > src always, so
// out[src] is still the dense value when it is read. Stops once the rest is
// in place (every slot below valid).
template <typename T>
void SpreadTyped(uint8_t* out, int64_t n, int64_t valid, const uint8_t* valid_bits,
                 int64_t valid_offset) {
  int64_t src = valid - 1;
  for (int64_t i = n - 1; i > src; --i) {
    const bool set = GetBit(valid_bits, valid_offset + i);
    const T v = LoadLE<T>(out + (src < 0 ? 0 : src) * sizeof(T));
    StoreLE<T>(out + i * sizeof(T), set ? v : T{});
    src -= set;
  }
}

void SpreadBytes(uint8_t* out, int64_t n, int64_t valid, const uint8_t* valid_bits,
                 int64_t valid_offset, int width) {
  int64_t src = valid - 1;
  for (int64_t i = n - 1; i > src; --i) {
    uint8_t* slot = out + i * width;
    if (GetBit(valid_bits, valid_offset + i)) {
      std::memcpy(slot, out + src * width, static_cast<size_t>(width));
      --src;
    } else {
      std::memset(slot, 0, static_cast<size_t>(width));
    }
  }
}

}  // namespace

void SpreadValues(uint8_t* out, int64_t n, int64_t valid, const uint8_t* valid_bits,
                  int64_t valid_offset, int width) {
  switch (width) {
    case 4: return SpreadTyped<uint32_t>(out, n, valid, valid_bits, valid_offset);
    case 8: return SpreadTyped<uint64_t>(out, n, valid, valid_bits, valid_offset);
    default: return SpreadBytes(out, n, valid, valid_bits, valid_offset, width);
  }
}

Status CheckSpaced(int64_t n, int64_t null_count) {
  if (n < 0 || null_count < 0 || null_count > n) {
    return Status::Invalid("spaced decode of ", n, " slots with ", null_count, " nulls");
  }
  return Status::OK();
}

Status ValueDecoder::DecodeSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                                  int64_t valid_offset, uint8_t* out) {
  ALKAID_RETURN_NOT_OK(CheckSpaced(n, null_count));
  const int64_t valid = n - null_count;
  ALKAID_RETURN_NOT_OK(Decode(valid, out));
  if (null_count > 0) SpreadValues(out, n, valid, valid_bits, valid_offset, value_width_);
  return Status::OK();
}

Status ValueDecoder::DecodeBitsSpaced(int64_t n, int64_t null_count, const uint8_t* valid_bits,
                                      int64_t valid_offset, uint8_t* bits, int64_t bit_offset) {
  ALKAID_RETURN_NOT_OK(CheckSpaced(n, null_count));
  if (null_count == 0) return DecodeBits(n, bits, bit_offset);
  // Dense bits a chunk at a time into a local bitmap, then to their slots.
  uint8_t dense[512];
  int64_t have = 0;
  int64_t used = 0;
  int64_t left = n - null_count;
  for (int64_t slot = 0; slot < n; ++slot) {
    if (!GetBit(valid_bits, valid_offset + slot)) {
      ClearBit(bits, bit_offset + slot);
      continue;
    }
    if (used == have) {
      if (left == 0) return Status::Invalid("the validity bitmap has more than n - null_count set bits");
      have = std::min<int64_t>(left, sizeof(dense) * 8);
      ALKAID_RETURN_NOT_OK(DecodeBits(have, dense, 0));
      left -= have;
      used = 0;
    }
    SetBitTo(bits, bit_offset + slot, GetBit(dense, used++));
  }
  return Status::OK();
}

Result<int64_t> ValueDecoder::DecodeBinarySpaced(int64_t n, int64_t null_count,
                                                 const uint8_t* valid_bits, int64_t valid_offset,
                                                 BinaryOutput* out) {
  ALKAID_RETURN_NOT_OK(CheckSpaced(n, null_count));
  if (null_count == 0) return DecodeBinary(n, out);
  const int64_t valid = n - null_count;
  // Decode the values densely, then widen the offsets to one per slot (a null
  // slot repeats the offset before it), back to front and in place.
  return WithOffsetType(*out, [&]<typename Offset>() -> Result<int64_t> {
    const int64_t first = out->offsets->size() / static_cast<int64_t>(sizeof(Offset)) - 1;
    ALKAID_ASSIGN_OR_RAISE(int64_t got, DecodeBinary(valid, out));
    // Slots covered by the values that fit (all of them unless the offsets filled up).
    int64_t slots = n;
    if (got < valid) {
      int64_t seen = 0;
      for (slots = 0; slots < n; ++slots) {
        if (GetBit(valid_bits, valid_offset + slots)) {
          if (seen == got) break;
          ++seen;
        }
      }
    }
    const int64_t extra = (slots - got) * static_cast<int64_t>(sizeof(Offset));
    ALKAID_RETURN_NOT_OK(out->offsets->Reserve(extra));
    out->offsets->UnsafeAdvance(extra);
    Offset* o = reinterpret_cast<Offset*>(out->offsets->mutable_data()) + first;
    int64_t count = got;
    for (int64_t i = slots - 1; i >= 0 && count <= i; --i) {
      o[i + 1] = o[count];
      if (GetBit(valid_bits, valid_offset + i)) --count;
    }
    return slots;
  });
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

Status CheckTypeLength(PhysicalType type, int32_t type_length) {
  if (type == PhysicalType::kFixedLenByteArray && (type_length <= 0 || type_length > (1 << 24))) {
    return Status::Invalid("FIXED_LEN_BYTE_ARRAY with type_length ", type_length);
  }
  if (!PhysicalTypeFromWire(static_cast<int32_t>(type))) {
    return Status::Invalid("unknown physical type ", static_cast<int>(type));
  }
  return Status::OK();
}

Result<std::unique_ptr<ValueDecoder>> MakeDecoder(PhysicalType type, Encoding encoding,
                                                  int32_t type_length, MemoryPool* pool) {
  ALKAID_ASSIGN_OR_RAISE(const int width, FactoryValueWidth(type, encoding, type_length));
  switch (encoding) {
    case Encoding::kPlain: return MakePlainDecoder(type, width);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary: {
      ALKAID_ASSIGN_OR_RAISE(auto dict, MakeDictionaryDecoder(type, type_length, pool));
      return std::unique_ptr<ValueDecoder>(std::move(dict));
    }
    case Encoding::kRle: return MakeRleBooleanDecoder();
    case Encoding::kDeltaBinaryPacked: return MakeDeltaBinaryPackedDecoder(type, pool);
    case Encoding::kDeltaLengthByteArray: return MakeDeltaLengthByteArrayDecoder(pool);
    case Encoding::kDeltaByteArray: return MakeDeltaByteArrayDecoder(type, width, pool);
    case Encoding::kByteStreamSplit: return MakeByteStreamSplitDecoder(type, width);
    case Encoding::kBitPacked:
    case Encoding::kAlp: break;
  }
  return Status::NotImplemented("Parquet encoding ", EncodingName(encoding), " (",
                                static_cast<int>(encoding), ") is not supported");
}

Result<std::unique_ptr<DictionaryDecoder>> MakeDictionaryDecoder(PhysicalType type,
                                                                 int32_t type_length,
                                                                 MemoryPool* pool) {
  ALKAID_RETURN_NOT_OK(CheckTypeLength(type, type_length));
  return MakeDictionaryDecoderImpl(type, FixedValueWidth(type, type_length), pool);
}

}  // namespace alkaid::parquet::internal
