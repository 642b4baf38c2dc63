/// @file
/// arrow.json: UTF-8 JSON text (RFC 8259) stored as utf8, large_utf8 or utf8_view.
/// Everything here may be called from several threads at once.
#pragma once

#include <memory>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Extension name of JsonExtensionType.
inline constexpr const char* kJsonExtensionName = "arrow.json";

/// The arrow.json extension type: each non-null string is one JSON text.
/// The type itself does not check values; see ValidateJsonArray.
class ALKAID_EXPORT JsonExtensionType final : public ExtensionType {
 public:
  /// Storage must be utf8, large_utf8 or utf8_view (Invalid otherwise).
  static Result<std::shared_ptr<JsonExtensionType>> Make(DataTypePtr storage_type = utf8());

  /// kJsonExtensionName.
  std::string extension_name() const override { return kJsonExtensionName; }
  /// "": the type has no parameters.
  std::string Serialize() const override { return ""; }
  /// Accepts "" or a JSON object (fields beyond those known are ignored, as
  /// the spec reserves them for the future).
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  /// True for any other arrow.json type (the storage is compared separately).
  bool ExtensionEquals(const ExtensionType& other) const override;

 private:
  explicit JsonExtensionType(DataTypePtr storage) : ExtensionType(std::move(storage)) {}
};

/// Checks that every non-null slot of an arrow.json array (or of a plain
/// utf8 / large_utf8 / utf8_view array) is one valid JSON text; the error
/// names the first failing slot. TypeError for other array types.
/// Buffers must already have passed structural validation.
ALKAID_EXPORT Status ValidateJsonArray(const ArrayData& data);

}  // namespace alkaid
