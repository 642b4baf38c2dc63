// Schema <-> integration JSON: types by their JSON "name" plus parameters,
// fields with children, dictionary encodings, metadata and extensions.
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

#include "alkaid/extension.h"
#include "alkaid/extension_registry.h"
#include "alkaid/visit_type.h"
#include "integration_internal.h"

namespace alkaid::integration_json::internal {

namespace {

// ---------------------------------------------------------------------------
// Reading helpers: typed member access with errors that name the location.

Result<const Json*> Member(const Json& obj, const char* key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) return Status::Invalid(path, ": missing member \"", key, "\"");
  return &*it;
}

Result<std::string> StringMember(const Json& obj, const char* key, const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(const Json* v, Member(obj, key, path));
  if (!v->is_string()) return Status::Invalid(path, ".", key, ": expected a string, got ", v->type_name());
  return v->get<std::string>();
}

Result<bool> BoolMember(const Json& obj, const char* key, const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(const Json* v, Member(obj, key, path));
  if (!v->is_boolean()) return Status::Invalid(path, ".", key, ": expected true or false, got ", v->type_name());
  return v->get<bool>();
}

Result<int64_t> IntMember(const Json& obj, const char* key, const std::string& path,
                          int64_t min, int64_t max) {
  ALKAID_ASSIGN_OR_RAISE(const Json* v, Member(obj, key, path));
  if (!v->is_number_integer())
    return Status::Invalid(path, ".", key, ": expected an integer, got ", v->type_name());
  if (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(max))
    return Status::Invalid(path, ".", key, ": ", v->get<uint64_t>(), " is out of range [", min, ", ", max, "]");
  int64_t value = v->get<int64_t>();
  if (value < min || value > max)
    return Status::Invalid(path, ".", key, ": ", value, " is out of range [", min, ", ", max, "]");
  return value;
}

Result<TimeUnit> TimeUnitMember(const Json& obj, const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(std::string unit, StringMember(obj, "unit", path));
  for (TimeUnit u : {TimeUnit::kSecond, TimeUnit::kMilli, TimeUnit::kMicro, TimeUnit::kNano}) {
    if (unit == TimeUnitJsonName(u)) return u;
  }
  return Status::Invalid(path, ".unit: unknown time unit \"", unit,
                         "\" (expected SECOND, MILLISECOND, MICROSECOND or NANOSECOND)");
}

Result<MetadataPtr> ParseMetadata(const Json& obj, const std::string& path) {
  auto it = obj.find("metadata");
  if (it == obj.end() || it->is_null()) return MetadataPtr();
  std::string where = path + ".metadata";
  if (!it->is_array()) return Status::Invalid(where, ": expected an array of {key, value}");
  auto metadata = std::make_shared<KeyValueMetadata>();
  for (size_t i = 0; i < it->size(); ++i) {
    const Json& entry = (*it)[i];
    std::string at = where + "[" + std::to_string(i) + "]";
    if (!entry.is_object()) return Status::Invalid(at, ": expected an object {key, value}");
    ALKAID_ASSIGN_OR_RAISE(std::string key, StringMember(entry, "key", at));
    ALKAID_ASSIGN_OR_RAISE(std::string value, StringMember(entry, "value", at));
    metadata->Append(std::move(key), std::move(value));
  }
  return MetadataPtr(std::move(metadata));
}

// ---------------------------------------------------------------------------
// Type from JSON: one small parser per type name.

struct TypeContext {
  const Json& type;
  const FieldVector& children;
  const std::string& path;  // of the "type" object

