/// @file
/// arrow.opaque: a type some other system produced and we cannot interpret,
/// kept with its name and the name of that system. Any storage.
/// Everything here may be called from several threads at once.
#pragma once

#include <memory>
#include <string>

#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Extension name of OpaqueType.
inline constexpr const char* kOpaqueName = "arrow.opaque";

/// The arrow.opaque extension type: values of a foreign type passed through
/// uninterpreted in whatever storage the producer chose.
class ALKAID_EXPORT OpaqueType final : public ExtensionType {
 public:
  /// An opaque type over any storage; Invalid only when `storage_type` is null.
  /// @param storage_type the physical type of the values
  /// @param type_name the producer's name for the type (may be empty)
  /// @param vendor_name the name of the producing system (may be empty)
  static Result<std::shared_ptr<OpaqueType>> Make(DataTypePtr storage_type, std::string type_name,
                                                  std::string vendor_name);

  /// kOpaqueName.
  std::string extension_name() const override { return kOpaqueName; }
  /// {"type_name":"...","vendor_name":"..."}
  std::string Serialize() const override;
  /// Both fields must be present and strings; other fields are ignored.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  /// Same type_name() and vendor_name().
  bool ExtensionEquals(const ExtensionType& other) const override;

  /// The producer's name for the type.
  const std::string& type_name() const { return type_name_; }
  /// The name of the system that produced the type.
  const std::string& vendor_name() const { return vendor_name_; }

 private:
  OpaqueType(DataTypePtr storage, std::string type_name, std::string vendor_name)
      : ExtensionType(std::move(storage)),
        type_name_(std::move(type_name)),
        vendor_name_(std::move(vendor_name)) {}
  std::string type_name_;
  std::string vendor_name_;
};

}  // namespace alkaid
