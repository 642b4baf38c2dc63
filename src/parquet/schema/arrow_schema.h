// Parquet schema tree -> Arrow schema, as Arrow C++ maps it (the leaf types of
// arrow_types.cc; groups to structs, lists and maps by the backward-compatibility rules of
// the format's LogicalTypes.md), plus what the record assembly needs to know about every
// node: its definition and repetition levels. The footer's ARROW:schema key, when present,
// then restores the types the writer started from (arrow_schema_key.cc).
#pragma once

#include <memory>
#include <vector>

#include "alkaid/parquet/schema.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid::parquet::internal {

/// How string and binary columns come out.
enum class BinaryLayout : int8_t { kBinary, kLarge, kView };

struct SchemaMappingOptions {
  /// Per column index: read BYTE_ARRAY columns as dictionary<int32, string|binary>.
  std::vector<bool> read_dictionary;
  BinaryLayout binary_layout = BinaryLayout::kBinary;
  /// Unit of INT96 timestamps.
  TimeUnit int96_unit = TimeUnit::kNano;
};

/// Levels of one Arrow node. A node has a slot at each level entry whose definition level
/// is >= slot_def and whose repetition level is <= slot_rep (a new slot of the node's
/// enclosing list element, or a new record at the top); the slot is non-null when the
/// definition level is >= def_present.
struct NodeLevels {
  int16_t slot_def = 0;
  int16_t slot_rep = 0;
  int16_t def_present = 0;
};

/// One node of the Arrow side of the schema.
struct FieldNode {
  enum class Kind : int8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  /// The Arrow field as decoded (before ARROW:schema restoration).
  FieldPtr field;
  NodeLevels levels;
  /// kList and kMap: an element exists at entries with definition level >= elem_def
  /// (the children's slot_def; their slot_rep is slot_rep + 1).
  int16_t elem_def = 0;
  /// kLeaf: the column index.
  int column_index = -1;
  /// kStruct: an extension type (arrow.parquet.variant) wrapping the assembled struct.
  DataTypePtr extension;
  std::vector<FieldNode> children;
};

/// The Arrow schema of a file and its node tree.
struct SchemaManifest {
  /// Decoded types (before restoration); metadata: the file's key-value metadata without
  /// the ARROW:schema key.
  SchemaPtr decoded_schema;
  /// What the reader hands out: decoded_schema with ARROW:schema restorations applied.
  SchemaPtr schema;
  std::vector<FieldNode> fields;  ///< one per top-level field
  /// Per column index: the top-level field it belongs to.
  std::vector<int> column_to_field;
  /// The writer's schema from ARROW:schema when it matches the file's fields by name and
  /// position (null otherwise).
  SchemaPtr origin;
};

/// The Arrow type of one leaf column (no nesting), as Arrow C++ gives it, honoring the
/// binary layout, INT96 unit and dictionary options. TypeError/NotImplemented for
/// annotations the physical type cannot carry.
Result<DataTypePtr> LeafArrowType(const ColumnDescriptor& column, BinaryLayout layout,
                                  TimeUnit int96_unit, bool read_dictionary);

/// Maps the whole tree. `file_metadata` is the footer's key-value metadata (may be null);
/// its ARROW:schema entry, when present and usable, restores the writer's types.
Result<SchemaManifest> MapSchema(const SchemaDescriptor& schema, const MetadataPtr& file_metadata,
                                 const SchemaMappingOptions& options);

/// The key under which writers store the Arrow schema (base64 of an IPC schema message).
inline constexpr const char* kArrowSchemaKey = "ARROW:schema";
/// Field metadata key carrying a Parquet field id.
inline constexpr const char* kFieldIdKey = "PARQUET:field_id";

}  // namespace alkaid::parquet::internal
