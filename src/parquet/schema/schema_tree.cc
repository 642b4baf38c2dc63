// The Parquet schema tree: built from the footer's SchemaElements and checked, written back
// to them, and the logical annotations (LogicalType and the legacy ConvertedType).
#include "src/parquet/schema/schema_tree.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <sstream>

#include "src/parquet/enum_names.h"

namespace alkaid::parquet {

const char* RepetitionName(Repetition repetition) {
  static constexpr const char* kNames[] = {"REQUIRED", "OPTIONAL", "REPEATED"};
  static_assert(std::size(kNames) == static_cast<size_t>(Repetition::kRepeated) + 1);
  return internal::EnumName(kNames, repetition, "UNKNOWN_REPETITION");
}

namespace {

const char* UnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMilli: return "MILLIS";
    case TimeUnit::kMicro: return "MICROS";
    case TimeUnit::kNano: return "NANOS";
    default: return "SECONDS";
  }
}

}  // namespace

std::string LogicalType::ToString() const {
  std::ostringstream out;
  switch (kind) {
    case Kind::kNone: return "NONE";
    case Kind::kString: return "STRING";
    case Kind::kMap: return "MAP";
    case Kind::kList: return "LIST";
    case Kind::kEnum: return "ENUM";
    case Kind::kDecimal:
      out << "DECIMAL(" << precision << "," << scale << ")";
      return out.str();
    case Kind::kDate: return "DATE";
    case Kind::kTime:
      out << "TIME(" << UnitName(unit) << "," << (is_adjusted_to_utc ? "true" : "false") << ")";
      return out.str();
    case Kind::kTimestamp:
      out << "TIMESTAMP(" << UnitName(unit) << "," << (is_adjusted_to_utc ? "true" : "false")
          << ")";
      return out.str();
    case Kind::kInteger:
      out << "INTEGER(" << bit_width << "," << (is_signed ? "true" : "false") << ")";
      return out.str();
    case Kind::kUnknown: return "UNKNOWN";
    case Kind::kJson: return "JSON";
    case Kind::kBson: return "BSON";
    case Kind::kUuid: return "UUID";
    case Kind::kFloat16: return "FLOAT16";
    case Kind::kInterval: return "INTERVAL";
    case Kind::kVariant: return "VARIANT";
    case Kind::kGeometry: return crs.empty() ? "GEOMETRY" : "GEOMETRY(" + crs + ")";
    case Kind::kGeography: return crs.empty() ? "GEOGRAPHY" : "GEOGRAPHY(" + crs + ")";
    case Kind::kVector: return "VECTOR";
  }
  return "NONE";
}

std::string ColumnDescriptor::path_string() const {
  std::string out;
  for (const auto& part : path) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

int SchemaDescriptor::FindColumn(std::string_view path) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].path_string() == path) return static_cast<int>(i);
  }
  return -1;
}

namespace {

std::string PhysicalTypeText(const SchemaNode& node) {
  // The format's textual schema spells BYTE_ARRAY "binary".
  if (node.physical_type == PhysicalType::kByteArray) return "binary";
  std::string name = PhysicalTypeName(node.physical_type);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (node.physical_type == PhysicalType::kFixedLenByteArray) {
    name += "(" + std::to_string(node.type_length) + ")";
  }
  return name;
}

void PrintNode(const SchemaDescriptor& schema, int index, int indent, std::ostringstream* out) {
  // Iterative over siblings, recursive over depth (bounded by kMaxSchemaDepth).
  const SchemaNode& node = schema.node(index);
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  std::string rep = RepetitionName(node.repetition);
  for (char& c : rep) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string annotation;
  if (node.logical_type.kind != LogicalType::Kind::kNone) {
    annotation = " (" + node.logical_type.ToString() + ")";
  }
  std::string id = node.field_id ? " = " + std::to_string(*node.field_id) : "";
  if (node.is_leaf) {
    *out << pad << rep << " " << PhysicalTypeText(node) << " " << node.name << id << annotation
         << ";\n";
    return;
  }
  *out << pad << rep << " group " << node.name << id << annotation << " {\n";
  for (int child : node.children) PrintNode(schema, child, indent + 1, out);
  *out << pad << "}\n";
}

}  // namespace

std::string SchemaDescriptor::ToString() const {
  std::ostringstream out;
  if (nodes_.empty()) return "message schema {\n}\n";
  out << "message " << nodes_[0].name << " {\n";
  for (int child : nodes_[0].children) PrintNode(*this, child, 1, &out);
  out << "}\n";
  return out.str();
}

