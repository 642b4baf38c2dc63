/// @file
/// arrow.fixed_shape_tensor: every slot holds a tensor of one fixed shape,
/// stored row-major in a FixedSizeList<value_type>[product(shape)].
///
/// Types and FixedShapeTensorArray are immutable: every function here may be
/// called from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "alkaid/array_data.h"
#include "alkaid/visibility.h"
#include "alkaid/type.h"

namespace alkaid {

/// Extension name of FixedShapeTensorType.
inline constexpr const char* kFixedShapeTensorName = "arrow.fixed_shape_tensor";

/// The arrow.fixed_shape_tensor extension type: shape, optional
/// permutation and optional dimension names over FixedSizeList storage.
class ALKAID_EXPORT FixedShapeTensorType final : public ExtensionType {
 public:
  /// Checks every parameter: shape dims >= 0 with a product that fits a
  /// FixedSizeList size, dim_names empty or one per dimension, permutation
  /// empty or a permutation of 0..ndim-1. Invalid (CapacityError for a too
  /// large product) otherwise; the storage is built from `value_type`.
  /// @param value_type element type (must not be null)
  /// @param shape physical (row-major) dimensions
  /// @param permutation logical-to-physical dimension order; empty = identity
  /// @param dim_names logical dimension names; empty = unnamed
  static Result<std::shared_ptr<FixedShapeTensorType>> Make(
      DataTypePtr value_type, std::vector<int64_t> shape, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {});
  /// Same checks, plus the storage must be a FixedSizeList whose size is the
  /// product of `shape`.
  static Result<std::shared_ptr<FixedShapeTensorType>> MakeFromStorage(
      DataTypePtr storage_type, std::vector<int64_t> shape, std::vector<int64_t> permutation = {},
      std::vector<std::string> dim_names = {});

  /// kFixedShapeTensorName.
  std::string extension_name() const override { return kFixedShapeTensorName; }
  /// {"shape":[...]} plus "dim_names" and "permutation" when set.
  std::string Serialize() const override;
  /// Parses the JSON metadata ("shape" required) and checks it against the
  /// storage as MakeFromStorage does.
  Result<DataTypePtr> Deserialize(DataTypePtr storage_type,
                                  const std::string& serialized) const override;
  /// Same shape and dim_names, and the same permutation (an empty one equals
  /// the identity).
  bool ExtensionEquals(const ExtensionType& other) const override;

  /// Element type (the FixedSizeList's value type).
  const DataTypePtr& value_type() const;
  /// Elements per tensor: the product of shape().
  int32_t list_size() const;
  /// Number of dimensions.
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// Physical (row-major) shape.
  const std::vector<int64_t>& shape() const { return shape_; }
  /// Logical-to-physical dimension order. Empty when not given.
  const std::vector<int64_t>& permutation() const { return permutation_; }
  /// Names of the logical dimensions. Empty when not given.
  const std::vector<std::string>& dim_names() const { return dim_names_; }
  /// Logical dimension i is physical dimension permutation[i].
  std::vector<int64_t> logical_shape() const;
  /// Row-major strides in bytes of the physical layout; empty when the value
  /// type is not a whole number of bytes wide (e.g. bool, strings).
  std::vector<int64_t> strides() const;

 private:
  FixedShapeTensorType(DataTypePtr storage, std::vector<int64_t> shape,
                       std::vector<int64_t> permutation, std::vector<std::string> dim_names);

  std::vector<int64_t> shape_;
  std::vector<int64_t> permutation_;
  std::vector<std::string> dim_names_;
};

/// One slot of a fixed shape tensor array seen as a tensor. `data` points
/// into the array's buffers: valid only while the array is alive.
struct ALKAID_EXPORT TensorView {
  DataTypePtr value_type;  ///< Element type.
  /// First element of the tensor as an index into the storage child array
  /// (the child's own offset not included).
  int64_t element_offset = 0;
  int64_t num_elements = 0;  ///< Elements in the tensor (product of shape).
  /// Address of the first element for fixed-width value types, else nullptr.
  const uint8_t* data = nullptr;
  std::vector<int64_t> shape;    ///< Physical (row-major) shape.
  std::vector<int64_t> strides;  ///< Physical strides in bytes; empty when not byte addressable.
  std::vector<int64_t> logical_shape;    ///< Shape in logical dimension order (permuted).
  std::vector<int64_t> logical_strides;  ///< strides in logical order; empty like strides.
};

/// Read access to an array whose type is FixedShapeTensorType. Shares (does
/// not copy) the array data; slot indices count from the array's logical start.
class ALKAID_EXPORT FixedShapeTensorArray {
 public:
  /// Fails unless data's type is arrow.fixed_shape_tensor with FixedSizeList
  /// storage (TypeError for another type, Invalid for a missing child).
  /// Assumes the array passed structural validation.
  static Result<FixedShapeTensorArray> Make(ArrayDataPtr data);

  /// The array's extension type.
  const FixedShapeTensorType& tensor_type() const { return *type_; }
  /// Number of slots (tensors).
  int64_t length() const { return data_->length; }
  /// Whether slot i is null. Precondition: 0 <= i < length() (not checked).
  bool IsNull(int64_t i) const { return data_->IsNull(i); }
  /// The tensor in slot i (0 <= i < length; IndexError otherwise). A null
  /// slot still yields the view of its (unspecified) storage.
  Result<TensorView> GetTensor(int64_t i) const;

 private:
  FixedShapeTensorArray(ArrayDataPtr data, std::shared_ptr<const FixedShapeTensorType> type)
      : data_(std::move(data)), type_(std::move(type)) {}
  ArrayDataPtr data_;
  std::shared_ptr<const FixedShapeTensorType> type_;
};

/// Row-major strides in bytes for a shape and element width: the last
/// dimension has stride `byte_width`, each earlier one the next stride times
/// the next dimension. No overflow check; shapes come from checked types.
ALKAID_EXPORT std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape, int64_t byte_width);

}  // namespace alkaid
