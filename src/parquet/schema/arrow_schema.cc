// Parquet schema tree -> Arrow types and the levels of every node (see arrow_schema.h).
#include "src/parquet/schema/arrow_schema.h"

#include <string>

#include "alkaid/extension/json.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/extension/variant.h"
#include "src/parquet/schema/arrow_schema_key.h"
#include "src/parquet/schema/schema_tree.h"

namespace alkaid::parquet::internal {

using Kind = LogicalType::Kind;

namespace {

DataTypePtr DecimalOf(const LogicalType& logical) {
  return logical.precision <= 38 ? decimal128(logical.precision, logical.scale)
                                 : decimal256(logical.precision, logical.scale);
}

DataTypePtr StringOf(BinaryLayout layout) {
  switch (layout) {
    case BinaryLayout::kLarge: return large_utf8();
    case BinaryLayout::kView: return utf8_view();
    default: return utf8();
  }
}

DataTypePtr BinaryOf(BinaryLayout layout) {
  switch (layout) {
    case BinaryLayout::kLarge: return large_binary();
    case BinaryLayout::kView: return binary_view();
    default: return binary();
  }
}

}  // namespace

Result<DataTypePtr> LeafArrowType(const ColumnDescriptor& column, BinaryLayout layout,
                                  TimeUnit int96_unit, bool read_dictionary) {
  const LogicalType& logical = column.logical_type;
  ALKAID_RETURN_NOT_OK(CheckAnnotation(logical, column.physical_type, column.type_length));
  if (logical.kind == Kind::kUnknown) return null();
  switch (column.physical_type) {
    case PhysicalType::kBoolean:
      return boolean();
    case PhysicalType::kInt32:
      switch (logical.kind) {
        case Kind::kInteger:
          if (logical.bit_width == 8) return logical.is_signed ? int8() : uint8();
          if (logical.bit_width == 16) return logical.is_signed ? int16() : uint16();
          return logical.is_signed ? int32() : uint32();
        case Kind::kDate: return date32();
        case Kind::kTime: return time32(TimeUnit::kMilli);
        case Kind::kDecimal: return DecimalOf(logical);
        default: return int32();
      }
    case PhysicalType::kInt64:
      switch (logical.kind) {
        case Kind::kInteger: return logical.is_signed ? int64() : uint64();
        case Kind::kDecimal: return DecimalOf(logical);
        case Kind::kTimestamp:
          return timestamp(logical.unit, logical.is_adjusted_to_utc ? "UTC" : "");
        case Kind::kTime: return time64(logical.unit);
        default: return int64();
      }
    case PhysicalType::kInt96:
      return timestamp(int96_unit);
    case PhysicalType::kFloat:
      return float32();
    case PhysicalType::kDouble:
      return float64();
    case PhysicalType::kByteArray: {
      DataTypePtr type;
      switch (logical.kind) {
        case Kind::kString: type = StringOf(layout); break;
        case Kind::kDecimal: return DecimalOf(logical);
        case Kind::kJson: {
          ALKAID_ASSIGN_OR_RAISE(auto json, JsonExtensionType::Make(StringOf(layout)));
          return DataTypePtr(std::move(json));
        }
        default: type = BinaryOf(layout); break;
      }
      // Dictionaries come out with plain utf8/binary values whatever the layout asked.
      if (read_dictionary) {
        return dictionary(int32(), logical.kind == Kind::kString ? utf8() : binary());
      }
      return type;
    }
    case PhysicalType::kFixedLenByteArray:
      switch (logical.kind) {
        case Kind::kDecimal: return DecimalOf(logical);
        case Kind::kFloat16: return float16();
        case Kind::kUuid: return DataTypePtr(UuidType::Make());
        default: return fixed_size_binary(column.type_length);
      }
  }
  return Status::Invalid("column ", column.path_string(), " has an unknown physical type");
}

namespace {

class Mapper {
 public:
  Mapper(const SchemaDescriptor& schema, const SchemaMappingOptions& options)
      : schema_(schema), options_(options) {}

  // Converts node `index` whose parent context has definition level `def`, repetition
  // level `rep` and slot definition level `slot_def`.
  Status Convert(int index, int16_t def, int16_t rep, int16_t slot_def, FieldNode* out) {
    const SchemaNode& node = schema_.node(index);
    out->levels = {slot_def, rep, def};
    if (node.repetition == Repetition::kRepeated) {
      // A repeated node outside a LIST/MAP group: a required list of required elements.
      return RepeatedAsList(index, def, rep, out);
    }
    int16_t present = static_cast<int16_t>(def + (node.repetition == Repetition::kOptional));
    out->levels.def_present = present;
    bool nullable = node.repetition == Repetition::kOptional;
    if (node.is_leaf) return Leaf(index, nullable, out);
    Kind kind = node.logical_type.kind;
    if (kind == Kind::kList) return List(index, present, rep, nullable, out);
    if (kind == Kind::kMap) return Map(index, present, rep, nullable, out);
    ALKAID_RETURN_NOT_OK(Struct(index, present, rep, slot_def, nullable, out));
    if (kind == Kind::kVariant) {
      auto variant = VariantType::Make(out->field->type());
      // A group that does not follow the variant layout stays a plain struct.
      if (variant.ok()) {
        out->extension = *variant;
        out->field = out->field->WithType(out->extension);
      }
    }
    return Status::OK();
  }

