/// @file
/// Base of the canonical extension types whose only parameters, if any, live
/// in their storage type (arrow.uuid, arrow.parquet.variant,
/// arrow.timestamp_with_offset): their metadata is always empty and two
/// instances with the same name are equal apart from the storage.
#pragma once

#include <memory>
#include <string>

#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// An extension type without serialized parameters. Thread safety: like every
/// DataType, immutable once made; any method may be called from several threads.
class ALKAID_EXPORT ParameterlessExtensionType : public ExtensionType {
 public:
  /// "": the type has no serialized parameters.
  std::string Serialize() const override { return ""; }
  /// Metadata must be empty; the storage is checked as MakeFromStorage of the
  /// derived type does.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const final;
  /// True for any other type of the same extension name (the storage, where
  /// any parameter lives, is compared separately).
  bool ExtensionEquals(const ExtensionType& other) const final;

 protected:
  using ExtensionType::ExtensionType;
  /// The derived type over `storage_type`, or why that storage does not fit.
  virtual Result<DataTypePtr> FromStorage(DataTypePtr storage_type) const = 0;
  /// A derived type's factory result as the DataTypePtr FromStorage returns.
  template <typename T>
  static Result<DataTypePtr> AsDataType(Result<std::shared_ptr<T>> made) {
    if (!made.ok()) return made.status();
    return DataTypePtr(made.MoveValueUnsafe());
  }
};

}  // namespace alkaid
