/// @file
/// arrow.uuid: 16-byte UUIDs (big-endian, as written) in fixed_size_binary(16).
/// Everything here may be called from several threads at once.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/extension/parameterless.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Extension name of UuidType.
inline constexpr const char* kUuidName = "arrow.uuid";

/// One UUID: its 16 bytes in the order they are written (big-endian).
using UuidBytes = std::array<uint8_t, 16>;

/// The arrow.uuid extension type. Parameterless; every instance is equal to
/// every other.
class ALKAID_EXPORT UuidType final : public ParameterlessExtensionType {
 public:
  /// The arrow.uuid type over fixed_size_binary(16); one shared instance.
  static std::shared_ptr<UuidType> Make();
  /// Storage must be fixed_size_binary(16) (Invalid otherwise).
  static Result<std::shared_ptr<UuidType>> MakeFromStorage(DataTypePtr storage_type);

  /// kUuidName.
  std::string extension_name() const override { return kUuidName; }

 private:
  Result<DataTypePtr> FromStorage(DataTypePtr storage_type) const override {
    return AsDataType(MakeFromStorage(std::move(storage_type)));
  }
  explicit UuidType(DataTypePtr storage) : ParameterlessExtensionType(std::move(storage)) {}
};

/// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex.
/// Precondition: `bytes` points to 16 readable bytes.
ALKAID_EXPORT std::string UuidToString(const uint8_t* bytes);
/// As UuidToString(const uint8_t*), for a UuidBytes value.
inline std::string UuidToString(const UuidBytes& bytes) { return UuidToString(bytes.data()); }
/// Parses the 8-4-4-4-12 form in either case; anything else (braces, "urn:",
/// missing hyphens) is an Invalid status naming the offending position.
ALKAID_EXPORT Result<UuidBytes> ParseUuid(std::string_view text);

/// Builds an arrow.uuid array; nullopt entries become nulls. Fails with the
/// ParseUuid error, prefixed by the slot, on the first text that is not a UUID.
/// @param texts one entry per slot, in the form ParseUuid accepts
/// @param pool where the array's buffers are allocated
ALKAID_EXPORT Result<ArrayDataPtr> MakeUuidArray(const std::vector<std::optional<std::string>>& texts,
                                   MemoryPool* pool = default_memory_pool());

/// Read access to an arrow.uuid array. Shares (does not copy) the array
/// data; slot indices count from the array's logical start.
class ALKAID_EXPORT UuidArray {
 public:
  /// Fails unless data's type is arrow.uuid (TypeError) with a values buffer
  /// (Invalid). Assumes the array passed structural validation.
  static Result<UuidArray> Make(ArrayDataPtr data);
  /// Number of slots.
  int64_t length() const { return data_->length; }
  /// Whether slot i is null. Precondition: 0 <= i < length() (not checked).
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  /// The 16 bytes of slot i, pointing into the array's buffer (valid while
  /// the array lives). Precondition: 0 <= i < length() (not checked); null
  /// slots return whatever bytes are stored.
  const uint8_t* GetBytes(int64_t i) const {
    return data_->buffers[1]->data() + (data_->offset + i) * 16;
  }
  /// Slot i in text form (UuidToString). Same precondition as GetBytes.
  std::string GetText(int64_t i) const { return UuidToString(GetBytes(i)); }

 private:
  explicit UuidArray(ArrayDataPtr data) : data_(std::move(data)) {}
  ArrayDataPtr data_;
};

}  // namespace alkaid
