#include "alkaid/extension/parameterless.h"

#include "extension_internal.h"

namespace alkaid {

Result<DataTypePtr> ParameterlessExtensionType::Deserialize(DataTypePtr storage_type,
                                                            const std::string& serialized) const {
  ALKAID_RETURN_NOT_OK(extension_internal::ExpectEmptyMetadata(extension_name(), serialized));
  return FromStorage(std::move(storage_type));
}

bool ParameterlessExtensionType::ExtensionEquals(const ExtensionType& other) const {
  return other.extension_name() == extension_name();
}

}  // namespace alkaid
