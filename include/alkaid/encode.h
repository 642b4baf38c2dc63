/// @file
/// Dictionary and run-end encoding of plain arrays, and the plain ("decoded")
/// form of a type that holds dictionary or run-end encoded parts.
///
/// Text readers (CSV, JSON Lines) use these to honour a schema that asks for
/// dictionary or run-end encoded columns: they parse values into the
/// decoded type and encode each finished block.
///
/// Threads: pure functions; any number may run at once.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/memory.h"
#include "alkaid/status.h"
#include "alkaid/type.h"

namespace alkaid {

/// `type` with every dictionary type replaced by its value type and every
/// run-end encoded type by its value type, through struct, list, large list,
/// list view, large list view, fixed-size list and map children. Unions and
/// extension types are returned as they are (their children are not
/// rewritten). Returns `type` itself when nothing needs replacing.
ALKAID_EXPORT DataTypePtr DecodedType(const DataTypePtr& type);

/// Whether DecodedType(type) differs from `type`.
ALKAID_EXPORT bool HasEncodedParts(const DataType& type);

/// Dictionary-encodes `values` (honoured through its offset and length) as
/// `dictionary_type`, whose value type must equal values' type. Equal values
/// (byte for byte) share one dictionary entry, in order of first appearance;
/// null slots become null indices.
///
/// Errors: TypeError when `dictionary_type` is not a dictionary of values'
/// type or the value type has no byte form (nested types, unions); CapacityError
/// when there are more distinct values than the index type can number.
ALKAID_EXPORT Result<ArrayDataPtr> DictionaryEncode(const ArrayData& values,
                                                    const DataTypePtr& dictionary_type,
                                                    MemoryPool* pool = default_memory_pool());

/// Run-end encodes `values` (honoured through its offset and length) as
/// `ree_type`, whose value type must equal values' type. Consecutive equal
/// values (byte for byte), and consecutive nulls, form one run.
///
/// Errors: TypeError as for DictionaryEncode; CapacityError when the length
/// does not fit the run-end type.
ALKAID_EXPORT Result<ArrayDataPtr> RunEndEncode(const ArrayData& values, const DataTypePtr& ree_type,
                                                MemoryPool* pool = default_memory_pool());

/// Turns `plain`, an array of DecodedType(target), into an array of `target`:
/// dictionary and run-end encoded parts (at the top or inside nested
/// children) are encoded with DictionaryEncode / RunEndEncode, everything
/// else is shared with `plain`. Returns `plain` unchanged when `target` has
/// no encoded parts.
///
/// Errors: TypeError when `plain` is not of DecodedType(target), and those of
/// DictionaryEncode and RunEndEncode (with the child path in the message).
ALKAID_EXPORT Result<ArrayDataPtr> EncodeAs(const ArrayDataPtr& plain, const DataTypePtr& target,
                                            MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
