// Process-wide extension type registry.
//
// Readers consult it for every field carrying extension metadata, usually
// from several threads at once, while registration is rare: a shared_mutex
// lets lookups proceed in parallel and serializes only the writers.
#include "alkaid/extension_registry.h"

#include <exception>
#include <map>
#include <mutex>
#include <shared_mutex>

namespace alkaid {
namespace {

class ExtensionRegistry {
 public:
  static ExtensionRegistry& Instance() {
    // Leaked on purpose: readers may still run during static destruction.
    static ExtensionRegistry* instance = new ExtensionRegistry();
    return *instance;
  }

  Status Register(std::shared_ptr<ExtensionType> prototype) {
    if (prototype == nullptr) return Status::Invalid("cannot register a null extension type");
    std::string name = prototype->extension_name();
    if (name.empty())
      return Status::Invalid("cannot register an extension type with an empty name");
    std::unique_lock lock(mutex_);
    auto [it, inserted] = types_.emplace(name, std::move(prototype));
    if (!inserted) {
      return Status::KeyError("extension type '", name, "' is already registered");
    }
    return Status::OK();
  }

  Status Unregister(const std::string& name) {
    std::unique_lock lock(mutex_);
    if (types_.erase(name) == 0) {
      return Status::KeyError("extension type '", name, "' is not registered");
    }
    return Status::OK();
  }

  std::shared_ptr<ExtensionType> Get(const std::string& name) const {
    std::shared_lock lock(mutex_);
    auto it = types_.find(name);
    return it == types_.end() ? nullptr : it->second;
  }

  std::vector<std::string> Names() const {
    std::shared_lock lock(mutex_);
    std::vector<std::string> names;
    names.reserve(types_.size());
    for (const auto& entry : types_) names.push_back(entry.first);
    return names;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::map<std::string, std::shared_ptr<ExtensionType>, std::less<>> types_;
};

}  // namespace

Status RegisterExtensionType(std::shared_ptr<ExtensionType> prototype) {
  return ExtensionRegistry::Instance().Register(std::move(prototype));
}

Status UnregisterExtensionType(const std::string& name) {
  return ExtensionRegistry::Instance().Unregister(name);
}

std::shared_ptr<ExtensionType> GetExtensionType(const std::string& name) {
  return ExtensionRegistry::Instance().Get(name);
}

std::vector<std::string> RegisteredExtensionNames() {
  return ExtensionRegistry::Instance().Names();
}

Result<DataTypePtr> MakeRegisteredExtension(const std::string& name, const DataTypePtr& storage,
                                            const std::string& serialized) {
  std::shared_ptr<ExtensionType> prototype = GetExtensionType(name);
  if (prototype == nullptr) return DataTypePtr();
  if (storage == nullptr) {
    return Status::Invalid("extension type '", name, "' needs a storage type");
  }
  Result<DataTypePtr> made = Status::UnknownError("unset");
  // Third-party types may be written with exceptions; none may leave here.
  try {
    made = prototype->Deserialize(storage, serialized);
  } catch (const std::exception& e) {
    return Status::Invalid("extension type '", name, "' failed to deserialize: ", e.what());
  } catch (...) {
    return Status::Invalid("extension type '", name, "' failed to deserialize");
  }
  if (!made.ok()) return made.status();
  if (*made == nullptr) {
    return Status::Invalid("extension type '", name, "' deserialized to a null type");
  }
  return made;
}

}  // namespace alkaid
