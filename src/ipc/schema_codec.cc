// Schema codec: conversion between alkaid schemas (fields, types, key-value
// metadata, dictionary ids) and the IPC Flatbuffers Schema table, both ways.
// See schema_codec.h for the contract.
#include "schema_codec.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <utility>

#include "alkaid/extension.h"
#include "alkaid/extension_registry.h"
#include "alkaid/visit_type.h"
#include "metadata.h"

namespace alkaid::ipc::internal {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;
using FieldOffsets = std::vector<Offset<fb::Field>>;

fb::TimeUnit ToFlatbuffer(TimeUnit unit) {
  // Both enums number SECOND..NANOSECOND as 0..3.
  return static_cast<fb::TimeUnit>(static_cast<int16_t>(unit));
}

// ---------------------------------------------------------------------------
// Writing: DataType -> Type union member

class TypeTableWriter {
 public:
  explicit TypeTableWriter(FlatBufferBuilder* fbb) : fbb_(fbb) {}

  fb::Type tag() const { return tag_; }
  Offset<void> table() const { return table_; }

  Status Visit(const NullType&) { return Set(fb::Type::Null, fb::CreateNull(*fbb_)); }
  Status Visit(const BooleanType&) { return Set(fb::Type::Bool, fb::CreateBool(*fbb_)); }

  template <typename T>
    requires(std::is_base_of_v<FixedWidthType, T> && requires { typename T::c_type; } &&
             std::is_integral_v<typename T::c_type> && !std::is_base_of_v<TemporalUnitType, T> &&
             !std::is_same_v<T, HalfFloatType> && !std::is_same_v<T, Date32Type> &&
             !std::is_same_v<T, Date64Type> && !std::is_same_v<T, MonthIntervalType>)
  Status Visit(const T& type) {
    return SetInt(type.bit_width(), std::is_signed_v<typename T::c_type>);
  }

  Status Visit(const HalfFloatType&) { return SetFloat(fb::Precision::HALF); }
  Status Visit(const FloatType&) { return SetFloat(fb::Precision::SINGLE); }
  Status Visit(const DoubleType&) { return SetFloat(fb::Precision::DOUBLE); }

  template <typename T>
    requires is_decimal_v<T>
  Status Visit(const T& type) {
    return Set(fb::Type::Decimal,
               fb::CreateDecimal(*fbb_, type.precision(), type.scale(), type.bit_width()));
  }

  Status Visit(const Date32Type&) {
    return Set(fb::Type::Date, fb::CreateDate(*fbb_, fb::DateUnit::DAY));
  }
  Status Visit(const Date64Type&) {
    return Set(fb::Type::Date, fb::CreateDate(*fbb_, fb::DateUnit::MILLISECOND));
  }
  Status Visit(const Time32Type& type) {
    return Set(fb::Type::Time, fb::CreateTime(*fbb_, ToFlatbuffer(type.unit()), 32));
  }
  Status Visit(const Time64Type& type) {
    return Set(fb::Type::Time, fb::CreateTime(*fbb_, ToFlatbuffer(type.unit()), 64));
  }
  Status Visit(const TimestampType& type) {
    Offset<flatbuffers::String> tz;
    if (!type.timezone().empty()) tz = fbb_->CreateString(type.timezone());
    return Set(fb::Type::Timestamp, fb::CreateTimestamp(*fbb_, ToFlatbuffer(type.unit()), tz));
  }
  Status Visit(const DurationType& type) {
    return Set(fb::Type::Duration, fb::CreateDuration(*fbb_, ToFlatbuffer(type.unit())));
  }
  Status Visit(const MonthIntervalType&) { return SetInterval(fb::IntervalUnit::YEAR_MONTH); }
  Status Visit(const DayTimeIntervalType&) { return SetInterval(fb::IntervalUnit::DAY_TIME); }
  Status Visit(const MonthDayNanoIntervalType&) {
    return SetInterval(fb::IntervalUnit::MONTH_DAY_NANO);
  }

