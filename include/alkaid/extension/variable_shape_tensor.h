/// @file
/// arrow.variable_shape_tensor: every slot holds a tensor of its own shape,
/// stored as Struct<data: List<value_type>, shape: FixedSizeList<int32>[ndim]>.
///
/// Types and VariableShapeTensorArray are immutable: every function here may
/// be called from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Extension name of VariableShapeTensorType.
inline constexpr const char* kVariableShapeTensorName = "arrow.variable_shape_tensor";

/// The arrow.variable_shape_tensor extension type: number of dimensions,
/// optional permutation, dimension names and uniform (fixed) dimensions.
class ALKAID_EXPORT VariableShapeTensorType final : public ExtensionType {
 public:
  /// Checks: ndim >= 0, dim_names empty or ndim long, permutation empty or a
  /// permutation of 0..ndim-1, uniform_shape empty or ndim long with sizes >= 0.
  /// Invalid otherwise. The storage is built from `value_type` and `ndim`.
  /// @param value_type element type (must not be null)
  /// @param ndim number of dimensions of every tensor
  /// @param permutation logical-to-physical dimension order; empty = identity
  /// @param dim_names logical dimension names; empty = unnamed
  /// @param uniform_shape per dimension, the size every tensor has, or
  ///        nullopt when it varies; empty = nothing uniform
  static Result<std::shared_ptr<VariableShapeTensorType>> Make(
      DataTypePtr value_type, int32_t ndim, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {},
      std::vector<std::optional<int64_t>> uniform_shape = {});
  /// Same checks against a given storage, which must be a struct with exactly
  /// the fields "data" (List) and "shape" (FixedSizeList<int32>); ndim is the
  /// shape field's list size.
  static Result<std::shared_ptr<VariableShapeTensorType>> MakeFromStorage(
      DataTypePtr storage_type, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {},
      std::vector<std::optional<int64_t>> uniform_shape = {});

  /// kVariableShapeTensorName.
  std::string extension_name() const override { return kVariableShapeTensorName; }
  /// "" without parameters, else a JSON object with the parameters that are set.
  std::string Serialize() const override;
  /// Parses the JSON metadata ("" allowed) and checks it against the storage
  /// as MakeFromStorage does.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  /// Same ndim, dim_names and uniform_shape, and the same permutation (an
  /// empty one equals the identity).
  bool ExtensionEquals(const ExtensionType& other) const override;

  /// Element type (the value type of the "data" list).
  const DataTypePtr& value_type() const;
  /// Number of dimensions of every tensor.
  int32_t ndim() const { return ndim_; }
  /// Logical-to-physical dimension order. Empty when not given.
  const std::vector<int64_t>& permutation() const { return permutation_; }
  /// Names of the logical dimensions. Empty when not given.
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  /// Empty when not given; else one entry per dimension, nullopt = not uniform.
  const std::vector<std::optional<int64_t>>& uniform_shape() const { return uniform_shape_; }
  // Positions of the "data" and "shape" fields in the storage struct.

  /// Position of the "data" field in the storage struct.
  int data_field_index() const { return data_index_; }
  /// Position of the "shape" field in the storage struct.
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

/// One slot of a variable shape tensor array. `data` points into the
/// array's buffers: valid only while the array is alive.
struct ALKAID_EXPORT VariableTensorView {
  DataTypePtr value_type;  ///< Element type.
  /// First element as an index into the data list's child array (its own
  /// offset not included).
  int64_t element_offset = 0;
  int64_t num_elements = 0;  ///< Elements in the slot's data list.
  /// Address of the first element for fixed-width value types, else nullptr.
  const uint8_t* data = nullptr;
  std::vector<int64_t> shape;    ///< Physical (row-major) shape of this slot.
  std::vector<int64_t> strides;  ///< Row-major strides in bytes; empty when not byte addressable.
  std::vector<int64_t> logical_shape;  ///< Shape in logical dimension order (permuted).
};

/// Read access to an array whose type is VariableShapeTensorType. Shares
/// (does not copy) the array data; slot indices count from the array's
/// logical start.
class ALKAID_EXPORT VariableShapeTensorArray {
 public:
  /// Wraps `data`: TypeError unless its type is arrow.variable_shape_tensor,
  /// Invalid when the storage arrays lack their children. Assumes the array
  /// passed structural validation.
  static Result<VariableShapeTensorArray> Make(ArrayDataPtr data);

  /// The array's extension type.
  const VariableShapeTensorType& tensor_type() const { return *type_; }
  /// Number of slots (tensors).
  int64_t length() const { return data_->length; }
  /// Whether slot i is null. Precondition: 0 <= i < length() (not checked).
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  /// Shape of slot i (which must be non-null and hold a non-null shape).
  /// IndexError outside [0, length()), Invalid for a null slot, a null or
  /// negative dimension.
  Result<std::vector<int64_t>> GetShape(int64_t i) const;
  /// The tensor in slot i, with the errors of GetShape plus Invalid for a
  /// null data list. Does not check that the element count matches the
  /// shape; run ValidateFull once for that.
  Result<VariableTensorView> GetTensor(int64_t i) const;
  /// Every non-null slot: shape present with sizes >= 0, element count equal
  /// to the product of the shape, uniform dimensions equal to uniform_shape.
  /// Assumes the storage passed structural validation. The error names the
  /// first failing slot.
  Status ValidateFull() const;

 private:
  VariableShapeTensorArray(ArrayDataPtr data, std::shared_ptr<const VariableShapeTensorType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const VariableShapeTensorType> type_;
};

}  // namespace alkaid