  Status ExpectChildren(size_t n, const char* what) const {
    if (children.size() != n)
      return Status::Invalid(path, ": a ", what, " field needs ", n, " child field(s), got ",
                             children.size());
    return Status::OK();
  }
};

using TypeParser = Result<DataTypePtr> (*)(const TypeContext&);

struct TypeEntry {
  TypeParser parse;
  bool takes_children;
};

Result<DataTypePtr> ParseInt(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(int64_t bits, IntMember(c.type, "bitWidth", c.path, 8, 64));
  ALKAID_ASSIGN_OR_RAISE(bool is_signed, BoolMember(c.type, "isSigned", c.path));
  switch (bits) {
    case 8: return is_signed ? int8() : uint8();
    case 16: return is_signed ? int16() : uint16();
    case 32: return is_signed ? int32() : uint32();
    case 64: return is_signed ? int64() : uint64();
    default: return Status::Invalid(c.path, ".bitWidth: an int has 8, 16, 32 or 64 bits, not ", bits);
  }
}

// The type that the string member `key` names, from `table` (name, factory);
// any other string is Invalid, naming `what` and listing the known names.
Result<DataTypePtr> NamedType(
    const TypeContext& c, const char* key, const char* what,
    std::initializer_list<std::pair<std::string_view, DataTypePtr (*)()>> table) {
  ALKAID_ASSIGN_OR_RAISE(std::string name, StringMember(c.type, key, c.path));
  std::string expected;
  size_t k = 0;
  for (const auto& [known, make] : table) {
    if (known == name) return make();
    expected += k == 0 ? "" : (k + 1 == table.size() ? " or " : ", ");
    expected += known;
    ++k;
  }
  return Status::Invalid(c.path, ".", key, ": unknown ", what, " \"", name, "\" (expected ",
                         expected, ")");
}

Result<DataTypePtr> ParseFloatingPoint(const TypeContext& c) {
  return NamedType(c, "precision", "precision",
                   {{"HALF", float16}, {"SINGLE", float32}, {"DOUBLE", float64}});
}

Result<DataTypePtr> ParseDecimal(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(int64_t precision, IntMember(c.type, "precision", c.path, 1, 76));
  ALKAID_ASSIGN_OR_RAISE(int64_t scale, IntMember(c.type, "scale", c.path, INT32_MIN, INT32_MAX));
  int64_t bits = 128;  // the format's default when bitWidth is absent
  if (c.type.contains("bitWidth")) {
    ALKAID_ASSIGN_OR_RAISE(bits, IntMember(c.type, "bitWidth", c.path, 32, 256));
  }
  auto made = MakeDecimal(static_cast<int>(bits), static_cast<int32_t>(precision),
                          static_cast<int32_t>(scale));
  if (!made.ok()) return made.status().WithContext(c.path);
  return made;
}

Result<DataTypePtr> ParseDate(const TypeContext& c) {
  return NamedType(c, "unit", "date unit", {{"DAY", date32}, {"MILLISECOND", date64}});
}

Result<DataTypePtr> ParseTime(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, TimeUnitMember(c.type, c.path));
  ALKAID_ASSIGN_OR_RAISE(int64_t bits, IntMember(c.type, "bitWidth", c.path, 32, 64));
  Result<DataTypePtr> made = Status::Invalid("time bitWidth must be 32 or 64, not ", bits);
  if (bits == 32) made = Time32Type::Make(unit);
  if (bits == 64) made = Time64Type::Make(unit);
  if (!made.ok()) return made.status().WithContext(c.path);
  return made;
}

Result<DataTypePtr> ParseTimestamp(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, TimeUnitMember(c.type, c.path));
  std::string timezone;
  auto it = c.type.find("timezone");
  if (it != c.type.end() && !it->is_null()) {
    if (!it->is_string()) return Status::Invalid(c.path, ".timezone: expected a string");
    timezone = it->get<std::string>();
  }
  return timestamp(unit, std::move(timezone));
}

Result<DataTypePtr> ParseDuration(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(TimeUnit unit, TimeUnitMember(c.type, c.path));
  return duration(unit);
}

Result<DataTypePtr> ParseInterval(const TypeContext& c) {
  return NamedType(c, "unit", "interval unit",
                   {{"YEAR_MONTH", month_interval},
                    {"DAY_TIME", day_time_interval},
                    {"MONTH_DAY_NANO", month_day_nano_interval}});
}

Result<DataTypePtr> ParseFixedSizeBinary(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(int64_t width, IntMember(c.type, "byteWidth", c.path, 0, INT32_MAX));
  return FixedSizeBinaryType::Make(static_cast<int32_t>(width));
}

template <DataTypePtr (*kFactory)()>
Result<DataTypePtr> ParseLeaf(const TypeContext&) {
  return kFactory();
}

template <DataTypePtr (*kFactory)(FieldPtr)>
Result<DataTypePtr> ParseListLike(const TypeContext& c) {
  ALKAID_RETURN_NOT_OK(c.ExpectChildren(1, "list-like"));
  return kFactory(c.children[0]);
}

