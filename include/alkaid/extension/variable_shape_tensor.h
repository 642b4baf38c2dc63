// arrow.variable_shape_tensor: every slot holds a tensor of its own shape,
// stored as Struct<data: List<value_type>, shape: FixedSizeList<int32>[ndim]>.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/export.h"
#include "alkaid/type.h"

namespace alkaid {

inline constexpr const char* kVariableShapeTensorName = "arrow.variable_shape_tensor";

class ALKAID_EXPORT VariableShapeTensorType final : public ExtensionType {
 public:
  // Checks: ndim >= 0, dim_names empty or ndim long, permutation empty or a
  // permutation of 0..ndim-1, uniform_shape empty or ndim long with sizes >= 0.
  static Result<std::shared_ptr<VariableShapeTensorType>> Make(
      DataTypePtr value_type, int32_t ndim, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {},
      std::vector<std::optional<int64_t>> uniform_shape = {});
  // Same checks against a given storage, which must be a struct with exactly
  // the fields "data" (List) and "shape" (FixedSizeList<int32>); ndim is the
  // shape field's list size.
  static Result<std::shared_ptr<VariableShapeTensorType>> MakeFromStorage(
      DataTypePtr storage_type, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {},
      std::vector<std::optional<int64_t>> uniform_shape = {});

  std::string extension_name() const override { return kVariableShapeTensorName; }
  // "" without parameters, else a JSON object with the parameters that are set.
  std::string Serialize() const override;
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  bool ExtensionEquals(const ExtensionType& other) const override;

  const DataTypePtr& value_type() const;
  int32_t ndim() const { return ndim_; }
  const std::vector<int64_t>& permutation() const { return permutation_; }
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  // Empty when not given; else one entry per dimension, nullopt = not uniform.
  const std::vector<std::optional<int64_t>>& uniform_shape() const { return uniform_shape_; }
  // Positions of the "data" and "shape" fields in the storage struct.
  int data_field_index() const { return data_index_; }
  int shape_field_index() const { return shape_index_; }

 private:
  VariableShapeTensorType(DataTypePtr storage, int32_t ndim, int data_index, int shape_index,
                          std::vector<int64_t> permutation, std::vector<std::string> dim_names,
                          std::vector<std::optional<int64_t>> uniform_shape);

  int32_t ndim_;
  int data_index_;
  int shape_index_;
  std::vector<int64_t> permutation_;
  std::vector<std::string> dim_names_;
  std::vector<std::optional<int64_t>> uniform_shape_;
};

// One slot of a variable shape tensor array.
struct ALKAID_EXPORT VariableTensorView {
  DataTypePtr value_type;
  // First element as an index into the data list's child array (its own
  // offset not included).
  int64_t element_offset = 0;
  int64_t num_elements = 0;
  // Address of the first element for fixed-width value types, else nullptr.
  const uint8_t* data = nullptr;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // bytes; empty when not byte addressable
  std::vector<int64_t> logical_shape;
};

class ALKAID_EXPORT VariableShapeTensorArray {
 public:
  static Result<VariableShapeTensorArray> Make(ArrayDataPtr data);

  const VariableShapeTensorType& tensor_type() const { return *type_; }
  int64_t length() const { return data_->length; }
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  // Shape of slot i (which must be non-null and hold a non-null shape).
  Result<std::vector<int64_t>> GetShape(int64_t i) const;
  Result<VariableTensorView> GetTensor(int64_t i) const;
  // Every non-null slot: shape present with sizes >= 0, element count equal
  // to the product of the shape, uniform dimensions equal to uniform_shape.
  // Assumes the storage passed structural validation.
  Status ValidateFull() const;

 private:
  VariableShapeTensorArray(ArrayDataPtr data, std::shared_ptr<const VariableShapeTensorType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const VariableShapeTensorType> type_;
};

}  // namespace alkaid