  Status Visit(const FixedSizeBinaryType& type) {
    return Set(fb::Type::FixedSizeBinary, fb::CreateFixedSizeBinary(*fbb_, type.byte_width()));
  }
  Status Visit(const BinaryType&) { return Set(fb::Type::Binary, fb::CreateBinary(*fbb_)); }
  Status Visit(const StringType&) { return Set(fb::Type::Utf8, fb::CreateUtf8(*fbb_)); }
  Status Visit(const LargeBinaryType&) {
    return Set(fb::Type::LargeBinary, fb::CreateLargeBinary(*fbb_));
  }
  Status Visit(const LargeStringType&) {
    return Set(fb::Type::LargeUtf8, fb::CreateLargeUtf8(*fbb_));
  }
  Status Visit(const BinaryViewType&) {
    return Set(fb::Type::BinaryView, fb::CreateBinaryView(*fbb_));
  }
  Status Visit(const StringViewType&) {
    return Set(fb::Type::Utf8View, fb::CreateUtf8View(*fbb_));
  }

  Status Visit(const ListType&) { return Set(fb::Type::List, fb::CreateList(*fbb_)); }
  Status Visit(const LargeListType&) {
    return Set(fb::Type::LargeList, fb::CreateLargeList(*fbb_));
  }
  Status Visit(const ListViewType&) { return Set(fb::Type::ListView, fb::CreateListView(*fbb_)); }
  Status Visit(const LargeListViewType&) {
    return Set(fb::Type::LargeListView, fb::CreateLargeListView(*fbb_));
  }
  Status Visit(const FixedSizeListType& type) {
    return Set(fb::Type::FixedSizeList, fb::CreateFixedSizeList(*fbb_, type.list_size()));
  }
  Status Visit(const MapType& type) {
    return Set(fb::Type::Map, fb::CreateMap(*fbb_, type.keys_sorted()));
  }
  Status Visit(const StructType&) { return Set(fb::Type::Struct_, fb::CreateStruct_(*fbb_)); }

  template <typename T>
    requires is_union_v<T>
  Status Visit(const T& type) {
    std::vector<int32_t> codes(type.type_codes().begin(), type.type_codes().end());
    auto codes_offset = fbb_->CreateVector(codes);
    fb::UnionMode mode =
        type.mode() == UnionMode::kSparse ? fb::UnionMode::Sparse : fb::UnionMode::Dense;
    return Set(fb::Type::Union, fb::CreateUnion(*fbb_, mode, codes_offset));
  }

  Status Visit(const RunEndEncodedType&) {
    return Set(fb::Type::RunEndEncoded, fb::CreateRunEndEncoded(*fbb_));
  }

  // Both are unwrapped at the field level before we get here.
  Status Visit(const DictionaryType& type) {
    return Status::NotImplemented("dictionary type nested directly in a dictionary or extension: ",
                                  type.ToString());
  }
  Status Visit(const ExtensionType& type) {
    return Status::NotImplemented("extension type nested directly in another extension: ",
                                  type.ToString());
  }

 private:
  template <typename TableT>
  Status Set(fb::Type tag, Offset<TableT> table) {
    tag_ = tag;
    table_ = table.Union();
    return Status::OK();
  }
  Status SetInt(int bit_width, bool is_signed) {
    return Set(fb::Type::Int, fb::CreateInt(*fbb_, bit_width, is_signed));
  }
  Status SetFloat(fb::Precision precision) {
    return Set(fb::Type::FloatingPoint, fb::CreateFloatingPoint(*fbb_, precision));
  }
  Status SetInterval(fb::IntervalUnit unit) {
    return Set(fb::Type::Interval, fb::CreateInterval(*fbb_, unit));
  }

  FlatBufferBuilder* fbb_;
  fb::Type tag_ = fb::Type::NONE;
  Offset<void> table_;
};

// ---------------------------------------------------------------------------
// Writing: Field -> Field table

class FieldWriter {
 public:
  FieldWriter(FlatBufferBuilder* fbb, const DictionaryIds& ids, IpcDialect dialect, int max_depth)
      : fbb_(fbb), ids_(ids), dialect_(dialect), max_depth_(max_depth) {}

