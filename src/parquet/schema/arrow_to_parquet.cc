#include "src/parquet/schema/arrow_to_parquet.h"

#include <charconv>
#include <cmath>
#include <string>

#include "alkaid/extension/json.h"
#include "alkaid/extension/uuid.h"
#include "src/parquet/schema/schema_tree.h"

namespace alkaid::parquet::internal {

namespace {

using Kind = LogicalType::Kind;
using C = ValueConversion;

LogicalType Annotation(Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType IntegerAnnotation(int bits, bool is_signed) {
  LogicalType t = Annotation(Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

LogicalType TimeAnnotation(Kind kind, TimeUnit unit, bool utc) {
  LogicalType t = Annotation(kind);
  t.unit = unit;
  t.is_adjusted_to_utc = utc;
  return t;
}

// The fewest bytes whose two's complement holds every number of `precision` digits.
int32_t DecimalBytes(int32_t precision) {
  for (int32_t n = 1; n < 32; ++n) {
    if (precision <= static_cast<int32_t>(std::floor((8 * n - 1) * std::log10(2.0)))) return n;
  }
  return 32;
}

LeafStorage Leaf(PhysicalType physical, C conversion, LogicalType logical = {},
                 int32_t type_length = 0) {
  LeafStorage s;
  s.physical_type = physical;
  s.conversion = conversion;
  s.logical_type = std::move(logical);
  s.type_length = type_length;
  return s;
}

}  // namespace

Result<LeafStorage> StorageOf(const DataType& type, FormatVersion version) {
  using P = PhysicalType;
  switch (type.id()) {
    case TypeId::kNull: return Leaf(P::kInt32, C::kNone, Annotation(Kind::kUnknown));
    case TypeId::kBool: return Leaf(P::kBoolean, C::kBoolean);
    case TypeId::kInt8: return Leaf(P::kInt32, C::kInt8, IntegerAnnotation(8, true));
    case TypeId::kUInt8: return Leaf(P::kInt32, C::kUInt8, IntegerAnnotation(8, false));
    case TypeId::kInt16: return Leaf(P::kInt32, C::kInt16, IntegerAnnotation(16, true));
    case TypeId::kUInt16: return Leaf(P::kInt32, C::kUInt16, IntegerAnnotation(16, false));
    case TypeId::kInt32: return Leaf(P::kInt32, C::kFixed);
    case TypeId::kUInt32:
      if (version == FormatVersion::k1_0) return Leaf(P::kInt64, C::kUInt32ToInt64);
      return Leaf(P::kInt32, C::kFixed, IntegerAnnotation(32, false));
    case TypeId::kInt64: return Leaf(P::kInt64, C::kFixed);
    case TypeId::kUInt64: return Leaf(P::kInt64, C::kFixed, IntegerAnnotation(64, false));
    case TypeId::kHalfFloat:
      return Leaf(P::kFixedLenByteArray, C::kFixed, Annotation(Kind::kFloat16), 2);
    case TypeId::kFloat: return Leaf(P::kFloat, C::kFixed);
    case TypeId::kDouble: return Leaf(P::kDouble, C::kFixed);
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      const auto& dec = checked_cast<DecimalType>(type);
      LogicalType t = Annotation(Kind::kDecimal);
      t.precision = dec.precision();
      t.scale = dec.scale();
      if (type.id() == TypeId::kDecimal32) return Leaf(P::kInt32, C::kFixed, t);
      if (type.id() == TypeId::kDecimal64) return Leaf(P::kInt64, C::kFixed, t);
      return Leaf(P::kFixedLenByteArray, C::kDecimalBigEndian, t, DecimalBytes(dec.precision()));
    }
    case TypeId::kDate32: return Leaf(P::kInt32, C::kFixed, Annotation(Kind::kDate));
    case TypeId::kDate64: return Leaf(P::kInt32, C::kDate64, Annotation(Kind::kDate));
    case TypeId::kTime32: {
      bool seconds = checked_cast<Time32Type>(type).unit() == TimeUnit::kSecond;
      return Leaf(P::kInt32, seconds ? C::kSecondsToMillis32 : C::kFixed,
                  TimeAnnotation(Kind::kTime, TimeUnit::kMilli, true));
    }
    case TypeId::kTime64:
      return Leaf(P::kInt64, C::kFixed,
                  TimeAnnotation(Kind::kTime, checked_cast<Time64Type>(type).unit(), true));
    case TypeId::kTimestamp: {
      const auto& ts = checked_cast<TimestampType>(type);
      const bool utc = !ts.timezone().empty();
      switch (ts.unit()) {
        case TimeUnit::kSecond:
          return Leaf(P::kInt64, C::kSecondsToMillis64,
                      TimeAnnotation(Kind::kTimestamp, TimeUnit::kMilli, utc));
        case TimeUnit::kNano:
          if (version != FormatVersion::k2_6) {
            return Leaf(P::kInt64, C::kNanosToMicros,
                        TimeAnnotation(Kind::kTimestamp, TimeUnit::kMicro, utc));
          }
          [[fallthrough]];
        default:
          return Leaf(P::kInt64, C::kFixed, TimeAnnotation(Kind::kTimestamp, ts.unit(), utc));
      }
    }
    case TypeId::kDuration: return Leaf(P::kInt64, C::kFixed);
    case TypeId::kIntervalMonths:
      return Leaf(P::kFixedLenByteArray, C::kMonthInterval, Annotation(Kind::kInterval), 12);
    case TypeId::kIntervalDayTime:
      return Leaf(P::kFixedLenByteArray, C::kDayTimeInterval, Annotation(Kind::kInterval), 12);
    case TypeId::kIntervalMonthDayNano: return Leaf(P::kFixedLenByteArray, C::kFixed, {}, 16);
    case TypeId::kFixedSizeBinary:
      return Leaf(P::kFixedLenByteArray, C::kFixed, {},
                  checked_cast<FixedSizeBinaryType>(type).byte_width());
    case TypeId::kBinary: return Leaf(P::kByteArray, C::kBinary);
    case TypeId::kLargeBinary: return Leaf(P::kByteArray, C::kLargeBinary);
    case TypeId::kBinaryView: return Leaf(P::kByteArray, C::kView);
    case TypeId::kString: return Leaf(P::kByteArray, C::kBinary, Annotation(Kind::kString));
    case TypeId::kLargeString:
      return Leaf(P::kByteArray, C::kLargeBinary, Annotation(Kind::kString));
    case TypeId::kStringView: return Leaf(P::kByteArray, C::kView, Annotation(Kind::kString));
    case TypeId::kDictionary:
      return StorageOf(*checked_cast<DictionaryType>(type).value_type(), version);
    case TypeId::kRunEndEncoded:
      return StorageOf(*checked_cast<RunEndEncodedType>(type).value_type(), version);
    case TypeId::kExtension: {
      const auto& ext = checked_cast<ExtensionType>(type);
      ALKAID_ASSIGN_OR_RAISE(LeafStorage storage, StorageOf(*ext.storage_type(), version));
      if (ext.extension_name() == kUuidName && storage.type_length == 16) {
        storage.logical_type = Annotation(Kind::kUuid);
      } else if (ext.extension_name() == kJsonExtensionName &&
                 storage.physical_type == P::kByteArray) {
        storage.logical_type = Annotation(Kind::kJson);
      }
      return storage;
    }
    default:
      return Status::NotImplemented("Parquet has no leaf column for ", type.ToString());
  }
}

SortOrder SortOrderOf(PhysicalType physical, const LogicalType& logical) {
  switch (logical.kind) {
    case Kind::kInteger:
      return logical.is_signed ? SortOrder::kSigned : SortOrder::kUnsigned;
    case Kind::kDecimal:
      return physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64
                 ? SortOrder::kSigned
                 : SortOrder::kDecimal;
    case Kind::kFloat16:
      return SortOrder::kHalfFloat;
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson:
      return SortOrder::kUtf8;
    case Kind::kInterval:
    case Kind::kUnknown:
      return SortOrder::kNone;
    default:
      break;
  }
  switch (physical) {
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return SortOrder::kFloat;
    case PhysicalType::kByteArray:
    case PhysicalType::kFixedLenByteArray:
      return SortOrder::kBytes;
    case PhysicalType::kInt96:
      return SortOrder::kNone;
    default:
      return SortOrder::kSigned;
  }
}

namespace {

// Builds the node list depth first, the root first.
class TreeBuilder {
 public:
  TreeBuilder(FormatVersion version, WriterSchema* out) : version_(version), out_(out) {
    SchemaNode root;
    root.name = "schema";
    nodes_.push_back(std::move(root));
  }

  Status AddField(const Field& field, int parent, const std::string& path, int depth) {
    if (depth > kMaxSchemaDepth) {
      return Status::NotImplemented("field '", path, "' is nested too deeply for Parquet");
    }
    const DataType& shape = Shape(*field.type());
    Repetition repetition = field.nullable() || shape.id() == TypeId::kNull
                                ? Repetition::kOptional
                                : Repetition::kRequired;
    int index = AddNode(field.name(), repetition, parent);
    nodes_[static_cast<size_t>(index)].field_id = FieldIdOf(field);
    switch (shape.id()) {
      case TypeId::kStruct:
        if (shape.num_fields() == 0) {
          return Status::NotImplemented("field '", path, "': a struct without fields has no "
                                        "Parquet form (a group needs at least one child)");
        }
        for (const FieldPtr& child : shape.fields()) {
          ALKAID_RETURN_NOT_OK(AddField(*child, index, path + "." + child->name(), depth + 1));
        }
        return Status::OK();
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kListView:
      case TypeId::kLargeListView:
      case TypeId::kFixedSizeList: {
        Node(index).logical_type = Annotation(Kind::kList);
        int list = AddNode("list", Repetition::kRepeated, index);
        const Field& item = *shape.field(0);
        return AddField(Field("element", item.type(), item.nullable(), item.metadata()), list,
                        path + ".list.element", depth + 2);
      }
      case TypeId::kMap: {
        Node(index).logical_type = Annotation(Kind::kMap);
        int entries = AddNode("key_value", Repetition::kRepeated, index);
        const auto& map = checked_cast<MapType>(shape);
        const Field& key = *map.key_field();
        const Field& value = *map.item_field();
        ALKAID_RETURN_NOT_OK(AddField(Field("key", key.type(), false, key.metadata()), entries,
                                      path + ".key_value.key", depth + 2));
        return AddField(Field("value", value.type(), value.nullable(), value.metadata()), entries,
                        path + ".key_value.value", depth + 2);
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
        return Status::NotImplemented("field '", path, "': Parquet has no form for ",
                                      field.type()->ToString());
      default: {
        auto storage = StorageOf(*field.type(), version_);
        if (!storage.ok()) return storage.status().WithContext("field '" + path + "': ");
        SchemaNode& node = Node(index);
        node.is_leaf = true;
        node.physical_type = storage->physical_type;
        node.type_length = storage->type_length;
        node.logical_type = storage->logical_type;
        out_->leaves.push_back(*std::move(storage));
        return Status::OK();
      }
    }
  }

  std::vector<SchemaNode> TakeNodes() { return std::move(nodes_); }

 private:
  // What decides the node's shape: extension storage, dictionary and run-end values.
  static const DataType& Shape(const DataType& type) {
    switch (type.id()) {
      case TypeId::kExtension: {
        const auto& ext = checked_cast<ExtensionType>(type);
        // UUID and JSON are annotated leaves; the others are their storage.
        return Shape(*ext.storage_type());
      }
      case TypeId::kDictionary: return Shape(*checked_cast<DictionaryType>(type).value_type());
      case TypeId::kRunEndEncoded:
        return Shape(*checked_cast<RunEndEncodedType>(type).value_type());
      default: return type;
    }
  }

  static std::optional<int32_t> FieldIdOf(const Field& field) {
    if (field.metadata() == nullptr) return std::nullopt;
    auto value = field.metadata()->Get("PARQUET:field_id");
    if (!value.ok()) return std::nullopt;
    int32_t id = 0;
    const char* end = value->data() + value->size();
    auto [ptr, ec] = std::from_chars(value->data(), end, id);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return id;
  }

  SchemaNode& Node(int i) { return nodes_[static_cast<size_t>(i)]; }

  int AddNode(const std::string& name, Repetition repetition, int parent) {
    SchemaNode node;
    node.name = name;
    node.repetition = repetition;
    node.parent = parent;
    nodes_.push_back(std::move(node));
    int index = static_cast<int>(nodes_.size()) - 1;
    Node(parent).children.push_back(index);
    return index;
  }

  FormatVersion version_;
  WriterSchema* out_;
  std::vector<SchemaNode> nodes_;
};

}  // namespace

Result<WriterSchema> ArrowToParquetSchema(const Schema& schema, FormatVersion version) {
  WriterSchema out;
  TreeBuilder builder(version, &out);
  for (const FieldPtr& field : schema.fields()) {
    out.first_column.push_back(static_cast<int>(out.leaves.size()));
    ALKAID_RETURN_NOT_OK(builder.AddField(*field, 0, field->name(), 1));
  }
  ALKAID_ASSIGN_OR_RAISE(out.descriptor, FinishSchema(builder.TakeNodes()));
  return out;
}

}  // namespace alkaid::parquet::internal
