/// @file
/// Concatenation of arrays of one type into a single, freshly laid out array.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/status.h"

namespace alkaid {

/// Joins `arrays` (all of the same type; each honoured through its own offset
/// and length, so slices are fine) into one array. Validity, values, offsets
/// and children are copied into new buffers; the data buffers of binary views
/// are shared. Dictionary arrays keep one dictionary when all inputs carry an
/// equal one, otherwise the dictionaries are concatenated and indices shifted.
///
/// Errors: Invalid for an empty input list, TypeError naming the first array
/// whose type differs from array 0, CapacityError when offsets, run ends or
/// dictionary indices would overflow their integer type.
ALKAID_EXPORT Result<ArrayDataPtr> Concatenate(const ArrayDataVector& arrays,
                                 MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