 private:
  MetadataPtr FieldId(const SchemaNode& node) {
    if (!node.field_id) return nullptr;
    return KeyValueMetadata::Make({{kFieldIdKey, std::to_string(*node.field_id)}});
  }

  Status Leaf(int index, bool nullable, FieldNode* out) {
    const SchemaNode& node = schema_.node(index);
    const ColumnDescriptor& column = schema_.column(node.column_index);
    bool dict = static_cast<size_t>(node.column_index) < options_.read_dictionary.size() &&
                options_.read_dictionary[static_cast<size_t>(node.column_index)];
    auto type = LeafArrowType(column, options_.binary_layout, options_.int96_unit, dict);
    if (!type.ok()) {
      return Status(type.status().code(),
                    "column " + column.path_string() + ": " + type.status().message());
    }
    out->kind = FieldNode::Kind::kLeaf;
    out->column_index = node.column_index;
    out->field = field(node.name, *type, nullable, FieldId(node));
    return Status::OK();
  }

  Status Struct(int index, int16_t present, int16_t rep, int16_t slot_def, bool nullable,
                FieldNode* out) {
    const SchemaNode& node = schema_.node(index);
    out->kind = FieldNode::Kind::kStruct;
    out->children.resize(node.children.size());
    FieldVector fields;
    for (size_t i = 0; i < node.children.size(); ++i) {
      ALKAID_RETURN_NOT_OK(Convert(node.children[i], present, rep, slot_def, &out->children[i]));
      fields.push_back(out->children[i].field);
    }
    out->field = field(node.name, struct_(std::move(fields)), nullable, FieldId(node));
    return Status::OK();
  }

  // The element of a list whose element slots exist at `elem_def`, repetition `elem_rep`.
  // `element` is converted as a required node of that context.
  Status Element(int element, int16_t elem_def, int16_t elem_rep, FieldNode* out) {
    const SchemaNode& node = schema_.node(element);
    out->levels = {elem_def, elem_rep, elem_def};
    if (node.is_leaf) return Leaf(element, /*nullable=*/false, out);
    return Struct(element, elem_def, elem_rep, elem_def, /*nullable=*/false, out);
  }

  Status RepeatedAsList(int index, int16_t def, int16_t rep, FieldNode* out) {
    const SchemaNode& node = schema_.node(index);
    out->kind = FieldNode::Kind::kList;
    out->levels.def_present = def;  // never null
    out->elem_def = static_cast<int16_t>(def + 1);
    out->children.resize(1);
    ALKAID_RETURN_NOT_OK(Element(index, out->elem_def, static_cast<int16_t>(rep + 1),
                                 &out->children[0]));
    out->field = field(node.name, list(out->children[0].field), false, FieldId(node));
    return Status::OK();
  }

  // What LIST and MAP annotations both require: the group has exactly one child, repeated
  // (for a map, a repeated group). Returns the child's index; errors start with `where`.
  Result<int> OnlyRepeatedChild(const SchemaNode& group, const std::string& where,
                                bool of_groups) {
    if (group.children.size() != 1) {
      return Status::Invalid(where, " must have exactly one child, has ", group.children.size());
    }
    const SchemaNode& child = schema_.node(group.children[0]);
    if (child.repetition != Repetition::kRepeated || (of_groups && child.is_leaf)) {
      return Status::Invalid(where, ": its child '", child.name,
                             of_groups ? "' is not a repeated group" : "' is not repeated");
    }
    return group.children[0];
  }

  Status List(int index, int16_t present, int16_t rep, bool nullable, FieldNode* out) {
    const SchemaNode& group = schema_.node(index);
    auto where = [&] { return "LIST-annotated group '" + group.name + "'"; };
    ALKAID_ASSIGN_OR_RAISE(int repeated, OnlyRepeatedChild(group, where(), /*of_groups=*/false));
    const SchemaNode& middle = schema_.node(repeated);
    out->kind = FieldNode::Kind::kList;
    out->elem_def = static_cast<int16_t>(present + 1);
    int16_t elem_rep = static_cast<int16_t>(rep + 1);
    out->children.resize(1);
    FieldNode* child = &out->children[0];
    if (middle.is_leaf) {
      // Two-level list: the repeated field is the element.
      ALKAID_RETURN_NOT_OK(Element(repeated, out->elem_def, elem_rep, child));
    } else if (middle.children.size() == 1 &&
               schema_.node(middle.children[0]).repetition == Repetition::kRepeated) {
      // The element is itself a (legacy) list: convert the inner repeated node as one.
      if (middle.logical_type.kind != Kind::kList) {
        return Status::Invalid(where(), ": group '", middle.name,
                               "' holds one repeated child but is not LIST-annotated");
      }
      ALKAID_RETURN_NOT_OK(Convert(middle.children[0], out->elem_def, elem_rep, out->elem_def,
                                   child));
    } else if (middle.children.size() == 1 && middle.name != "array" &&
               middle.name != group.name + "_tuple") {
      // Three-level list: the repeated group's only child is the element.
      ALKAID_RETURN_NOT_OK(Convert(middle.children[0], out->elem_def, elem_rep, out->elem_def,
                                   child));
    } else if (middle.children.empty()) {
      return Status::Invalid(where(), ": repeated group '", middle.name, "' has no fields");
    } else {
      // Several fields, or the legacy names: the repeated group is a struct element.
      ALKAID_RETURN_NOT_OK(Element(repeated, out->elem_def, elem_rep, child));
    }
    out->field = field(group.name, list(child->field), nullable, FieldId(group));
    return Status::OK();
  }

