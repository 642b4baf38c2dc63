// arrow.opaque: a type some other system produced and we cannot interpret,
// kept with its name and the name of that system. Any storage.
#pragma once

#include <memory>
#include <string>

#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kOpaqueName = "arrow.opaque";

class ALKAID_EXPORT OpaqueType final : public ExtensionType {
 public:
  static Result<std::shared_ptr<OpaqueType>> Make(DataTypePtr storage_type, std::string type_name,
                                                  std::string vendor_name);

  std::string extension_name() const override { return kOpaqueName; }
  // {"type_name":"...","vendor_name":"..."}
  std::string Serialize() const override;
  // Both fields must be strings; other fields are ignored.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

  const std::string& type_name() const { return type_name_; }
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