Result<DataTypePtr> ParseFixedSizeList(const TypeContext& c) {
  ALKAID_RETURN_NOT_OK(c.ExpectChildren(1, "fixedsizelist"));
  ALKAID_ASSIGN_OR_RAISE(int64_t size, IntMember(c.type, "listSize", c.path, 0, INT32_MAX));
  return fixed_size_list(c.children[0], static_cast<int32_t>(size));
}

Result<DataTypePtr> ParseStruct(const TypeContext& c) { return struct_(c.children); }

Result<DataTypePtr> ParseMap(const TypeContext& c) {
  ALKAID_RETURN_NOT_OK(c.ExpectChildren(1, "map"));
  bool keys_sorted = false;
  if (c.type.contains("keysSorted")) {
    ALKAID_ASSIGN_OR_RAISE(keys_sorted, BoolMember(c.type, "keysSorted", c.path));
  }
  auto made = MapType::Make(c.children[0], keys_sorted);
  if (!made.ok()) return made.status().WithContext(c.path);
  return made;
}

Result<DataTypePtr> ParseUnion(const TypeContext& c) {
  ALKAID_ASSIGN_OR_RAISE(std::string mode_name, StringMember(c.type, "mode", c.path));
  UnionMode mode;
  if (mode_name == "SPARSE") {
    mode = UnionMode::kSparse;
  } else if (mode_name == "DENSE") {
    mode = UnionMode::kDense;
  } else {
    return Status::Invalid(c.path, ".mode: a union mode is SPARSE or DENSE, not \"", mode_name, "\"");
  }
  std::vector<int8_t> codes;
  auto it = c.type.find("typeIds");
  if (it != c.type.end() && !it->is_null()) {
    if (!it->is_array()) return Status::Invalid(c.path, ".typeIds: expected an array of integers");
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& v = (*it)[i];
      if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > UnionType::kMaxTypeCode)
        return Status::Invalid(c.path, ".typeIds[", i, "]: expected an integer in [0, 127], got ", v.dump());
      codes.push_back(static_cast<int8_t>(v.get<int64_t>()));
    }
  }
  auto made = UnionType::Make(c.children, std::move(codes), mode);
  if (!made.ok()) return made.status().WithContext(c.path);
  return made;
}

Result<DataTypePtr> ParseRunEndEncoded(const TypeContext& c) {
  ALKAID_RETURN_NOT_OK(c.ExpectChildren(2, "runendencoded"));
  auto made = RunEndEncodedType::Make(c.children[0], c.children[1]);
  if (!made.ok()) return made.status().WithContext(c.path);
  return made;
}

DataTypePtr ListOf(FieldPtr f) { return list(std::move(f)); }
DataTypePtr LargeListOf(FieldPtr f) { return large_list(std::move(f)); }
DataTypePtr ListViewOf(FieldPtr f) { return list_view(std::move(f)); }
DataTypePtr LargeListViewOf(FieldPtr f) { return large_list_view(std::move(f)); }

const std::unordered_map<std::string_view, TypeEntry>& TypeParsers() {
  static const std::unordered_map<std::string_view, TypeEntry> parsers = {
      {"null", {ParseLeaf<null>, false}},
      {"bool", {ParseLeaf<boolean>, false}},
      {"int", {ParseInt, false}},
      {"floatingpoint", {ParseFloatingPoint, false}},
      {"decimal", {ParseDecimal, false}},
      {"date", {ParseDate, false}},
      {"time", {ParseTime, false}},
      {"timestamp", {ParseTimestamp, false}},
      {"duration", {ParseDuration, false}},
      {"interval", {ParseInterval, false}},
      {"fixedsizebinary", {ParseFixedSizeBinary, false}},
      {"binary", {ParseLeaf<binary>, false}},
      {"utf8", {ParseLeaf<utf8>, false}},
      {"largebinary", {ParseLeaf<large_binary>, false}},
      {"largeutf8", {ParseLeaf<large_utf8>, false}},
      {"binaryview", {ParseLeaf<binary_view>, false}},
      {"utf8view", {ParseLeaf<utf8_view>, false}},
      {"list", {ParseListLike<ListOf>, true}},
      {"largelist", {ParseListLike<LargeListOf>, true}},
      {"listview", {ParseListLike<ListViewOf>, true}},
      {"largelistview", {ParseListLike<LargeListViewOf>, true}},
      {"fixedsizelist", {ParseFixedSizeList, true}},
      {"struct", {ParseStruct, true}},
      {"map", {ParseMap, true}},
      {"union", {ParseUnion, true}},
      {"runendencoded", {ParseRunEndEncoded, true}},
  };
  return parsers;
}

