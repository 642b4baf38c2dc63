// Validation entry points for readers that build arrays structurally valid
// by construction. Not installed.
#pragma once

#include "alkaid/validate.h"

namespace alkaid::internal {

// Called from the IPC module's shared library.
#pragma GCC visibility push(default)

// The data half of full validation (offsets, UTF-8, views, union ids,
// dictionary indices, run ends, null counts against bitmaps) without the
// structural pass. Precondition, which the caller guarantees: `data` already
// satisfies every structural rule ValidateArray checks (buffer counts and
// sizes for offset + length, null counts, children and their lengths, types,
// nesting depth); the IPC loader checks these as it cuts each buffer.
// Dictionaries are not descended into: the caller validated them when they
// were loaded (their lengths are still used to bound the indices).
// options.full and options.types_validated are ignored.
Status ValidateArrayDataOfValidStructure(const ArrayData& data, const ValidateOptions& options);

// The same for each of `columns` in turn, with one validator for all (a
// batch of small columns costs little more than one). Column i is skipped
// when it has no nulls and `plain` (if not null) has plain[i] != 0: the
// caller knows its layout has nothing the data pass reads (fixed-width
// values, no children, no dictionary). On failure, *failed is the index of
// the column that failed.
Status ValidateColumnsDataOfValidStructure(const ArrayDataPtr* columns, size_t num_columns,
                                           const uint8_t* plain, const ValidateOptions& options,
                                           size_t* failed);

#pragma GCC visibility pop

}  // namespace alkaid::internal