  Status Map(int index, int16_t present, int16_t rep, bool nullable, FieldNode* out) {
    const SchemaNode& group = schema_.node(index);
    auto where = [&] { return "MAP-annotated group '" + group.name + "'"; };
    ALKAID_ASSIGN_OR_RAISE(int key_value, OnlyRepeatedChild(group, where(), /*of_groups=*/true));
    const SchemaNode& kv = schema_.node(key_value);
    if (kv.children.size() != 1 && kv.children.size() != 2) {
      return Status::Invalid(where(), ": key-value group '", kv.name, "' has ",
                             kv.children.size(), " fields (1 or 2 expected)");
    }
    if (schema_.node(kv.children[0]).repetition == Repetition::kRepeated) {
      return Status::Invalid(where(), ": map keys must not be repeated");
    }
    // Some writers (Presto) leave keys optional: the Arrow key field is still non-nullable,
    // and a null key in the data is an error when the map is assembled.
    // A key-only map is a set: read as a list of keys, as Arrow C++ does.
    if (kv.children.size() == 1) return List(index, present, rep, nullable, out);
    out->kind = FieldNode::Kind::kMap;
    out->elem_def = static_cast<int16_t>(present + 1);
    int16_t elem_rep = static_cast<int16_t>(rep + 1);
    out->children.resize(1);
    FieldNode* entries = &out->children[0];
    ALKAID_RETURN_NOT_OK(Element(key_value, out->elem_def, elem_rep, entries));
    const FieldPtr& key = entries->children[0].field;
    const FieldPtr& value = entries->children[1].field;
    auto entries_field =
        field(kv.name, struct_({key->WithNullable(false), value}), false, FieldId(kv));
    entries->field = entries_field;
    ALKAID_ASSIGN_OR_RAISE(auto map_type, MapType::Make(entries_field, /*keys_sorted=*/false));
    out->field = field(group.name, std::move(map_type), nullable, FieldId(group));
    return Status::OK();
  }

  const SchemaDescriptor& schema_;
  const SchemaMappingOptions& options_;
};

void MapColumns(const FieldNode& node, int field_index, std::vector<int>* column_to_field) {
  if (node.kind == FieldNode::Kind::kLeaf) {
    (*column_to_field)[static_cast<size_t>(node.column_index)] = field_index;
    return;
  }
  for (const auto& child : node.children) MapColumns(child, field_index, column_to_field);
}

}  // namespace

Result<SchemaManifest> MapSchema(const SchemaDescriptor& schema, const MetadataPtr& file_metadata,
                                 const SchemaMappingOptions& options) {
  SchemaManifest out;
  Mapper mapper(schema, options);
  const SchemaNode& root = schema.root();
  out.fields.resize(root.children.size());
  out.column_to_field.assign(static_cast<size_t>(schema.num_columns()), -1);
  FieldVector fields;
  for (size_t i = 0; i < root.children.size(); ++i) {
    ALKAID_RETURN_NOT_OK(mapper.Convert(root.children[i], 0, 0, 0, &out.fields[i]));
    fields.push_back(out.fields[i].field);
    MapColumns(out.fields[i], static_cast<int>(i), &out.column_to_field);
  }
  MetadataPtr kept = file_metadata;
  if (file_metadata != nullptr && file_metadata->Contains(kArrowSchemaKey)) {
    kept = file_metadata->Without({kArrowSchemaKey});
    if (kept->size() == 0) kept = nullptr;
  }
  out.decoded_schema = alkaid::schema(fields, kept);
  out.schema = out.decoded_schema;
  if (file_metadata != nullptr) {
    int64_t at = file_metadata->FindKey(kArrowSchemaKey);
    if (at >= 0) {
      // A damaged or foreign ARROW:schema is ignored: the file's own types still read.
      auto origin = DecodeArrowSchemaKey(file_metadata->value(at));
      if (origin.ok()) {
        out.schema = RestoreSchema(out.decoded_schema, **origin);
        if (out.schema != out.decoded_schema) out.origin = *origin;
      }
    }
  }
  return out;
}

}  // namespace alkaid::parquet::internal
