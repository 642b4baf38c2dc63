// Validation entry points for readers that build arrays structurally valid
// by construction. Not installed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "alkaid/validate.h"
#include "alkaid/visibility.h"
#include "buffer_scan.h"

namespace alkaid::internal {

// The data half of full validation (offsets, UTF-8, views, union ids,
// dictionary indices, run ends, null counts against bitmaps) without the
// structural pass. Precondition, which the caller guarantees: `data` already
// satisfies every structural rule ValidateArray checks (buffer counts and
// sizes for offset + length, null counts, children and their lengths, types,
// nesting depth); the IPC loader checks these as it cuts each buffer.
// Dictionaries are not descended into: the caller validated them when they
// were loaded (their lengths are still used to bound the indices).
// options.full and options.types_validated are ignored.
// `scanned` as for ValidateColumnsDataOfValidStructure below.
// Called from the IPC module, which is another library in shared builds.
ALKAID_EXPORT Status ValidateArrayDataOfValidStructure(const ArrayData& data,
                                                       const ValidateOptions& options,
                                                       const ScannedBuffers* scanned = nullptr);

// The columns of one batch for ValidateColumnsDataOfValidStructure.
struct BatchColumns {
  const ArrayDataPtr* columns = nullptr;
  size_t num_columns = 0;
  // Column i is skipped when it has no nulls and plain[i] != 0 (plain may be
  // null): the caller knows its layout has nothing the data pass reads
  // (fixed-width values, no children, no dictionary).
  const uint8_t* plain = nullptr;
  // Facts about some of the columns' buffers (sealed; may be null or
  // empty), which then need not be read again.
  const ScannedBuffers* scanned = nullptr;
};

// The same for each column of `batch` in turn, with one validator for all (a
// batch of small columns costs little more than one). On failure, *failed is
// the index of the column that failed.
ALKAID_EXPORT Status ValidateColumnsDataOfValidStructure(const BatchColumns& batch,
                                                         const ValidateOptions& options,
                                                         size_t* failed);

}  // namespace alkaid::internal
