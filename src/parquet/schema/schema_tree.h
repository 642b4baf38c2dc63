// The Parquet schema tree from and to the footer's flat list of SchemaElements, and the
// logical annotations in both directions (LogicalType, with the legacy ConvertedType
// translated as the format's compatibility rules say). Internal to the parquet module: the
// reader builds its SchemaDescriptor here, the writer its SchemaElements.
#pragma once

#include <vector>

#include "alkaid/parquet/schema.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"
#include "src/parquet/thrift/parquet_types.h"

namespace alkaid::parquet::internal {

/// Deepest schema tree accepted (nodes from the root to a leaf). Each Arrow nesting level
/// takes up to three Parquet levels (a list's group, repeated group and element), so this
/// leaves room for alkaid's Arrow depth limit while a hostile 10,000-deep schema is refused.
inline constexpr int kMaxSchemaDepth = 200;

/// Builds and checks the tree: element 0 is a group (the root), every group's num_children
/// fits in the elements that follow, every leaf has a physical type (FIXED_LEN_BYTE_ARRAY a
/// positive type_length), no node is deeper than kMaxSchemaDepth, every element is used.
/// Errors name the element index and its name.
ALKAID_EXPORT Result<SchemaDescriptor> BuildSchema(
    const std::vector<format::SchemaElement>& elements);

/// The annotation of an element: its LogicalType when present, else its ConvertedType
/// translated (DECIMAL taking precision and scale from the element).
LogicalType LogicalTypeOf(const format::SchemaElement& element);

/// Checks that `logical` may annotate a leaf of `physical` type (type_length for
/// FIXED_LEN_BYTE_ARRAY); the error names the pairing.
Status CheckAnnotation(const LogicalType& logical, PhysicalType physical, int32_t type_length);

/// Writer side: sets element.logicalType and the matching legacy converted_type (and
/// scale/precision for decimals) from `logical`, as writers must for old readers.
ALKAID_EXPORT void SetAnnotation(const LogicalType& logical, format::SchemaElement* element);

/// Writer side: the flat SchemaElement list of a tree (node 0 the root), depth first.
std::vector<format::SchemaElement> ToSchemaElements(const SchemaDescriptor& schema);

/// Computes levels, column indices and column descriptors of a tree whose nodes have
/// names, repetitions, types and parent/children links (used by BuildSchema and by
/// writers that assemble a tree themselves).
Result<SchemaDescriptor> FinishSchema(std::vector<SchemaNode> nodes);

}  // namespace alkaid::parquet::internal
