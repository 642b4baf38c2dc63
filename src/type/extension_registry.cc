// STUB: replaced by the extension work.
#include "alkaid/extension_registry.h"
namespace alkaid {
Status RegisterExtensionType(std::shared_ptr<ExtensionType>) { return Status::NotImplemented("registry"); }
Status UnregisterExtensionType(const std::string&) { return Status::NotImplemented("registry"); }
std::shared_ptr<ExtensionType> GetExtensionType(const std::string&) { return nullptr; }
std::vector<std::string> RegisteredExtensionNames() { return {}; }
Result<DataTypePtr> MakeRegisteredExtension(const std::string&, const DataTypePtr&, const std::string&) { return DataTypePtr(); }
}  // namespace alkaid
