// Pieces of the file writer shared between its sources. Internal to the parquet module.
#pragma once

#include <string>

#include "alkaid/parquet/schema.h"
#include "alkaid/parquet/writer_properties.h"
#include "src/parquet/schema/arrow_to_parquet.h"
#include "src/parquet/writer/column_writer.h"

namespace alkaid::parquet::internal {

/// The footer's created_by: the properties' own, or "alkaid version <version>".
std::string CreatedBy(const WriterProperties& properties);

/// The settings of one leaf column: the file's properties, the column's storage, and the
/// override whose key is the longest that names the column or a group above it.
ColumnWriterSettings ResolveColumn(const WriterProperties& properties,
                                   const ColumnDescriptor& column, const LeafStorage& storage);

}  // namespace alkaid::parquet::internal