Result<DataTypePtr> ParseType(const Json& type, const FieldVector& children,
                              const std::string& path) {
  if (!type.is_object()) return Status::Invalid(path, ": expected a type object, got ", type.type_name());
  ALKAID_ASSIGN_OR_RAISE(std::string name, StringMember(type, "name", path));
  const auto& parsers = TypeParsers();
  auto it = parsers.find(name);
  if (it == parsers.end()) return Status::NotImplemented(path, ".name: unknown type name \"", name, "\"");
  if (!it->second.takes_children && !children.empty())
    return Status::Invalid(path, ": a \"", name, "\" type takes no children, got ", children.size());
  return it->second.parse(TypeContext{type, children, path});
}

// ---------------------------------------------------------------------------
// Fields

class SchemaParser {
 public:
  explicit SchemaParser(int max_depth) : max_depth_(max_depth) {}

  // field_path->size() is the nesting depth of `field` (1 for a top-level
  // field); deeper types are refused before recursing, so the stack stays
  // bounded whatever the input.
  Result<FieldNode> ParseField(const Json& field, FieldPath* field_path, const std::string& path) {
    if (static_cast<int64_t>(field_path->size()) > max_depth_)
      return Status::Invalid(path, ": type nesting deeper than the limit of ", max_depth_,
                             " levels");
    if (!field.is_object()) return Status::Invalid(path, ": expected a field object, got ", field.type_name());
    FieldNode node;
    ALKAID_ASSIGN_OR_RAISE(std::string name, StringMember(field, "name", path));
    std::string here = path + "(" + name + ")";
    bool nullable = true;
    if (field.contains("nullable")) {
      ALKAID_ASSIGN_OR_RAISE(nullable, BoolMember(field, "nullable", here));
    }
    FieldVector child_fields;
    auto children = field.find("children");
    if (children != field.end() && !children->is_null()) {
      if (!children->is_array()) return Status::Invalid(here, ".children: expected an array");
      for (size_t i = 0; i < children->size(); ++i) {
        field_path->push_back(static_cast<int>(i));
        auto child = ParseField((*children)[i], field_path, here + ".children[" + std::to_string(i) + "]");
        field_path->pop_back();
        if (!child.ok()) return child.status();
        child_fields.push_back(child->field);
        node.children.push_back(std::move(child).MoveValueUnsafe());
      }
    }
    ALKAID_ASSIGN_OR_RAISE(const Json* type_json, Member(field, "type", here));
    ALKAID_ASSIGN_OR_RAISE(DataTypePtr type, ParseType(*type_json, child_fields, here + ".type"));

    auto dict = field.find("dictionary");
    if (dict != field.end() && !dict->is_null()) {
      ALKAID_ASSIGN_OR_RAISE(type, ParseDictionary(*dict, type, *field_path, here + ".dictionary", &node));
    }
    ALKAID_ASSIGN_OR_RAISE(MetadataPtr metadata, ParseMetadata(field, here));
    ALKAID_RETURN_NOT_OK(ApplyExtension(here, &type, &metadata));
    node.field = std::make_shared<Field>(std::move(name), std::move(type), nullable, std::move(metadata));
    return node;
  }

  DictionaryIds TakeIds() { return std::move(ids_); }

