/// @file
/// Array-level checks of the canonical extension types that go beyond validating their
/// storage: tensor element counts and shapes, JSON text, timestamp offsets.
///
/// Threads: ValidateExtensionArray only reads its argument; any number of threads may call it.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/status.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Semantic checks of canonical extension arrays anywhere in `data` (the
/// array itself, its children and dictionaries): tensor element counts and
/// shapes, JSON text, timestamp offsets. Extension types of other names pass.
/// Call after ValidateArrayFull succeeded: buffers are trusted to be large
/// enough. Errors name the extension, the child path and the slot.
/// Reads `data` only; may run concurrently with other readers of it.
ALKAID_EXPORT Status ValidateExtensionArray(const ArrayData& data);

}  // namespace alkaid
