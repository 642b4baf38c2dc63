/// @file
/// arrow.parquet.variant: Parquet Variant values, optionally shredded, in a
/// struct whose fields are found by name.
/// Everything here may be called from several threads at once.
#pragma once

#include <memory>
#include <string>

#include "alkaid/extension/parameterless.h"
#include "alkaid/type.h"
#include "alkaid/visibility.h"

namespace alkaid {

/// Extension name of VariantType.
inline constexpr const char* kVariantName = "arrow.parquet.variant";

/// The arrow.parquet.variant extension type: each slot is a Parquet Variant
/// (binary metadata + value), optionally shredded into typed columns.
class ALKAID_EXPORT VariantType final : public ParameterlessExtensionType {
 public:
  /// Checks the storage against the shredding rules (see CheckVariantStorage).
  static Result<std::shared_ptr<VariantType>> Make(DataTypePtr storage_type);
  /// struct<metadata: binary not null, value: binary not null>.
  static std::shared_ptr<VariantType> MakeUnshredded();

  /// kVariantName.
  std::string extension_name() const override { return kVariantName; }

  // Positions of the fields in the storage struct; -1 when absent.

  /// Position of the "metadata" field in the storage struct (always present).
  int metadata_index() const { return metadata_index_; }
  /// Position of the "value" field in the storage struct; -1 when absent.
  int value_index() const { return value_index_; }
  /// Position of the "typed_value" field in the storage struct; -1 when absent.
  int typed_value_index() const { return typed_value_index_; }

 private:
  Result<DataTypePtr> FromStorage(DataTypePtr storage_type) const override {
    return AsDataType(Make(std::move(storage_type)));
  }
  VariantType(DataTypePtr storage, int metadata_index, int value_index, int typed_value_index)
      : ParameterlessExtensionType(std::move(storage)),
        metadata_index_(metadata_index),
        value_index_(value_index),
        typed_value_index_(typed_value_index) {}
  int metadata_index_;
  int value_index_;
  int typed_value_index_;
};

/// Checks that `storage` is a valid arrow.parquet.variant storage struct;
/// the error says which field breaks which rule.
///
/// Fields are matched by name (case-sensitive, any order):
///  - "metadata": non-nullable binary, large_binary or binary_view, possibly
///    dictionary- or run-end-encoded;
///  - at least one of "value" (binary-like) and "typed_value";
///  - typed_value: a primitive of the Variant mapping, or a list / large_list /
///    list_view of non-nullable shredded structs, or a struct whose fields
///    are all non-nullable shredded structs; a shredded struct has "value"
///    and/or "typed_value" following the same rules.
///
/// Any other field name, or a name that appears twice, is an error.
ALKAID_EXPORT Status CheckVariantStorage(const DataType& storage);

}  // namespace alkaid
