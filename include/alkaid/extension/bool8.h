// arrow.bool8: one byte per boolean in int8 storage (0 = false, else true).
#pragma once

#include <memory>
#include <string>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kBool8Name = "arrow.bool8";

class ALKAID_EXPORT Bool8Type final : public ExtensionType {
 public:
  static std::shared_ptr<Bool8Type> Make();

  std::string extension_name() const override { return kBool8Name; }
  std::string Serialize() const override { return ""; }
  // Storage must be int8 and metadata empty.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

 private:
  Bool8Type() : ExtensionType(int8()) {}
};

// arrow.bool8 (or plain int8) -> bool: zero is false, anything else true.
// Nulls are kept; the result starts at offset 0.
ALKAID_EXPORT Result<ArrayDataPtr> Bool8ToBoolean(const ArrayData& data,
                                    MemoryPool* pool = default_memory_pool());
// bool -> arrow.bool8 with true stored as 1. Nulls are kept.
ALKAID_EXPORT Result<ArrayDataPtr> BooleanToBool8(const ArrayData& data,
                                    MemoryPool* pool = default_memory_pool());

}  // namespace alkaid