 private:
  Result<DataTypePtr> ParseDictionary(const Json& dict, const DataTypePtr& value_type,
                                      const FieldPath& field_path, const std::string& path,
                                      FieldNode* node) {
    if (!dict.is_object()) return Status::Invalid(path, ": expected an object {id, indexType, isOrdered}");
    ALKAID_ASSIGN_OR_RAISE(int64_t id, IntMember(dict, "id", path, INT64_MIN, INT64_MAX));
    bool ordered = false;
    if (dict.contains("isOrdered")) {
      ALKAID_ASSIGN_OR_RAISE(ordered, BoolMember(dict, "isOrdered", path));
    }
    ALKAID_ASSIGN_OR_RAISE(const Json* index_json, Member(dict, "indexType", path));
    ALKAID_ASSIGN_OR_RAISE(DataTypePtr index_type, ParseType(*index_json, {}, path + ".indexType"));
    if (!index_type->is_integer())
      return Status::Invalid(path, ".indexType: dictionary indices must be integers, got ",
                             index_type->ToString());
    // Every field sharing an id shares one dictionary, so value types must agree.
    auto [it, inserted] = value_types_.emplace(id, value_type);
    if (!inserted && !it->second->Equals(*value_type))
      return Status::Invalid(path, ": dictionary id ", id, " is declared with value type ",
                             value_type->ToString(), " but an earlier field uses ",
                             it->second->ToString());
    node->dictionary_id = id;
    ids_.Set(field_path, id);
    return dictionary(std::move(index_type), value_type, ordered);
  }

  // A registered extension replaces the storage type and takes its two
  // metadata keys; an unknown one leaves storage and keys as they are.
  static Status ApplyExtension(const std::string& path, DataTypePtr* type, MetadataPtr* metadata) {
    if (*metadata == nullptr) return Status::OK();
    int64_t name_at = (*metadata)->FindKey(kExtensionNameKey);
    if (name_at < 0) return Status::OK();
    int64_t meta_at = (*metadata)->FindKey(kExtensionMetadataKey);
    std::string serialized = meta_at >= 0 ? (*metadata)->value(meta_at) : std::string();
    auto made = MakeRegisteredExtension((*metadata)->value(name_at), *type, serialized);
    if (!made.ok()) return made.status().WithContext(path + " (extension \"" + (*metadata)->value(name_at) + "\")");
    if (*made == nullptr) return Status::OK();
    *type = *made;
    auto rest = (*metadata)->Without({kExtensionNameKey, kExtensionMetadataKey});
    *metadata = rest->size() == 0 ? nullptr : MetadataPtr(std::move(rest));
    return Status::OK();
  }

  int max_depth_;
  DictionaryIds ids_;
  std::map<int64_t, DataTypePtr> value_types_;
};

// ---------------------------------------------------------------------------
// Writing: a visitor that fills the "type" object of a field.

struct TypeToJson {
  OrderedJson* out;

  // Fills the type object with `members`, in order ("name" first).
  Status Set(std::initializer_list<std::pair<const char*, OrderedJson>> members) {
    for (const auto& [key, value] : members) (*out)[key] = value;
    return Status::OK();
  }
  Status Name(const char* name) { return Set({{"name", name}}); }
  Status Visit(const NullType&) { return Name("null"); }
  Status Visit(const BooleanType&) { return Name("bool"); }
  Status Visit(const BinaryType&) { return Name("binary"); }
  Status Visit(const StringType&) { return Name("utf8"); }
  Status Visit(const LargeBinaryType&) { return Name("largebinary"); }
  Status Visit(const LargeStringType&) { return Name("largeutf8"); }
  Status Visit(const BinaryViewType&) { return Name("binaryview"); }
  Status Visit(const StringViewType&) { return Name("utf8view"); }
  Status Visit(const ListType&) { return Name("list"); }
  Status Visit(const LargeListType&) { return Name("largelist"); }
  Status Visit(const ListViewType&) { return Name("listview"); }
  Status Visit(const LargeListViewType&) { return Name("largelistview"); }
  Status Visit(const StructType&) { return Name("struct"); }
  Status Visit(const RunEndEncodedType&) { return Name("runendencoded"); }

  Status Int(const DataType& t) {
    return Set({{"name", "int"}, {"isSigned", t.is_signed_integer()}, {"bitWidth", t.bit_width()}});
  }
  Status Visit(const Int8Type& t) { return Int(t); }
  Status Visit(const Int16Type& t) { return Int(t); }
  Status Visit(const Int32Type& t) { return Int(t); }
  Status Visit(const Int64Type& t) { return Int(t); }
  Status Visit(const UInt8Type& t) { return Int(t); }
  Status Visit(const UInt16Type& t) { return Int(t); }
  Status Visit(const UInt32Type& t) { return Int(t); }
  Status Visit(const UInt64Type& t) { return Int(t); }

