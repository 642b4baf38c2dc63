/// @file
/// The schema of a Parquet file as the file states it: a tree of named nodes, groups and
/// leaf columns, each with its repetition, physical type and logical annotation, and the
/// maximum definition and repetition levels of every leaf. The reader's Arrow schema is
/// derived from this (FileReader::schema()); this view is for tools and for callers that
/// need the Parquet side (column paths, levels, annotations).
///
/// Immutable once built: any number of threads may read one SchemaDescriptor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "alkaid/parquet/types.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid::parquet {

/// How often a node occurs in its parent.
enum class Repetition : int8_t {
  kRequired = 0,  ///< exactly once
  kOptional = 1,  ///< zero or one time (nullable)
  kRepeated = 2,  ///< any number of times (a list)
};

/// The format's name of a repetition ("REQUIRED", "OPTIONAL", "REPEATED").
ALKAID_EXPORT const char* RepetitionName(Repetition repetition);

/// A node's meaning beyond its physical type: the format's LogicalType, or the legacy
/// ConvertedType translated to it (as the format's compatibility rules say), or none.
struct ALKAID_EXPORT LogicalType {
  /// Which annotation this is; the members below apply to the kinds they name.
  enum class Kind : int8_t {
    kNone,       ///< no annotation: the physical type's own meaning
    kString,     ///< UTF-8 text (BYTE_ARRAY)
    kMap,        ///< group holding one repeated key/value group
    kList,       ///< group holding one repeated group or field
    kEnum,       ///< enum symbol as UTF-8 (BYTE_ARRAY)
    kDecimal,    ///< precision and scale
    kDate,       ///< days since the Unix epoch (INT32)
    kTime,       ///< time of day in `unit`
    kTimestamp,  ///< instant (UTC-adjusted) or local date-time in `unit`
    kInteger,    ///< integer of bit_width bits, signed or not
    kUnknown,    ///< always null (the format's UNKNOWN / legacy NA)
    kJson,       ///< JSON text (BYTE_ARRAY)
    kBson,       ///< BSON document (BYTE_ARRAY)
    kUuid,       ///< 16-byte UUID (FIXED_LEN_BYTE_ARRAY(16))
    kFloat16,    ///< IEEE half float (FIXED_LEN_BYTE_ARRAY(2))
    kInterval,   ///< legacy INTERVAL: months, days, milliseconds (FIXED_LEN_BYTE_ARRAY(12))
    kVariant,    ///< Variant group (metadata, value, optional typed_value)
    kGeometry,   ///< well-known binary, planar edges
    kGeography,  ///< well-known binary, edges per `edge_algorithm`
    kVector,     ///< fixed-length vector group (VECTOR repetition)
  };
  Kind kind = Kind::kNone;  ///< the annotation (kNone: none)
  int32_t precision = 0;  ///< kDecimal
  int32_t scale = 0;      ///< kDecimal
  /// kTime, kTimestamp: kMilli, kMicro or kNano.
  TimeUnit unit = TimeUnit::kMilli;
  /// kTime, kTimestamp: the value is UTC-normalized (an instant).
  bool is_adjusted_to_utc = false;
  /// kTimestamp: the annotation came from a legacy ConvertedType (TIMESTAMP_MILLIS/MICROS).
  bool from_converted_type = false;
  int bit_width = 0;       ///< kInteger: 8, 16, 32 or 64
  bool is_signed = true;   ///< kInteger
  std::string crs;         ///< kGeometry, kGeography: coordinate reference system ("" default)
  int edge_algorithm = 0;  ///< kGeography: 0 SPHERICAL .. 4 KARNEY
  int variant_specification_version = -1;  ///< kVariant, when the file states it

  /// "STRING", "DECIMAL(10,2)", "TIMESTAMP(MICROS,true)", "INTEGER(8,false)", ...; "NONE".
  std::string ToString() const;
  /// Equal when every member is equal.
  bool operator==(const LogicalType&) const = default;
};

/// One node of the schema tree (the root, a group or a leaf).
struct ALKAID_EXPORT SchemaNode {
  std::string name;  ///< the field name as written
  /// The root's repetition is kRequired (the file states none for it).
  Repetition repetition = Repetition::kRequired;
  /// Leaves carry values; groups carry children.
  bool is_leaf = false;
  /// Leaves only.
  PhysicalType physical_type = PhysicalType::kInt32;
  /// FIXED_LEN_BYTE_ARRAY byte width (leaves; 0 otherwise or when not stated).
  int32_t type_length = 0;
  LogicalType logical_type;  ///< the annotation (kNone when there is none)
  /// The legacy annotation's wire number as written (UTF8 = 0 ... INTERVAL = 21), if any.
  std::optional<int32_t> converted_type;
  /// The writer's field id, if any.
  std::optional<int32_t> field_id;
  /// Indices of the children in SchemaDescriptor::node() order.
  std::vector<int> children;
  /// Index of the parent node; -1 for the root.
  int parent = -1;
  /// Leaves: index of the column (0-based, depth-first leaf order); -1 for groups.
  int column_index = -1;
  /// Definition level at which this node is present (counts optional and repeated nodes
  /// from the root down to and including this one).
  int16_t definition_level = 0;
  /// Repetition level of this node (repeated nodes from the root down to it, inclusive).
  int16_t repetition_level = 0;
};

/// A leaf column: its node and the facts a column reader needs.
struct ALKAID_EXPORT ColumnDescriptor {
  int node = -1;                  ///< index into SchemaDescriptor::node()
  std::vector<std::string> path;  ///< names from below the root to the leaf
  PhysicalType physical_type = PhysicalType::kInt32;  ///< the leaf's stored type
  int32_t type_length = 0;  ///< FIXED_LEN_BYTE_ARRAY byte width; 0 otherwise
  LogicalType logical_type;  ///< the leaf's annotation
  std::optional<int32_t> converted_type;  ///< legacy annotation's wire number, if any
  int16_t max_definition_level = 0;  ///< definition level of a present (non-null) value
  int16_t max_repetition_level = 0;  ///< repetition level of the deepest repeated node
  /// The path joined with '.' ("a.list.element").
  std::string path_string() const;
};

/// The schema tree of a file. Built and checked by the reader from the footer (nodes in
/// the file's depth-first order, node 0 the root).
class ALKAID_EXPORT SchemaDescriptor {
 public:
  SchemaDescriptor() = default;
  /// For the library's own use: the reader builds and checks the nodes and columns.
  SchemaDescriptor(std::vector<SchemaNode> nodes, std::vector<ColumnDescriptor> columns)
      : nodes_(std::move(nodes)), columns_(std::move(columns)) {}

  /// Nodes in the tree, root and groups included.
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  /// Precondition: 0 <= i < num_nodes().
  const SchemaNode& node(int i) const { return nodes_[static_cast<size_t>(i)]; }
  /// Node 0, the root group.
  const SchemaNode& root() const { return nodes_[0]; }
  /// All nodes, in the file's depth-first order.
  const std::vector<SchemaNode>& nodes() const { return nodes_; }

  /// Leaf columns.
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// Precondition: 0 <= i < num_columns().
  const ColumnDescriptor& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  /// All leaf columns, in depth-first leaf order.
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  /// The column whose dotted path is `path`, or -1.
  int FindColumn(std::string_view path) const;

  /// The tree in the format's textual form ("message schema { optional int64 a; ... }").
  std::string ToString() const;

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
};

}  // namespace alkaid::parquet
