/// @file
/// Process-wide registry of extension types, keyed by extension name.
///
/// The IPC and JSON readers ask it for the type named by a field's
/// "ARROW:extension:name" metadata; a name that is not registered leaves the
/// field as its storage type with both metadata keys kept, so unknown
/// extensions pass through unchanged.
///
/// Thread safety: every function here may be called from any thread at any
/// time; lookups run in parallel, registration and removal are serialized.
/// The registry lives until the process ends (it is never destroyed, so
/// readers running during static destruction still find it).
///
/// The canonical arrow.* types are registered by the extension module
/// (RegisterCanonicalExtensionTypes in alkaid/extension.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Field metadata key whose value is the extension name (e.g. "arrow.uuid").
inline constexpr const char* kExtensionNameKey = "ARROW:extension:name";
/// Field metadata key whose value is ExtensionType::Serialize() of the type.
inline constexpr const char* kExtensionMetadataKey = "ARROW:extension:metadata";
/// The Alkaid dialect spells the same keys with its own namespace: this is
/// the name key, the counterpart of kExtensionNameKey.
inline constexpr const char* kAlkaidExtensionNameKey = "ALKAID:extension:name";
/// Alkaid-dialect counterpart of kExtensionMetadataKey.
inline constexpr const char* kAlkaidExtensionMetadataKey = "ALKAID:extension:metadata";

/// Registers a prototype instance under its extension_name(); its
/// Deserialize() builds instances from storage types and metadata.
/// Fails with KeyError if the name is taken, Invalid for a null prototype or
/// an empty name. The registry keeps a reference to the prototype.
ALKAID_EXPORT Status RegisterExtensionType(std::shared_ptr<ExtensionType> prototype);
/// Removes the type registered under `name`; KeyError when none is. Types
/// already built from it stay valid (they are shared, not owned by the registry).
ALKAID_EXPORT Status UnregisterExtensionType(const std::string& name);
/// The registered prototype, or nullptr.
ALKAID_EXPORT std::shared_ptr<ExtensionType> GetExtensionType(const std::string& name);
/// Names of all registered types, sorted; a snapshot that later
/// registrations do not change.
ALKAID_EXPORT std::vector<std::string> RegisteredExtensionNames();

/// Called by readers for a field with extension metadata: returns the
/// extension type when `name` is registered and accepts the storage and
/// metadata, nullptr when the name is unknown (caller keeps storage + keys),
/// and an error when a registered type rejects them. Exceptions thrown by a
/// third-party Deserialize() are turned into an Invalid status here.
/// @param name the value of the extension name key
/// @param storage the field's type as read (must not be null)
/// @param serialized the value of the extension metadata key, "" when absent
ALKAID_EXPORT Result<DataTypePtr> MakeRegisteredExtension(const std::string& name, const DataTypePtr& storage,
                                            const std::string& serialized);

}  // namespace alkaid