  Result<Offset<fb::Field>> Write(const Field& field, FieldPath* path) {
    if (static_cast<int>(path->size()) > max_depth_) {
      return Status::Invalid("field '", field.name(), "' (path ", FieldPathToString(*path),
                             ") is nested deeper than the limit of ", max_depth_, " levels");
    }
    const DataType* type = field.type().get();
    const ExtensionType* extension = nullptr;
    if (type->id() == TypeId::kExtension) {
      extension = static_cast<const ExtensionType*>(type);
      type = extension->storage_type().get();
      if (type->id() == TypeId::kDictionary) {
        return Status::NotImplemented("field '", field.name(), "' (path ", FieldPathToString(*path),
                                      "): extension types with dictionary storage cannot be "
                                      "written to IPC; use a dictionary of the extension instead");
      }
    }
    const DictionaryType* dictionary = nullptr;
    if (type->id() == TypeId::kDictionary) {
      dictionary = static_cast<const DictionaryType*>(type);
      type = dictionary->value_type().get();
      if (type->id() == TypeId::kExtension) {
        extension = static_cast<const ExtensionType*>(type);
        type = extension->storage_type().get();
      }
    }

    // Flatbuffers tables cannot nest while being built: children first.
    FieldOffsets children;
    children.reserve(static_cast<size_t>(type->num_fields()));
    for (int i = 0; i < type->num_fields(); ++i) {
      path->push_back(i);
      auto child = Write(*type->field(i), path);
      path->pop_back();
      if (!child.ok()) return child.status();
      children.push_back(*child);
    }

    TypeTableWriter type_writer(fbb_);
    Status st = VisitTypeInline(*type, &type_writer);
    if (!st.ok()) {
      return st.WithContext("field '" + field.name() + "' (path " + FieldPathToString(*path) + ")");
    }

    Offset<fb::DictionaryEncoding> encoding;
    if (dictionary != nullptr) {
      ALKAID_ASSIGN_OR_RAISE(encoding, WriteDictionaryEncoding(field, *dictionary, *path));
    }

    auto name = fbb_->CreateString(field.name());
    auto children_offset = fbb_->CreateVector(children);
    Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> metadata;
    if (extension != nullptr) {
      auto merged = field.metadata() ? field.metadata()->Copy() : std::make_shared<KeyValueMetadata>();
      merged->Set(ExtensionNameKey(dialect_), extension->extension_name());
      merged->Set(ExtensionMetadataKey(dialect_), extension->Serialize());
      metadata = WriteKeyValueMetadata(fbb_, merged.get());
    } else {
      metadata = WriteKeyValueMetadata(fbb_, field.metadata().get());
    }

    fb::FieldBuilder builder(*fbb_);
    builder.add_name(name);
    builder.add_nullable(field.nullable());
    builder.add_type_type(type_writer.tag());
    builder.add_type(type_writer.table());
    if (dictionary != nullptr) builder.add_dictionary(encoding);
    builder.add_children(children_offset);
    if (!metadata.IsNull()) builder.add_custom_metadata(metadata);
    return builder.Finish();
  }

 private:
  Result<Offset<fb::DictionaryEncoding>> WriteDictionaryEncoding(const Field& field,
                                                                  const DictionaryType& dictionary,
                                                                  const FieldPath& path) {
    std::optional<int64_t> id = ids_.Get(path);
    if (!id.has_value()) {
      return Status::Invalid("field '", field.name(), "' (path ", FieldPathToString(path),
                             ") is dictionary encoded but has no dictionary id");
    }
    const DataType& index = *dictionary.index_type();
    if (!index.is_integer()) {
      return Status::TypeError("field '", field.name(), "' (path ", FieldPathToString(path),
                               "): dictionary index type must be an integer, got ",
                               index.ToString());
    }
    auto index_offset = fb::CreateInt(*fbb_, index.bit_width(), index.is_signed_integer());
    return fb::CreateDictionaryEncoding(*fbb_, *id, index_offset, dictionary.ordered(),
                                        fb::DictionaryKind::DenseArray);
  }

