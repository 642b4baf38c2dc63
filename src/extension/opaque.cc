#include "alkaid/extension/opaque.h"

#include "extension_internal.h"
#include "extension_json.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kOpaqueName;

Result<std::string> RequiredString(const ei::Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::Invalid(kExt, " metadata: '", key, "' is required");
  if (!it->is_string()) return Status::Invalid(kExt, " metadata: '", key, "' must be a string");
  return it->get<std::string>();
}

}  // namespace

Result<std::shared_ptr<OpaqueType>> OpaqueType::Make(DataTypePtr storage_type,
                                                     std::string type_name,
                                                     std::string vendor_name) {
  if (storage_type == nullptr) return Status::Invalid(kExt, ": storage type is missing");
  return std::shared_ptr<OpaqueType>(
      new OpaqueType(std::move(storage_type), std::move(type_name), std::move(vendor_name)));
}

std::string OpaqueType::Serialize() const {
  ei::OrderedJson out = ei::OrderedJson::object();
  out["type_name"] = type_name_;
  out["vendor_name"] = vendor_name_;
  return ei::Dump(out);
}

Result<DataTypePtr> OpaqueType::Deserialize(DataTypePtr storage_type,
                                            const std::string& serialized) const {
  ALKAID_ASSIGN_OR_RAISE(ei::Json obj, ei::ParseObject(kExt, serialized));
  ALKAID_ASSIGN_OR_RAISE(std::string type_name, RequiredString(obj, "type_name"));
  ALKAID_ASSIGN_OR_RAISE(std::string vendor_name, RequiredString(obj, "vendor_name"));
  ALKAID_ASSIGN_OR_RAISE(
      auto type, Make(std::move(storage_type), std::move(type_name), std::move(vendor_name)));
  return DataTypePtr(std::move(type));
}

bool OpaqueType::ExtensionEquals(const ExtensionType& other) const {
  if (other.extension_name() != kOpaqueName) return false;
  const auto* o = dynamic_cast<const OpaqueType*>(&other);
  if (o == nullptr) return Serialize() == other.Serialize();
  return type_name_ == o->type_name_ && vendor_name_ == o->vendor_name_;
}

}  // namespace alkaid
