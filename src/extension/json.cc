#include "alkaid/extension/json.h"

#include <exception>

#include "alkaid/array.h"
#include "alkaid/bitmap.h"
#include "extension_internal.h"
#include "extension_json.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kJsonExtensionName;

Status CheckStorage(const DataTypePtr& storage) {
  if (storage == nullptr || !storage->is_utf8()) {
    return Status::Invalid(kExt, ": storage must be utf8, large_utf8 or utf8_view, got ",
                           storage ? storage->ToString() : std::string("nothing"));
  }
  return Status::OK();
}

bool IsJsonText(std::string_view text) {
  try {
    return ei::Json::accept(text.begin(), text.end());
  } catch (const std::exception&) {
    return false;
  }
}

// Checks each non-null slot of a string-like array viewed as ArrayClass.
template <typename ArrayClass>
Status CheckSlots(const ArrayData& data) {
  ArrayClass array(std::make_shared<ArrayData>(data));
  const uint8_t* validity = data.MayHaveNulls() ? data.validity() : nullptr;
  int64_t bad = -1;
  bit_util::VisitSetBits(validity, data.offset, data.length, [&](int64_t i) {
    if (bad < 0 && !IsJsonText(array.GetView(i))) bad = i;
  });
  if (bad >= 0) {
    return Status::Invalid(kExt, ": slot ", bad, " is not valid JSON (RFC 8259)");
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<JsonExtensionType>> JsonExtensionType::Make(DataTypePtr storage_type) {
  ALKAID_RETURN_NOT_OK(CheckStorage(storage_type));
  return std::shared_ptr<JsonExtensionType>(new JsonExtensionType(std::move(storage_type)));
}

Result<DataTypePtr> JsonExtensionType::Deserialize(DataTypePtr storage_type,
                                                   const std::string& serialized) const {
  if (!serialized.empty()) {
    ALKAID_RETURN_NOT_OK(ei::ParseObject(kExt, serialized).status());
  }
  ALKAID_ASSIGN_OR_RAISE(auto type, Make(std::move(storage_type)));
  return DataTypePtr(std::move(type));
}

bool JsonExtensionType::ExtensionEquals(const ExtensionType& other) const {
  return other.extension_name() == kJsonExtensionName;
}

Status ValidateJsonArray(const ArrayData& data) {
  switch (data.storage_type().id()) {
    case TypeId::kString:
      return CheckSlots<StringArray>(data);
    case TypeId::kLargeString:
      return CheckSlots<LargeStringArray>(data);
    case TypeId::kStringView:
      return CheckSlots<StringViewArray>(data);
    default:
      return Status::TypeError(kExt, ": cannot check JSON text in an array of ",
                               data.type->ToString());
  }
}

}  // namespace alkaid