  FlatBufferBuilder* fbb_;
  const DictionaryIds& ids_;
  IpcDialect dialect_;
  int max_depth_;
};

// ---------------------------------------------------------------------------
// Reading: Field table -> Field

Result<TimeUnit> ReadTimeUnit(fb::TimeUnit unit) {
  switch (unit) {
    case fb::TimeUnit::SECOND: return TimeUnit::kSecond;
    case fb::TimeUnit::MILLISECOND: return TimeUnit::kMilli;
    case fb::TimeUnit::MICROSECOND: return TimeUnit::kMicro;
    case fb::TimeUnit::NANOSECOND: return TimeUnit::kNano;
  }
  return Status::Invalid("unknown time unit ", static_cast<int>(unit));
}

Result<DataTypePtr> ReadIntType(const fb::Int* int_type) {
  const bool is_signed = int_type->is_signed();
  switch (int_type->bitWidth()) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
  }
  return Status::Invalid("integer bit width must be 8, 16, 32 or 64, got ", int_type->bitWidth());
}

// The type a parameter enum of the schema stands for, from `table` (value,
// factory); a value the table lacks (a newer or corrupt file) is Invalid,
// naming `what`.
template <typename Enum>
Result<DataTypePtr> TypeFromEnum(Enum value, const char* what,
                                 std::initializer_list<std::pair<Enum, DataTypePtr (*)()>> table) {
  for (const auto& [known, make] : table) {
    if (known == value) return make();
  }
  return Status::Invalid("unknown ", what, " ", static_cast<int>(value));
}

class FieldReader {
 public:
  FieldReader(int max_depth, DictionaryIds* ids) : max_depth_(max_depth), ids_(ids) {}

  Result<FieldPtr> Read(const fb::Field* field) {
    if (field == nullptr) return Fail("field table is missing");
    if (static_cast<int>(path_.size()) > max_depth_) {
      return Fail("type nesting is deeper than the limit of ", max_depth_, " levels");
    }
    std::string name = field->name() ? field->name()->str() : std::string();
    names_.push_back(name);
    auto result = ReadBody(field, std::move(name));
    names_.pop_back();
    return result;
  }

  // Reads the top-level field `index`.
  Result<FieldPtr> ReadTopLevel(const fb::Field* field, int index) {
    path_.assign(1, index);
    names_.clear();
    return Read(field);
  }

 private:
  Result<FieldPtr> ReadBody(const fb::Field* field, std::string name) {
    FieldVector children;
    if (const auto* fb_children = field->children()) {
      children.reserve(fb_children->size());
      for (flatbuffers::uoffset_t i = 0; i < fb_children->size(); ++i) {
        path_.push_back(static_cast<int>(i));
        auto child = Read(fb_children->Get(i));
        path_.pop_back();
        if (!child.ok()) return child.status();
        children.push_back(std::move(*child));
      }
    }

    auto metadata_result = ReadKeyValueMetadata(field->custom_metadata(), Where());
    if (!metadata_result.ok()) return metadata_result.status();
    MetadataPtr metadata = std::move(*metadata_result);

    ALKAID_ASSIGN_OR_RAISE(DataTypePtr type, ReadType(field, std::move(children)));
    ALKAID_ASSIGN_OR_RAISE(type, ApplyExtension(std::move(type), &metadata));

    if (const fb::DictionaryEncoding* encoding = field->dictionary()) {
      ALKAID_ASSIGN_OR_RAISE(type, ReadDictionary(*encoding, std::move(type)));
    }
    return std::make_shared<Field>(std::move(name), std::move(type), field->nullable(),
                                   std::move(metadata));
  }

  Result<DataTypePtr> ReadDictionary(const fb::DictionaryEncoding& encoding,
                                     DataTypePtr value_type) {
    if (encoding.dictionaryKind() != fb::DictionaryKind::DenseArray) {
      return Fail("unknown dictionary kind ", static_cast<int>(encoding.dictionaryKind()));
    }
    DataTypePtr index_type = int32();
    if (const fb::Int* index = encoding.indexType()) {
      auto read = ReadIntType(index);
      if (!read.ok()) return Fail("dictionary index type: ", read.status().message());
      index_type = std::move(*read);
    }
    ids_->Set(path_, encoding.id());
    return std::make_shared<DictionaryType>(std::move(index_type), std::move(value_type),
                                            encoding.isOrdered());
  }

