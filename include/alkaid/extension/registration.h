/// @file
/// Registration of the canonical extension types (the arrow.* names) with the process
/// registry of alkaid/extension_registry.h.
///
/// Threads: RegisterCanonicalExtensionTypes may be called from any number of threads.
#pragma once

#include "alkaid/visibility.h"

namespace alkaid {

/// Registers every canonical arrow.* extension type with the process registry
/// (extension_registry.h). Idempotent and thread-safe: the first call
/// registers, later ones (from any thread, at once or after) return at once.
/// The IPC, C Data and integration JSON readers call it before they consult
/// the registry, so an application needs to call it only to look the types
/// up itself. Types an application registered under a canonical name first
/// are kept.
ALKAID_EXPORT void RegisterCanonicalExtensionTypes();

}  // namespace alkaid