  Status Float(const char* precision) {
    return Set({{"name", "floatingpoint"}, {"precision", precision}});
  }
  Status Visit(const HalfFloatType&) { return Float("HALF"); }
  Status Visit(const FloatType&) { return Float("SINGLE"); }
  Status Visit(const DoubleType&) { return Float("DOUBLE"); }

  template <typename T>
    requires is_decimal_v<T>
  Status Visit(const T& t) {
    return Set({{"name", "decimal"},
                {"precision", t.precision()},
                {"scale", t.scale()},
                {"bitWidth", t.bit_width()}});
  }

  Status Visit(const Date32Type&) { return Unit("date", "DAY"); }
  Status Visit(const Date64Type&) { return Unit("date", "MILLISECOND"); }
  Status Visit(const Time32Type& t) { return Time(t); }
  Status Visit(const Time64Type& t) { return Time(t); }
  Status Time(const TemporalUnitType& t) {
    return Set({{"name", "time"}, {"unit", TimeUnitJsonName(t.unit())}, {"bitWidth", t.bit_width()}});
  }
  Status Visit(const TimestampType& t) {
    (*out)["name"] = "timestamp";
    (*out)["unit"] = TimeUnitJsonName(t.unit());
    if (!t.timezone().empty()) (*out)["timezone"] = t.timezone();
    return Status::OK();
  }
  Status Visit(const DurationType& t) { return Unit("duration", TimeUnitJsonName(t.unit())); }
  Status Visit(const MonthIntervalType&) { return Unit("interval", "YEAR_MONTH"); }
  Status Visit(const DayTimeIntervalType&) { return Unit("interval", "DAY_TIME"); }
  Status Visit(const MonthDayNanoIntervalType&) { return Unit("interval", "MONTH_DAY_NANO"); }
  Status Unit(const char* name, const char* unit) { return Set({{"name", name}, {"unit", unit}}); }

  Status Visit(const FixedSizeBinaryType& t) {
    return Set({{"name", "fixedsizebinary"}, {"byteWidth", t.byte_width()}});
  }
  Status Visit(const FixedSizeListType& t) {
    return Set({{"name", "fixedsizelist"}, {"listSize", t.list_size()}});
  }
  Status Visit(const MapType& t) { return Set({{"name", "map"}, {"keysSorted", t.keys_sorted()}}); }
  Status Union(const UnionType& t) {
    (*out)["name"] = "union";
    (*out)["mode"] = t.mode() == UnionMode::kSparse ? "SPARSE" : "DENSE";
    OrderedJson codes = OrderedJson::array();
    for (int8_t code : t.type_codes()) codes.push_back(static_cast<int>(code));
    (*out)["typeIds"] = std::move(codes);
    return Status::OK();
  }
  Status Visit(const SparseUnionType& t) { return Union(t); }
  Status Visit(const DenseUnionType& t) { return Union(t); }
  Status Visit(const DictionaryType&) {
    return Status::NotImplemented("a dictionary whose values are dictionary-encoded has no JSON form");
  }
  Status Visit(const ExtensionType& t) {
    return Status::NotImplemented("extension type ", t.extension_name(),
                                  " as a dictionary's value type has no JSON form");
  }
};

