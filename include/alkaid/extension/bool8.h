/// @file
/// arrow.bool8: one byte per boolean in int8 storage (0 = false, else true).
/// Everything here may be called from several threads at once.
#pragma once

#include <memory>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Extension name of Bool8Type.
inline constexpr const char* kBool8Name = "arrow.bool8";

/// The arrow.bool8 extension type: booleans stored one per byte in int8.
/// Parameterless; every instance is equal to every other.
class ALKAID_EXPORT Bool8Type final : public ExtensionType {
 public:
  /// An arrow.bool8 type over int8 storage.
  static std::shared_ptr<Bool8Type> Make();

  /// kBool8Name.
  std::string extension_name() const override { return kBool8Name; }
  /// "": the type has no parameters.
  std::string Serialize() const override { return ""; }
  /// Storage must be int8 and metadata empty.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  /// True for any other arrow.bool8 type (there are no parameters).
  bool ExtensionEquals(const ExtensionType& other) const override;

 private:
  Bool8Type() : ExtensionType(int8()) {}
};

/// arrow.bool8 (or plain int8) -> bool: zero is false, anything else true.
/// Nulls are kept; the result starts at offset 0. TypeError for any other
/// input type; allocation failures are returned as an error status.
/// @param data the array to convert (not modified)
/// @param pool where the result's buffers are allocated
ALKAID_EXPORT Result<ArrayDataPtr> Bool8ToBoolean(const ArrayData& data,
                                    MemoryPool* pool = default_memory_pool());
/// bool -> arrow.bool8 with true stored as 1. Nulls are kept. TypeError
/// when `data` is not a bool array.
/// @param data the bool array to convert (not modified)
/// @param pool where the result's buffers are allocated
ALKAID_EXPORT Result<ArrayDataPtr> BooleanToBool8(const ArrayData& data,
                                    MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