namespace internal {

using Kind = LogicalType::Kind;

namespace {

TimeUnit UnitOf(const format::TimeUnit& unit) {
  if (unit.MICROS) return TimeUnit::kMicro;
  if (unit.NANOS) return TimeUnit::kNano;
  return TimeUnit::kMilli;
}

// The annotation of a LogicalType union; kNone when no member this version knows is set.
LogicalType FromLogical(const format::LogicalType& t, const format::SchemaElement& element) {
  LogicalType out;
  if (t.STRING) {
    out.kind = Kind::kString;
  } else if (t.MAP) {
    out.kind = Kind::kMap;
  } else if (t.LIST) {
    out.kind = Kind::kList;
  } else if (t.ENUM) {
    out.kind = Kind::kEnum;
  } else if (t.DECIMAL) {
    out.kind = Kind::kDecimal;
    out.precision = t.DECIMAL->precision;
    out.scale = t.DECIMAL->scale;
  } else if (t.DATE) {
    out.kind = Kind::kDate;
  } else if (t.TIME) {
    out.kind = Kind::kTime;
    out.unit = UnitOf(t.TIME->unit);
    out.is_adjusted_to_utc = t.TIME->isAdjustedToUTC;
  } else if (t.TIMESTAMP) {
    out.kind = Kind::kTimestamp;
    out.unit = UnitOf(t.TIMESTAMP->unit);
    out.is_adjusted_to_utc = t.TIMESTAMP->isAdjustedToUTC;
  } else if (t.INTEGER) {
    out.kind = Kind::kInteger;
    out.bit_width = t.INTEGER->bitWidth;
    out.is_signed = t.INTEGER->isSigned;
  } else if (t.UNKNOWN) {
    out.kind = Kind::kUnknown;
  } else if (t.JSON) {
    out.kind = Kind::kJson;
  } else if (t.BSON) {
    out.kind = Kind::kBson;
  } else if (t.UUID) {
    out.kind = Kind::kUuid;
  } else if (t.FLOAT16) {
    out.kind = Kind::kFloat16;
  } else if (t.VARIANT) {
    out.kind = Kind::kVariant;
    if (t.VARIANT->specification_version) {
      out.variant_specification_version = *t.VARIANT->specification_version;
    }
  } else if (t.GEOMETRY) {
    out.kind = Kind::kGeometry;
    out.crs = t.GEOMETRY->crs.value_or("");
  } else if (t.GEOGRAPHY) {
    out.kind = Kind::kGeography;
    out.crs = t.GEOGRAPHY->crs.value_or("");
    out.edge_algorithm = static_cast<int>(
        t.GEOGRAPHY->algorithm.value_or(format::EdgeInterpolationAlgorithm::kSpherical));
  } else if (t.VECTOR) {
    out.kind = Kind::kVector;
  }
  (void)element;
  return out;
}

LogicalType FromConverted(format::ConvertedType converted, const format::SchemaElement& element) {
  using C = format::ConvertedType;
  LogicalType out;
  auto integer = [&](int bits, bool is_signed) {
    out.kind = Kind::kInteger;
    out.bit_width = bits;
    out.is_signed = is_signed;
  };
  auto temporal = [&](Kind kind, TimeUnit unit) {
    out.kind = kind;
    out.unit = unit;
    out.is_adjusted_to_utc = true;  // the legacy types are UTC-normalized
    out.from_converted_type = true;
  };
  switch (converted) {
    case C::kUtf8: out.kind = Kind::kString; break;
    case C::kMap:
    case C::kMapKeyValue: out.kind = Kind::kMap; break;
    case C::kList: out.kind = Kind::kList; break;
    case C::kEnum: out.kind = Kind::kEnum; break;
    case C::kDecimal:
      out.kind = Kind::kDecimal;
      out.precision = element.precision.value_or(0);
      out.scale = element.scale.value_or(0);
      break;
    case C::kDate: out.kind = Kind::kDate; break;
    case C::kTimeMillis: temporal(Kind::kTime, TimeUnit::kMilli); break;
    case C::kTimeMicros: temporal(Kind::kTime, TimeUnit::kMicro); break;
    case C::kTimestampMillis: temporal(Kind::kTimestamp, TimeUnit::kMilli); break;
    case C::kTimestampMicros: temporal(Kind::kTimestamp, TimeUnit::kMicro); break;
    case C::kUint8: integer(8, false); break;
    case C::kUint16: integer(16, false); break;
    case C::kUint32: integer(32, false); break;
    case C::kUint64: integer(64, false); break;
    case C::kInt8: integer(8, true); break;
    case C::kInt16: integer(16, true); break;
    case C::kInt32: integer(32, true); break;
    case C::kInt64: integer(64, true); break;
    case C::kJson: out.kind = Kind::kJson; break;
    case C::kBson: out.kind = Kind::kBson; break;
    case C::kInterval: out.kind = Kind::kInterval; break;
  }
  return out;
}

// Largest decimal precision that fits in `bytes` of two's complement.
int MaxDecimalPrecision(int32_t bytes) {
  if (bytes <= 0) return 0;
  if (bytes >= 32) return 76;
  // floor(log10(2^(8n-1) - 1)), by counting digits of the bound in long arithmetic.
  double bits = 8.0 * bytes - 1;
  return static_cast<int>(bits * 0.30102999566398119521);
}

Status BadAnnotation(const LogicalType& logical, PhysicalType physical, int32_t type_length) {
  std::string type = PhysicalTypeName(physical);
  if (physical == PhysicalType::kFixedLenByteArray) {
    type += "(" + std::to_string(type_length) + ")";
  }
  return Status::TypeError("logical type ", logical.ToString(), " cannot annotate ", type);
}

}  // namespace

LogicalType LogicalTypeOf(const format::SchemaElement& element) {
  if (element.logicalType) {
    LogicalType out = FromLogical(*element.logicalType, element);
    if (out.kind != Kind::kNone) return out;
  }
  if (element.converted_type) return FromConverted(*element.converted_type, element);
  return LogicalType{};
}

Status CheckAnnotation(const LogicalType& logical, PhysicalType physical, int32_t type_length) {
  using P = PhysicalType;
  bool ok = true;
  switch (logical.kind) {
    case Kind::kNone:
    case Kind::kUnknown:
      break;
    case Kind::kString:
    case Kind::kEnum:
    case Kind::kJson:
    case Kind::kBson:
    case Kind::kGeometry:
    case Kind::kGeography:
      ok = physical == P::kByteArray;
      break;
    case Kind::kDecimal:
      if (logical.precision < 1 || logical.scale < 0 || logical.scale > logical.precision) {
        return Status::TypeError("DECIMAL precision ", logical.precision, " and scale ",
                                 logical.scale, " are not a valid decimal");
      }
      switch (physical) {
        case P::kInt32: ok = logical.precision <= 9; break;
        case P::kInt64: ok = logical.precision <= 18; break;
        case P::kFixedLenByteArray:
          ok = logical.precision <= MaxDecimalPrecision(type_length);
          break;
        case P::kByteArray: ok = logical.precision <= 76; break;
        default: ok = false;
      }
      break;
    case Kind::kDate:
      ok = physical == P::kInt32;
      break;
    case Kind::kTime:
      ok = logical.unit == TimeUnit::kMilli ? physical == P::kInt32 : physical == P::kInt64;
      break;
    case Kind::kTimestamp:
      ok = physical == P::kInt64;
      break;
    case Kind::kInteger:
      ok = (logical.bit_width == 64 && physical == P::kInt64) ||
           ((logical.bit_width == 8 || logical.bit_width == 16 || logical.bit_width == 32) &&
            physical == P::kInt32);
      break;
    case Kind::kUuid:
      ok = physical == P::kFixedLenByteArray && type_length == 16;
      break;
    case Kind::kFloat16:
      ok = physical == P::kFixedLenByteArray && type_length == 2;
      break;
    case Kind::kInterval:
      ok = physical == P::kFixedLenByteArray && type_length == 12;
      break;
    case Kind::kMap:
    case Kind::kList:
    case Kind::kVariant:
    case Kind::kVector:
      ok = false;  // group annotations
      break;
  }
  return ok ? Status::OK() : BadAnnotation(logical, physical, type_length);
}

void SetAnnotation(const LogicalType& logical, format::SchemaElement* element) {
  using C = format::ConvertedType;
  format::LogicalType t;
  std::optional<C> converted;
  auto unit = [](TimeUnit u) {
    format::TimeUnit out;
    if (u == TimeUnit::kMicro) {
      out.MICROS.emplace();
    } else if (u == TimeUnit::kNano) {
      out.NANOS.emplace();
    } else {
      out.MILLIS.emplace();
    }
    return out;
  };
  switch (logical.kind) {
    case Kind::kNone: return;
    case Kind::kString: t.STRING.emplace(); converted = C::kUtf8; break;
    case Kind::kMap: t.MAP.emplace(); converted = C::kMap; break;
    case Kind::kList: t.LIST.emplace(); converted = C::kList; break;
    case Kind::kEnum: t.ENUM.emplace(); converted = C::kEnum; break;
    case Kind::kDecimal:
      t.DECIMAL.emplace();
      t.DECIMAL->precision = logical.precision;
      t.DECIMAL->scale = logical.scale;
      converted = C::kDecimal;
      element->precision = logical.precision;
      element->scale = logical.scale;
      break;
    case Kind::kDate: t.DATE.emplace(); converted = C::kDate; break;
    case Kind::kTime:
      t.TIME.emplace();
      t.TIME->isAdjustedToUTC = logical.is_adjusted_to_utc;
      t.TIME->unit = unit(logical.unit);
      if (logical.unit == TimeUnit::kMilli) converted = C::kTimeMillis;
      if (logical.unit == TimeUnit::kMicro) converted = C::kTimeMicros;
      break;
    case Kind::kTimestamp:
      t.TIMESTAMP.emplace();
      t.TIMESTAMP->isAdjustedToUTC = logical.is_adjusted_to_utc;
      t.TIMESTAMP->unit = unit(logical.unit);
      if (logical.unit == TimeUnit::kMilli) converted = C::kTimestampMillis;
      if (logical.unit == TimeUnit::kMicro) converted = C::kTimestampMicros;
      break;
    case Kind::kInteger: {
      t.INTEGER.emplace();
      t.INTEGER->bitWidth = static_cast<int8_t>(logical.bit_width);
      t.INTEGER->isSigned = logical.is_signed;
      int step = logical.bit_width == 8 ? 0 : logical.bit_width == 16 ? 1
                                            : logical.bit_width == 32 ? 2 : 3;
      converted = static_cast<C>((logical.is_signed ? 15 : 11) + step);
      break;
    }
    case Kind::kUnknown: t.UNKNOWN.emplace(); break;
    case Kind::kJson: t.JSON.emplace(); converted = C::kJson; break;
    case Kind::kBson: t.BSON.emplace(); converted = C::kBson; break;
    case Kind::kUuid: t.UUID.emplace(); break;
    case Kind::kFloat16: t.FLOAT16.emplace(); break;
    case Kind::kInterval:
      element->converted_type = C::kInterval;  // no LogicalType member exists
      return;
    case Kind::kVariant:
      t.VARIANT.emplace();
      if (logical.variant_specification_version >= 0) {
        t.VARIANT->specification_version =
            static_cast<int8_t>(logical.variant_specification_version);
      }
      break;
    case Kind::kGeometry:
      t.GEOMETRY.emplace();
      if (!logical.crs.empty()) t.GEOMETRY->crs = logical.crs;
      break;
    case Kind::kGeography:
      t.GEOGRAPHY.emplace();
      if (!logical.crs.empty()) t.GEOGRAPHY->crs = logical.crs;
      if (logical.edge_algorithm != 0) {
        t.GEOGRAPHY->algorithm =
            static_cast<format::EdgeInterpolationAlgorithm>(logical.edge_algorithm);
      }
      break;
    case Kind::kVector: t.VECTOR.emplace(); break;
  }
  element->logicalType = std::move(t);
  if (converted) element->converted_type = *converted;
}

Result<SchemaDescriptor> FinishSchema(std::vector<SchemaNode> nodes) {
  std::vector<ColumnDescriptor> columns;
  for (size_t i = 0; i < nodes.size(); ++i) {
    SchemaNode& node = nodes[i];
    if (i == 0) {
      node.definition_level = 0;
      node.repetition_level = 0;
    } else {
      const SchemaNode& parent = nodes[static_cast<size_t>(node.parent)];
      node.definition_level = static_cast<int16_t>(
          parent.definition_level + (node.repetition != Repetition::kRequired ? 1 : 0));
      node.repetition_level = static_cast<int16_t>(
          parent.repetition_level + (node.repetition == Repetition::kRepeated ? 1 : 0));
    }
    if (!node.is_leaf) continue;
    node.column_index = static_cast<int>(columns.size());
    ColumnDescriptor column;
    column.node = static_cast<int>(i);
    for (int at = static_cast<int>(i); at > 0; at = nodes[static_cast<size_t>(at)].parent) {
      column.path.push_back(nodes[static_cast<size_t>(at)].name);
    }
    std::reverse(column.path.begin(), column.path.end());
    column.physical_type = node.physical_type;
    column.type_length = node.type_length;
    column.logical_type = node.logical_type;
    column.converted_type = node.converted_type;
    column.max_definition_level = node.definition_level;
    column.max_repetition_level = node.repetition_level;
    columns.push_back(std::move(column));
  }
  return SchemaDescriptor(std::move(nodes), std::move(columns));
}

Result<SchemaDescriptor> BuildSchema(const std::vector<format::SchemaElement>& elements) {
  if (elements.empty()) return Status::Invalid("Parquet schema has no elements");
  const size_t n = elements.size();
  std::vector<SchemaNode> nodes(n);
  auto where = [&](size_t i) {
    return "Parquet schema element " + std::to_string(i) + " ('" + elements[i].name + "')";
  };
  // Open groups and how many children each still expects.
  struct Open {
    size_t node;
    int64_t remaining;
  };
  std::vector<Open> open;
  for (size_t i = 0; i < n; ++i) {
    const format::SchemaElement& e = elements[i];
    SchemaNode& node = nodes[i];
    node.name = e.name;
    node.field_id = e.field_id;
    if (e.converted_type) node.converted_type = static_cast<int32_t>(*e.converted_type);
    node.logical_type = LogicalTypeOf(e);
    if (i > 0) {
      while (!open.empty() && open.back().remaining == 0) open.pop_back();
      if (open.empty()) {
        return Status::Invalid(where(i), " lies outside the tree: the groups before it "
                               "declare fewer children than the schema has elements");
      }
      node.parent = static_cast<int>(open.back().node);
      --open.back().remaining;
      nodes[open.back().node].children.push_back(static_cast<int>(i));
      auto rep = e.repetition_type.value_or(format::FieldRepetitionType::kRequired);
      switch (rep) {
        case format::FieldRepetitionType::kRequired: node.repetition = Repetition::kRequired; break;
        case format::FieldRepetitionType::kOptional: node.repetition = Repetition::kOptional; break;
        case format::FieldRepetitionType::kRepeated: node.repetition = Repetition::kRepeated; break;
        case format::FieldRepetitionType::kVector:
          return Status::NotImplemented(where(i), " has VECTOR repetition, which alkaid does "
                                        "not read yet");
        default:
          return Status::Invalid(where(i), " has an unknown repetition type ",
                                 static_cast<int32_t>(rep));
      }
    }
    bool is_group = e.num_children.has_value() && (*e.num_children > 0 || !e.type.has_value());
    if (i == 0 && !is_group) {
      if (e.type) return Status::Invalid(where(i), ", the root, is a leaf, not a group");
      is_group = true;  // a root without num_children: an empty schema
    }
    if (is_group) {
      int64_t children = e.num_children.value_or(0);
      if (children < 0 || children > static_cast<int64_t>(n - i - 1)) {
        return Status::Invalid(where(i), " declares ", children, " children but only ",
                               n - i - 1, " elements follow it");
      }
      if (static_cast<int>(open.size()) + 1 > kMaxSchemaDepth) {
        return Status::Invalid(where(i), " is nested deeper than ", kMaxSchemaDepth,
                               " levels");
      }
      nodes[i].children.reserve(static_cast<size_t>(children));
      open.push_back({i, children});
      continue;
    }
    if (!e.type) return Status::Invalid(where(i), " is a leaf without a physical type");
    auto physical = PhysicalTypeFromWire(*e.type);
    if (!physical) {
      return Status::Invalid(where(i), " has an unknown physical type ", *e.type);
    }
    node.is_leaf = true;
    node.physical_type = *physical;
    if (*physical == PhysicalType::kFixedLenByteArray) {
      int32_t length = e.type_length.value_or(-1);
      if (length <= 0 || length > (int32_t{1} << 28)) {
        return Status::Invalid(where(i), " is FIXED_LEN_BYTE_ARRAY with type_length ", length,
                               " (must be 1 to 2^28)");
      }
      node.type_length = length;
    }
  }
  while (!open.empty() && open.back().remaining == 0) open.pop_back();
  if (!open.empty()) {
    return Status::Invalid(where(open.back().node), " declares ",
                           elements[open.back().node].num_children.value_or(0),
                           " children but the schema ends before them");
  }
  return FinishSchema(std::move(nodes));
}

std::vector<format::SchemaElement> ToSchemaElements(const SchemaDescriptor& schema) {
  std::vector<format::SchemaElement> out;
  out.reserve(static_cast<size_t>(schema.num_nodes()));
  for (int i = 0; i < schema.num_nodes(); ++i) {
    const SchemaNode& node = schema.node(i);
    format::SchemaElement e;
    e.name = node.name;
    if (i > 0) {
      e.repetition_type = static_cast<format::FieldRepetitionType>(node.repetition);
    }
    if (node.is_leaf) {
      e.type = static_cast<int32_t>(node.physical_type);
      if (node.physical_type == PhysicalType::kFixedLenByteArray) e.type_length = node.type_length;
    } else {
      e.num_children = static_cast<int32_t>(node.children.size());
    }
    e.field_id = node.field_id;
    SetAnnotation(node.logical_type, &e);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace internal
}  // namespace alkaid::parquet
