#include "alkaid/extension/bool8.h"

#include <array>
#include <cstring>

#include "alkaid/bitmap.h"
#include "extension_internal.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kBool8Name;

// One bit per input byte: set when the byte is non-zero. Works on 8 bytes at
// once: adding 0x7F to the low 7 bits carries into the top bit exactly when
// they are non-zero, OR-ing in x covers the top bit itself; a multiply then
// gathers the eight top bits into the high byte (no two partial products
// share a bit position, so nothing carries).
inline uint8_t NonZeroByteMask(const uint8_t* bytes) {
  uint64_t x;
  std::memcpy(&x, bytes, sizeof(x));
  if constexpr (NativeEndianness() == Endianness::kBig) x = __builtin_bswap64(x);
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  uint64_t top = (((x & kLow7) + kLow7) | x) & ~kLow7;
  return static_cast<uint8_t>(((top >> 7) * 0x0102040810204080ULL) >> 56);
}

// kSpread[b] holds the 8 bytes (0 or 1) for the 8 bits of b, LSB first.
constexpr std::array<std::array<uint8_t, 8>, 256> MakeSpreadTable() {
  std::array<std::array<uint8_t, 8>, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int k = 0; k < 8; ++k) table[b][k] = static_cast<uint8_t>((b >> k) & 1);
  }
  return table;
}
constexpr auto kSpread = MakeSpreadTable();

// The validity of `data` rebased to offset 0 (shared when already at 0).
Result<BufferPtr> RebasedValidity(const ArrayData& data, MemoryPool* pool) {
  if (data.GetNullCount() == 0 || !data.HasValidityBitmap()) return BufferPtr();
  if (data.offset == 0) return data.buffers[0];
  ALKAID_ASSIGN_OR_RAISE(auto bitmap, AllocateBitmap(data.length, false, pool));
  bit_util::CopyBitmap(data.buffers[0]->data(), data.offset, data.length, bitmap->mutable_data(),
                       0);
  return BufferPtr(std::move(bitmap));
}

bool IsBool8OrInt8(const DataType& type) {
  if (type.id() == TypeId::kInt8) return true;
  return type.id() == TypeId::kExtension &&
         checked_cast<ExtensionType>(type).extension_name() == kBool8Name &&
         checked_cast<ExtensionType>(type).storage_type()->id() == TypeId::kInt8;
}

}  // namespace

std::shared_ptr<Bool8Type> Bool8Type::Make() {
  static const std::shared_ptr<Bool8Type> instance(new Bool8Type());
  return instance;
}

Result<DataTypePtr> Bool8Type::Deserialize(DataTypePtr storage_type,
                                           const std::string& serialized) const {
  ALKAID_RETURN_NOT_OK(ei::ExpectStorageId(kExt, storage_type, TypeId::kInt8, "int8"));
  ALKAID_RETURN_NOT_OK(ei::ExpectEmptyMetadata(kExt, serialized));
  return DataTypePtr(Make());
}

bool Bool8Type::ExtensionEquals(const ExtensionType& other) const {
  return other.extension_name() == kBool8Name;
}

Result<ArrayDataPtr> Bool8ToBoolean(const ArrayData& data, MemoryPool* pool) {
  if (data.type == nullptr || !IsBool8OrInt8(*data.type)) {
    return Status::TypeError(kExt, ": expected an arrow.bool8 or int8 array, got ",
                             data.type ? data.type->ToString() : std::string("nothing"));
  }
  const int64_t length = data.length;
  ALKAID_ASSIGN_OR_RAISE(auto bits, AllocateBuffer(bit_util::BytesForBits(length), pool));
  if (length > 0) {
    const uint8_t* src = data.buffers[1]->data() + data.offset;
    uint8_t* dst = bits->mutable_data();
    const int64_t whole = length / 8;
    for (int64_t j = 0; j < whole; ++j) dst[j] = NonZeroByteMask(src + j * 8);
    for (int64_t i = whole * 8; i < length; ++i) bit_util::SetBitTo(dst, i, src[i] != 0);
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, RebasedValidity(data, pool));
  int64_t null_count = validity ? data.GetNullCount() : 0;
  return ArrayData::Make(boolean(), length, {std::move(validity), std::move(bits)}, null_count);
}

Result<ArrayDataPtr> BooleanToBool8(const ArrayData& data, MemoryPool* pool) {
  if (data.type == nullptr || data.storage_type().id() != TypeId::kBool) {
    return Status::TypeError(kExt, ": expected a bool array, got ",
                             data.type ? data.type->ToString() : std::string("nothing"));
  }
  const int64_t length = data.length;
  ALKAID_ASSIGN_OR_RAISE(auto bytes, AllocateBuffer(length, pool));
  if (length > 0) {
    uint8_t* dst = bytes->mutable_data();
    int64_t written = 0;
    bit_util::VisitWords(data.buffers[1]->data(), data.offset, length,
                         [&](uint64_t word, int64_t nbits) {
                           for (int64_t k = 0; k < nbits; k += 8) {
                             const auto& spread = kSpread[(word >> k) & 0xFF];
                             int64_t n = nbits - k < 8 ? nbits - k : 8;
                             std::memcpy(dst + written, spread.data(), static_cast<size_t>(n));
                             written += n;
                           }
                         });
  }
  ALKAID_ASSIGN_OR_RAISE(BufferPtr validity, RebasedValidity(data, pool));
  int64_t null_count = validity ? data.GetNullCount() : 0;
  return ArrayData::Make(Bool8Type::Make(), length, {std::move(validity), std::move(bytes)},
                         null_count);
}

}  // namespace alkaid
