// Turning decoded arrays into the types the footer's ARROW:schema restores (see
// RestoredType in schema/arrow_schema_key.h, which decides the target types; this does the
// value work). Internal to the parquet module.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"

namespace alkaid::parquet::internal {

/// `data` (of a decoded type) as `target` = RestoredType(decoded, origin): retyped where
/// the layout is the same, converted where it differs (offset widths, views, units,
/// decimal widths, dictionary indices and encoding).
Result<ArrayDataPtr> RestoreArray(const ArrayDataPtr& data, const DataTypePtr& target,
                                  MemoryPool* pool);

}  // namespace alkaid::parquet::internal
