// STUB: replaced by the extension work.
#include "alkaid/extension_registry.h"
namespace alkaid {
void RegisterCanonicalExtensionTypes() {}
}  // namespace alkaid
