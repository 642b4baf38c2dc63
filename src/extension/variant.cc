#include "alkaid/extension/variant.h"

#include "alkaid/visit_type.h"
#include "extension_internal.h"

namespace alkaid {

namespace ei = extension_internal;

namespace {

constexpr std::string_view kExt = kVariantName;

bool IsVariantBinary(const DataType& type) {
  return type.id() == TypeId::kBinary || type.id() == TypeId::kLargeBinary ||
         type.id() == TypeId::kBinaryView;
}

bool IsUtcZone(const std::string& tz) {
  return tz == "UTC" || tz == "Etc/UTC" || tz == "+00:00" || tz == "Z";
}

// Whether a type appears in the Arrow -> Variant primitive mapping table.
struct PrimitiveMapping {
  template <typename T>
  bool Visit(const T&) {
    return std::is_same_v<T, NullType> || std::is_same_v<T, BooleanType> ||
           std::is_same_v<T, Int8Type> || std::is_same_v<T, UInt8Type> ||
           std::is_same_v<T, Int16Type> || std::is_same_v<T, UInt16Type> ||
           std::is_same_v<T, Int32Type> || std::is_same_v<T, UInt32Type> ||
           std::is_same_v<T, Int64Type> || std::is_same_v<T, FloatType> ||
           std::is_same_v<T, DoubleType> || std::is_same_v<T, Decimal32Type> ||
           std::is_same_v<T, Decimal64Type> || std::is_same_v<T, Decimal128Type> ||
           std::is_same_v<T, Date32Type> || std::is_same_v<T, Time64Type> ||
           std::is_same_v<T, BinaryType> || std::is_same_v<T, LargeBinaryType> ||
           std::is_same_v<T, BinaryViewType> || std::is_same_v<T, StringType> ||
           std::is_same_v<T, LargeStringType> || std::is_same_v<T, StringViewType>;
  }
  bool Visit(const TimestampType& type) {
    // Only micro- and nanosecond precision exist in Variant; a zone means
    // UTC-adjusted, none means a local (NTZ) timestamp.
    bool unit_ok = type.unit() == TimeUnit::kMicro || type.unit() == TimeUnit::kNano;
    return unit_ok && (type.timezone().empty() || IsUtcZone(type.timezone()));
  }
  bool Visit(const ExtensionType& type) {
    return type.extension_name() == "arrow.uuid" &&
           type.storage_type()->Equals(*fixed_size_binary(16));
  }
};

Status CheckTypedValue(const DataType& type, const std::string& path);

// A struct holding "value" and/or "typed_value" (plus "metadata" at the top).
Status CheckShreddedGroup(const DataType& type, const std::string& path, bool top_level) {
  if (type.id() != TypeId::kStruct) {
    return Status::Invalid(kExt, ": ", path, " must be a struct, got ", type.ToString());
  }
  const FieldPtr* metadata = nullptr;
  const FieldPtr* value = nullptr;
  const FieldPtr* typed_value = nullptr;
  for (const FieldPtr& f : type.fields()) {
    const FieldPtr** slot = nullptr;
    if (f->name() == "value") {
      slot = &value;
    } else if (f->name() == "typed_value") {
      slot = &typed_value;
    } else if (top_level && f->name() == "metadata") {
      slot = &metadata;
    } else {
      return Status::Invalid(kExt, ": ", path, " has an unexpected field '", f->name(),
                             "' (allowed: ", top_level ? "metadata, " : "", "value, typed_value)");
    }
    if (*slot != nullptr) {
      return Status::Invalid(kExt, ": ", path, " has more than one field named '", f->name(), "'");
    }
    *slot = &f;
  }
  if (top_level) {
    if (metadata == nullptr) {
      return Status::Invalid(kExt, ": storage needs a field named 'metadata'");
    }
    const Field& m = **metadata;
    if (m.nullable())
      return Status::Invalid(kExt, ": storage field 'metadata' must be non-nullable");
    const DataType* encoded = m.type().get();
    if (encoded->id() == TypeId::kDictionary) {
      encoded = checked_cast<DictionaryType>(*encoded).value_type().get();
    } else if (encoded->id() == TypeId::kRunEndEncoded) {
      encoded = checked_cast<RunEndEncodedType>(*encoded).value_type().get();
    }
    if (!IsVariantBinary(*encoded)) {
      return Status::Invalid(kExt,
                             ": storage field 'metadata' must be binary, large_binary or "
                             "binary_view (optionally dictionary- or run-end-encoded), got ",
                             m.type()->ToString());
    }
  }
  if (value == nullptr && typed_value == nullptr) {
    return Status::Invalid(kExt, ": ", path, " needs a field named 'value' or 'typed_value'");
  }
  if (value != nullptr && !IsVariantBinary(*(*value)->type())) {
    return Status::Invalid(kExt, ": ", path,
                           ".value must be binary, large_binary or "
                           "binary_view, got ",
                           (*value)->type()->ToString());
  }
  if (typed_value != nullptr) {
    return CheckTypedValue(*(*typed_value)->type(), path + ".typed_value");
  }
  return Status::OK();
}

Status CheckTypedValue(const DataType& type, const std::string& path) {
  PrimitiveMapping primitive;
  if (VisitTypeInline(type, &primitive)) return Status::OK();
  if (type.id() == TypeId::kList || type.id() == TypeId::kLargeList ||
      type.id() == TypeId::kListView) {
    const Field& element = *type.field(0);
    std::string element_path = path + "[" + element.name() + "]";
    if (element.nullable()) {
      return Status::Invalid(kExt, ": ", element_path, " (list element) must be non-nullable");
    }
    return CheckShreddedGroup(*element.type(), element_path, false);
  }
  if (type.id() == TypeId::kStruct) {
    for (const FieldPtr& f : type.fields()) {
      std::string field_path = path + "." + f->name();
      if (f->nullable()) {
        return Status::Invalid(kExt, ": ", field_path,
                               " (shredded object field) must be "
                               "non-nullable");
      }
      ALKAID_RETURN_NOT_OK(CheckShreddedGroup(*f->type(), field_path, false));
    }
    return Status::OK();
  }
  return Status::Invalid(kExt, ": ", path, " has type ", type.ToString(),
                         ", which is neither a Variant primitive nor a list or struct");
}

int IndexOf(const DataType& storage, const char* name) {
  return checked_cast<StructType>(storage).GetFieldIndex(name);
}

}  // namespace

Status CheckVariantStorage(const DataType& storage) {
  return CheckShreddedGroup(storage, "storage", /*top_level=*/true);
}

Result<std::shared_ptr<VariantType>> VariantType::Make(DataTypePtr storage_type) {
  if (storage_type == nullptr) return Status::Invalid(kExt, ": storage type is missing");
  ALKAID_RETURN_NOT_OK(CheckVariantStorage(*storage_type));
  int metadata = IndexOf(*storage_type, "metadata");
  int value = IndexOf(*storage_type, "value");
  int typed_value = IndexOf(*storage_type, "typed_value");
  return std::shared_ptr<VariantType>(
      new VariantType(std::move(storage_type), metadata, value, typed_value));
}

std::shared_ptr<VariantType> VariantType::MakeUnshredded() {
  static const std::shared_ptr<VariantType> instance(
      new VariantType(struct_({alkaid::field("metadata", binary(), false),
                               alkaid::field("value", binary(), false)}),
                      0, 1, -1));
  return instance;
}

}  // namespace alkaid
