// arrow.uuid: 16-byte UUIDs (big-endian, as written) in fixed_size_binary(16).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kUuidName = "arrow.uuid";

using UuidBytes = std::array<uint8_t, 16>;

class ALKAID_EXPORT UuidType final : public ExtensionType {
 public:
  static std::shared_ptr<UuidType> Make();
  // Storage must be fixed_size_binary(16).
  static Result<std::shared_ptr<UuidType>> MakeFromStorage(DataTypePtr storage_type);

  std::string extension_name() const override { return kUuidName; }
  std::string Serialize() const override { return ""; }
  // Metadata must be empty.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

 private:
  explicit UuidType(DataTypePtr storage) : ExtensionType(std::move(storage)) {}
};

// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex.
ALKAID_EXPORT std::string UuidToString(const uint8_t* bytes);
inline std::string UuidToString(const UuidBytes& bytes) { return UuidToString(bytes.data()); }
// Parses the 8-4-4-4-12 form in either case; anything else is an error.
ALKAID_EXPORT Result<UuidBytes> ParseUuid(std::string_view text);

// Builds an arrow.uuid array; nullopt entries become nulls.
ALKAID_EXPORT Result<ArrayDataPtr> MakeUuidArray(const std::vector<std::optional<std::string>>& texts,
                                   MemoryPool* pool = default_memory_pool());

class ALKAID_EXPORT UuidArray {
 public:
  // Fails unless data's type is arrow.uuid.
  static Result<UuidArray> Make(ArrayDataPtr data);
  int64_t length() const { return data_->length; }
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  const uint8_t* GetBytes(int64_t i) const {
    return data_->buffers[1]->data() + (data_->offset + i) * 16;
  }
  std::string GetText(int64_t i) const { return UuidToString(GetBytes(i)); }

 private:
  explicit UuidArray(ArrayDataPtr data) : data_(std::move(data)) {}
  ArrayDataPtr data_;
};

}  // namespace alkaid
