// Semantic checks of canonical extension arrays, found anywhere in a tree
// of ArrayData.
#include "alkaid/extension/validate.h"

#include <string>
#include <unordered_map>

#include "alkaid/extension/api.h"

namespace alkaid {

namespace {

using ArrayCheck = Status (*)(const ArrayDataPtr& data);

// Arrays whose type carries a canonical name but is another class (a type
// registered by someone else, or built by hand) are re-read through our own
// class so the checks see typed parameters.
template <typename TypeClass>
Result<ArrayDataPtr> AsCanonical(const ArrayDataPtr& data, const ExtensionType& prototype) {
  if (dynamic_cast<const TypeClass*>(data->type.get()) != nullptr) return data;
  const auto& ext = checked_cast<ExtensionType>(*data->type);
  ALKAID_ASSIGN_OR_RAISE(DataTypePtr type,
                         prototype.Deserialize(ext.storage_type(), ext.Serialize()));
  auto copy = std::make_shared<ArrayData>(*data);
  copy->type = std::move(type);
  return copy;
}

Status CheckVariableShapeTensor(const ArrayDataPtr& data) {
  static const auto prototype = VariableShapeTensorType::Make(float32(), 1).ValueOrDie();
  ALKAID_ASSIGN_OR_RAISE(auto canonical, AsCanonical<VariableShapeTensorType>(data, *prototype));
  ALKAID_ASSIGN_OR_RAISE(auto array, VariableShapeTensorArray::Make(std::move(canonical)));
  return array.ValidateFull();
}

Status CheckFixedShapeTensor(const ArrayDataPtr& data) {
  static const auto prototype = FixedShapeTensorType::Make(float32(), {1}).ValueOrDie();
  // The type checks (list size = product of shape) are what matter here.
  return AsCanonical<FixedShapeTensorType>(data, *prototype).status();
}

Status CheckJson(const ArrayDataPtr& data) { return ValidateJsonArray(*data); }

Status CheckTimestampWithOffset(const ArrayDataPtr& data) {
  static const auto prototype = TimestampWithOffsetType::Make(TimeUnit::kMicro);
  ALKAID_ASSIGN_OR_RAISE(auto canonical, AsCanonical<TimestampWithOffsetType>(data, *prototype));
  ALKAID_ASSIGN_OR_RAISE(auto array, TimestampWithOffsetArray::Make(std::move(canonical)));
  return array.ValidateFull();
}

// Types whose rules live in the storage type alone: re-checking it catches
// hand-built types that skipped the factory.
Status CheckUuid(const ArrayDataPtr& data) {
  return AsCanonical<UuidType>(data, *UuidType::Make()).status();
}
Status CheckBool8(const ArrayDataPtr& data) {
  return AsCanonical<Bool8Type>(data, *Bool8Type::Make()).status();
}
Status CheckVariant(const ArrayDataPtr& data) {
  return AsCanonical<VariantType>(data, *VariantType::MakeUnshredded()).status();
}

const std::unordered_map<std::string, ArrayCheck>& Checks() {
  static const std::unordered_map<std::string, ArrayCheck> checks = {
      {kFixedShapeTensorName, &CheckFixedShapeTensor},
      {kVariableShapeTensorName, &CheckVariableShapeTensor},
      {kJsonExtensionName, &CheckJson},
      {kTimestampWithOffsetName, &CheckTimestampWithOffset},
      {kUuidName, &CheckUuid},
      {kBool8Name, &CheckBool8},
      {kVariantName, &CheckVariant},
  };
  return checks;
}

Status ValidateTree(const ArrayDataPtr& data, const std::string& path) {
  if (data == nullptr || data->type == nullptr) return Status::OK();
  if (data->type->id() == TypeId::kExtension) {
    const auto& ext = checked_cast<ExtensionType>(*data->type);
    auto it = Checks().find(ext.extension_name());
    if (it != Checks().end()) {
      Status st = it->second(data);
      if (!st.ok()) return path.empty() ? st : st.WithContext(path);
    }
  }
  const DataType& storage = data->storage_type();
  for (size_t i = 0; i < data->child_data.size(); ++i) {
    std::string name = i < static_cast<size_t>(storage.num_fields())
                           ? storage.field(static_cast<int>(i))->name()
                           : std::to_string(i);
    ALKAID_RETURN_NOT_OK(
        ValidateTree(data->child_data[i], path.empty() ? name : path + "." + name));
  }
  if (data->dictionary != nullptr) {
    ALKAID_RETURN_NOT_OK(
        ValidateTree(data->dictionary, path.empty() ? "dictionary" : path + ".dictionary"));
  }
  return Status::OK();
}

}  // namespace

Status ValidateExtensionArray(const ArrayData& data) {
  // The checks keep shared_ptrs; a non-owning alias avoids copying `data`.
  ArrayDataPtr alias(std::shared_ptr<void>(), const_cast<ArrayData*>(&data));
  return ValidateTree(alias, "");
}

}  // namespace alkaid