  // Field metadata naming an extension becomes the registered extension type.
  Result<DataTypePtr> ApplyExtension(DataTypePtr storage, MetadataPtr* metadata) {
    if (*metadata == nullptr) return storage;
    const char* name_key = kExtensionNameKey;
    const char* value_key = kExtensionMetadataKey;
    int64_t name_index = (*metadata)->FindKey(name_key);
    if (name_index < 0) {
      name_key = kAlkaidExtensionNameKey;
      value_key = kAlkaidExtensionMetadataKey;
      name_index = (*metadata)->FindKey(name_key);
      if (name_index < 0) return storage;
    }
    int64_t value_index = (*metadata)->FindKey(value_key);
    std::string serialized = value_index >= 0 ? (*metadata)->value(value_index) : std::string();

    RegisterCanonicalExtensionTypes();
    auto made = MakeRegisteredExtension((*metadata)->value(name_index), storage, serialized);
    if (!made.ok()) return Fail("extension type: ", made.status().message());
    if (*made == nullptr) return storage;  // unknown: storage type, keys kept
    auto remaining = (*metadata)->Without({name_key, value_key});
    *metadata = remaining->size() == 0 ? nullptr : MetadataPtr(std::move(remaining));
    return std::move(*made);
  }

  Result<DataTypePtr> ReadType(const fb::Field* field, FieldVector children) {
    const fb::Type tag = field->type_type();
    if (tag == fb::Type::NONE) return Fail("field has no type");
    if (static_cast<uint8_t>(tag) > static_cast<uint8_t>(fb::Type::MAX)) {
      return Fail("unknown type tag ", static_cast<int>(tag));
    }
    if (field->type() == nullptr) {
      return Fail("type table for ", fb::EnumNameType(tag), " is missing");
    }
    switch (tag) {
      case fb::Type::List:
      case fb::Type::LargeList:
      case fb::Type::ListView:
      case fb::Type::LargeListView:
      case fb::Type::FixedSizeList:
      case fb::Type::Map:
        if (children.size() != 1) return Fail(fb::EnumNameType(tag), " needs exactly 1 child, got ", children.size());
        break;
      case fb::Type::RunEndEncoded:
        if (children.size() != 2) return Fail("RunEndEncoded needs exactly 2 children, got ", children.size());
        break;
      case fb::Type::Struct_:
      case fb::Type::Union:
        break;
      default:
        if (!children.empty()) {
          return Fail(fb::EnumNameType(tag), " takes no children, got ", children.size());
        }
    }
    auto result = ReadTypeTable(field, tag, std::move(children));
    if (!result.ok() && result.status().message().rfind("field ", 0) != 0) {
      return Fail(result.status().message());
    }
    return result;
  }

