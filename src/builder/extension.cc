// ExtensionBuilder: the storage builder's data under the extension type.
#include "alkaid/builder/extension.h"

namespace alkaid {

ExtensionBuilder::ExtensionBuilder(DataTypePtr type, ArrayBuilderPtr storage_builder,
                                   MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool) {
  children_.push_back(std::move(storage_builder));
}

Status ExtensionBuilder::FinishInto(ArrayData* out) {
  ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr storage, storage_builder()->Finish());
  // Same buffers and children, viewed through the extension type.
  DataTypePtr type = std::move(out->type);
  *out = std::move(*storage);
  out->type = std::move(type);
  return Status::OK();
}

}  // namespace alkaid
