/// @file
/// ExtensionBuilder: arrays of an extension type, built through a builder of
/// its storage type.
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include <cstdint>
#include <string_view>

#include "alkaid/builder/base.h"
#include "alkaid/status.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// An extension type over a builder of its storage type; the finished array
/// carries the extension type.
/// Every append goes straight to storage_builder().
class ALKAID_EXPORT ExtensionBuilder final : public ArrayBuilder {
 public:
  /// A builder of `type` (an extension type) that owns `storage_builder`, which
  /// must build the extension's storage type.
  ExtensionBuilder(DataTypePtr type, ArrayBuilderPtr storage_builder,
                   MemoryPool* pool = default_memory_pool());

  /// Builder of the storage array; append the values here with its typed methods.
  ArrayBuilder* storage_builder() const { return children_[0].get(); }
  /// Slots appended to the storage builder.
  int64_t length() const override { return storage_builder()->length(); }
  /// Nulls appended to the storage builder.
  int64_t null_count() const override { return storage_builder()->null_count(); }
  Status AppendNulls(int64_t n) override { return storage_builder()->AppendNulls(n); }
  Status AppendEmptyValues(int64_t n) override { return storage_builder()->AppendEmptyValues(n); }
  Status AppendValueBytes(std::string_view bytes) override {
    return storage_builder()->AppendValueBytes(bytes);
  }

 protected:
  Status FinishInto(ArrayData* out) override;
};

}  // namespace alkaid