  Result<DataTypePtr> ReadTypeTable(const fb::Field* field, fb::Type tag, FieldVector children) {
    switch (tag) {
      case fb::Type::Null: return null();
      case fb::Type::Bool: return boolean();
      case fb::Type::Int: return ReadIntType(field->type_as_Int());
      case fb::Type::FloatingPoint:
        return TypeFromEnum(field->type_as_FloatingPoint()->precision(), "floating point precision",
                            {{fb::Precision::HALF, float16},
                             {fb::Precision::SINGLE, float32},
                             {fb::Precision::DOUBLE, float64}});
      case fb::Type::Decimal: {
        const fb::Decimal* d = field->type_as_Decimal();
        return MakeDecimal(d->bitWidth(), d->precision(), d->scale());
      }
      case fb::Type::Date:
        return TypeFromEnum(field->type_as_Date()->unit(), "date unit",
                            {{fb::DateUnit::DAY, date32}, {fb::DateUnit::MILLISECOND, date64}});
      case fb::Type::Time: return ReadTime(field->type_as_Time());
      case fb::Type::Timestamp: {
        const fb::Timestamp* ts = field->type_as_Timestamp();
        ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, ReadTimeUnit(ts->unit()));
        return timestamp(unit, ts->timezone() ? ts->timezone()->str() : std::string());
      }
      case fb::Type::Duration: {
        ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, ReadTimeUnit(field->type_as_Duration()->unit()));
        return duration(unit);
      }
      case fb::Type::Interval:
        return TypeFromEnum(field->type_as_Interval()->unit(), "interval unit",
                            {{fb::IntervalUnit::YEAR_MONTH, month_interval},
                             {fb::IntervalUnit::DAY_TIME, day_time_interval},
                             {fb::IntervalUnit::MONTH_DAY_NANO, month_day_nano_interval}});
      case fb::Type::FixedSizeBinary:
        return FixedSizeBinaryType::Make(field->type_as_FixedSizeBinary()->byteWidth());
      case fb::Type::Binary: return binary();
      case fb::Type::Utf8: return utf8();
      case fb::Type::LargeBinary: return large_binary();
      case fb::Type::LargeUtf8: return large_utf8();
      case fb::Type::BinaryView: return binary_view();
      case fb::Type::Utf8View: return utf8_view();
      case fb::Type::List: return list(std::move(children[0]));
      case fb::Type::LargeList: return large_list(std::move(children[0]));
      case fb::Type::ListView: return list_view(std::move(children[0]));
      case fb::Type::LargeListView: return large_list_view(std::move(children[0]));
      case fb::Type::FixedSizeList:
        return FixedSizeListType::Make(std::move(children[0]),
                                       field->type_as_FixedSizeList()->listSize());
      case fb::Type::Map:
        return MapType::Make(std::move(children[0]), field->type_as_Map()->keysSorted());
      case fb::Type::Struct_: return struct_(std::move(children));
      case fb::Type::Union: return ReadUnion(field->type_as_Union(), std::move(children));
      case fb::Type::RunEndEncoded:
        return RunEndEncodedType::Make(std::move(children[0]), std::move(children[1]));
      default:
        return Status::Invalid("unknown type tag ", static_cast<int>(tag));
    }
  }

  static Result<DataTypePtr> ReadTime(const fb::Time* time) {
    ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, ReadTimeUnit(time->unit()));
    const bool wide = unit == TimeUnit::kMicro || unit == TimeUnit::kNano;
    const int expected = wide ? 64 : 32;
    if (time->bitWidth() != expected) {
      return Status::Invalid("time in ", TimeUnitName(unit), " must be ", expected,
                             " bits wide, got ", time->bitWidth());
    }
    return wide ? time64(unit) : time32(unit);
  }

  static Result<DataTypePtr> ReadUnion(const fb::Union* u, FieldVector children) {
    UnionMode mode;
    switch (u->mode()) {
      case fb::UnionMode::Sparse: mode = UnionMode::kSparse; break;
      case fb::UnionMode::Dense: mode = UnionMode::kDense; break;
      default:
        return Status::Invalid("unknown union mode ", static_cast<int>(u->mode()));
    }
    std::vector<int8_t> codes;
    if (const auto* ids = u->typeIds()) {
      if (ids->size() != children.size()) {
        return Status::Invalid("union has ", children.size(), " children but ", ids->size(),
                               " type ids");
      }
      codes.reserve(ids->size());
      for (flatbuffers::uoffset_t i = 0; i < ids->size(); ++i) {
        int32_t code = ids->Get(i);
        if (code < 0 || code > UnionType::kMaxTypeCode) {
          return Status::Invalid("union type id ", code, " (child ", i,
                                 ") is outside [0, 127]");
        }
        codes.push_back(static_cast<int8_t>(code));
      }
    }
    // An empty code list means 0..n-1; Make() checks the child count for that.
    if (codes.empty() && !children.empty() && u->typeIds() != nullptr) {
      return Status::Invalid("union type ids are empty but there are children");
    }
    return UnionType::Make(std::move(children), std::move(codes), mode);
  }

  std::string Where() const {
    std::string names;
    for (size_t i = 0; i < names_.size(); ++i) {
      if (i > 0) names += '.';
      names += names_[i];
    }
    return "field '" + names + "' (path " + FieldPathToString(path_) + ")";
  }

  template <typename... Args>
  Status Fail(Args&&... args) const {
    return Status::Invalid(Where(), ": ", std::forward<Args>(args)...);
  }

  int max_depth_;
  DictionaryIds* ids_;
  FieldPath path_;
  std::vector<std::string> names_;
};

