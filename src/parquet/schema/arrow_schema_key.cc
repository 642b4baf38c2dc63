// ARROW:schema: base64, the IPC schema message, and the type restorations it allows.
#include "src/parquet/schema/arrow_schema_key.h"

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "src/util/base64.h"

namespace alkaid::parquet::internal {

using alkaid::internal::Base64Decode;
using alkaid::internal::Base64Encode;

Result<std::string> EncodeArrowSchemaKey(const Schema& schema) {
  ALKAID_ASSIGN_OR_RAISE(auto message, ipc::SerializeSchema(schema));
  return Base64Encode(message->view());
}

Result<SchemaPtr> DecodeArrowSchemaKey(std::string_view value) {
  ALKAID_ASSIGN_OR_RAISE(std::string bytes, Base64Decode(value));
  auto buffer = Buffer::FromString(std::move(bytes));
  ALKAID_ASSIGN_OR_RAISE(auto reader, ipc::StreamReader::Open(buffer));
  return reader->schema();
}

namespace {

bool IsStringLike(TypeId id) {
  return id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kStringView;
}
bool IsBinaryLike(TypeId id) {
  return id == TypeId::kBinary || id == TypeId::kLargeBinary || id == TypeId::kBinaryView;
}
bool IsFixedSizeBinary(const DataType& type, int width) {
  return type.id() == TypeId::kFixedSizeBinary &&
         checked_cast<FixedSizeBinaryType>(type).byte_width() == width;
}

DataTypePtr ListOf(TypeId id, FieldPtr child) {
  switch (id) {
    case TypeId::kLargeList: return large_list(std::move(child));
    case TypeId::kListView: return list_view(std::move(child));
    case TypeId::kLargeListView: return large_list_view(std::move(child));
    default: return list(std::move(child));
  }
}

}  // namespace

DataTypePtr RestoredType(const DataTypePtr& decoded, const DataTypePtr& origin) {
  if (decoded->Equals(*origin)) return origin;
  TypeId d = decoded->id(), o = origin->id();
  if (o == TypeId::kExtension) {
    const auto& ext = checked_cast<ExtensionType>(*origin);
    if (d == TypeId::kExtension) {
      // Same extension, storage restored (e.g. arrow.json over large_utf8).
      const auto& dext = checked_cast<ExtensionType>(*decoded);
      if (dext.extension_name() != ext.extension_name()) return decoded;
      DataTypePtr storage = RestoredType(dext.storage_type(), ext.storage_type());
      return storage->Equals(*ext.storage_type()) ? origin : decoded;
    }
    DataTypePtr storage = RestoredType(decoded, ext.storage_type());
    return storage->Equals(*ext.storage_type()) ? origin : storage;
  }
  if (d == TypeId::kExtension) return decoded;
  if (o == TypeId::kDictionary) {
    const auto& dict = checked_cast<DictionaryType>(*origin);
    DataTypePtr plain = d == TypeId::kDictionary
                            ? checked_cast<DictionaryType>(*decoded).value_type()
                            : decoded;
    DataTypePtr values = RestoredType(plain, dict.value_type());
    if (!values->Equals(*dict.value_type()) || !dict.index_type()->is_integer()) {
      return decoded;
    }
    // Nested values cannot be dictionary-encoded by the reader.
    if (values->num_fields() > 0) return decoded;
    return dictionary(dict.index_type(), values, dict.ordered());
  }
  if (d == TypeId::kDictionary) {
    // Read as dictionary on request although the writer's column was plain: keep it.
    return decoded;
  }
  switch (o) {
    case TypeId::kTimestamp: {
      if (d != TypeId::kTimestamp) return decoded;
      const auto& dt = checked_cast<TimestampType>(*decoded);
      const auto& ot = checked_cast<TimestampType>(*origin);
      TimeUnit unit = dt.unit();
      if (ot.unit() == TimeUnit::kSecond && dt.unit() == TimeUnit::kMilli) unit = TimeUnit::kSecond;
      // Format 2.4 and older store nanoseconds as microseconds.
      if (ot.unit() == TimeUnit::kNano && dt.unit() == TimeUnit::kMicro) unit = TimeUnit::kNano;
      std::string tz = dt.timezone();
      if (tz == "UTC" && !ot.timezone().empty()) tz = ot.timezone();
      return timestamp(unit, tz);
    }
    case TypeId::kDate64:
      return d == TypeId::kDate32 ? origin : decoded;
    case TypeId::kUInt32:
      return d == TypeId::kInt64 ? origin : decoded;  // format 1.0 stores it as INT64
    case TypeId::kIntervalMonths:
    case TypeId::kIntervalDayTime:
      return IsFixedSizeBinary(*decoded, 12) ? origin : decoded;  // INTERVAL
    case TypeId::kIntervalMonthDayNano:
      return IsFixedSizeBinary(*decoded, 16) ? origin : decoded;
    case TypeId::kFixedSizeList: {
      if (d != TypeId::kList) return decoded;
      const auto& dl = checked_cast<BaseListType>(*decoded);
      const auto& ol = checked_cast<FixedSizeListType>(*origin);
      return fixed_size_list(RestoredField(dl.value_field(), ol.value_field()), ol.list_size());
    }
    case TypeId::kRunEndEncoded: {
      // Stored as its values; run-end encoded again on read (flat values only, as
      // RunEndEncode allows).
      const auto& ree = checked_cast<RunEndEncodedType>(*origin);
      DataTypePtr values = RestoredType(decoded, ree.value_type());
      if (!values->Equals(*ree.value_type()) || values->num_fields() > 0) return decoded;
      return origin;
    }
    case TypeId::kTime32:
      return d == TypeId::kTime32 ? origin : decoded;  // seconds stored as milliseconds
    case TypeId::kDuration:
      return d == TypeId::kInt64 ? origin : decoded;
    case TypeId::kLargeString:
    case TypeId::kStringView:
      return IsStringLike(d) ? origin : decoded;
    case TypeId::kLargeBinary:
    case TypeId::kBinaryView:
      return IsBinaryLike(d) ? origin : decoded;
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      if (d != TypeId::kDecimal128 && d != TypeId::kDecimal256) return decoded;
      const auto& dd = checked_cast<DecimalType>(*decoded);
      const auto& od = checked_cast<DecimalType>(*origin);
      bool same = dd.precision() == od.precision() && dd.scale() == od.scale();
      return same ? origin : decoded;
    }
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      if (d != TypeId::kList) return decoded;
      const auto& dl = checked_cast<BaseListType>(*decoded);
      const auto& ol = checked_cast<BaseListType>(*origin);
      return ListOf(o, RestoredField(dl.value_field(), ol.value_field()));
    }
    case TypeId::kMap: {
      if (d != TypeId::kMap) return decoded;
      const auto& dm = checked_cast<MapType>(*decoded);
      const auto& om = checked_cast<MapType>(*origin);
      auto key = RestoredField(dm.key_field(), om.key_field());
      auto item = RestoredField(dm.item_field(), om.item_field());
      return std::make_shared<MapType>(key, item, om.keys_sorted());
    }
    case TypeId::kStruct: {
      if (d != TypeId::kStruct || decoded->num_fields() != origin->num_fields()) return decoded;
      FieldVector fields;
      for (int i = 0; i < decoded->num_fields(); ++i) {
        if (decoded->field(i)->name() != origin->field(i)->name()) return decoded;
        fields.push_back(RestoredField(decoded->field(i), origin->field(i)));
      }
      return struct_(std::move(fields));
    }
    default:
      return decoded;
  }
}

FieldPtr RestoredField(const FieldPtr& decoded, const FieldPtr& origin) {
  DataTypePtr type = RestoredType(decoded->type(), origin->type());
  MetadataPtr metadata = origin->metadata();
  if (decoded->metadata() != nullptr) {
    auto merged = metadata ? metadata->Copy() : std::make_shared<KeyValueMetadata>();
    for (int64_t i = 0; i < decoded->metadata()->size(); ++i) {
      merged->Set(decoded->metadata()->key(i), decoded->metadata()->value(i));
    }
    metadata = std::move(merged);
  }
  return std::make_shared<Field>(decoded->name(), std::move(type), decoded->nullable(),
                                 std::move(metadata));
}

SchemaPtr RestoreSchema(const SchemaPtr& decoded, const Schema& origin) {
  if (decoded->num_fields() != origin.num_fields()) return decoded;
  FieldVector fields;
  for (int i = 0; i < decoded->num_fields(); ++i) {
    if (decoded->field(i)->name() != origin.field(i)->name()) return decoded;
    fields.push_back(RestoredField(decoded->field(i), origin.field(i)));
  }
  return alkaid::schema(std::move(fields), decoded->metadata());
}

}  // namespace alkaid::parquet::internal
