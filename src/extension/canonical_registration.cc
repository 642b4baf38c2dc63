// Registers the canonical arrow.* extension types with the process registry.
#include <mutex>

#include "alkaid/extension/api.h"

namespace alkaid {

namespace {

// Prototypes only serve Deserialize(); their own parameters are irrelevant.
std::vector<std::shared_ptr<ExtensionType>> CanonicalPrototypes() {
  std::vector<std::shared_ptr<ExtensionType>> prototypes;
  prototypes.push_back(FixedShapeTensorType::Make(float32(), {1}).ValueOrDie());
  prototypes.push_back(VariableShapeTensorType::Make(float32(), 1).ValueOrDie());
  prototypes.push_back(JsonExtensionType::Make(utf8()).ValueOrDie());
  prototypes.push_back(UuidType::Make());
  prototypes.push_back(OpaqueType::Make(null(), "", "").ValueOrDie());
  prototypes.push_back(Bool8Type::Make());
  prototypes.push_back(VariantType::MakeUnshredded());
  prototypes.push_back(TimestampWithOffsetType::Make(TimeUnit::kMicro));
  return prototypes;
}

}  // namespace

void RegisterCanonicalExtensionTypes() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (auto& prototype : CanonicalPrototypes()) {
      // A name already taken (e.g. a user's own arrow.json registered
      // earlier) is left to its owner.
      (void)RegisterExtensionType(std::move(prototype));
    }
  });
}

}  // namespace alkaid