// Walks a schema in the order of DictionaryIds::AssignSequential.
Status CollectDictionaries(const DataType& type, const DictionaryIds& ids, FieldPath* path,
                           std::vector<DictionaryField>* out) {
  const DataType* walk = &type;
  while (walk->id() == TypeId::kExtension) {
    walk = static_cast<const ExtensionType*>(walk)->storage_type().get();
  }
  if (walk->id() == TypeId::kDictionary) {
    const auto* dict = static_cast<const DictionaryType*>(walk);
    std::optional<int64_t> id = ids.Get(*path);
    if (!id.has_value()) {
      return Status::Invalid("dictionary-encoded field at path ", FieldPathToString(*path),
                             " has no dictionary id");
    }
    out->push_back(DictionaryField{*path, *id, dict});
    walk = dict->value_type().get();
    while (walk->id() == TypeId::kExtension) {
      walk = static_cast<const ExtensionType*>(walk)->storage_type().get();
    }
  }
  for (int i = 0; i < walk->num_fields(); ++i) {
    path->push_back(i);
    Status st = CollectDictionaries(*walk->field(i)->type(), ids, path, out);
    path->pop_back();
    ALKAID_RETURN_NOT_OK(st);
  }
  return Status::OK();
}

}  // namespace

std::string FieldPathToString(const FieldPath& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += '.';
    out += std::to_string(path[i]);
  }
  return out;
}

// ---------------------------------------------------------------------------

const char* ExtensionNameKey(IpcDialect dialect) {
  return dialect == IpcDialect::kAlkaid ? kAlkaidExtensionNameKey : kExtensionNameKey;
}

const char* ExtensionMetadataKey(IpcDialect dialect) {
  return dialect == IpcDialect::kAlkaid ? kAlkaidExtensionMetadataKey : kExtensionMetadataKey;
}

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>> WriteKeyValueMetadata(
    flatbuffers::FlatBufferBuilder* fbb, const KeyValueMetadata* metadata) {
  if (metadata == nullptr || metadata->size() == 0) return 0;
  std::vector<Offset<fb::KeyValue>> entries;
  entries.reserve(static_cast<size_t>(metadata->size()));
  for (int64_t i = 0; i < metadata->size(); ++i) {
    auto key = fbb->CreateString(metadata->key(i));
    auto value = fbb->CreateString(metadata->value(i));
    entries.push_back(fb::CreateKeyValue(*fbb, key, value));
  }
  return fbb->CreateVector(entries);
}

Result<MetadataPtr> ReadKeyValueMetadata(
    const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* kv, std::string_view where) {
  if (kv == nullptr) return MetadataPtr();
  std::vector<std::string> keys, values;
  keys.reserve(kv->size());
  values.reserve(kv->size());
  for (flatbuffers::uoffset_t i = 0; i < kv->size(); ++i) {
    const fb::KeyValue* entry = kv->Get(i);
    if (entry == nullptr || entry->key() == nullptr) {
      return Status::Invalid(where, ": custom_metadata entry ", i, " has no key");
    }
    keys.push_back(entry->key()->str());
    // A missing value reads as empty: some producers omit empty strings.
    values.push_back(entry->value() ? entry->value()->str() : std::string());
  }
  return MetadataPtr(std::make_shared<KeyValueMetadata>(std::move(keys), std::move(values)));
}