Result<OrderedJson> FieldToJson(const Field& field, const DictionaryIds& ids, FieldPath* path) {
  OrderedJson out = OrderedJson::object();
  out["name"] = field.name();

  // Peel the wrappers in the order the reader applies them: extension over
  // dictionary over value type.
  const DataType* type = field.type().get();
  const ExtensionType* extension = nullptr;
  if (type->id() == TypeId::kExtension) {
    extension = static_cast<const ExtensionType*>(type);
    type = extension->storage_type().get();
  }
  const DictionaryType* dict = nullptr;
  if (type->id() == TypeId::kDictionary) {
    dict = static_cast<const DictionaryType*>(type);
    type = dict->value_type().get();
  }
  OrderedJson type_json = OrderedJson::object();
  TypeToJson visitor{&type_json};
  Status st = VisitTypeInline(*type, &visitor);
  if (!st.ok()) return st.WithContext("field " + field.name());
  out["type"] = std::move(type_json);
  out["nullable"] = field.nullable();

  OrderedJson children = OrderedJson::array();
  for (int i = 0; i < type->num_fields(); ++i) {
    path->push_back(i);
    auto child = FieldToJson(*type->field(i), ids, path);
    path->pop_back();
    if (!child.ok()) return child.status();
    children.push_back(std::move(child).MoveValueUnsafe());
  }
  out["children"] = std::move(children);

  if (dict != nullptr) {
    auto id = ids.Get(*path);
    if (!id) return Status::KeyError("field ", field.name(), " is dictionary-encoded but has no dictionary id");
    OrderedJson index_json = OrderedJson::object();
    TypeToJson index_visitor{&index_json};
    ALKAID_RETURN_NOT_OK(VisitTypeInline(*dict->index_type(), &index_visitor));
    out["dictionary"] = OrderedJson{{"id", *id}, {"indexType", std::move(index_json)},
                                    {"isOrdered", dict->ordered()}};
  }

  OrderedJson metadata = OrderedJson::array();
  if (extension != nullptr) {
    metadata.push_back(OrderedJson{{"key", kExtensionNameKey}, {"value", extension->extension_name()}});
    metadata.push_back(OrderedJson{{"key", kExtensionMetadataKey}, {"value", extension->Serialize()}});
  }
  if (field.metadata() != nullptr) {
    const KeyValueMetadata& m = *field.metadata();
    for (int64_t i = 0; i < m.size(); ++i) {
      if (extension != nullptr && (m.key(i) == kExtensionNameKey || m.key(i) == kExtensionMetadataKey))
        continue;
      metadata.push_back(OrderedJson{{"key", m.key(i)}, {"value", m.value(i)}});
    }
  }
  if (!metadata.empty()) out["metadata"] = std::move(metadata);
  return out;
}

}  // namespace

const DataType& UnwrapExtension(const DataType& type) {
  const DataType* t = &type;
  while (t->id() == TypeId::kExtension) t = static_cast<const ExtensionType*>(t)->storage_type().get();
  return *t;
}

Result<ParsedSchema> ParseSchema(const Json& schema, const std::string& path, int max_depth) {
  if (!schema.is_object()) return Status::Invalid(path, ": expected an object with \"fields\"");
  auto fields = schema.find("fields");
  if (fields == schema.end()) return Status::Invalid(path, ": missing member \"fields\"");
  if (!fields->is_array()) return Status::Invalid(path, ".fields: expected an array");
  RegisterCanonicalExtensionTypes();
  SchemaParser parser(max_depth);
  ParsedSchema out;
  FieldVector schema_fields;
  FieldPath field_path;
  for (size_t i = 0; i < fields->size(); ++i) {
    field_path.assign(1, static_cast<int>(i));
    ALKAID_ASSIGN_OR_RAISE(FieldNode node, parser.ParseField((*fields)[i], &field_path,
                                                             path + ".fields[" + std::to_string(i) + "]"));
    schema_fields.push_back(node.field);
    out.fields.push_back(std::move(node));
  }
  ALKAID_ASSIGN_OR_RAISE(MetadataPtr metadata, ParseMetadata(schema, path));
  out.schema = std::make_shared<Schema>(std::move(schema_fields), std::move(metadata));
  out.dictionary_ids = parser.TakeIds();
  return out;
}

Result<OrderedJson> SchemaToJson(const Schema& schema, const DictionaryIds& ids) {
  OrderedJson out = OrderedJson::object();
  OrderedJson fields = OrderedJson::array();
  FieldPath path;
  for (int i = 0; i < schema.num_fields(); ++i) {
    path.assign(1, i);
    ALKAID_ASSIGN_OR_RAISE(OrderedJson field, FieldToJson(*schema.field(i), ids, &path));
    fields.push_back(std::move(field));
  }
  out["fields"] = std::move(fields);
  if (schema.metadata() != nullptr && schema.metadata()->size() > 0) {
    OrderedJson metadata = OrderedJson::array();
    const KeyValueMetadata& m = *schema.metadata();
    for (int64_t i = 0; i < m.size(); ++i)
      metadata.push_back(OrderedJson{{"key", m.key(i)}, {"value", m.value(i)}});
    out["metadata"] = std::move(metadata);
  }
  return out;
}

}  // namespace alkaid::integration_json::internal
