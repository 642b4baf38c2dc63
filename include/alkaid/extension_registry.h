// Process-wide registry of extension types, keyed by extension name.
//
// The IPC and JSON readers ask it for the type named by a field's
// "ARROW:extension:name" metadata; a name that is not registered leaves the
// field as its storage type with both metadata keys kept, so unknown
// extensions pass through unchanged.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kExtensionNameKey = "ARROW:extension:name";
inline constexpr const char* kExtensionMetadataKey = "ARROW:extension:metadata";
// The Alkaid dialect spells the same keys with its own namespace.
inline constexpr const char* kAlkaidExtensionNameKey = "ALKAID:extension:name";
inline constexpr const char* kAlkaidExtensionMetadataKey = "ALKAID:extension:metadata";

// Registers a prototype instance; its Deserialize() builds instances from
// storage types and metadata. Fails if the name is taken.
ALKAID_EXPORT Status RegisterExtensionType(std::shared_ptr<ExtensionType> prototype);
ALKAID_EXPORT Status UnregisterExtensionType(const std::string& name);
// The registered prototype, or nullptr.
ALKAID_EXPORT std::shared_ptr<ExtensionType> GetExtensionType(const std::string& name);
ALKAID_EXPORT std::vector<std::string> RegisteredExtensionNames();

// Called by readers for a field with extension metadata: returns the
// extension type when `name` is registered and accepts the storage and
// metadata, nullptr when the name is unknown (caller keeps storage + keys),
// and an error when a registered type rejects them.
ALKAID_EXPORT Result<DataTypePtr> MakeRegisteredExtension(const std::string& name, const DataTypePtr& storage,
                                            const std::string& serialized);

// Registers every canonical arrow.* extension type (idempotent). Implemented
// by the extension module; readers call it once before consulting the registry.
ALKAID_EXPORT void RegisterCanonicalExtensionTypes();

}  // namespace alkaid