Result<flatbuffers::Offset<fb::Schema>> WriteSchema(flatbuffers::FlatBufferBuilder* fbb,
                                                    const Schema& schema, const DictionaryIds& ids,
                                                    IpcDialect dialect, int max_depth) {
  FieldWriter writer(fbb, ids, dialect, max_depth);
  FieldOffsets fields;
  fields.reserve(static_cast<size_t>(schema.num_fields()));
  FieldPath path;
  for (int i = 0; i < schema.num_fields(); ++i) {
    path.assign(1, i);
    ALKAID_ASSIGN_OR_RAISE(auto offset, writer.Write(*schema.field(i), &path));
    fields.push_back(offset);
  }
  auto fields_offset = fbb->CreateVector(fields);
  auto metadata = WriteKeyValueMetadata(fbb, schema.metadata().get());
  fb::Endianness endianness =
      schema.endianness() == Endianness::kBig ? fb::Endianness::Big : fb::Endianness::Little;
  return fb::CreateSchema(*fbb, endianness, fields_offset, metadata);
}

Status BuildSchemaMessage(flatbuffers::FlatBufferBuilder* fbb, const Schema& schema,
                          const DictionaryIds& ids, IpcDialect dialect, int max_depth) {
  fbb->Clear();
  ALKAID_ASSIGN_OR_RAISE(auto schema_offset, WriteSchema(fbb, schema, ids, dialect, max_depth));
  fbb->Finish(fb::CreateMessage(*fbb, kCurrentMetadataVersion, fb::MessageHeader::Schema,
                                schema_offset.Union(), 0));
  return Status::OK();
}

Result<BufferPtr> SerializeSchemaMessage(const Schema& schema, const DictionaryIds& ids,
                                         IpcDialect dialect, int max_depth) {
  FlatBufferBuilder fbb(1024);
  ALKAID_RETURN_NOT_OK(BuildSchemaMessage(&fbb, schema, ids, dialect, max_depth));
  return Buffer::Copy(fbb.GetBufferPointer(), static_cast<int64_t>(fbb.GetSize()));
}

Result<SchemaReadResult> ReadSchema(const fb::Schema* schema, int max_depth) {
  if (schema == nullptr) return Status::Invalid("schema table is missing");
  SchemaReadResult result;
  FieldReader reader(max_depth, &result.dictionary_ids);
  FieldVector fields;
  if (const auto* fb_fields = schema->fields()) {
    fields.reserve(fb_fields->size());
    for (flatbuffers::uoffset_t i = 0; i < fb_fields->size(); ++i) {
      ALKAID_ASSIGN_OR_RAISE(auto f, reader.ReadTopLevel(fb_fields->Get(i), static_cast<int>(i)));
      fields.push_back(std::move(f));
    }
  }
  ALKAID_ASSIGN_OR_RAISE(MetadataPtr metadata,
                         ReadKeyValueMetadata(schema->custom_metadata(), "schema"));
  Endianness endianness;
  switch (schema->endianness()) {
    case fb::Endianness::Little: endianness = Endianness::kLittle; break;
    case fb::Endianness::Big: endianness = Endianness::kBig; break;
    default:
      return Status::Invalid("schema: unknown endianness ",
                             static_cast<int>(schema->endianness()));
  }
  result.schema = std::make_shared<Schema>(std::move(fields), std::move(metadata), endianness);
  // Fields sharing an id share one dictionary, so their values must agree.
  ALKAID_ASSIGN_OR_RAISE(auto dicts, CollectDictionaryFields(*result.schema, result.dictionary_ids));
  (void)dicts;
  return result;
}

Result<std::vector<DictionaryField>> CollectDictionaryFields(const Schema& schema,
                                                             const DictionaryIds& ids) {
  std::vector<DictionaryField> out;
  FieldPath path;
  for (int i = 0; i < schema.num_fields(); ++i) {
    path.assign(1, i);
    ALKAID_RETURN_NOT_OK(CollectDictionaries(*schema.field(i)->type(), ids, &path, &out));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (out[j].id != out[i].id) continue;
      if (!out[j].type->value_type()->Equals(*out[i].type->value_type())) {
        return Status::Invalid("fields at paths ", FieldPathToString(out[j].path), " and ",
                               FieldPathToString(out[i].path), " share dictionary id ", out[i].id,
                               " but have different value types (",
                               out[j].type->value_type()->ToString(), " vs ",
                               out[i].type->value_type()->ToString(), ")");
      }
      break;
    }
  }
  return out;
}

}  // namespace alkaid::ipc::internal
