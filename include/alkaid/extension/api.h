/// @file
/// The extension module (alkaid::extension) in one include: every canonical Arrow
/// extension type (the arrow.* names of the Arrow specification), their array-level
/// checks (alkaid/extension/validate.h), RegisterCanonicalExtensionTypes()
/// (alkaid/extension/registration.h), and the registry that maps extension names to
/// types (alkaid/extension_registry.h, part of core). ExtensionType itself, the base of
/// every extension type, is core: alkaid/type/extension.h.
///
/// Threads: see each header.
#pragma once

#include "alkaid/extension/bool8.h"
#include "alkaid/extension/fixed_shape_tensor.h"
#include "alkaid/extension/json.h"
#include "alkaid/extension/opaque.h"
#include "alkaid/extension/parameterless.h"
#include "alkaid/extension/registration.h"
#include "alkaid/extension/timestamp_with_offset.h"
#include "alkaid/extension/uuid.h"
#include "alkaid/extension/validate.h"
#include "alkaid/extension/variable_shape_tensor.h"
#include "alkaid/extension/variant.h"
#include "alkaid/extension_registry.h"
