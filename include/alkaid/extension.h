/// @file
/// Canonical Arrow extension types (the arrow.* names of the Arrow
/// specification) and array-level checks that go beyond storage validation.
/// Including this header brings in every canonical type and the registry.
#pragma once

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/extension/bool8.h"
#include "alkaid/extension/fixed_shape_tensor.h"
#include "alkaid/extension/json.h"
#include "alkaid/extension/opaque.h"
#include "alkaid/extension/timestamp_with_offset.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/extension/variable_shape_tensor.h"
#include "alkaid/extension/variant.h"
#include "alkaid/extension_registry.h"

namespace alkaid {

/// Semantic checks of canonical extension arrays anywhere in `data` (the
/// array itself, its children and dictionaries): tensor element counts and
/// shapes, JSON text, timestamp offsets. Extension types of other names pass.
/// Call after ValidateArrayFull succeeded: buffers are trusted to be large
/// enough. Errors name the extension, the child path and the slot.
/// Reads `data` only; may run concurrently with other readers of it.
ALKAID_EXPORT Status ValidateExtensionArray(const ArrayData& data);

/// Registers every canonical arrow.* extension type with the process registry
/// (extension_registry.h). Idempotent and thread-safe: the first call
/// registers, later ones (from any thread, at once or after) return at once.
/// The IPC, C Data and integration JSON readers call it before they consult
/// the registry, so an application needs to call it only to look the types
/// up itself. Types an application registered under a canonical name first
/// are kept.
ALKAID_EXPORT void RegisterCanonicalExtensionTypes();

}  // namespace alkaid
