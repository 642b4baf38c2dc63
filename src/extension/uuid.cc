#include "alkaid/extension/uuid.h"

#include <cstring>

#include "alkaid/bitmap.h"
#include "extension_internal.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kUuidName;
// Positions of the hyphens in the 36-character text form.
constexpr bool IsHyphenPosition(size_t i) { return i == 8 || i == 13 || i == 18 || i == 23; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Status CheckStorage(const DataTypePtr& storage) {
  if (storage == nullptr || storage->id() != TypeId::kFixedSizeBinary ||
      checked_cast<FixedSizeBinaryType>(*storage).byte_width() != 16) {
    return Status::Invalid(kExt, ": storage must be fixed_size_binary[16], got ",
                           storage ? storage->ToString() : std::string("nothing"));
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<UuidType> UuidType::Make() {
  static const std::shared_ptr<UuidType> instance(new UuidType(fixed_size_binary(16)));
  return instance;
}

Result<std::shared_ptr<UuidType>> UuidType::MakeFromStorage(DataTypePtr storage_type) {
  ALKAID_RETURN_NOT_OK(CheckStorage(storage_type));
  return std::shared_ptr<UuidType>(new UuidType(std::move(storage_type)));
}

std::string UuidToString(const uint8_t* bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(36, '-');
  size_t pos = 0;
  for (int i = 0; i < 16; ++i) {
    if (IsHyphenPosition(pos)) ++pos;
    out[pos++] = kDigits[bytes[i] >> 4];
    out[pos++] = kDigits[bytes[i] & 0xF];
  }
  return out;
}

Result<UuidBytes> ParseUuid(std::string_view text) {
  if (text.size() != 36) {
    return Status::Invalid(kExt, ": '", text,
                           "' is not a UUID: expected 36 characters "
                           "(8-4-4-4-12 hex digits), got ",
                           text.size());
  }
  UuidBytes out{};
  size_t byte = 0;
  for (size_t i = 0; i < text.size();) {
    if (IsHyphenPosition(i)) {
      if (text[i] != '-') {
        return Status::Invalid(kExt, ": '", text, "' is not a UUID: expected '-' at position ", i);
      }
      ++i;
      continue;
    }
    int hi = HexValue(text[i]);
    int lo = HexValue(text[i + 1]);
    if (hi < 0 || lo < 0) {
      return Status::Invalid(kExt, ": '", text, "' is not a UUID: non-hex character at position ",
                             hi < 0 ? i : i + 1);
    }
    out[byte++] = static_cast<uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return out;
}

Result<ArrayDataPtr> MakeUuidArray(const std::vector<std::optional<std::string>>& texts,
                                   MemoryPool* pool) {
  auto length = static_cast<int64_t>(texts.size());
  ALKAID_ASSIGN_OR_RAISE(auto values, AllocateBuffer(length * 16, pool));
  ALKAID_ASSIGN_OR_RAISE(auto validity, AllocateBitmap(length, /*value=*/true, pool));
  int64_t null_count = 0;
  for (int64_t i = 0; i < length; ++i) {
    const auto& text = texts[static_cast<size_t>(i)];
    if (!text) {
      bit_util::ClearBit(validity->mutable_data(), i);
      ++null_count;
      continue;
    }
    auto parsed = ParseUuid(*text);
    if (!parsed.ok()) return parsed.status().WithContext("slot " + std::to_string(i));
    std::memcpy(values->mutable_data() + i * 16, parsed->data(), 16);
  }
  BufferPtr validity_buffer = null_count > 0 ? BufferPtr(std::move(validity)) : nullptr;
  return ArrayData::Make(UuidType::Make(), length, {validity_buffer, std::move(values)},
                         null_count);
}

Result<UuidArray> UuidArray::Make(ArrayDataPtr data) {
  if (data == nullptr || data->type == nullptr || data->type->id() != TypeId::kExtension ||
      checked_cast<ExtensionType>(*data->type).extension_name() != kUuidName) {
    return Status::TypeError(kExt, ": array is not of type arrow.uuid");
  }
  ALKAID_RETURN_NOT_OK(CheckStorage(checked_cast<ExtensionType>(*data->type).storage_type()));
  if (data->buffers.size() < 2 || data->buffers[1] == nullptr) {
    return Status::Invalid(kExt, ": array has no values buffer");
  }
  return UuidArray(std::move(data));
}

}  // namespace alkaid
