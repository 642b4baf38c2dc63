/// @file
/// ExtensionType, the base of user and canonical extension types: a storage
/// type plus a name and serialized parameters. The canonical types are in
/// alkaid/extension/; the registry that finds them by name is in
/// alkaid/extension_registry.h.
///
/// Threads: implementations must be immutable and callable from several threads at once.
#pragma once

#include <string>

#include "alkaid/status.h"
#include "alkaid/type/data_type.h"
#include "alkaid/type/type_id.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// An extension type: a storage type plus a name and serialized parameters.
/// Concrete extension types derive from this; see alkaid/extension_registry.h
/// for the registry that turns IPC field metadata into extension types, and
/// alkaid/extension/api.h for the canonical ones.
///
/// Arrays of an extension type have exactly the layout of the storage type.
/// Implementations must be immutable and their virtual functions callable
/// from several threads at once; they must not throw (exceptions thrown by
/// Deserialize are caught by the registry, but nowhere else).
class ALKAID_EXPORT ExtensionType : public DataType {
 public:
  static constexpr TypeId type_id = TypeId::kExtension;  ///< Compile-time id.
  /// An extension over `storage_type` (must not be null).
  explicit ExtensionType(DataTypePtr storage_type)
      : DataType(type_id), storage_type_(std::move(storage_type)) {}

  /// The type the values are physically stored as.
  const DataTypePtr& storage_type() const { return storage_type_; }
  /// The registered name, written as "ARROW:extension:name" (e.g. "arrow.uuid").
  virtual std::string extension_name() const = 0;
  /// The value of the extension metadata key.
  virtual std::string Serialize() const = 0;
  /// Builds an instance of this extension type from storage and metadata.
  /// Called on the registered prototype with untrusted input: must return
  /// an error status, never crash, for a storage type or metadata it does
  /// not accept.
  virtual Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                          const std::string& serialized) const = 0;
  /// Equality of extension parameters (storage and name are checked already).
  /// The default compares Serialize() strings.
  virtual bool ExtensionEquals(const ExtensionType& other) const;

  /// "extension".
  std::string name() const override { return "extension"; }
  /// "extension<name, storage=storage type>".
  std::string ToString() const override;
  /// The storage type's layout.
  DataTypeLayout ComputeLayout() const override { return storage_type_->layout(); }
  /// The storage type's width.
  int bit_width() const override { return storage_type_->bit_width(); }

 protected:
  /// Compares extension name, storage type and ExtensionEquals().
  bool ParamsEqual(const DataType& other) const override;

 private:
  DataTypePtr storage_type_;
};

}  // namespace alkaid
